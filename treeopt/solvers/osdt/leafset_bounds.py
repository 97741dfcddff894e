"""Lower bounds for the non-additive objectives (F-score, AUC, partial AUC) on partial trees.

A partial tree of the leaf-set search (:mod:`treeopt.solvers.osdt.search`) has
*fixed* leaves, which stay leaves in every descendant, and *split* leaves,
whose rows any descendant partitions further. For an additive loss the
fixed leaves' losses simply add up (OSDT Theorem 1); for F-score and the
rank statistics the loss of a tree is a function of all its leaves at once,
so the bounds below are computed from the fixed leaves' class counts and
what is known about the rows under the split leaves. All functions return
*losses in objective units* (without the λ × leaves term), for binary
objectives whose class index 1 is the positive class; ``objective`` is an
object with ``name``, ``tree_loss`` and ``leaf_predictions`` (see
:mod:`treeopt.objectives`).

Hierarchical bound (GOSDT Theorems 2.1, 2.2 for AUC; Theorem B.1 for F1)
    The best any descendant can do with the split rows is to separate them
    into pure leaves: one leaf with every split positive (ranked first,
    labelled positive) and one with every split negative (ranked last,
    labelled negative). For the ROC convex hull this dominates every
    partition of those rows pointwise (each ROC point of a partition is
    matched by one with at least as many true and at most as many false
    positives), so the AUC and the partial AUC are bounded; for F1 the
    split rows then add no error and the loss is monotone in FP and FN. So
    the bound is ``tree_loss`` of the fixed leaves plus the two pure leaves.

Equivalent points bound (GOSDT Theorem C.3 for AUC and partial AUC; F1 below)
    Rows with identical features stay together in every descendant, so the
    finest partition any descendant reaches is one leaf per equivalence
    class: ``tree_loss`` of the fixed leaves plus the split rows' classes
    as leaves (pure classes merged into the two pure leaves, which leaves
    the hull unchanged). GOSDT implements this for AUC only; the pointwise
    dominance argument above covers the partial AUC too. For F1 each
    impure class ends up in a leaf labelled 0 (its positives become false
    negatives) or 1 (its negatives become false positives), so it adds at
    least ``min(n⁺, n⁻)`` errors. ``(FP + FN) / (2N⁺ + FP − FN)`` grows in
    both FP and FN and, for a fixed number of errors, is smallest when they
    are false positives; the bound charges them all as false positives.
    (Appendix B's Theorem B.9 charges each class's minority to FP or FN by
    its label, which is not a valid bound for an asymmetric loss such as F1:
    a class whose minority is negative may still be labelled negative.)

Split gain bound (GOSDT Theorem C.2 for AUC; Theorem B.6 for F1)
    Replacing a leaf by any subtree changes the loss by at most what making
    the leaf pure would (the dominance argument again), whatever the other
    leaves are. For the AUC hull, making leaf ``j`` pure gains
    ``(n_j⁺ · negatives ranked above j + n_j⁻ · positives ranked below j
    + n_j⁺ n_j⁻ / 2) / (N⁺ N⁻)``, at most ``(n_j⁺ (N⁻ − n_j⁻) + n_j⁻ (N⁺ −
    n_j⁺) + n_j⁺ n_j⁻ / 2) / (N⁺ N⁻)``; the partial AUC up to θ gains at
    most the AUC's gain divided by θ (the new hull lies above the old one
    everywhere, so its extra area left of θ is at most its extra area). For
    F1 a leaf labelled positive can remove at most its ``n⁻`` false
    positives, worth at most ``n⁻ / (2N⁺ + n⁻)``; one labelled negative at
    most its ``n⁺`` false negatives, worth at most ``2n⁺ / (N⁺ + n⁺)``
    (maximising the loss difference over the other leaves' errors). A leaf
    whose gain bound is at most λ is never split: the subtree would cost at
    least λ more than it saves (the rank-statistic form of Theorem C.2,
    made independent of the other leaves so that it holds in every
    descendant).

One split left (the ``one_split_left`` switch)
    A split leaf one level above the depth budget is split exactly once in
    every descendant, into the two leaves of one of its splits (its
    *options*). The pure-leaf case of the hierarchical bound is then
    replaced by the best these options allow.

    For the ROC hull (AUC and partial AUC) take, over the options, the side
    with the higher positive fraction (the side ranked first), and build
    the virtual side ``a* = (min n⁻, max n⁺)`` over those sides, its
    sibling ``b*`` getting the leaf's other rows. Relative to any option,
    ``a*`` holds more positives and fewer negatives: moving positives up the
    ranking and negatives down it moves every vertex of the tree's hull up
    or left (the vertices are prefixes of the ranking, which hold the
    first side whenever they hold the second), and the hull of the virtual
    tree lies on or above every such point. So the virtual pair's hull
    bounds the AUC and the partial AUC of every descendant: the argument
    of GOSDT Lemma C.1 and Theorem 2.1 (and C.3 for the other split
    leaves' equivalence classes), with the hypothetical pure leaves
    replaced by the virtual pair. For F1 (Theorem B.1's argument) each
    option brings known false positives and negatives, so a descendant has
    at least the smallest FP, the smallest FN and the smallest FP + FN of
    each such leaf's options; :func:`f1_errors_bound` turns these
    minimums into a bound.

Examples
--------
>>> from treeopt.objectives import get_objective
>>> auc = get_objective("auc")
>>> fixed = [(3, 1)]                     # one fixed leaf: 3 negatives, 1 positive
>>> round(hierarchical_bound(auc, fixed, split_negatives=1, split_positives=3), 4)
0.0938
>>> round(split_gain_bound(auc, (1, 1), negatives=4, positives=4), 4)
0.4062
>>> dominating_split((4, 4), [((0, 2), (4, 2)), ((1, 3), (3, 1))])   # two options of a (4, 4) leaf
((0.0, 3.0), (4.0, 1.0))
"""

from __future__ import annotations

import numpy as np

from ...objectives import FScore

__all__ = ["hierarchical_bound", "equivalent_points_bound", "split_gain_bound", "f1_errors_bound",
           "dominating_split", "NON_ADDITIVE"]

#: The non-additive objectives the leaf-set search has bounds for.
NON_ADDITIVE = ("f1", "auc", "partial_auc")


def _table(rows) -> np.ndarray:
    table = np.asarray([r for r in rows if r[0] + r[1] > 0], dtype=float)
    return table.reshape(-1, 2)


def hierarchical_bound(objective, fixed_counts, split_negatives: float, split_positives: float) -> float:
    """Loss lower bound of every descendant: the split rows sorted into two pure leaves."""
    rows = list(fixed_counts) + [(0.0, split_positives), (split_negatives, 0.0)]
    return objective.tree_loss(_table(rows))


def equivalent_points_bound(objective, fixed_counts, pure_negatives: float, pure_positives: float,
                            impure_classes) -> float:
    """Loss lower bound of every descendant when the split rows' equivalence classes cannot be separated.

    Parameters
    ----------
    objective
    fixed_counts : list of (negatives, positives)
    pure_negatives, pure_positives : float
        Weight of split rows in classes with a single label.
    impure_classes : list of (negatives, positives)
        The split rows' equivalence classes that hold both labels.
    """
    if objective.name == "f1":
        table = _table(fixed_counts)
        fp = fn = 0.0
        if len(table):
            labels = objective.leaf_predictions(table)
            fp = float(table[labels == 1, 0].sum())
            fn = float(table[labels == 0, 1].sum())
        positives = float(table[:, 1].sum()) + pure_positives + sum(p for _, p in impure_classes)
        forced = sum(min(n, p) for n, p in impure_classes)
        return f1_errors_bound(fp, fn, positives, more_errors=forced) if positives > 0 else 0.0
    rows = list(fixed_counts) + list(impure_classes) + [(0.0, pure_positives), (pure_negatives, 0.0)]
    return objective.tree_loss(_table(rows))


def split_gain_bound(objective, counts, negatives: float, positives: float) -> float:
    """Largest loss decrease any subtree can bring over leaf ``counts`` = (n⁻, n⁺), whatever the other leaves.

    ``negatives`` and ``positives`` are the data set's totals N⁻ and N⁺.
    """
    n_neg, n_pos = float(counts[0]), float(counts[1])
    if objective.name == "f1":
        if objective.omega * n_pos > n_neg:            # labelled positive: its errors are false positives
            return n_neg / (2 * positives + n_neg) if n_neg > 0 else 0.0
        return 2 * n_pos / (positives + n_pos) if n_pos > 0 else 0.0
    if negatives <= 0 or positives <= 0:
        return 0.0
    gain = (n_pos * (negatives - n_neg) + n_neg * (positives - n_pos) + n_pos * n_neg / 2) / (positives * negatives)
    if objective.name == "partial_auc":
        gain = min(1.0, gain / objective.theta)
    return gain


def f1_errors_bound(false_pos: float, false_neg: float, positives: float, more_false_pos: float = 0.0,
                    more_false_neg: float = 0.0, more_errors: float = 0.0) -> float:
    """F1 loss lower bound of a tree with the fixed leaves' errors and at least some more.

    The tree has ``false_pos + X`` false positives and ``false_neg + Y`` false negatives, with
    ``X >= more_false_pos``, ``Y >= more_false_neg`` and ``X + Y >= more_errors``. The loss
    ``(FP + FN) / (2N⁺ + FP − FN)`` grows in FP and FN and, for a fixed number of errors, is
    smallest when as many as possible are false positives; so the least it can be is at
    ``Y = more_false_neg``, ``X = max(more_false_pos, more_errors − more_false_neg)``.

    Examples
    --------
    >>> f1_errors_bound(0.0, 0.0, 10.0, more_errors=5.0) == 5 / 25     # five errors, all FP
    True
    >>> f1_errors_bound(0.0, 0.0, 10.0, more_false_neg=2.0, more_errors=5.0) == 5 / 21
    True
    """
    extra_neg = more_false_neg
    extra_pos = max(more_false_pos, more_errors - more_false_neg)
    return FScore.loss_of_errors(false_pos + extra_pos, false_neg + extra_neg, positives)


def dominating_split(counts, options):
    """The virtual split of a leaf whose ROC hull is above that of every one of its ``options``.

    Parameters
    ----------
    counts : (negatives, positives)
        The leaf's class weights.
    options : iterable of ((n⁻, n⁺), (n⁻, n⁺))
        The two sides of each split the leaf can take (together they hold the leaf's rows).

    Returns
    -------
    ((n⁻, n⁺), (n⁻, n⁺)) or None
        ``a* = (min n⁻, max n⁺)`` over the side of each option with the higher positive
        fraction, and the leaf's other rows; None when there is no option. See "One split
        left" in the module docstring for why it bounds the AUC and partial AUC of the hull.
    """
    negatives, positives = float(counts[0]), float(counts[1])
    top_neg, top_pos = negatives, 0.0
    seen = False
    for left, right in options:
        seen = True
        # The side ranked first: the higher positive fraction (cross-multiplied; ties: left).
        if left[1] * (right[0] + right[1]) >= right[1] * (left[0] + left[1]):
            first = left
        else:
            first = right
        if first[0] < top_neg:
            top_neg = float(first[0])
        if first[1] > top_pos:
            top_pos = float(first[1])
    if not seen:
        return None
    return (top_neg, top_pos), (negatives - top_neg, positives - top_pos)

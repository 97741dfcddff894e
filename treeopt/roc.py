"""The ROC convex hull of a tree's leaves, its AUC and partial AUC.

A tree scores every row by the fraction of positives in the leaf it reaches.
Ranking the leaves by that fraction, ``r_1 >= r_2 >= ... >= r_H``, and
labelling the first ``i`` of them positive gives the ``H + 1`` labellings
``S_0, ..., S_H`` of GOSDT section 2.1; their (FPR, TPR) points, joined in
order, are the ROC convex hull (ROCCH, Ferri et al. 2002) of the tree. The
slope of leaf ``i``'s segment is ``n_i⁺ N⁻ / (n_i⁻ N⁺)``, which decreases
with ``r_i``, so the polyline is concave: it *is* the hull. Leaves with the
same positive fraction lie on one straight segment, so they share one hull
segment (and the order among them cannot change the area).

The area under the hull is equation (2) of the GOSDT paper written with the
normalisation of its equations (37)-(38):

``AUC_ch = (1 / (N⁺ N⁻)) Σ_i n_i⁻ [ Σ_{j<i} n_j⁺ + n_i⁺ / 2 ]``

i.e. the fraction of (positive, negative) pairs ranked correctly, a tie
(both in leaves of equal positive fraction) counting one half. This equals
``sklearn.metrics.roc_auc_score(y, s)`` when every row's score ``s`` is the
positive fraction of its leaf computed on the same rows (scikit-learn also
counts ties as one half). With scores computed on other rows the curve need
not be concave and ``roc_auc_score`` can be smaller than the hull's area.

The partial area up to false-positive rate θ (GOSDT appendix C.5) is the
area under the hull for ``FPR <= θ`` divided by θ, so it lies in [0, 1]
(1 = every positive ranked above every negative within that range).
At θ = 1 it is the AUC.

Works for any classifier whose rows fall into leaves (or any groups):
:func:`leaf_class_counts` turns leaf indices (``estimator.apply(X)`` of a
treeopt or scikit-learn tree) into the table the hull is built from, and
:func:`estimator_hull` does both, so a notebook can draw CART's hull beside
the optimal tree's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["RocHull", "roc_hull", "hull_auc", "partial_hull_auc", "leaf_class_counts", "estimator_hull",
           "check_theta"]


def _binary_table(leaf_counts) -> np.ndarray:
    table = np.asarray(leaf_counts, dtype=float)
    if table.ndim != 2 or table.shape[1] != 2:
        raise ValueError(f"leaf counts must be an array of shape (n_leaves, 2) (negatives, positives), "
                         f"got shape {table.shape}. ROC curves need a binary target.")
    if not np.isfinite(table).all() or (table < 0).any():
        raise ValueError("leaf counts must be finite and non-negative.")
    return table


@dataclass(frozen=True)
class RocHull:
    """The ROC convex hull of a set of leaves.

    Attributes
    ----------
    fpr, tpr : ndarray
        The hull's vertices from (0, 0) to (1, 1), one per group of leaves
        with equal positive fraction (highest fraction first).
    positive_fraction : ndarray
        Positive fraction of each hull segment (decreasing).
    segment_of_leaf : ndarray of int
        For each input leaf, the index of its hull segment (segment ``k``
        joins vertex ``k`` to ``k + 1``); ``-1`` for leaves without weight.

    Examples
    --------
    >>> hull = roc_hull([[1, 3], [3, 1], [2, 0]])     # (negatives, positives) per leaf
    >>> hull.fpr.tolist(), hull.tpr.tolist()
    ([0.0, 0.16666666666666666, 0.6666666666666666, 1.0], [0.0, 0.75, 1.0, 1.0])
    >>> round(hull.auc, 4), round(hull.partial_auc(1.0), 4)
    (0.8333, 0.8333)
    >>> hull.segment_of_leaf.tolist()
    [0, 1, 2]
    """

    fpr: np.ndarray
    tpr: np.ndarray
    positive_fraction: np.ndarray
    segment_of_leaf: np.ndarray

    @property
    def auc(self) -> float:
        """Area under the hull (trapezoids between consecutive vertices)."""
        return float(np.sum(np.diff(self.fpr) * (self.tpr[1:] + self.tpr[:-1]) / 2.0))

    def tpr_at(self, fpr) -> np.ndarray:
        """The hull's true-positive rate at false-positive rate(s) ``fpr`` (upper value on vertical parts)."""
        x = np.atleast_1d(np.asarray(fpr, dtype=float))
        if ((x < 0) | (x > 1)).any():
            raise ValueError("false-positive rates must lie in [0, 1].")
        # The last vertex at or left of x, then along its outgoing segment.
        k = np.searchsorted(self.fpr, x, side="right") - 1
        k = np.clip(k, 0, len(self.fpr) - 1)
        nxt = np.minimum(k + 1, len(self.fpr) - 1)
        width = self.fpr[nxt] - self.fpr[k]
        slope_part = np.where(width > 0, (x - self.fpr[k]) / np.where(width > 0, width, 1.0), 0.0)
        return self.tpr[k] + slope_part * (self.tpr[nxt] - self.tpr[k])

    def partial_auc(self, theta: float) -> float:
        """Area under the hull for ``FPR <= theta``, divided by ``theta`` (GOSDT appendix C.5), in [0, 1]."""
        theta = check_theta(theta)
        inside = self.fpr < theta
        xs = np.concatenate([self.fpr[inside], [theta]])
        ys = np.concatenate([self.tpr[inside], self.tpr_at(theta)])
        return float(np.sum(np.diff(xs) * (ys[1:] + ys[:-1]) / 2.0) / theta)

    def dominates(self, other: "RocHull", tol: float = 1e-12) -> bool:
        """Whether this hull is nowhere below ``other``.

        ``self`` is concave, so it is enough to check ``other``'s vertices.
        """
        return bool((self.tpr_at(other.fpr) >= other.tpr - tol).all())

    def points(self):
        """The vertices as a DataFrame (``fpr``, ``tpr``) for plotting."""
        import pandas as pd
        return pd.DataFrame({"fpr": self.fpr, "tpr": self.tpr})


def check_theta(theta) -> float:
    """``theta`` (the largest false-positive rate of the partial AUC) as a float, checked to be in (0, 1].

    Examples
    --------
    >>> check_theta(0.1)
    0.1
    """
    if isinstance(theta, bool) or not isinstance(theta, (int, float, np.integer, np.floating)) \
            or not np.isfinite(theta) or not 0 < theta <= 1:
        raise ValueError(f"theta (the largest false-positive rate of the partial AUC) must be a number "
                         f"in (0, 1], got {theta!r}.")
    return float(theta)


def roc_hull(leaf_counts) -> RocHull:
    """The ROC convex hull of leaves given their (negative, positive) weights.

    Parameters
    ----------
    leaf_counts : array_like of shape (n_leaves, 2)
        Column 0: weight of negatives in each leaf; column 1: of positives.

    Returns
    -------
    RocHull

    Examples
    --------
    >>> roc_hull([[2, 2], [1, 1]]).fpr.tolist()    # equal fractions: one segment
    [0.0, 1.0]
    """
    table = _binary_table(leaf_counts)
    negatives, positives = table.sum(axis=0)
    if positives <= 0 or negatives <= 0:
        raise ValueError(f"the ROC hull needs both classes to have positive weight; got {negatives:g} "
                         f"negative and {positives:g} positive.")
    weight = table.sum(axis=1)
    used = np.flatnonzero(weight > 0)
    fraction = table[used, 1] / weight[used]
    # Distinct positive fractions, highest first; leaves with equal fractions share a segment.
    distinct, inverse = np.unique(-fraction, return_inverse=True)
    group_neg = np.zeros(len(distinct))
    group_pos = np.zeros(len(distinct))
    np.add.at(group_neg, inverse, table[used, 0])
    np.add.at(group_pos, inverse, table[used, 1])
    segment_of_leaf = np.full(len(table), -1, dtype=int)
    segment_of_leaf[used] = inverse
    fpr = np.concatenate([[0.0], np.cumsum(group_neg) / negatives])
    tpr = np.concatenate([[0.0], np.cumsum(group_pos) / positives])
    fpr[-1] = tpr[-1] = 1.0    # exact end point despite rounding
    return RocHull(fpr=fpr, tpr=tpr, positive_fraction=-distinct, segment_of_leaf=segment_of_leaf)


def hull_area(leaf_counts, theta: float = 1.0) -> float:
    """Area under the ROC convex hull for ``FPR <= theta``, divided by ``theta``, in plain Python.

    The same number as ``roc_hull(leaf_counts).partial_auc(theta)`` (``.auc`` at ``theta=1``)
    without building arrays: the searches evaluate it for every candidate tree, whose few leaves
    make array set-up the larger part of the work. Leaves sorted by positive fraction, highest
    first, are the hull's segments (equal fractions share one); the area is the trapezoids under
    them (GOSDT equation 2 and appendix C.5).

    Examples
    --------
    >>> hull_area([[1, 3], [3, 1], [2, 0]]) == roc_hull([[1, 3], [3, 1], [2, 0]]).auc
    True
    >>> round(hull_area([[1, 3], [3, 1], [2, 0]], 0.5), 4)
    0.6806
    """
    groups: dict = {}
    negatives = positives = 0.0
    for n, p in leaf_counts:
        n, p = float(n), float(p)
        negatives += n
        positives += p
        if n + p > 0:
            group = groups.setdefault(p / (n + p), [0.0, 0.0])
            group[0] += n
            group[1] += p
    if positives <= 0 or negatives <= 0:
        raise ValueError(f"the ROC hull needs both classes to have positive weight; got {negatives:g} "
                         f"negative and {positives:g} positive.")
    fractions = sorted(groups, reverse=True)
    area = x = y = 0.0
    cum_n = cum_p = 0.0
    last = len(fractions) - 1
    for index, fraction in enumerate(fractions):
        n, p = groups[fraction]
        cum_n += n
        cum_p += p
        x1, y1 = (1.0, 1.0) if index == last else (cum_n / negatives, cum_p / positives)
        if x1 >= theta:
            y_theta = y + (theta - x) / (x1 - x) * (y1 - y) if x1 > x else y1
            area += (theta - x) * (y_theta + y) / 2.0
            break
        area += (x1 - x) * (y1 + y) / 2.0
        x, y = x1, y1
    return area / theta


def hull_auc(leaf_counts) -> float:
    """Area under the ROC convex hull of the leaves (GOSDT equation 2).

    Examples
    --------
    >>> hull_auc([[0, 5], [5, 0]]), hull_auc([[3, 3]])
    (1.0, 0.5)
    """
    return roc_hull(leaf_counts).auc


def partial_hull_auc(leaf_counts, theta: float) -> float:
    """Area under the hull for ``FPR <= theta`` divided by ``theta`` (GOSDT appendix C.5).

    Examples
    --------
    >>> partial_hull_auc([[3, 3]], 0.5)     # the diagonal: area 1/8 over width 1/2
    0.25
    """
    return roc_hull(leaf_counts).partial_auc(theta)


def leaf_class_counts(leaf_ids, y, classes, sample_weight=None, n_leaves: int | None = None) -> np.ndarray:
    """Weighted class counts per leaf from the leaf index of each row.

    Parameters
    ----------
    leaf_ids : array_like of int
        Leaf (or any group) index of each row, e.g. ``estimator.apply(X)``.
    y : array_like
        Label of each row.
    classes : array_like
        The label values in column order (for binary objectives: negative, positive).
    sample_weight : array_like, optional
    n_leaves : int, optional
        Number of rows of the table (default: ``max(leaf_ids) + 1``).

    Returns
    -------
    ndarray of shape (n_leaves, n_classes)

    Examples
    --------
    >>> leaf_class_counts([0, 0, 1, 2], ["a", "b", "b", "a"], classes=["a", "b"]).tolist()
    [[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
    """
    leaf_ids = np.asarray(leaf_ids)
    y = np.asarray(y)
    if leaf_ids.ndim != 1 or len(leaf_ids) != len(y):
        raise ValueError(f"leaf_ids and y must be 1-D of the same length, got {leaf_ids.shape} and {y.shape}.")
    if len(leaf_ids) and (not np.issubdtype(leaf_ids.dtype, np.integer) or leaf_ids.min() < 0):
        raise ValueError("leaf_ids must be non-negative integers (as returned by apply(X)).")
    classes = list(np.asarray(classes).tolist())
    position = {c: k for k, c in enumerate(classes)}
    try:
        y_index = np.array([position[v] for v in y.tolist()], dtype=int)
    except KeyError as error:
        raise ValueError(f"label {error.args[0]!r} is not one of the classes {classes}.") from None
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    if w.shape != y.shape:
        raise ValueError(f"sample_weight must have shape {y.shape}, got {w.shape}.")
    size = int(leaf_ids.max()) + 1 if n_leaves is None and len(leaf_ids) else int(n_leaves or 0)
    table = np.zeros((size, len(classes)))
    np.add.at(table, (leaf_ids, y_index), w)
    return table


def estimator_hull(estimator, X, y, sample_weight=None) -> RocHull:
    """ROC convex hull of a fitted tree estimator's leaves on ``(X, y)``.

    Works for any estimator with ``apply(X)`` (leaf index of each row) and a
    binary ``classes_``: treeopt's ``OptimalTreeClassifier`` and
    scikit-learn's ``DecisionTreeClassifier``. The positive class is
    ``classes_[1]``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> X = np.arange(8).reshape(-1, 1); y = np.array([0, 0, 1, 0, 1, 1, 0, 1])
    >>> cart = DecisionTreeClassifier(max_leaf_nodes=2, random_state=0).fit(X, y)
    >>> round(estimator_hull(cart, X, y).auc, 4)
    0.75
    """
    classes = getattr(estimator, "classes_", None)
    if classes is None or not hasattr(estimator, "apply"):
        raise TypeError(f"{type(estimator).__name__} is not a fitted tree estimator with apply() and classes_.")
    if len(classes) != 2:
        raise ValueError(f"the ROC hull needs a binary target; the estimator has {len(classes)} classes.")
    leaf_ids = np.asarray(estimator.apply(X))
    # scikit-learn numbers all nodes, not only leaves: compact the ids actually used.
    _, compact = np.unique(leaf_ids, return_inverse=True)
    return roc_hull(leaf_class_counts(compact.ravel(), y, classes, sample_weight))

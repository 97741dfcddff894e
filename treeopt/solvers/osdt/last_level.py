"""The last level of the leaf-set search for F1 / AUC / partial AUC: complete trees by depth-first search.

When every split leaf of a popped partial tree sits one level above the depth budget, each
child of Algorithm 2's expansion is a complete tree: one split per split leaf, and none of the
new leaves can be split again. The expansion is then a search for the complete trees that beat
the pruning threshold ``R^c`` (``R_k`` with ``top_k > 1``) among the product of the split
leaves' options, which can hold tens of thousands of trees.

Instead of scoring every combination, the splits are chosen one split leaf at a time, depth
first, and a prefix is abandoned as soon as a lower bound on all its completions reaches the
threshold: the objective of the fixed leaves, the chosen splits' leaves and, for the split
leaves still to choose, what any of their splits can reach. That is the hierarchical bound
(GOSDT Theorems 2.1, 2.2 for the ROC hull, B.1 for F1: the remaining rows in pure leaves) or,
with the ``one_split_left`` switch on, the tighter bound of the last level's splits
(:mod:`treeopt.solvers.osdt.leafset_bounds`, "One split left"). Every completion has the
same number of leaves, so the ``λ × leaves`` term is exact. Options are tried best first
(fewest errors for F1, best separated sides for the hull), so good trees come early and
lower the threshold for the rest.

Without the ``hierarchical`` switch no prefix is abandoned: every combination is scored.
"""

from __future__ import annotations

from ...objectives import FScore
from .leafset_bounds import f1_errors_bound

__all__ = ["is_last_level", "complete_last_level"]

def is_last_level(solver, split) -> bool:
    """Whether every leaf of ``split`` has one split left (so an expansion yields complete trees only)."""
    return all(solver._has_one_split_left(leaf) for leaf in split)


def _separation(option) -> float:
    """How well a split separates the classes on the ROC plane (twice the triangle it adds)."""
    _, left, right, _ = option
    (ln, lp), (rn, rp) = left.counts, right.counts
    return -abs(lp * rn - ln * rp)


def complete_last_level(solver, tree, per_leaf, clock):
    """Offer every complete tree of ``tree``'s expansion that can beat the threshold (a generator of units).

    Parameters
    ----------
    solver : OSDT
        The running search (F1, AUC or partial AUC).
    tree : PartialTree
        The popped partial tree; every split leaf has one split left (:func:`is_last_level`).
    per_leaf : list of list
        Each split leaf's options ``(feature, left, right, both_fixed)``, none empty.
    clock : SliceClock
        Says when the unit of work is spent: the search yields then (:mod:`treeopt.solvers.slices`).
    """
    split = tree.split
    m = len(split)
    fixed = tree.fixed
    penalty = solver.penalty * (len(fixed) + 2 * m)
    prune = solver.bounds["hierarchical"]
    sharp = solver.bounds["one_split_left"]
    chosen = [None] * m

    def offer(objective) -> None:
        if objective < solver._cutoff - solver.eps:
            leaves = fixed + tuple(leaf for option in chosen for leaf in option[1:3])
            if solver._improve(objective, leaves):
                solver._record(improved=True)

    if solver._f1:
        W, positives = solver._W, solver._positives
        orders = [sorted(options, key=lambda o: o[1].fp + o[1].fn + o[2].fp + o[2].fn) for options in per_leaf]
        # what the split leaves from j on add at least: (FP, FN, errors)
        rest = [(0.0, 0.0, 0.0)] * (m + 1)
        if sharp:
            for j in range(m - 1, -1, -1):
                reach = solver._one_split(split[j])
                rest[j] = (rest[j + 1][0] + reach[0], rest[j + 1][1] + reach[1], rest[j + 1][2] + reach[2])

        def visit(j, false_pos, false_neg):
            for option in orders[j]:
                _, left, right, _ = option
                fp = false_pos + left.fp + right.fp
                fn = false_neg + left.fn + right.fn
                chosen[j] = option
                if j + 1 == m:
                    solver.trees_evaluated += 1
                    offer(FScore.loss_of_errors(fp, fn, positives) * W + penalty)
                else:
                    more_fp, more_fn, more_errors = rest[j + 1]
                    if prune and f1_errors_bound(fp, fn, positives, more_fp, more_fn, more_errors) * W + penalty \
                            >= solver._cutoff - solver.eps:
                        continue
                    yield from visit(j + 1, fp, fn)
                if clock.due():
                    yield

        yield from visit(0, sum(leaf.fp for leaf in fixed), sum(leaf.fn for leaf in fixed))
        return

    orders = [sorted(options, key=_separation) for options in per_leaf]
    if sharp:
        rest = [[row for leaf in split[j:] for row in solver._one_split(leaf)] for j in range(m + 1)]
    else:
        rest = [[(0.0, sum(leaf.counts[1] for leaf in split[j:])), (sum(leaf.counts[0] for leaf in split[j:]), 0.0)]
                for j in range(m + 1)]
    rows = [leaf.counts for leaf in fixed]

    def visit(j):
        for option in orders[j]:
            _, left, right, _ = option
            chosen[j] = option
            rows.append(left.counts)
            rows.append(right.counts)
            if j + 1 == m:
                solver.trees_evaluated += 1
                offer(solver._hull_loss(rows) + penalty)
            elif not prune or solver._hull_loss(rows + rest[j + 1]) + penalty < solver._cutoff - solver.eps:
                yield from visit(j + 1)
            del rows[-2:]
            if clock.due():
                yield

    yield from visit(0)

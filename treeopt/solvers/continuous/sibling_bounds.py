"""Lower bounds on every threshold of a subproblem from a solved sibling, before any evaluation.

The children on one side of a column's thresholds are nested: the left child of threshold ``t``
of a support ``P`` is a subset of the left child of every later threshold ``t'`` (and the right
child of ``t'`` of the right child of ``t``). Brița, van der Linden and Demirović, *Optimal
Classification Trees for Continuous Feature Data Using Dynamic Programming with Branch-and-Bound*
(AAAI 2025), section 4.2, bound a child's optimum from its neighbours' by monotonicity and
similarity (:mod:`.intervals`); the same two facts hold for each split *inside* the children (Lin
et al., *Generalized and Scalable Optimal Sparse Decision Trees*, ICML 2020, the similar-support
bound, Theorem B.10). Let ``S`` be a solved sibling and ``S'`` the sibling being started, and
for a threshold ``(g, r)`` of ``S'`` let ``A(r)`` and ``B(r)`` be the rows of a set with rank on
column ``g`` at most ``r`` and above it. Every ``(g, r)`` splits ``S`` as well (a threshold is a
rank, so it keeps its meaning on any support), and ``A_S(r)`` is ``S``'s own left child at its
last threshold at or below ``r``:

* ``S ⊆ S'`` (monotonicity): ``A_S(r) ⊆ A_S'(r)``, so ``OPT(A_S'(r)) >= OPT(A_S(r))``, and
  likewise on the right;
* ``S ⊇ S'`` (similarity): ``OPT(A_S'(r)) >= OPT(A_S(r)) - W(A(r) ∩ (S \\ S'))``, with ``W``
  the cost-weighted rows, and ``OPT(B_S'(r)) >= OPT(B_S(r)) - W(B(r) ∩ (S \\ S'))``.

``S``'s search leaves a lower bound on both children of each of its thresholds (its evaluated
ones exactly, the others from their evaluated neighbours, :meth:`.IntervalSearch.children_bounds`),
so the nearest solved sibling on each side gives every threshold of ``S'`` a bound at once. The
interval search of ``S'`` starts from them (its ``seeds``): most thresholds of a near-duplicate
support are never evaluated.

Examples
--------
A parent of six rows split on column 0; its left child at rank 2 is solved, and bounds its left
child at rank 3 (a superset) by monotonicity:

>>> import numpy as np
>>> rank = np.array([[0, 1, 2, 3, 4, 5], [3, 1, 4, 0, 5, 2]])
>>> cw_row = np.ones(6)
>>> solved = np.array([[0, 1, 2], [1, 0, 2]])                 # rows 0-2 in each column's order
>>> bounds = [(np.array([0.5, 0.5]), np.array([1.0, 0.5])), (np.array([0.5, 1.0]), np.array([0.5, 0.5]))]
>>> record = SiblingRecord(solved, rank, [np.array([0, 1]), np.array([1, 3])], bounds.__getitem__, floor=0.5)
>>> family = Siblings(rank, cw_row, floor=0.5)
>>> family.add((0, True, 2), 2, record)
>>> starting = np.array([[0, 1, 2, 3], [3, 1, 0, 2]])       # rows 0-3: the left child at rank 3
>>> seeds = family.seeds((0, True, 2), 3, starting, [np.array([0, 1, 2]), np.array([0, 1, 3])])
>>> [side.tolist() for side in seeds[0]]
[[0.5, 0.5, 0.5], [1.0, 0.5, 0.5]]
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

__all__ = ["SiblingRecord", "Siblings"]

#: Records kept per parent subproblem (the oldest is dropped first): enough for the neighbours of the
#: thresholds a parent's bisection is working on.
MOST_RECORDS = 48


class SiblingRecord:
    """What a solved subproblem leaves for its siblings.

    Parameters
    ----------
    cols : ndarray of int, shape (n_columns, n_support)
        Its rows in each column's order.
    rank : ndarray of int, shape (n_columns, n_rows)
        Each row's rank in each column.
    thresholds : list of ndarray
        Per column, the ranks of its thresholds, increasing: every value of the column's rows but
        the largest.
    bounds : callable
        ``bounds(g)``: lower bounds on the left and right child of each threshold of column ``g``
        (two arrays), asked for only when a sibling reads that column, and kept.
    floor : float
        The bound that always holds (a leaf's penalty).
    """

    def __init__(self, cols: np.ndarray, rank: np.ndarray, thresholds: list, bounds, *, floor: float):
        self.cols = cols
        self.thresholds = thresholds
        self._bounds_of = bounds
        self._bounds: dict = {}
        self.floor = floor
        self.largest = [int(rank[g, cols[g, -1]]) for g in range(cols.shape[0])]

    def at(self, g: int, ranks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Lower bounds on the children of this support at ranks ``ranks`` of column ``g``."""
        if g not in self._bounds:
            self._bounds[g] = self._bounds_of(g)
        left_bounds, right_bounds = self._bounds[g]
        index = np.searchsorted(self.thresholds[g], ranks, side="right") - 1
        inside = (index >= 0) & (ranks < self.largest[g])      # both children non-empty
        safe = np.maximum(index, 0)
        left = np.where(inside, left_bounds[safe] if len(left_bounds) else self.floor, self.floor)
        right = np.where(inside, right_bounds[safe] if len(right_bounds) else self.floor, self.floor)
        return left, right


class Siblings:
    """The solved children of one parent subproblem, by (column, side, depth), nearest first.

    Parameters
    ----------
    rank : ndarray of int, shape (n_columns, n_rows)
    cw_row : ndarray of float, shape (n_rows,)
        Each row's cost-weighted weight.
    floor : float
        A lower bound on any child's cost (a leaf's penalty).
    """

    def __init__(self, rank: np.ndarray, cw_row: np.ndarray, *, floor: float):
        self.rank = rank
        self.cw_row = cw_row
        self.floor = floor
        self._records: OrderedDict = OrderedDict()          # (key, threshold rank) -> SiblingRecord

    def add(self, key: tuple, r: int, record: SiblingRecord) -> None:
        """The child ``key = (column, goes left, depth)`` at the parent's threshold rank ``r`` was solved."""
        self._records[(key, r)] = record
        self._records.move_to_end((key, r))
        while len(self._records) > MOST_RECORDS:
            self._records.popitem(last=False)

    def seeds(self, key: tuple, r: int, cols: np.ndarray, thresholds: list) -> list | None:
        """Lower bounds on both children of each threshold of the child ``key`` at rank ``r`` (rows
        ``cols``, thresholds ``thresholds`` per column) from its nearest solved siblings, or None."""
        f, goes_left, _ = key
        below = above = None                     # the nearest sibling at a smaller and at a larger rank
        for (other, s), record in self._records.items():
            if other != key or s == r:
                continue
            if s < r and (below is None or s > below[0]):
                below = (s, record)
            if s > r and (above is None or s < above[0]):
                above = (s, record)
        if below is None and above is None:
            return None
        seeds = [(np.full(len(t), self.floor), np.full(len(t), self.floor)) for t in thresholds]
        for found, later in ((below, False), (above, True)):
            if found is None:
                continue
            s, record = found
            # A left child grows with the rank, a right child shrinks.
            subset = later != goes_left
            removed = None if subset else self._removed(record, f, r, goes_left)
            for g, ranks in enumerate(thresholds):
                if not len(ranks):
                    continue
                left, right = record.at(g, ranks)
                if removed is not None and len(removed):
                    # Similarity: the rows of the sibling that this child lacks, on each side of each threshold.
                    removed_ranks = self.rank[g, removed]
                    order = np.argsort(removed_ranks, kind="stable")
                    cumulative = np.concatenate(([0.0], np.cumsum(self.cw_row[removed][order])))
                    below_weight = cumulative[np.searchsorted(removed_ranks[order], ranks, side="right")]
                    left = left - below_weight
                    right = right - (cumulative[-1] - below_weight)
                np.maximum(seeds[g][0], left, out=seeds[g][0])
                np.maximum(seeds[g][1], right, out=seeds[g][1])
        return seeds

    def _removed(self, record: SiblingRecord, f: int, r: int, goes_left: bool) -> np.ndarray:
        """The rows of a larger sibling that the child at rank ``r`` of column ``f`` lacks."""
        order = record.cols[f]
        ranks = self.rank[f, order]
        cut = int(np.searchsorted(ranks, r, side="right"))
        return order[cut:] if goes_left else order[:cut]

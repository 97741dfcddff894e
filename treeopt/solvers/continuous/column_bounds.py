"""Per-column bounds on a depth-two subproblem's children, from evaluated neighbouring root thresholds.

Brița, van der Linden and Demirović, *Optimal Classification Trees for Continuous Feature Data
Using Dynamic Programming with Branch-and-Bound* (AAAI 2025), section 4.2, bounds a child's
optimum at a threshold from the children of its evaluated neighbours (:mod:`.intervals`). The
same two facts hold for each column on its own. Let ``c_j(S)`` be the cost of the best split of
the set ``S`` on column ``j``, a split with an empty side (the leaf with one more penalty)
included:

* monotonicity: for ``S ⊆ S'``, ``c_j(S) <= c_j(S')`` (the split of ``S'`` applied to ``S``
  misclassifies no more, with the same two leaves);
* similarity: ``c_j(S') <= c_j(S) + W(S' \\ S)`` (the added rows cost at most their
  cost-weighted weight).

So for root thresholds ``a < m < b`` of one root column, with ``W(a, m]`` the cost-weighted rows
between them and ``a``, ``b`` evaluated,
``c_j(left(m)) >= max(c_j(left(a)), c_j(left(b)) - W(m, b])`` and
``c_j(right(m)) >= max(c_j(right(b)), c_j(right(a)) - W(a, m])``. The terminal solver
(:func:`.terminal.depth_two_by_column`) does not read column ``j`` for threshold ``m`` when
neither child's bound on ``c_j`` is below that child's best so far, so the children's optima stay
exact while most columns of most thresholds are never read: the left child at ``a`` and at ``m``
differ by the rows between them, and with them their best split on every column. The whole
support bounds both ends (the left child at the last threshold and the right child before the
first are within all of it).

Examples
--------
One root column with three thresholds, two columns; thresholds 0 and 2 are evaluated:

>>> import numpy as np
>>> bounds = ColumnBounds([np.array([1.0, 2.0, 3.0])], [4.0], whole=np.array([2.0, 3.0]))
>>> bounds.record(0, 0, np.array([0.0, 0.5]), np.array([2.0, 3.0]))
>>> bounds.record(0, 2, np.array([1.5, 2.5]), np.array([0.0, 1.0]))
>>> left, right = bounds.lower([(0, 1)])
>>> left[0].tolist(), right[0].tolist()   # left: max(c(left(0)), c(left(2)) - W(1, 2]); right: likewise
([0.5, 1.5], [1.0, 2.0])
"""

from __future__ import annotations

import bisect

import numpy as np

__all__ = ["ColumnBounds"]


class ColumnBounds:
    """The per-column costs of the children of a subproblem's evaluated root thresholds.

    Parameters
    ----------
    cumulative : list of ndarray
        For each root column ``f``, ``cumulative[f][i]``: the cost-weighted rows whose rank is at
        most threshold ``i``'s (as for :class:`.intervals.IntervalSearch`).
    totals : list of float
        The subproblem's cost-weighted rows (one entry per root column).
    whole : ndarray of float, shape (n_columns,)
        ``c_j`` of the whole support (:func:`.terminal.depth_one_by_column`).
    """

    def __init__(self, cumulative: list, totals: list, *, whole: np.ndarray):
        self.cumulative = cumulative
        self.totals = totals
        self.whole = np.asarray(whole, dtype=float)
        self._nothing = np.zeros_like(self.whole)          # the empty child: no bound beyond zero
        self._evaluated: list[list] = [[] for _ in cumulative]      # sorted threshold indices per root column
        self._left: list[dict] = [{} for _ in cumulative]
        self._right: list[dict] = [{} for _ in cumulative]

    def _end(self, f: int, i: int) -> tuple:
        """(``c`` of the left child, ``c`` of the right child, cumulative weight) at threshold ``i``;
        ``-1`` and ``q`` stand for no rows and all rows on the left."""
        if i < 0:
            return self._nothing, self.whole, 0.0
        if i >= len(self.cumulative[f]):
            return self.whole, self._nothing, self.totals[f]
        return self._left[f][i], self._right[f][i], self.cumulative[f][i]

    def lower(self, chosen: list) -> tuple:
        """Lower bounds on ``c_j`` of both children of each ``(root column, threshold)`` of ``chosen``.

        Returns
        -------
        left, right : ndarray of float, shape (len(chosen), n_columns)
        """
        left = np.empty((len(chosen), len(self.whole)))
        right = np.empty_like(left)
        for row, (f, m) in enumerate(chosen):
            done = self._evaluated[f]
            at = bisect.bisect_left(done, m)
            a = done[at - 1] if at else -1
            b = done[at] if at < len(done) else len(self.cumulative[f])
            left_a, right_a, weight_a = self._end(f, a)
            left_b, right_b, weight_b = self._end(f, b)
            weight = self.cumulative[f][m]
            np.maximum(left_a, left_b - (weight_b - weight), out=left[row])
            np.maximum(right_b, right_a - (weight - weight_a), out=right[row])
        return left, right

    def record(self, f: int, m: int, left: np.ndarray, right: np.ndarray) -> None:
        """Threshold ``m`` of root column ``f`` was evaluated: ``c_j`` (or lower bounds on it) of its children."""
        if m not in self._left[f]:
            bisect.insort(self._evaluated[f], m)
        self._left[f][m] = left
        self._right[f][m] = right

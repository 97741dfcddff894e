"""Interval pruning for the depth-two solver's batches: the bound of every threshold at once.

The bounds are those of :mod:`.intervals` (Brița, van der Linden and Demirović, *Optimal
Classification Trees for Continuous Feature Data Using Dynamic Programming with
Branch-and-Bound*, AAAI 2025, section 4.2): a threshold ``m`` between the evaluated thresholds
``a < m < b`` of its column has children that cost at least

* left: ``max(L(a), L(b) - W(m, b], floor)`` (monotonicity, then similarity),
* right: ``max(R(b), R(a) - W(a, m], floor)``,

with ``L``, ``R`` the children's costs (or lower bounds) at an evaluated threshold and ``W`` the
cost-weighted rows between two thresholds. :class:`.intervals.IntervalSearch` keeps intervals in
a heap and bounds each one as a whole, one threshold at a time, as the deeper levels of the search
take them. The depth-two solver takes thresholds by the batch, many per subproblem, and each of
its subproblems is cheap: there, the heap's bookkeeping in Python costs as much as the thresholds
it closes. This class keeps every position of every column's sorted rows in one array instead
(those after which the value does not change, or that a filter dropped, are never taken), and
after each batch bounds all of them with a few array operations: the evaluated neighbours of each
threshold are found by a running maximum (and minimum) of the evaluated positions. A threshold whose bound
reaches the target (the best split so far, or the budget) is closed on its own, not only with its
whole interval, and the next batch takes the middle open threshold of the runs between evaluated
ones, least bound first, several evenly spaced ones per run when the batch has room for more
thresholds than there are runs.

Examples
--------
One column of five rows of weight one, a threshold after each of the first four; the children's
costs at the threshold after position 2 bound the others:

>>> import numpy as np
>>> weight_before = np.array([[1.0, 2.0, 3.0, 4.0, 5.0]])
>>> search = ThresholdBounds(weight_before, np.ones((1, 4), dtype=bool), floor=0.0, pruning=True)
>>> search.candidates(10.0, 1)                  # (column, position)
[(0, 2)]
>>> search.record_batch(search.pending, np.array([0.0]), np.array([3.0]))   # nothing left, 3 right
>>> search.candidates(2.5, 4), search.pruned
([(0, 3)], 2)

The thresholds after positions 0 and 1 have right children that hold position 2's, so they cost
at least 3 and are closed; position 3's right child costs at least ``3 - W(2, 3] = 2``, which
leaves it open.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ARRAY_ENTRIES", "ThresholdBounds"]

#: The depth-two solver bounds every threshold at once on supports of at most this many (column ×
#: position) entries; on larger ones a batch costs far more than a heap's bookkeeping, and the heap
#: touches only the intervals it takes (:class:`.intervals.IntervalBatches`).
ARRAY_ENTRIES = 1 << 12


class ThresholdBounds:
    """Every threshold of one depth-two subproblem, over all its columns, with its bound.

    Parameters
    ----------
    weight_before : ndarray of float, shape (n_columns, n_support)
        For each column, the cost-weighted rows of the subproblem up to and including each position
        of its sorted rows: the threshold after position ``p`` sends ``weight_before[f, p]`` left.
    searched : ndarray of bool, shape (n_columns, n_support - 1)
        The thresholds to search: the positions after which the value changes, less any a filter
        dropped.
    floor : float
        A lower bound on any child's cost (a leaf's penalty).
    pruning : bool
        Use the bounds of the module docstring; off, every threshold's bound is ``2 × floor``.

    Attributes
    ----------
    pruned : int
        Thresholds closed without being evaluated.
    evaluated : int
        Thresholds evaluated.
    closed_bound : float
        The least bound of a closed threshold (a lower bound on every threshold pruned).
    pending : ndarray of int
        The entries handed out by the last :meth:`candidates`, to pass to :meth:`record_batch`.
    width : int
        Entries per column: entry ``f * width + 1 + p`` is the threshold after position ``p`` of
        column ``f``, and each column's first and last entries are its two ends, which count as
        evaluated (no rows on one side).
    """

    def __init__(self, weight_before: np.ndarray, searched: np.ndarray, *, floor: float, pruning: bool):
        self.floor = floor
        self.pruning = pruning
        self.pruned = 0
        self.evaluated = 0
        self.closed_bound = float("inf")
        n_columns, n = weight_before.shape
        self.width = width = n + 1
        shape = (n_columns, width)
        weight = np.zeros(shape)
        weight[:, 1:] = weight_before
        self.weight = weight.ravel()
        self.left = np.full(n_columns * width, float(floor))
        self.right = np.full(n_columns * width, float(floor))
        done = np.zeros(shape, dtype=bool)
        done[:, 0] = done[:, -1] = True
        self.done = done.ravel()                                # evaluated, or a column's end
        self._done = np.flatnonzero(self.done)
        opened = np.zeros(shape, dtype=bool)
        opened[:, 1:n] = searched
        self.open = opened.ravel()                              # neither evaluated, handed out nor closed
        self.pending = np.zeros(0, dtype=np.int64)
        self._bound = np.full(n_columns * width, 2.0 * floor)      # kept up to date for the open entries
        self._stale = False                                     # records since the bounds were computed
        self._runs = 0
        self._first: dict = {}

    def _bounds(self) -> tuple:
        """The open entries, their bounds from their nearest evaluated neighbours (module docstring),
        and for each one the index in the evaluated entries of its neighbour after it (the open
        entries of one run between two evaluated ones share it)."""
        entries = np.flatnonzero(self.open)
        done = self._done
        at = done.searchsorted(entries)
        if self.pruning and self._stale:
            before, after = done[at - 1], done[at]
            floor, w = self.floor, self.weight
            wm = w[entries]
            left = np.maximum(np.maximum(self.left[before], self.left[after] - (w[after] - wm)), floor)
            right = np.maximum(np.maximum(self.right[after], self.right[before] - (wm - w[before])), floor)
            bound = left + right
            self._bound[entries] = bound
            self._stale = False
        else:
            bound = self._bound[entries]
        return entries, bound, at

    def candidates(self, target: float, k: int) -> list[tuple[int, int]]:
        """Up to ``k`` thresholds to evaluate next, as ``(column, position)`` (their entries in
        :attr:`pending`): thresholds whose bound reaches ``target`` are closed, and of the runs of
        open thresholds between two evaluated ones the least bound's middles are taken first. Every
        threshold handed out must be recorded (:meth:`record_batch`) before the next call."""
        entries, bound, run = self._bounds()
        closing = bound >= target
        if closing.any():
            self.pruned += int(np.count_nonzero(closing))
            self.closed_bound = min(self.closed_bound, float(bound[closing].min()))
            self.open[entries[closing]] = False
            kept = ~closing
            entries, bound, run = entries[kept], bound[kept], run[kept]
        if not len(entries):
            self._runs = 0
            self.pending = entries
            return []
        new_run = np.empty(len(run), dtype=bool)
        new_run[0] = True
        np.not_equal(run[1:], run[:-1], out=new_run[1:])
        starts = np.flatnonzero(new_run)
        counts = np.diff(starts, append=len(entries))
        self._runs = len(starts)
        if len(starts) > k:                                    # the k runs of least bound, a middle each
            least = np.minimum.reduceat(bound, starts)
            keep = np.sort(np.argsort(least, kind="stable")[:k])
            starts, counts = starts[keep], counts[keep]
        if k < 2 * len(starts):                                # one threshold per run: its middle
            picked = entries[starts + counts // 2]
        else:                                                  # evenly spaced thresholds of each run
            share = np.minimum(counts, k // len(starts))
            owner = np.repeat(np.arange(len(starts)), share)
            nth = np.arange(len(owner)) - np.repeat(np.cumsum(share) - share, share)
            picked = entries[starts[owner] + (nth + 1) * counts[owner] // (share[owner] + 1)]
        if self._first:
            picked = self._with_first(picked, k)
        self.open[picked] = False
        self.pending = picked
        column, place = np.divmod(picked, self.width)
        return list(zip(column.tolist(), (place - 1).tolist()))

    def open_bounds(self) -> tuple:
        """The open thresholds (entries, see :attr:`width`) and their bounds from their evaluated neighbours."""
        entries, bound, _ = self._bounds()
        return entries, bound

    def _with_first(self, picked: np.ndarray, k: int) -> np.ndarray:
        """``picked`` with each pending :meth:`try_first` threshold that is still open, in place of its
        column's nearest pick when the batch is full."""
        picked = picked.tolist()
        for f, p in list(self._first.items()):
            at = f * self.width + 1 + p
            if not self.open[at] or at in picked:
                del self._first[f]
            elif len(picked) < k:
                picked.append(at)
                del self._first[f]
            else:                                   # waits for a batch that takes from its column
                mine = [i for i, e in enumerate(picked) if e // self.width == f]
                if mine:
                    picked[min(mine, key=lambda i: abs(picked[i] - at))] = at
                    del self._first[f]
        return np.array(sorted(picked), dtype=np.int64)

    def try_first(self, f: int, p: int) -> None:
        """Hand the threshold after position ``p`` of column ``f`` out with the next batch (in place
        of its column's nearest pick when the batch has no room for both, and with the first batch
        that takes from its column when it has none): a split expected to be good, evaluated early
        for the incumbent it gives."""
        self._first[f] = p

    def last_open_at_or_before(self, f: int, p: int) -> int | None:
        """The last position at or before ``p`` of column ``f`` whose threshold is still open (None if none)."""
        start = f * self.width + 1
        at = np.flatnonzero(self.open[start:start + max(0, min(p, self.width - 2)) + 1])
        return int(at[-1]) if len(at) else None

    def record_batch(self, entries: np.ndarray, left: np.ndarray, right: np.ndarray) -> None:
        """The thresholds at ``entries`` were evaluated: lower bounds (or exact costs) of their children."""
        self.done[entries] = True
        self._done = np.flatnonzero(self.done)
        self.left[entries] = left
        self.right[entries] = right
        self.evaluated += len(entries)
        self._stale = True
        self.pending = self.pending[:0]

    def lower_bound(self) -> float:
        """The least bound over the thresholds not yet evaluated or closed (inf once none is left)."""
        _, bound, _ = self._bounds()
        least = min(bound.min(initial=np.inf), self._bound[self.pending].min(initial=np.inf))
        return float(least)

    @property
    def open_intervals(self) -> int:
        """Runs of open thresholds between two evaluated ones, at the last :meth:`candidates`."""
        return self._runs

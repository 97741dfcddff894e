"""Interval pruning over the thresholds of one subproblem.

Brița, van der Linden and Demirović, *Optimal Classification Trees for Continuous Feature Data
Using Dynamic Programming with Branch-and-Bound* (AAAI 2025), section 4.2. When a column's
thresholds are sorted, the left child of a threshold ``t`` (rows with rank at most ``t``) is a
subset of the left child of every later threshold. Two facts about the optimal cost ``OPT`` of a
child bound every threshold strictly between two evaluated ones, ``a < t < b``:

* monotonicity: a subset costs at most as much (the superset's tree, applied to the subset,
  misclassifies no more and has no more leaves), so ``OPT(left(t)) >= OPT(left(a))`` and
  ``OPT(right(t)) >= OPT(right(b))``;
* similarity: adding rows costs at most their misclassification cost, so
  ``OPT(left(t)) >= OPT(left(b)) - W(t, b]`` and ``OPT(right(t)) >= OPT(right(a)) - W(a, t]``,
  with ``W`` the cost-weighted rows whose rank lies in the range.

The bound of an interval is the smallest, over its thresholds, of the sum of the two children's
bounds. An interval whose bound reaches the best cost so far (or the budget passed down) is
closed without evaluating any of its thresholds. Otherwise its middle threshold is tried next
(bisection), and that splits it in two; a batch with room for more thresholds than there are open
intervals (the depth-two solver's first batches) takes several evenly spaced thresholds of each,
so that good splits, and with them tight budgets, are found early; a threshold expected to be good
(:meth:`IntervalSearch.try_first`) joins its column's first middles. Lower bounds of the children serve as well as exact costs,
so a child solved under a budget (and stopped at it) still bounds its neighbours.

Examples
--------
Four thresholds of one column; the children's costs at threshold 1 bound the others:

>>> import numpy as np
>>> search = IntervalSearch([np.array([1.0, 2.0, 3.0, 4.0])], [5.0], floor=0.0, pruning=True)
>>> search.candidates(10.0, 1)
[(0, 1)]
>>> search.record(0, 1, 0.0, 0.0)          # a perfect split at threshold 1
>>> search.candidates(0.0, 4), search.pruned
([], 3)

A batch with room for more thresholds than there are open intervals spreads over each interval:

>>> IntervalSearch([np.arange(1.0, 8.0)], [8.0], floor=0.0, pruning=True).candidates(10.0, 3)
[(0, 1), (0, 3), (0, 5)]
"""

from __future__ import annotations

import heapq

import numpy as np

__all__ = ["IntervalBatches", "IntervalSearch"]


class IntervalSearch:
    """The open intervals of thresholds of one subproblem, over all its columns.

    Parameters
    ----------
    cumulative : list of ndarray
        For each column, ``cumulative[f][i]``: the cost-weighted rows of the subproblem whose rank
        is at most threshold ``i``'s (increasing; one entry per threshold).
    totals : list of float
        The subproblem's cost-weighted rows (the same for every column; one entry per column).
    floor : float
        A lower bound on any child's cost (a leaf's penalty).
    pruning : bool
        Use the bounds of the module docstring; off, an interval's bound is ``2 × floor``.

    Attributes
    ----------
    pruned : int
        Thresholds closed without being evaluated.
    evaluated : int
        Thresholds evaluated.
    closed_bound : float
        The least bound of a closed interval (a lower bound on every threshold pruned).
    """

    def __init__(self, cumulative: list, totals: list, *, floor: float, pruning: bool):
        self.cumulative = cumulative
        self.totals = totals
        self.floor = floor
        self.pruning = pruning
        self.pruned = 0
        self.evaluated = 0
        self.closed_bound = float("inf")
        # Per column: evaluated threshold -> (lower bound of the left child, of the right child).
        self.known: list[dict] = [{} for _ in cumulative]
        self._heap: list = []                   # (bound, column, a, b): thresholds a+1 .. b-1 open
        self._pending: dict = {}                # (column, middle) -> (bound, a, b) handed out, not recorded
        self._stale: set = set()                # intervals in the heap whose bound is their parent's
        self._first: dict = {}                   # column -> a threshold to hand out with its first middles
        for f, cum in enumerate(cumulative):
            if len(cum):
                heapq.heappush(self._heap, (2 * floor, f, -1, len(cum)))

    # -- the bound ------------------------------------------------------------------------------
    def _ends(self, f: int, i: int) -> tuple[float, float, float]:
        """(left bound, right bound, cumulative weight) at threshold ``i`` (-1 and ``q``: no rows left / right)."""
        cum = self.cumulative[f]
        if i < 0:
            return self.floor, self.floor, 0.0
        if i >= len(cum):
            return self.floor, self.floor, self.totals[f]
        left, right = self.known[f][i]
        return left, right, cum[i]

    def child_bounds(self, f: int, a: int, m: int, b: int) -> tuple[float, float]:
        """Lower bounds on the left and right child of threshold ``m`` from the evaluated ``a < m < b``."""
        if not self.pruning:
            return self.floor, self.floor
        la, ra, wa = self._ends(f, a)
        lb, rb, wb = self._ends(f, b)
        w = self.cumulative[f][m]
        return max(la, lb - (wb - w), self.floor), max(rb, ra - (w - wa), self.floor)

    def interval_reach(self, f: int, a: int, m: int, b: int) -> float:
        """The cost-weighted rows between threshold ``m`` and the farther of its evaluated neighbours
        ``a < m < b``: how far a child's bound at ``m`` must exceed the budget to close a whole half
        of the interval by similarity."""
        cum = self.cumulative[f]
        below = cum[a] if a >= 0 else 0.0
        above = cum[b] if b < len(cum) else self.totals[f]
        return float(max(cum[m] - below, above - cum[m]))

    def monotone_bound(self, f: int, a: int, b: int) -> float:
        """The monotonicity part of :meth:`interval_bound`, in constant time: every threshold between
        ``a`` and ``b`` has a left child at least ``a``'s and a right child at least ``b``'s."""
        floor = self.floor
        if not self.pruning:
            return 2 * floor
        # _ends inlined: the heap asks this of nearly every interval it pops.
        known = self.known[f]
        la = known[a][0] if a >= 0 else floor
        rb = known[b][1] if b < len(self.cumulative[f]) else floor
        return (la if la > floor else floor) + (rb if rb > floor else floor)

    def interval_bound(self, f: int, a: int, b: int) -> float:
        """The least lower bound of a split at any threshold strictly between ``a`` and ``b``.

        As a function of the cumulative weight ``w`` left of a threshold, the left child's bound
        ``max(la, lb - (wb - w), floor)`` is a maximum of a constant and a line of slope one, and
        the right child's ``max(rb, ra - (w - wa), floor)`` likewise of slope minus one: their sum is
        convex, falls until ``w`` reaches the lesser of the two kinks, is flat between them and
        rises after. Its least value over the interval's thresholds is therefore at one of the two
        thresholds around the lesser kink, found by bisection of the sorted weights, not by
        evaluating every threshold.
        """
        floor = self.floor
        if not self.pruning:
            return 2 * floor
        la, ra, wa = self._ends(f, a)
        lb, rb, wb = self._ends(f, b)
        left_flat, right_flat = max(la, floor), max(rb, floor)
        shift_left, shift_right = lb - wb, ra + wa        # left: w + shift_left; right: shift_right - w
        # The left bound starts rising at w = left_flat - shift_left, the right one stops falling at
        # w = shift_right - right_flat; the sum is least from the lesser of the two on.
        kink = min(left_flat - shift_left, shift_right - right_flat)
        cum = self.cumulative[f]
        i = int(np.searchsorted(cum[a + 1:b], kink)) + a + 1      # the first threshold at or after the kink
        best = float("inf")
        for m in (i - 1, i):
            if a < m < b:
                w = cum[m]
                best = min(best, max(left_flat, w + shift_left) + max(right_flat, shift_right - w))
        return float(best)

    # -- the search -----------------------------------------------------------------------------
    def candidates(self, target: float, k: int) -> list[tuple[int, int]]:
        """Up to ``k`` thresholds to evaluate next, as ``(column, threshold)``: the middles of the
        open intervals of least bound (or several evenly spaced thresholds of an interval when the
        batch has room for more than the open intervals). Intervals whose bound reaches ``target``
        are closed. Every threshold handed out must be recorded before the next call."""
        out = []
        heap = self._heap
        while heap and len(out) < k:
            bound, f, a, b = heapq.heappop(heap)
            if (f, a, b) in self._stale:          # pushed with its parent's bound: compute its own now
                # Monotonicity alone first (constant time); the full bound only if that does not close it.
                bound = max(bound, self.monotone_bound(f, a, b))
                if bound < target:
                    self._stale.discard((f, a, b))
                    bound = max(bound, self.interval_bound(f, a, b))
                if heap and bound > heap[0][0]:
                    heapq.heappush(heap, (bound, f, a, b))
                    continue
            if bound >= target:
                # Every other interval's bound is at least this one's: all close at once, none popped.
                self._close(bound, a, b)
                self.pruned += sum(entry[3] - entry[2] - 1 for entry in heap)
                heap.clear()
                self._stale.clear()
                break
            # The room left in the batch is shared with the intervals still in the heap: at first (one
            # interval per column) each column gets several evenly spaced thresholds at once.
            share = max(1, min(b - a - 1, (k - len(out)) // (1 + len(heap))))
            middles = [a + (b - a) * (i + 1) // (share + 1) for i in range(share)]
            first = self._first.pop(f, None)
            if first is not None and a < first < b and first not in middles:
                if share < k - len(out):
                    middles = sorted(middles + [first])
                else:                                 # no room: it takes its nearest middle's place
                    middles[min(range(share), key=lambda i: abs(middles[i] - first))] = first
                    middles.sort()
                share = len(middles)
            for i, m in enumerate(middles):
                # Recording m opens (previous point, m), and the last one also (m, b): each part once.
                self._pending[(f, m)] = (bound, middles[i - 1] if i else a, b if i == share - 1 else m)
                out.append((f, m))
        return out

    def try_first(self, f: int, m: int) -> None:
        """Hand threshold ``m`` of column ``f`` out with the first middles taken from its interval (in
        place of the nearest one when the batch has no room for both): a split expected to be good,
        evaluated early for the incumbent it gives."""
        self._first[f] = m

    def _close(self, bound: float, a: int, b: int) -> None:
        self.pruned += b - a - 1
        self.closed_bound = min(self.closed_bound, bound)

    def interval_of(self, f: int, m: int) -> tuple[int, int]:
        """The evaluated neighbours ``(a, b)`` of a threshold handed out by :meth:`candidates`."""
        _, a, b = self._pending[(f, m)]
        return a, b

    def record(self, f: int, m: int, left: float, right: float) -> None:
        """Threshold ``m`` of column ``f`` was evaluated: lower bounds (or exact costs) of its children."""
        bound, a, b = self._pending.pop((f, m))
        self.evaluated += 1
        self.known[f][m] = (left, right)
        for lo, hi in ((a, m), (m, b)):
            if hi - lo > 1:
                # The parent interval's bound holds for its part; the part's own bound is computed
                # only if the part comes first in the heap (most parts are closed before that).
                heapq.heappush(self._heap, (bound, f, lo, hi))
                self._stale.add((f, lo, hi))

    def lower_bound(self) -> float:
        """The least bound over the thresholds not yet evaluated or closed (inf once none is left)."""
        bounds = [entry[0] for entry in self._heap[:1]] + [entry[0] for entry in self._pending.values()]
        return min(bounds, default=float("inf"))

    @property
    def open_intervals(self) -> int:
        """Intervals still open (not counting those handed out)."""
        return len(self._heap)


class IntervalBatches:
    """:class:`IntervalSearch` over a depth-two support's threshold positions, with the batch interface
    of :class:`.threshold_bounds.ThresholdBounds` (thresholds named by their positions in their
    columns' sorted rows, recorded a batch at a time).

    On a large support, a batch costs far more than its bookkeeping, and the heap touches only the
    intervals it pops where the array search bounds every open threshold after each batch: the
    depth-two solver takes this one there (:data:`.threshold_bounds.ARRAY_ENTRIES`).

    Examples
    --------
    >>> search = IntervalBatches(np.array([[1.0, 2.0, 3.0, 4.0, 5.0]]), np.ones((1, 4), dtype=bool),
    ...                          floor=0.0, pruning=True)
    >>> search.candidates(10.0, 1), search.pending.tolist()       # (column, position); entries
    ([(0, 1)], [2])
    >>> search.record_batch(search.pending, np.array([0.0]), np.array([3.0]))
    >>> search.candidates(2.5, 4), search.pruned                 # position 0's right child holds 1's
    ([(0, 2), (0, 3)], 1)
    """

    def __init__(self, weight_before: np.ndarray, searched: np.ndarray, *, floor: float, pruning: bool):
        self.positions = [np.flatnonzero(row) for row in searched]
        self.width = weight_before.shape[1] + 1
        self.search = IntervalSearch([w[p] for w, p in zip(weight_before, self.positions)],
                                     [float(w[-1]) for w in weight_before], floor=floor, pruning=pruning)
        self.pending = np.zeros(0, dtype=np.int64)
        self._chosen: list = []

    def candidates(self, target: float, k: int) -> list[tuple[int, int]]:
        """:meth:`IntervalSearch.candidates`, as ``(column, position)``; their entries in :attr:`pending`."""
        self._chosen = self.search.candidates(target, k)
        chosen = [(f, int(self.positions[f][m])) for f, m in self._chosen]
        self.pending = np.array([f * self.width + 1 + p for f, p in chosen], dtype=np.int64)
        return chosen

    def record_batch(self, entries: np.ndarray, left: np.ndarray, right: np.ndarray) -> None:
        """The batch handed out last was evaluated (``entries`` is :attr:`pending`)."""
        for (f, m), low, high in zip(self._chosen, left.tolist(), right.tolist()):
            self.search.record(f, m, low, high)
        self._chosen, self.pending = [], self.pending[:0]

    def try_first(self, f: int, p: int) -> None:
        """Hand the threshold at position ``p`` of column ``f`` out with its column's first middles."""
        self.search.try_first(f, int(np.searchsorted(self.positions[f], p)))

    def last_open_at_or_before(self, f: int, p: int) -> int | None:
        """The last threshold position at or before ``p`` of column ``f`` (its first if none is)."""
        at = self.positions[f]
        return int(at[max(0, int(np.searchsorted(at, p, side="right")) - 1)]) if len(at) else None

    def lower_bound(self) -> float:
        return self.search.lower_bound()

    @property
    def pruned(self) -> int:
        return self.search.pruned

    @property
    def evaluated(self) -> int:
        return self.search.evaluated

    @property
    def closed_bound(self) -> float:
        return self.search.closed_bound

    @property
    def open_intervals(self) -> int:
        return self.search.open_intervals

"""The terminal solvers over sorted values: the best tree of depth one, and the children of depth-two trees.

Brița, van der Linden and Demirović, *Optimal Classification Trees for Continuous Feature Data
Using Dynamic Programming with Branch-and-Bound* (AAAI 2025), section 4.3 (the specialised
depth-two solver; STreeD's "terminal solver" is the same idea). A subproblem is a support: its
rows in each column's sorted order, one row of ``cols`` per column. The best depth-one split on
column ``j`` comes from one pass over ``cols[j]``: the cumulative class weights give the left side
of every threshold at once, and the right side is the total minus the left.

For the depth-two solver, a batch of root thresholds is evaluated together. For each column
``j``, one pass over ``cols[j]`` with the rows of each root threshold's left child marked gives
the best split on ``j`` of both children of every root threshold in the batch. So the cost is one
pass per root threshold and column, for any number of classes, with sample weights and class
costs throughout.

Costs are in weight units: a row of class ``c`` and weight ``w`` misclassified costs
``w × cost_c`` (``cw[i, c]`` is ``w_i × cost_c`` on its own class ``c`` and 0 elsewhere), and a
leaf's loss is its cost-weighted total minus its largest class.

Examples
--------
>>> import numpy as np
>>> rank = np.array([[0, 1, 2, 3], [0, 1, 0, 1]], dtype=np.int32)
>>> cols = np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32)
>>> cw = np.array([[1.0, 0], [1, 0], [0, 1], [0, 1]])       # classes 0, 0, 1, 1 along column 0
>>> cost, split = best_depth_one(cols, rank, cw, penalty=0.1)
>>> round(cost, 6), split                                    # x0 <= rank 1: two pure leaves
(0.2, (0, 1))
>>> support = SupportColumns(cols, rank, cw)
>>> left, right = depth_two_children(support, np.array([1]), np.array([0]), penalty=0.1)
>>> left.round(6).tolist(), right.round(6).tolist()       # x1 <= rank 0: each child needs x0
([0.2], [0.2])
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from functools import cached_property

import numpy as np

from ..slices import SliceClock, drain

__all__ = ["leaf_loss", "threshold_positions", "class_boundaries", "class_boundary_mask", "best_depth_one",
           "split_columns", "whole_weights", "SupportColumns", "depth_two_children", "depth_two_by_column",
           "depth_two_steps", "depth_one_by_column", "batch_size"]

#: A column with thresholds at this share of its positions or fewer is summed segment by segment
#: (see :func:`_left_of_thresholds`).
SPARSE_SHARE = 0.1

#: Supports whose cost-weighted total stays below this are summed in int32 when their weights are whole.
INT32_TOTAL = 2 ** 30

#: With more than two classes, supports whose cost-weighted total stays below this are summed in
#: int16 when their weights are whole (every partial sum the kernels form is at most the total).
INT16_TOTAL = 2 ** 15 - 1

#: Supports with at most this many (column × column × row) entries are read all columns at once
#: (one pass per batch rather than one per column: fewer, larger array operations).
TOGETHER = 1 << 20

#: With more than two classes, supports with fewer rows than this (and at most ``TOGETHER`` entries)
#: are read all columns at once.
TOGETHER_ROWS = 4096

#: With more than two classes, the (column × column × row) entries of a support read all columns at
#: once can reach this: the multiclass pass holds one running sum per column, not one per class.
TOGETHER_MULTICLASS = 1 << 22

#: Ranks below this are held as int16 where the kernels read them (a rank is below the table's row count).
INT16_LIMIT = 2 ** 15

#: A depth-two batch handles about this many (root threshold × class × row × column) entries, so that
#: one unit of work stays short.
BATCH_ENTRIES = 1 << 19

#: ... and a batch of the two-class all-columns kernel (:attr:`SupportColumns.together`) about this many:
#: its cost per batch is small, so a smaller batch costs little, and it rarely evaluates thresholds that
#: the results of its first ones would have closed (a sequential order, ConTree's, evaluates each
#: threshold only after its neighbours' bounds are known); its arrays also stay in the processor's
#: cache, where a larger batch costs more per root threshold, not less. The per-column kernels keep
#: the larger batches: their fixed cost per batch (a pass per column) outweighs the thresholds saved.
TOGETHER_BATCH_ENTRIES = 1 << 16

#: ... but it holds at least this many root thresholds (when the limit allows): on wide supports fewer
#: would make its fixed cost per batch the larger part.
TOGETHER_FEWEST = 8


def _side(a: np.ndarray) -> np.ndarray:
    """Loss of a leaf for each vector of cost-weighted class totals (last axis): total minus the largest."""
    if a.shape[-1] == 2:
        return np.minimum(a[..., 0], a[..., 1])
    return a.sum(axis=-1) - a.max(axis=-1)


def leaf_loss(totals: np.ndarray) -> float:
    """Loss of one leaf with these cost-weighted class totals.

    Examples
    --------
    >>> leaf_loss(np.array([3.0, 1.0, 2.0]))
    3.0
    """
    return float(np.asarray(totals).sum() - np.asarray(totals).max())


def threshold_positions(ranks: np.ndarray) -> np.ndarray:
    """The positions ``p`` of a column's ranks in its sorted order after which the value changes: a
    threshold lies between rows ``p`` and ``p + 1``.

    Examples
    --------
    >>> threshold_positions(np.array([0, 0, 1, 3, 3])).tolist()
    [1, 2]
    """
    return np.flatnonzero(ranks[1:] != ranks[:-1])


def best_depth_one(cols: np.ndarray, rank: np.ndarray, cw: np.ndarray, *, penalty: float,
                   columns: Sequence[int] | None = None) -> tuple:
    """The best tree of depth at most one on a support.

    Parameters
    ----------
    cols : ndarray of int, shape (n_columns, n_support)
        The support's rows in each column's sorted order.
    rank : ndarray of int, shape (n_columns, n_rows)
        Each row's rank in each column.
    cw : ndarray of float, shape (n_rows, n_classes)
        Cost-weighted class weight of each row.
    penalty : float
        The cost of one leaf (weight units).
    columns : sequence of int, optional
        Only splits on these columns are tried (:func:`split_columns` names the columns that can
        hold a depth-two child's best split); all by default.

    Returns
    -------
    cost : float
        Loss plus ``penalty`` per leaf of the best tree.
    split : tuple of (column, rank) or None
        The root's split (rows of rank at most ``rank`` on one side), None for a leaf. A split is
        taken only when it costs strictly less than the leaf.
    """
    rows = cols[0]
    if cols.shape[0] == 0 or len(rows) < 2:
        return leaf_loss(cw[rows].sum(axis=0)) + penalty, None
    # Classes first, so that every pass below runs along the support (contiguous), one column at a time:
    # no columns × support × classes array is ever held.
    by_class = cw.T
    total = cw[rows].sum(axis=0)
    weight = float(total.sum())
    best, split = leaf_loss(total) + penalty, None
    for j in range(cols.shape[0]) if columns is None else columns:
        positions = threshold_positions(rank[j, cols[j]])
        if not len(positions):
            continue
        left = np.cumsum(by_class[:, cols[j]], axis=1)[:, positions]          # classes × thresholds
        # The two leaves lose the total minus the largest class on each side. The largest class is taken
        # one class row at a time: numpy's max over the short class axis is several times slower.
        largest, largest_right = left[0].copy(), total[0] - left[0]
        for c in range(1, len(total)):
            np.maximum(largest, left[c], out=largest)
            np.maximum(largest_right, total[c] - left[c], out=largest_right)
        costs = weight - largest - largest_right
        p = int(np.argmin(costs))
        if costs[p] + 2 * penalty < best:
            best, split = float(costs[p]) + 2 * penalty, (j, int(rank[j, cols[j, positions[p]]]))
    return best, split


def split_columns(by_column: np.ndarray, best: float) -> list:
    """The columns on which a depth-two child's best split can lie: those whose cost ``c_j`` (or
    lower bound on it, from :func:`depth_two_by_column`) is within rounding of the child's optimum
    ``best``. A column left out has ``c_j`` above the optimum, so its best split is not the child's.

    Examples
    --------
    >>> split_columns(np.array([0.5, 0.2, 0.2 + 1e-15, 0.7]), 0.2)
    [1, 2]
    """
    return np.flatnonzero(by_column <= best + 1e-9 * max(1.0, abs(best))).tolist()


def batch_size(n_support: int, n_classes: int, n_columns: int, limit: int, entries: int | None = None) -> int:
    """How many root thresholds one depth-two batch of about ``entries`` entries (:data:`BATCH_ENTRIES`
    by default) evaluates (at least one, at most ``limit``).

    Examples
    --------
    >>> batch_size(1000, 2, 4, 64), batch_size(10_000, 2, 8, 64), batch_size(10**6, 2, 4, 64)
    (64, 3, 1)
    >>> batch_size(1000, 2, 4, 64, entries=TOGETHER_BATCH_ENTRIES)
    8
    """
    entries = BATCH_ENTRIES if entries is None else entries
    return max(1, min(limit, entries // max(1, n_support * n_classes * n_columns)))


def whole_weights(cw: np.ndarray) -> bool:
    """Whether cost-weighted weights are whole numbers summing to less than :data:`INT32_TOTAL`, so
    that :class:`SupportColumns` sums them exactly as int32.

    Examples
    --------
    >>> whole_weights(np.eye(2)[[0, 1, 1]]), whole_weights(np.array([[0.5, 0.0]]))
    (True, False)
    """
    return bool(np.all(cw == np.round(cw))) and float(cw.sum()) < INT32_TOTAL


class SupportColumns:
    """What the depth-two solver reads of one support, computed once: per column ``j``, the
    cost-weighted class weights of its rows in ``j``'s order (classes × rows), their cumulative
    sums, the threshold positions, and every column's ranks of those rows.

    The arrays every kernel reads (the weights, their cumulative sums, the sorted ranks) are made
    for all columns at once in ``__init__``; what only some kernels read (the two-class kernel's
    segment starts and differences at the thresholds, the multiclass class runs, the all-columns
    kernel's gathers) is made the first time it is read. A support is set up for every depth-two
    subproblem, and a small two-class one is read only by the all-columns kernel
    (:attr:`together`).

    Parameters
    ----------
    cols, rank, cw
        As for :func:`best_depth_one`.
    integral : bool, optional
        Whether the weights of the whole table ``cw`` are whole numbers summing to less than
        :data:`INT32_TOTAL` (:func:`whole_weights`): then every support's are too. A solver knows
        it once for the table; by default the support's rows are checked.

    Examples
    --------
    >>> rank = np.array([[0, 1, 2, 3], [0, 1, 0, 1]], dtype=np.int32)
    >>> cols = np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32)
    >>> support = SupportColumns(cols, rank, np.eye(2)[[0, 0, 1, 1]])
    >>> support.sorted_ranks.tolist(), [p.tolist() for p in support.threshold_positions]
    ([[0, 1, 2, 3], [0, 0, 1, 1]], [[0, 1, 2], [1]])
    >>> support.cumulative[1].tolist()                  # classes × rows, in column 1's order
    [[1, 1, 2, 2], [0, 1, 1, 2]]
    """

    def __init__(self, cols: np.ndarray, rank: np.ndarray, cw: np.ndarray, *, integral: bool | None = None):
        self.cols = cols
        self.rank = rank
        n_columns = cols.shape[0]
        weighted = cw[cols[0]] if n_columns else cw[:0]
        # Whole weights (unweighted rows, accuracy) are summed as int32: exact, and half the memory
        # traffic of float64 in the cumulative sums that dominate the solver's time.
        if integral is None:
            integral = whole_weights(weighted)
        kind = np.int32 if integral else cw.dtype
        # Several classes: the per-column kernel's passes over (class × batch × support) arrays cost
        # about their bytes, so small whole-weight supports use int16. (Two classes keep int32: numpy's
        # cumulative sums, which the two-class all-columns kernel is made of, run faster in int32.)
        if integral and cw.shape[1] > 2 and float(weighted.sum()) < INT16_TOTAL:
            kind = np.int16
        # Column × class × row, each column's rows in its own order (one gather for every column; each
        # column's classes × rows block contiguous, as the per-column kernels read it).
        self.weighted = np.ascontiguousarray(cw.astype(kind, copy=False)[cols].transpose(0, 2, 1))
        self.cumulative = np.cumsum(self.weighted, axis=2, dtype=kind)     # column × class × row
        self.sorted_ranks = rank[np.arange(n_columns)[:, None], cols]      # column × row: each column's ranks, sorted
        self.total = self.cumulative[0, :, -1] if n_columns else np.zeros(cw.shape[1], dtype=kind)
        self._keys = self._together = None
        self._ranks: dict = {}
        self._class_runs: dict = {}
        # The kernels gather every column's ranks of a batch's rows and compare them with the root
        # thresholds' ranks: the narrowest type that holds them halves that traffic on small tables.
        self.rank_type = np.int16 if rank.shape[1] <= INT16_LIMIT else rank.dtype

    @cached_property
    def value_changes(self) -> np.ndarray:
        """Whether the value changes after each position of each column's sorted rows (column ×
        (rows - 1)): the support's thresholds, as a mask."""
        return self.sorted_ranks[:, 1:] != self.sorted_ranks[:, :-1]

    @cached_property
    def threshold_positions(self) -> list:
        """For each column, the positions ``p`` of its sorted rows after which the value changes."""
        return [np.flatnonzero(row) for row in self.value_changes]

    @cached_property
    def segment_starts(self) -> list:
        """Columns with few thresholds: where each segment between two thresholds starts (the last
        one, after the last threshold, is never needed); None for the others."""
        return [np.concatenate(([0], p + 1)) if len(p) <= SPARSE_SHARE * max(1, self.cols.shape[1] - 1)
                else None for p in self.threshold_positions]

    # Two classes: a leaf's loss is (weight - |class 0 - class 1|) / 2, so one cumulative sum of the
    # class difference per column does (see _two_class_column).
    @cached_property
    def difference(self) -> np.ndarray:
        """Two classes: each row's class-0 minus class-1 weight, in each column's order (column × row)."""
        return self.weighted[:, 0] - self.weighted[:, 1]

    @cached_property
    def difference_at_all(self) -> np.ndarray:
        """Two classes: the cumulative class difference at every position (column × row)."""
        return self.cumulative[:, 0] - self.cumulative[:, 1]

    @cached_property
    def difference_at_thresholds(self) -> list:
        """Two classes: per column, the cumulative class difference at its thresholds."""
        return [d[p] for d, p in zip(self.difference_at_all, self.threshold_positions)]

    def batch_size(self, limit: int) -> int:
        """How many root thresholds one depth-two batch on this support evaluates (at most ``limit``):
        :func:`batch_size` of :data:`BATCH_ENTRIES`, or of :data:`TOGETHER_BATCH_ENTRIES` but at least
        :data:`TOGETHER_FEWEST` when the two-class all-columns kernel reads it.

        Examples
        --------
        >>> rank = np.array([[0, 1, 2, 3], [0, 1, 0, 1]], dtype=np.int32)
        >>> cols = np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32)
        >>> SupportColumns(cols, rank, np.eye(2)[[0, 0, 1, 1]]).batch_size(64)
        64
        """
        n_columns, n = self.cols.shape
        if not self.together or len(self.total) > 2:        # the multiclass all-columns kernel: as per column
            return batch_size(n, len(self.total), n_columns, limit)
        return max(min(limit, TOGETHER_FEWEST), batch_size(n, len(self.total), n_columns, limit, TOGETHER_BATCH_ENTRIES))

    @property
    def together(self) -> bool:
        """Whether the depth-two solver reads all columns in one pass: supports with at most
        ``TOGETHER`` (column × column × row) entries for two classes (:func:`_all_columns`), and
        with more classes at most ``TOGETHER_MULTICLASS`` and fewer than ``TOGETHER_ROWS`` rows
        (:func:`_all_columns_multiclass`)."""
        n_columns, n = self.cols.shape
        # More classes: past TOGETHER_ROWS rows, bounding split blocks column by column
        # (:mod:`.split_blocks`) reads less than every column does.
        if len(self.total) == 2:
            return n_columns ** 2 * n <= TOGETHER
        return n_columns ** 2 * n <= TOGETHER_MULTICLASS and n < TOGETHER_ROWS

    def all_columns(self) -> tuple:
        """What :func:`_all_columns` reads, made once: every column's ranks of the rows in every
        column's order (root column × column × position, as :attr:`rank_type`), each column's
        threshold positions padded to one width by repeating its first, as indices into the
        flattened (column × position) axis (column × width; None when every position but the last
        is a threshold, and the thresholds are the positions themselves), which columns have none,
        the rows' class difference in each column's order (column × position) and the support's
        cumulative difference at those positions (column × width; two classes, see
        :func:`_two_class_column`)."""
        if self._together is None:
            n_columns, n = self.cols.shape
            ranks = self.rank[:, self.cols].astype(self.rank_type)            # root column × column × position
            changes = self.value_changes
            counts = changes.sum(axis=1)
            empty = counts == 0
            difference = self.difference
            if changes.all():                                                 # no ties: every position
                flat, whole = None, self.difference_at_all[:, :-1]
            else:
                owner, positions = np.nonzero(changes)                        # column by column, in order
                starts = np.cumsum(counts) - counts                           # where each column's run begins
                first = np.zeros(n_columns, dtype=np.int64)
                first[~empty] = positions[starts[~empty]]
                at = np.repeat(first[:, None], max(1, int(counts.max(initial=0))), axis=1)
                at[owner, np.arange(len(positions)) - starts[owner]] = positions
                whole = np.take_along_axis(self.difference_at_all, at, axis=1)  # column × width
                flat = (at + n * np.arange(n_columns)[:, None]).ravel()
            self._together = (ranks, flat, empty, difference, np.ascontiguousarray(whole, dtype=difference.dtype))
        return self._together

    def left_sizes(self, columns: np.ndarray, ranks: np.ndarray) -> np.ndarray:
        """How many of the support's rows each root threshold (``rank[columns[b]] <= ranks[b]``)
        sends left: one :func:`numpy.searchsorted` for the whole batch, in every column's sorted
        ranks laid end to end, each column's shifted above the one before (by the table's row count,
        which every rank is below), so that the concatenation is sorted.

        Examples
        --------
        >>> rank = np.array([[0, 1, 2, 3], [0, 1, 0, 1]], dtype=np.int32)
        >>> cols = np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32)
        >>> SupportColumns(cols, rank, np.eye(2)[[0, 0, 1, 1]]).left_sizes(np.array([0, 1, 1]), np.array([2, 0, 1])).tolist()
        [3, 2, 4]
        """
        n_columns, n = self.cols.shape
        shift = self.rank.shape[1]
        if self._keys is None:
            self._keys = (self.sorted_ranks.astype(np.int64) + np.arange(n_columns)[:, None] * shift).ravel()
        return np.searchsorted(self._keys, columns * shift + ranks, side="right") - columns * n

    def goes_left(self, j: int, columns: np.ndarray, ranks: np.ndarray) -> np.ndarray:
        """Which of the support's rows, in column ``j``'s order, each root threshold of a batch
        (``rank[columns[b]] <= ranks[b]``) sends left (batch × support). The thresholds' ranks are cast
        to :attr:`rank_type` first, so that the comparison runs in the narrow type.

        Examples
        --------
        >>> rank = np.array([[0, 1, 2, 3], [0, 1, 0, 1]], dtype=np.int32)
        >>> cols = np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32)
        >>> support = SupportColumns(cols, rank, np.eye(2)[[0, 0, 1, 1]])
        >>> support.goes_left(1, np.array([0]), np.array([1])).astype(int).tolist()   # x0 <= rank 1, in x1's order
        [[1, 0, 1, 0]]
        """
        order_ranks = self.ranks_in_order(j)
        return order_ranks[columns] <= ranks.astype(order_ranks.dtype)[:, None]

    def ranks_in_order(self, j: int) -> np.ndarray:
        """``rank[:, cols[j]]``: every column's rank of the support's rows in column ``j``'s order (as
        :attr:`rank_type`)."""
        made = self._ranks.get(j)
        if made is None:
            made = self._ranks[j] = self.rank[:, self.cols[j]].astype(self.rank_type)
        return made

    def class_runs(self, j: int) -> "ClassRuns":
        """Column ``j``'s rows split by class, for the multiclass kernel :func:`_column` (made once per column)."""
        made = self._class_runs.get(j)
        if made is None:
            made = self._class_runs[j] = ClassRuns(self, j)
        return made

    def all_class_runs(self) -> "AllClassRuns":
        """Every column's :class:`ClassRuns` laid end to end, for :func:`_all_columns_multiclass` (made once)."""
        made = self._class_runs.get("all")
        if made is None:
            made = self._class_runs["all"] = AllClassRuns(self)
        return made


def class_boundaries(labels: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """The thresholds of a column at which a depth-one split can be best: ``positions`` without
    those between two runs of equal values whose rows are all of one and the same class.

    Fayyad and Irani, *On the Handling of Continuous-Valued Attributes in Decision Tree
    Generation* (Machine Learning 8, 1992), show that the best cut lies on a boundary point; the
    same holds for the training error. Take consecutive thresholds ``t_s .. t_e`` whose rows
    between them are all of class ``c``. Moving the split from ``t_s`` to ``t_e`` only adds
    class-``c`` weight ``a_c`` to the left side (of any subset of the rows, such as a child's), and
    the gain ``max_k a_k + max_k (T_k - a_k)`` is convex in ``a_c`` (a sum of maxima of affine
    functions), so it is largest at ``t_s`` or ``t_e``: the thresholds strictly between need not be
    read. A run that reaches an end of the column ends in the split with an empty side (the leaf),
    which the callers count.

    Parameters
    ----------
    labels : ndarray of int, shape (n_support,)
        Each row's class, in the column's order.
    positions : ndarray of int
        The column's thresholds (a threshold ``p`` lies between positions ``p`` and ``p + 1``).

    Returns
    -------
    ndarray of int
        The thresholds kept, increasing.

    Examples
    --------
    >>> labels = np.array([0, 0, 0, 1, 1, 0, 1, 1])
    >>> class_boundaries(labels, np.array([0, 1, 2, 3, 5])).tolist()   # 0 | 0 | 0 | 1 | 1 0 | 1 1
    [2, 3, 5]
    """
    changes = np.zeros(max(len(labels) - 1, 0), dtype=bool)
    changes[positions] = True
    return np.flatnonzero(class_boundary_mask(labels[None], changes[None])[0])


def class_boundary_mask(labels: np.ndarray, changes: np.ndarray) -> np.ndarray:
    """:func:`class_boundaries` of every column at once, as a mask.

    Parameters
    ----------
    labels : ndarray of int, shape (n_columns, n_support)
        Each row's class, in each column's order.
    changes : ndarray of bool, shape (n_columns, n_support - 1)
        Whether the value changes after each position (the thresholds).

    Returns
    -------
    ndarray of bool, shape (n_columns, n_support - 1)
        The thresholds kept.

    Examples
    --------
    >>> labels = np.array([[0, 0, 0, 1, 1, 0, 1, 1]])
    >>> np.flatnonzero(class_boundary_mask(labels, np.array([[1, 1, 1, 1, 0, 1, 0]], dtype=bool))[0]).tolist()
    [2, 3, 5]
    """
    n_columns, n = labels.shape
    # Each row's run of equal values, numbered across columns; a run is mixed if two neighbours in it
    # differ in class.
    run = np.zeros((n_columns, n), dtype=np.int64)
    np.cumsum(changes, axis=1, out=run[:, 1:])
    run += (np.arange(n_columns) * n)[:, None]
    mixed = np.zeros(n_columns * n, dtype=bool)
    mixed[run[:, 1:][~changes & (labels[:, 1:] != labels[:, :-1])]] = True
    pure = ~mixed[run]
    # Pure runs on both sides hold the classes of the rows on both sides of the threshold.
    return changes & ~(pure[:, :-1] & pure[:, 1:] & (labels[:, :-1] == labels[:, 1:]))


class ClassRuns:
    """A support's rows in column ``j``'s order, grouped by class: what :func:`_column` sums.

    Only the column's thresholds at class boundaries are read (:func:`class_boundaries`).
    Every row carries one class (its cost-weighted weight sits on its own class), so the class-``c``
    weight left of a position is a running sum over the rows of class ``c`` alone. The rows are
    laid out class after class (in ``j``'s order within a class), so that one running sum along
    them serves every class: the class-``c`` weight left of a threshold is the running sum at the
    last row of ``c`` at or before it minus the running sum before ``c``'s first row.

    Attributes
    ----------
    ranks : ndarray, shape (n_columns, n_support)
        Every column's ranks of the rows, grouped by class.
    weights : ndarray or None
        The rows' weights, grouped by class (None when each is one: the running sum is then a count).
    last, before : ndarray of int, shape (n_classes, n_thresholds) and (n_classes, 1)
        Indices into the running sum with a leading zero: the last row of each class at or before
        each threshold, and the row before each class's first.
    at_thresholds : ndarray, shape (n_classes, n_thresholds)
        The support's class weights left of each threshold.
    kind : numpy dtype
        The weights' type (the sums stay in it).

    Examples
    --------
    >>> rank = np.array([[0, 1, 1, 2], [0, 1, 0, 1]], dtype=np.int32)
    >>> cols = np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32)
    >>> runs = SupportColumns(cols, rank, np.eye(3)[[0, 1, 2, 1]]).class_runs(0)
    >>> runs.last.tolist(), runs.before.ravel().tolist()       # thresholds after positions 0 and 2
    ([[1, 1], [1, 2], [3, 4]], [0, 1, 3])
    >>> (runs.last - runs.before).tolist() == runs.at_thresholds.tolist()
    True
    """

    def __init__(self, support: SupportColumns, j: int):
        weighted = support.weighted[j]                               # classes × support, in j's order
        self.kind = weighted.dtype
        label = weighted.argmax(axis=0)
        valid = class_boundaries(label, support.threshold_positions[j])
        grouped = np.argsort(label, kind="stable")                    # class after class, j's order within
        self.ranks = support.rank[:, support.cols[j, grouped]].astype(support.rank_type)
        weights = weighted[label[grouped], grouped]
        self.weights = None if np.all(weights == 1) else weights
        classes = np.arange(weighted.shape[0])[:, None]
        sizes = np.bincount(label, minlength=weighted.shape[0])
        self.before = np.concatenate(([0], np.cumsum(sizes)[:-1]))[:, None]
        # Rows of class c at positions up to p: a count over c's rows in j's order.
        self.last = self.before + np.cumsum(label == classes, axis=1, dtype=np.int64)[:, valid]
        self.at_thresholds = support.cumulative[j][:, valid]


class AllClassRuns:
    """Every column's :class:`ClassRuns` at once: what :func:`_all_columns_multiclass` sums.

    The rows of every column ``j`` (grouped by class, as :class:`ClassRuns` lays them out) sit one
    column after another along one axis of ``n_columns × (n_support + 1)`` places (each column's
    running sum with its leading zero), and every column's thresholds one after another along
    another (``n_thresholds`` of them in all, no padding), so that one gather reads every class
    total at every threshold of every column.

    Attributes
    ----------
    ranks : ndarray, shape (n_columns, n_columns, n_support)
        ``ranks[f, j, p]``: column ``f``'s rank of the ``p``-th row of column ``j``'s layout.
    weights : ndarray of shape (n_columns, n_support), or None
        The rows' weights in each layout (None when each is one).
    last : ndarray of int, shape (n_classes, n_thresholds)
        Indices into the flattened running sums (as :class:`ClassRuns`, offset by the column).
    before : ndarray of int, shape (n_classes, n_columns with thresholds)
        Where each class's rows begin in each column's layout (as :class:`ClassRuns`, offset by the
        column): one index per column, the same for all its thresholds.
    widths : ndarray of int
        How many thresholds each column that has thresholds has (``before`` repeated this many times
        lines up with ``last``).
    at_thresholds : ndarray, shape (n_classes, n_thresholds)
        The support's class weights left of each threshold.
    starts : ndarray of int
        Where each column that has thresholds starts along the thresholds' axis.
    has_thresholds : ndarray of bool, shape (n_columns,)
    """

    def __init__(self, support: SupportColumns):
        # What ClassRuns makes column by column, made for every column in one pass of each operation:
        # a support is set up for every depth-two subproblem, and small ones are most of them.
        n_columns, n = support.cols.shape
        weighted = support.weighted                                   # column × class × row
        n_classes = weighted.shape[1]
        self.kind = weighted.dtype
        # Each row's class and weight on it, found once (in column 0's order) and laid out in every
        # column's order; a narrow class type makes the stable sort by class a radix sort.
        own_class = weighted[0].argmax(axis=0)
        own_weight = weighted[0][own_class, np.arange(n)]
        by_row = np.empty(support.rank.shape[1], dtype=np.int8 if n_classes <= 127 else np.int64)
        by_row[support.cols[0]] = own_class
        label = by_row[support.cols]                                  # column × row, each column's order
        valid = class_boundary_mask(label, support.value_changes)
        owner, position = np.nonzero(valid)                           # column by column, in order
        grouped = np.argsort(label, axis=1, kind="stable")             # class after class, each column's order
        ordered = np.take_along_axis(support.cols, grouped, axis=1)
        self.ranks = support.rank[:, ordered].astype(support.rank_type)
        self.weights = None
        if not np.all(own_weight == 1):
            weight_of = np.zeros(support.rank.shape[1], dtype=self.kind)
            weight_of[support.cols[0]] = own_weight
            self.weights = weight_of[ordered]
        sizes = np.bincount(own_class, minlength=n_classes)          # the same in every column's order
        before = (np.cumsum(sizes) - sizes)[None, :] + (np.arange(n_columns) * (n + 1))[:, None]   # column × class
        self.at_thresholds = support.cumulative[owner, :, position].T
        # Rows of each class at or before each threshold: with unit weights, the class weights themselves
        # (whole numbers, whatever type the table's weights take).
        if self.weights is None:
            counts = self.at_thresholds.astype(np.int64)
        else:
            member = label[:, None, :] == np.arange(n_classes)[None, :, None]    # column × class × row
            counts = np.cumsum(member, axis=2, dtype=np.int64)[owner, :, position].T
        self.last = before[owner].T + counts                                     # class × threshold
        per_column = np.bincount(owner, minlength=n_columns)
        self.has_thresholds = per_column > 0
        self.starts = (np.cumsum(per_column) - per_column)[self.has_thresholds]
        self.widths = per_column[self.has_thresholds]
        self.before = before[self.has_thresholds].T                              # class × column


def depth_two_children(support: SupportColumns, columns: np.ndarray, ranks: np.ndarray, *,
                       penalty: float) -> tuple:
    """The optimal depth-one costs of both children of a batch of root thresholds.

    Parameters
    ----------
    support : SupportColumns
        The support (its rows in each column's order, with their weights).
    columns, ranks : ndarray of int, shape (batch,)
        Root threshold ``b`` sends the rows with ``rank[columns[b]] <= ranks[b]`` to the left child.
    penalty : float
        The cost of one leaf (weight units).

    Returns
    -------
    left, right : ndarray of float, shape (batch,)
        The cost of the best tree of depth at most one of each child.
    """
    left, right, _, _, _ = depth_two_by_column(support, columns, ranks, penalty=penalty)
    return left, right


def depth_one_by_column(support: SupportColumns, *, penalty: float) -> np.ndarray:
    """The best split's cost on each column of the whole support (``c_j`` of :func:`depth_two_by_column`).

    Examples
    --------
    >>> rank = np.array([[0, 1, 2, 3], [0, 1, 0, 1]], dtype=np.int32)
    >>> cols = np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32)
    >>> cw = np.array([[1.0, 0], [1, 0], [0, 1], [0, 1]])
    >>> depth_one_by_column(SupportColumns(cols, rank, cw), penalty=0.1).round(6).tolist()
    [0.2, 2.2]
    """
    total = support.total.astype(float)
    weight = float(total.sum())
    # A split with an empty side (the leaf with one more penalty) bounds every column's best split.
    degenerate = weight - float(total.max())
    out = np.full(len(support.threshold_positions), degenerate + 2 * penalty)
    for j, positions in enumerate(support.threshold_positions):
        if not len(positions):
            continue
        at = support.cumulative[j][:, positions]              # classes × thresholds
        # The largest class on each side, one class row at a time (see best_depth_one).
        largest, largest_right = at[0].astype(float), total[0] - at[0]
        for c in range(1, len(total)):
            np.maximum(largest, at[c], out=largest)
            np.maximum(largest_right, total[c] - at[c], out=largest_right)
        gain = largest + largest_right
        out[j] = min(out[j], weight - float(gain.max()) + 2 * penalty)
    return out


def depth_two_by_column(support: SupportColumns, columns: np.ndarray, ranks: np.ndarray, *, penalty: float,
                        lower_left: np.ndarray | None = None, lower_right: np.ndarray | None = None,
                        blocks=None) -> tuple:
    """:func:`depth_two_children` column by column, skipping the columns whose bounds cannot win.

    For each root threshold ``b`` of the batch and column ``j``, ``c_j`` is the cost of the best
    split of a child on ``j``, counting a split with an empty side (the leaf with one more
    penalty) among them; a child's optimum is the least of its leaf and every ``c_j``. Given lower
    bounds on each ``c_j`` (``lower_left[b, j]``, ``lower_right[b, j]``, from neighbouring root
    thresholds: :mod:`.column_bounds`), the columns are read in order of promise, and column ``j``
    is not read for threshold ``b`` when neither child's bound on it is below that child's best so
    far: the children's optima stay exact.

    Parameters
    ----------
    support, columns, ranks, penalty
        As for :func:`depth_two_children`.
    lower_left, lower_right : ndarray of float, shape (batch, n_columns), optional
        Lower bounds on ``c_j`` of each child; without them every column is read.
    blocks : SplitBlocks, optional
        Read a column block by block, only the blocks whose bound beats the child's best so far
        (:mod:`.split_blocks`); without it every row is read.

    Returns
    -------
    left, right : ndarray of float, shape (batch,)
        The cost of the best tree of depth at most one of each child.
    by_column_left, by_column_right : ndarray of float, shape (batch, n_columns)
        ``c_j`` of each child, or a lower bound on it where column ``j`` (or some of its blocks)
        was not read.
    skipped : int
        The (root threshold, column) pairs not read.

    Examples
    --------
    >>> rank = np.array([[0, 1, 2, 3], [0, 1, 0, 1]], dtype=np.int32)
    >>> cols = np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32)
    >>> cw = np.array([[1.0, 0], [1, 0], [0, 1], [0, 1]])
    >>> support = SupportColumns(cols, rank, cw)
    >>> out = depth_two_by_column(support, np.array([1]), np.array([0]), penalty=0.1)
    >>> out[0].round(6).tolist(), out[2].round(6).tolist(), out[4]
    ([0.2], [[0.2, 1.2]], 0)
    >>> out = depth_two_by_column(support, np.array([1]), np.array([0]), penalty=0.1,
    ...                           lower_left=np.array([[0.2, 1.2]]), lower_right=np.array([[0.2, 1.2]]))
    >>> out[0].round(6).tolist(), out[4]                       # column 1 cannot beat column 0's 0.2
    ([0.2], 1)
    """
    return drain(depth_two_steps(support, columns, ranks, penalty=penalty, lower_left=lower_left,
                                 lower_right=lower_right, blocks=blocks))


def depth_two_steps(support: SupportColumns, columns: np.ndarray, ranks: np.ndarray, *, penalty: float,
                    lower_left: np.ndarray | None = None, lower_right: np.ndarray | None = None,
                    blocks=None, clock: SliceClock | None = None,
                    positions: np.ndarray | None = None) -> Generator[None, None, tuple]:
    """:func:`depth_two_by_column` in slices: a generator that yields whenever ``clock`` is due (between
    two columns, and between two of the block grids a batch needs first) and returns what
    :func:`depth_two_by_column` returns, so that one batch on a large support keeps to the unit of
    work budget (:mod:`treeopt.solvers.slices`). The result does not depend on where the slices fall.
    ``positions``, if given, are the root thresholds' positions in their columns' sorted order
    (:attr:`SupportColumns.threshold_positions`), which spares finding them from the ranks.

    Examples
    --------
    >>> rank = np.array([[0, 1, 2, 3], [0, 1, 0, 1]], dtype=np.int32)
    >>> cols = np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32)
    >>> cw = np.array([[1.0, 0], [1, 0], [0, 1], [0, 1]])
    >>> steps = depth_two_steps(SupportColumns(cols, rank, cw), np.array([1]), np.array([0]), penalty=0.1,
    ...                         lower_left=np.zeros((1, 2)), lower_right=np.zeros((1, 2)), clock=SliceClock(0.0))
    >>> slices = 0
    >>> while True:
    ...     try:
    ...         next(steps)
    ...         slices += 1
    ...     except StopIteration as done:
    ...         left = done.value[0]
    ...         break
    >>> slices, left.round(6).tolist()                          # a slice after each of the two columns
    (2, [0.2])
    """
    n_batch, n_columns = len(columns), len(support.weighted)
    # Each left child's last position in its root column (known to a caller that took the thresholds
    # from the support's own positions).
    at = support.left_sizes(columns, ranks) - 1 if positions is None else positions
    total_left = support.cumulative[columns, :, at].astype(float)   # batch × classes
    total_right = support.total[None].astype(float) - total_left
    weight_left, weight_right = total_left.sum(axis=1), total_right.sum(axis=1)
    leaf_left = weight_left - total_left.max(axis=1) + penalty
    leaf_right = weight_right - total_right.max(axis=1) + penalty
    best_left, best_right = leaf_left.copy(), leaf_right.copy()
    if lower_left is None and blocks is None and support.together:
        # Every column read, and few enough entries: all columns in one pass (see _all_columns).
        kernel = _all_columns if len(support.total) == 2 else _all_columns_multiclass
        gain_left, gain_right = kernel(support, columns, ranks, total_left, total_right)
        # The split with an empty side: the leaf's gain.
        by_left = weight_left[:, None] - np.maximum(gain_left, total_left.max(axis=1)[:, None]) + 2 * penalty
        by_right = weight_right[:, None] - np.maximum(gain_right, total_right.max(axis=1)[:, None]) + 2 * penalty
        return (np.minimum(best_left, by_left.min(axis=1)), np.minimum(best_right, by_right.min(axis=1)),
                by_left, by_right, 0)
    if lower_left is None:
        by_left, by_right = np.empty((n_batch, n_columns)), np.empty((n_batch, n_columns))
        order = range(n_columns)
    else:
        by_left, by_right = lower_left.copy(), lower_right.copy()
        order = np.argsort((lower_left + lower_right).mean(axis=0), kind="stable")
    everyone = np.arange(n_batch)
    skipped = 0
    clock = clock or SliceClock(None)
    if blocks is not None:
        # The block grids of the batch's root columns, one slice at a time (each costs a pass over the support).
        for f in np.unique(columns).tolist():
            if blocks.grid_pending(f):
                blocks.grid(f)
                if clock.due():
                    yield
    two_classes = len(support.total) == 2
    for j in order:
        if lower_left is None:
            chosen = everyone
        else:
            chosen = np.flatnonzero((lower_left[:, j] < best_left) | (lower_right[:, j] < best_right))
            skipped += n_batch - len(chosen)
            if not len(chosen):
                continue
        gains = None
        if blocks is not None and support.segment_starts[j] is None:       # few thresholds: read whole
            # Gains at most these cannot beat the child's best so far (a margin keeps rounding on the safe side).
            need_left = weight_left[chosen] * (1 - 1e-12) + 2 * penalty - best_left[chosen]
            need_right = weight_right[chosen] * (1 - 1e-12) + 2 * penalty - best_right[chosen]
            gains = blocks.gains(j, None, columns[chosen], ranks[chosen], need_left=need_left, need_right=need_right,
                                 prefix=at[chosen] + 1)
        if gains is not None:
            gain_left, gain_right = gains
        else:
            kernel = _two_class_column if two_classes else _column
            gain_left, gain_right = kernel(support, j, columns[chosen], ranks[chosen],
                                           total_left[chosen], total_right[chosen])
        # The split with an empty side: the leaf's gain.
        cost_left = weight_left[chosen] - np.maximum(gain_left, total_left[chosen].max(axis=1)) + 2 * penalty
        cost_right = weight_right[chosen] - np.maximum(gain_right, total_right[chosen].max(axis=1)) + 2 * penalty
        by_left[chosen, j] = cost_left
        by_right[chosen, j] = cost_right
        best_left[chosen] = np.minimum(best_left[chosen], cost_left)
        best_right[chosen] = np.minimum(best_right[chosen], cost_right)
        if clock.due():
            yield
    return best_left, best_right, by_left, by_right, skipped


def _all_columns(support: SupportColumns, columns: np.ndarray, ranks: np.ndarray, total_left: np.ndarray,
                 total_right: np.ndarray) -> tuple:
    """The best split's gain on every column of both children of each root threshold (batch × column),
    for two classes.

    :func:`_two_class_column` for all columns at once: the same sums over (batch × column ×
    position) arrays, a few array operations per batch rather than a few per column. The
    cumulative sums run along the contiguous last axis. Each column's threshold positions are
    gathered at one width (a repeated position changes no extreme) with one :func:`numpy.take`
    along the flattened (column × position) axis; without ties every position but the last is a
    threshold, and the sums are read in place."""
    ranks_all, flat, empty, difference, whole = support.all_columns()
    n_batch, n_columns = len(columns), difference.shape[0]
    member = ranks_all[columns] <= ranks.astype(ranks_all.dtype)[:, None, None]   # batch × column × position
    cumulative = member * difference[None]
    np.cumsum(cumulative, axis=2, out=cumulative)
    if flat is None:
        left = cumulative[:, :, :-1]
    else:
        left = np.take(cumulative.reshape(n_batch, -1), flat, axis=1).reshape(n_batch, n_columns, -1)
    extremes = [left.max(axis=2), left.min(axis=2)]
    np.subtract(whole[None], left, out=left)                                    # right child
    extremes += [left.max(axis=2), left.min(axis=2)]
    gains = []
    for totals, high, low in ((total_left, *extremes[:2]), (total_right, *extremes[2:])):
        balance = (totals[:, 0] - totals[:, 1])[:, None]
        spread = np.maximum(2 * high - balance, balance - 2 * low)
        gain = (totals.sum(axis=1)[:, None] + spread) / 2
        gain[:, empty] = -np.inf
        gains.append(gain)
    return gains[0], gains[1]


def _column(support: SupportColumns, j: int, columns: np.ndarray, ranks: np.ndarray, total_left: np.ndarray,
            total_right: np.ndarray) -> tuple:
    """The best split's gain on column ``j`` of both children of each root threshold (any number of classes).

    A split of a child with class totals ``T`` loses ``W - max_c a_c - max_c (T_c - a_c)``, with
    ``a`` the class totals left of the split: the gain is the two maxima's sum (``-inf`` without a
    threshold).

    Each row has one class, so the class totals left of every position are not summed over
    (class × batch × position): one running sum goes along the rows laid out class after class
    (:class:`ClassRuns`) and is read at each class's last row before each threshold. The sums
    then cost one pass over the support per root threshold, whatever the number of classes,
    and a run of equal values is one position (its threshold) in everything after them."""
    valid = support.threshold_positions[j]
    if not len(valid):
        return np.full(len(columns), -np.inf), np.full(len(columns), -np.inf)
    runs = support.class_runs(j)
    kind, n_batch = runs.kind, len(columns)
    member = runs.ranks[columns] <= ranks.astype(runs.ranks.dtype)[:, None]   # batch × rows, by class
    running = _running_sums(member, runs.weights, kind)                  # batch × (1 + rows)
    # Batch × class × threshold (C-ordered): for each root threshold, the maxima over classes are
    # elementwise maxima of contiguous rows.
    a = np.take(running, runs.last, axis=1)
    a -= np.take(running, runs.before, axis=1)
    b = runs.at_thresholds[None] - a                       # right child, left of the split
    # The children's totals in the weights' type (whole numbers when the weights are): no pass
    # below widens to float.
    totals_left = total_left.astype(kind)[:, :, None]
    totals_right = total_right.astype(kind)[:, :, None]
    left_gain = a.max(axis=1) + (totals_left - a).max(axis=1)
    right_gain = b.max(axis=1) + (totals_right - b).max(axis=1)
    return left_gain.max(axis=1).astype(float), right_gain.max(axis=1).astype(float)


def _running_sums(member: np.ndarray, weights: np.ndarray | None, kind) -> np.ndarray:
    """Running sums along the last axis of ``member`` (times ``weights``, or counts without them), in
    type ``kind``, with a leading zero (no row yet), as :class:`ClassRuns` indexes them.

    Examples
    --------
    >>> _running_sums(np.array([[True, False, True]]), None, np.int32).tolist()
    [[0, 1, 1, 2]]
    >>> _running_sums(np.array([[True, False, True]]), np.array([2, 5, 3]), np.int32).tolist()
    [[0, 2, 2, 5]]
    """
    running = np.empty((*member.shape[:-1], member.shape[-1] + 1), dtype=kind)
    running[..., 0] = 0
    if weights is None:
        np.cumsum(member, axis=-1, dtype=kind, out=running[..., 1:])
    else:
        np.multiply(member, weights, out=running[..., 1:])
        np.cumsum(running[..., 1:], axis=-1, out=running[..., 1:])
    return running


def _all_columns_multiclass(support: SupportColumns, columns: np.ndarray, ranks: np.ndarray,
                            total_left: np.ndarray, total_right: np.ndarray) -> tuple:
    """:func:`_column` for every column at once (batch × column), for any number of classes.

    The same sums over (batch × column × row) arrays (:class:`AllClassRuns`): one comparison, one
    running sum along the rows and one gather at every column's thresholds, so a batch costs a few
    array operations rather than a few per column. The gains at the thresholds (batch × threshold)
    are then reduced column by column with :meth:`numpy.ufunc.reduceat`.

    Examples
    --------
    >>> rank = np.array([[0, 1, 2, 3], [0, 1, 0, 1]], dtype=np.int32)
    >>> cols = np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32)
    >>> support = SupportColumns(cols, rank, np.eye(3)[[0, 1, 2, 2]])
    >>> left, right = _all_columns_multiclass(support, np.array([1]), np.array([0]), np.array([[1.0, 0, 1]]),
    ...                                       np.array([[0.0, 1, 1]]))
    >>> left.tolist(), right.tolist()     # x1 <= rank 0 holds rows 0 and 2: x0 parts them, x1 cannot
    ([[2.0, 1.0]], [[2.0, 1.0]])
    """
    runs = support.all_class_runs()
    kind, n_batch = runs.kind, len(columns)
    member = runs.ranks[columns] <= ranks.astype(runs.ranks.dtype)[:, None, None]     # batch × column × row
    running = _running_sums(member, runs.weights, kind)                  # batch × column × (1 + rows)
    flat = running.reshape(n_batch, -1)
    a = np.take(flat, runs.last, axis=1)                                  # batch × class × threshold
    # Each class's running sum before its first row: one per column, repeated over its thresholds.
    a -= np.repeat(np.take(flat, runs.before, axis=1), runs.widths, axis=2)
    b = runs.at_thresholds[None] - a
    gains = []
    for side, totals in ((a, total_left), (b, total_right)):
        at = side.max(axis=1) + (totals.astype(kind)[:, :, None] - side).max(axis=1)   # batch × threshold
        gain = np.full((n_batch, len(runs.has_thresholds)), -np.inf)
        if len(runs.starts):
            gain[:, runs.has_thresholds] = np.maximum.reduceat(at, runs.starts, axis=1)
        gains.append(gain)
    return gains[0], gains[1]


def _left_of_thresholds(values: np.ndarray, valid: np.ndarray, starts: np.ndarray | None) -> np.ndarray:
    """The sums of ``values`` (last axis: a column's positions) up to each threshold position ``valid``.

    With few thresholds (``starts`` given: where each segment between two thresholds begins), one
    :meth:`numpy.ufunc.reduceat` sums each segment and a cumulative sum runs over the segments
    alone; otherwise one cumulative sum runs over every position (in place) and the thresholds are
    gathered with :func:`numpy.take` (C-ordered), or read in place when they are every position but
    the last.

    Examples
    --------
    >>> values = np.array([[1, -1, 1, 1, -1]])
    >>> _left_of_thresholds(values.copy(), np.array([1, 3]), None).tolist()
    [[0, 2]]
    >>> _left_of_thresholds(values.copy(), np.array([1, 3]), np.array([0, 2, 4])).tolist()
    [[0, 2]]
    """
    if starts is not None:
        segments = np.add.reduceat(values, starts, axis=-1)[..., :-1]
        return np.cumsum(segments, axis=-1, dtype=values.dtype)
    np.cumsum(values, axis=-1, out=values)
    if len(valid) == values.shape[-1] - 1:              # no ties: every position but the last, in place
        return values[..., :-1]
    return np.take(values, valid, axis=-1)


def _two_class_column(support: SupportColumns, j: int, columns: np.ndarray, ranks: np.ndarray,
                      total_left: np.ndarray, total_right: np.ndarray) -> tuple:
    """:func:`_column` for two classes, from the extremes of the cumulative class difference.

    With ``W`` a set's cost-weighted weight and ``D`` its class-0 minus class-1 weight, a leaf loses
    ``(W - |D|) / 2``, and the split of a child ``(W, D)`` whose left side has difference ``d`` loses
    ``(W - |d| - |D - d|) / 2``. Since ``|a| + |b| = max(|a + b|, |a - b|)``, the best split's
    ``|d| + |D - d|`` over a column's thresholds is ``max(|D|, 2 max d - D, D - 2 min d)``: the
    largest and least cumulative difference at the thresholds are all a column contributes (the
    gain is then ``(W + that) / 2``).
    """
    valid = support.threshold_positions[j]
    if not len(valid):
        return np.full(len(columns), -np.inf), np.full(len(columns), -np.inf)
    member = support.goes_left(j, columns, ranks)                             # batch × support
    # Left child, left of each threshold.
    left = _left_of_thresholds(member * support.difference[j], valid, support.segment_starts[j])
    high_left, low_left = left.max(axis=1), left.min(axis=1)
    np.subtract(support.difference_at_thresholds[j][None], left, out=left)     # right child
    high_right, low_right = left.max(axis=1), left.min(axis=1)
    gains = []
    for totals, high, low in ((total_left, high_left, low_left), (total_right, high_right, low_right)):
        difference = totals[:, 0] - totals[:, 1]
        spread = np.maximum(2 * high - difference, difference - 2 * low)
        gains.append((totals.sum(axis=1) + spread) / 2)
    return gains[0], gains[1]

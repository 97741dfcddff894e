"""Blocks of split positions bounded from partial sums: a depth-two child's best split without reading every row.

Brița, van der Linden and Demirović, *Optimal Classification Trees for Continuous Feature Data
Using Dynamic Programming with Branch-and-Bound* (AAAI 2025), section 4.2, bounds the splits
between two evaluated thresholds by the rows between them. The same argument bounds a block of
consecutive split positions of one column inside the depth-two solver (section 4.3), so that a
child's best split on a column is found from a few partial sums and the rows of the few blocks
that can hold it.

Each column's positions (the support in that column's order) are cut into blocks of ``s``
positions. With ``A_c(b)`` the child's class-``c`` weight at positions before block boundary
``b`` and ``T`` the child's class totals, a split after any position of block ``b`` (between
boundaries ``b`` and ``b + 1``) has left totals with ``A_c(b) <= a_c <= A_c(b + 1)``, so its gain
(the weight it classifies correctly, ``max_c a_c + max_c (T_c - a_c)``) is at most
``max_c A_c(b + 1) + max_c (T_c - A_c(b))``. Only the blocks whose bound beats the best split
found so far (at the boundaries, or on another column) are read row by row.

The partial sums come without a pass over the rows: for a root column ``f``, a grid holds the
class weights of the support's rows by (step of ``f``-positions, block of ``j``-positions),
cumulated over both. The left child of a root threshold is a prefix of ``f``'s order; its
``A_c`` at every boundary is one row of the grid plus the rows of the prefix past its last whole
step (fewer than a step). The right child's is the support's minus the left's. So a child's
split on a column costs about ``n / s`` partial sums, a step's rows and ``s`` rows per block
read, instead of ``n`` rows. Small supports, columns whose bounds leave most blocks to read, and
columns of few thresholds (whose segments between thresholds cost less to sum than the blocks to
bound) are read whole.

Examples
--------
>>> import numpy as np
>>> from treeopt.solvers.continuous.terminal import SupportColumns
>>> rng = np.random.default_rng(0)
>>> n = 200
>>> rank = np.stack([rng.permutation(n), rng.permutation(n)]).astype(np.int32)
>>> cols = np.argsort(rank, axis=1).astype(np.int32)
>>> cw = np.eye(2)[((rank[0] < 90) ^ (rank[1] < 120)).astype(int)]      # XOR of two thresholds
>>> support = SupportColumns(cols, rank, cw)
>>> blocks = SplitBlocks(support)
>>> blocks.size, blocks.count, blocks.step
(16, 13, 4)
>>> columns, ranks, anything = np.array([0, 0]), np.array([89, 150]), np.full(2, -np.inf)
>>> left, right = blocks.gains(1, None, columns, ranks, need_left=anything, need_right=anything)
>>> left.tolist(), right.tolist()           # x0 <= 89: each child splits perfectly on x1
([90.0, 94.0], [110.0, 49.0])
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["SplitBlocks"]

#: The grids of one support hold at most about this many entries (columns² × steps × boundaries × classes).
GRID_ENTRIES = 1 << 22

#: Blocks hold at least this many positions, and a column has at most ``MOST_BLOCKS`` of them
#: (about the square root of the support's rows below that).
LEAST_BLOCK = 16
MOST_BLOCKS = 512

#: The grid steps through a root column's order in at least this many and at most ``MOST_STEPS`` steps.
LEAST_STEPS = 8
MOST_STEPS = 64

#: Supports with fewer rows than this are read whole (the partial sums cost about as much as the rows).
FEWEST_ROWS = 1024

#: When the bounds leave more than this share of a column's blocks to read, the column is read
#: whole instead (every row in one pass costs less than most of the blocks one by one), and its
#: blocks are not bounded again for its next 1, 2, 4, … calls (at most ``LONGEST_PAUSE``): the
#: bar to beat rises as the search goes on, so they are tried again.
MOST_READ = 0.3
LONGEST_PAUSE = 32


class SplitBlocks:
    """The block bounds of one support (see the module docstring).

    Parameters
    ----------
    support : SupportColumns
        The support, as the depth-two solver reads it.

    Attributes
    ----------
    size : int
        Positions per block (``s``).
    count : int
        Blocks per column.
    step : int
        Positions of a root column's order per step of the grid.
    reach : int
        About how many positions per column a root threshold's children read.
    blocks_read, blocks_bounded : int
        Blocks read row by row, and blocks bounded (read or not).
    label, weight : ndarray, shape (n_support,)
        Each row's class and cost-weighted weight, by its position in column 0's order.
    uniform : bool
        Whether every row weighs the same (the grids then count rows without weights).
    """

    def __init__(self, support):
        self.support = support
        n = support.cols.shape[1]
        n_columns, n_classes = len(support.weighted), len(support.total)
        # About the square root of n blocks: the partial sums of a child cost about the number
        # of blocks, and the rows read about the size of one.
        self.size = max(LEAST_BLOCK, -(-n // min(MOST_BLOCKS, math.isqrt(n))))
        self.count = count = -(-n // self.size)
        steps = GRID_ENTRIES // max(1, n_columns * n_columns * n_classes * (count + 1))
        steps = max(LEAST_STEPS, min(MOST_STEPS, steps, n))
        self.step = -(-n // steps)
        self.steps = -(-n // self.step)
        self.n = n
        # About how many positions per column a root threshold's children read: the partial sums, the
        # rest of a step, and a few blocks (the depth-two solver sizes its batches by it).
        self.reach = min(n, count + self.step + 4 * self.size)
        s = self.size
        # Each row of the support by a local id (its position in column 0's order).
        local = np.empty(support.rank.shape[1], dtype=np.int64)
        local[support.cols[0]] = np.arange(n)
        self.local = np.stack([local[order] for order in support.cols])          # column × position -> id
        self.position = np.empty_like(self.local)                                # column × id -> position
        for j in range(n_columns):
            self.position[j, self.local[j]] = np.arange(n)
        self.block_of = self.position // s                                        # column × id -> block
        # Split after position p is a threshold of the column (the value changes after p).
        self.valid = np.zeros((n_columns, n), dtype=bool)
        for j, p in enumerate(support.threshold_positions):
            self.valid[j, p] = True
        ends = np.minimum(np.arange(count + 1) * s, n) - 1                        # last position before each boundary
        # The support's class weights before each boundary: column × class × (count + 1).
        self.whole = np.zeros((n_columns, n_classes, count + 1))
        for j, cum in enumerate(support.cumulative):
            self.whole[j, :, 1:] = cum[:, ends[1:]]
        self.boundary_valid = np.zeros((n_columns, count + 1), dtype=bool)
        self.boundary_valid[:, 1:count] = self.valid[:, ends[1:count]]
        # Each row has one class: its label and cost-weighted weight by local id (one count over
        # (class, cell) does every class at once, in the grids and in the rows past a whole step).
        first = support.weighted[0]
        self.label = first.argmax(axis=0)
        self.weight = first.max(axis=0).astype(float)
        self.uniform = bool(n) and bool(np.all(self.weight == self.weight[0]))
        # A row's grid cell offset within column j's part (column, class and block): column × id.
        self._cell_of = self.block_of + (np.arange(n_columns) * n_classes * self.steps * count)[:, None]
        # Every root column's grid (root column × column × class × step × boundary), made when first read.
        # Rows of one weight: the grids count rows (int32, exact below 2**31 rows) and a read scales them
        # by the weight; half the bytes of float64 in the cumulative sums that make a grid.
        self._grids = np.zeros((n_columns, n_columns, n_classes, self.steps + 1, count + 1),
                               dtype=np.int32 if self.uniform else float)
        self._made = np.zeros(n_columns, dtype=bool)
        self.blocks_read = 0
        self.blocks_bounded = 0
        self._pause = np.zeros(n_columns, dtype=int)          # calls left before a column's blocks are tried again
        self._next_pause = np.ones(n_columns, dtype=int)

    def grid_pending(self, f: int) -> bool:
        """Whether root column ``f``'s grid is still to be made."""
        return not self._made[f]

    def grid(self, f: int) -> np.ndarray:
        """For root column ``f``: ``grid[j, c, g, b]``, the class-``c`` weight of the rows among the
        first ``g × step`` of ``f``'s order whose position in ``j``'s order is before ``b × s`` (their
        count when every row weighs the same: :attr:`uniform`)."""
        if self._made[f]:
            return self._grids[f]
        count, steps = self.count, self.steps
        n_columns, n_classes = self.local.shape[0], len(self.support.total)
        ids = self.local[f]                                                       # f's order
        # The cell of each row in every column's part: its class and step (in f's order) and block.
        base = (self.label[ids] * steps + np.arange(self.n) // self.step) * count
        cell = self._cell_of[:, ids]
        cell += base[None]
        size = n_columns * n_classes * steps * count
        if self.uniform:
            counts = np.bincount(cell.ravel(), minlength=size).astype(np.int32)
        else:
            counts = np.bincount(cell.ravel(), weights=np.tile(self.weight[ids], n_columns), minlength=size)
        counts = counts.reshape(n_columns, n_classes, steps, count)
        np.cumsum(counts, axis=3, out=counts)
        # Summed in place (contiguous) and then copied: a cumulative sum written straight into the
        # grid's strided corner is slower.
        np.cumsum(counts, axis=2, out=counts)
        made = self._grids[f]
        made[:, :, 1:, 1:] = counts
        self._made[f] = True
        return made

    def gains(self, j: int, f_unused, columns: np.ndarray, ranks: np.ndarray, *, need_left: np.ndarray,
              need_right: np.ndarray, prefix: np.ndarray | None = None) -> tuple:
        """The best split's gain on column ``j`` of both children of each root threshold, where it
        beats ``need``; elsewhere an upper bound on it that does not.

        Parameters
        ----------
        j : int
            The column split on in the children.
        f_unused
            Unused (kept for symmetry with the row-by-row kernels).
        columns, ranks : ndarray of int, shape (batch,)
            The root thresholds.
        need_left, need_right : ndarray of float, shape (batch,)
            Gains at most these are not needed exactly (``-inf``: every gain exactly).
        prefix : ndarray of int, shape (batch,), optional
            The rows in each left child, if the caller knows them.

        Returns
        -------
        left, right : ndarray of float, shape (batch,)
            The greatest gain of a split on ``j`` of each child (``-inf`` without a threshold).
            None when the bounds leave more than ``MOST_READ`` of the blocks to read: the column is
            then better read whole.
        """
        if self._pause[j] > 0:
            self._pause[j] -= 1
            return None
        support, s, count = self.support, self.size, self.count
        n_batch, n_classes = len(columns), len(support.total)
        # Rows in each root threshold's left child: a prefix of its column's order.
        if prefix is None:
            prefix = np.array([np.searchsorted(support.sorted_ranks[f], r, side="right")
                               for f, r in zip(columns, ranks)])
        whole_steps = prefix // self.step
        # Class first (classes × batch × boundaries): maxima over classes are then elementwise.
        for f in np.unique(columns[~self._made[columns]]).tolist():
            self.grid(f)
        left = np.ascontiguousarray(self._grids[columns, j, :, whole_steps].transpose(1, 0, 2), dtype=float)
        if self.uniform:
            left *= self.weight[0]
        # The rows of the prefix past its last whole step (fewer than step).
        offsets = whole_steps[:, None] * self.step + np.arange(self.step)[None]
        inside = offsets < prefix[:, None]
        ids = self.local[columns[:, None], np.minimum(offsets, self.n - 1)]
        # One count over (row's class, threshold, block) cells does every class.
        cell = ((self.label[ids] * n_batch + np.arange(n_batch)[:, None]) * (count + 1) + self.block_of[j, ids] + 1)
        extra = np.bincount(cell.ravel(), weights=np.where(inside, self.weight[ids], 0).ravel(),
                            minlength=n_classes * n_batch * (count + 1))
        left += extra.reshape(n_classes, n_batch, count + 1).cumsum(axis=2)
        right = self.whole[j][:, None] - left
        out, refine = [], None
        for side, need in ((left, need_left), (right, need_right)):
            # The largest class left of each boundary, and right of it: each reduction made once serves
            # both the exact gains at the boundaries and the bounds of the blocks between them.
            largest, largest_right = side.max(axis=0), (side[:, :, -1:] - side).max(axis=0)
            # Exact gains at the boundaries that are thresholds.
            at_boundaries = largest + largest_right
            exact = np.where(self.boundary_valid[j][None], at_boundaries, -np.inf).max(axis=1)
            # A split inside block b: its left totals lie between boundaries b and b + 1.
            bound = largest[:, 1:] + largest_right[:, :-1]
            wanted = bound > np.maximum(need, exact)[:, None]
            refine = wanted if refine is None else refine | wanted
            out.append((exact, bound, side))
        rows, blocks = np.nonzero(refine)
        if len(rows) > MOST_READ * refine.size:
            self._pause[j] = self._next_pause[j]
            self._next_pause[j] = min(2 * self._next_pause[j], LONGEST_PAUSE)
            return None
        self._next_pause[j] = 1
        self.blocks_read += len(rows)
        self.blocks_bounded += refine.size
        if len(rows):
            positions = blocks[:, None] * s + np.arange(s)[None]
            inside = positions < self.n
            positions = np.minimum(positions, self.n - 1)
            # The root columns' ranks of the block's rows, from every column's ranks in j's order
            # (made once per support and column, in the narrowest type that holds them).
            order_ranks = support.ranks_in_order(j)
            member = order_ranks[columns[rows, None], positions] <= ranks.astype(order_ranks.dtype)[rows, None]
            member &= inside
            usable = self.valid[j][positions] & inside
            # Every class at once (class × block read × position), gathered with np.take so that the
            # arrays stay C-ordered and the maxima over classes reduce their outer axis.
            # In the weights' type: the grids' sums of whole weights are whole, so casting them is exact.
            kind = support.weighted[j].dtype
            cum_left = np.take(support.weighted[j], positions, axis=1)
            cum_left *= member
            np.cumsum(cum_left, axis=2, out=cum_left)
            cum_left += left[:, rows, blocks].astype(kind)[:, :, None]
            cum_right = np.take(support.cumulative[j], positions, axis=1) - cum_left
            for (exact, bound, side), cum in zip(out, (cum_left, cum_right)):
                gain = cum.max(axis=0) + (side[:, rows, -1:].astype(kind) - cum).max(axis=0)
                best = np.where(usable, gain, -np.inf).max(axis=1)
                np.maximum.at(exact, rows, best)
                bound[rows, blocks] = -np.inf                                    # read: its gain is exact
        return tuple(np.maximum(exact, bound.max(axis=1)) for exact, bound, _ in out)

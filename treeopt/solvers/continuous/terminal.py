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

import numpy as np

__all__ = ["leaf_loss", "best_depth_one", "SupportColumns", "depth_two_children", "batch_size"]

#: A depth-two batch handles about this many (root threshold × class × row × column) entries, so that
#: one unit of work stays short.
BATCH_ENTRIES = 1 << 19


def _side(a: np.ndarray, axis: int = -1) -> np.ndarray:
    """Loss of a leaf for each vector of cost-weighted class totals (along ``axis``): total minus the largest."""
    if a.shape[axis] == 2:
        first, second = np.moveaxis(a, axis, 0)
        return np.minimum(first, second)
    return a.sum(axis=axis) - a.max(axis=axis)


def leaf_loss(totals: np.ndarray) -> float:
    """Loss of one leaf with these cost-weighted class totals.

    Examples
    --------
    >>> leaf_loss(np.array([3.0, 1.0, 2.0]))
    3.0
    """
    return float(np.asarray(totals).sum() - np.asarray(totals).max())


def _valid_positions(cols: np.ndarray, rank: np.ndarray) -> list:
    """For each column, the positions ``p`` of ``cols[j]`` after which the value changes (the thresholds)."""
    out = []
    for j in range(cols.shape[0]):
        ranks = rank[j, cols[j]]
        out.append(np.flatnonzero(ranks[1:] != ranks[:-1]))
    return out


def best_depth_one(cols: np.ndarray, rank: np.ndarray, cw: np.ndarray, *, penalty: float) -> tuple:
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
    weighted = cw[cols]                                        # columns × support × classes
    cumulative = np.cumsum(weighted, axis=1)
    total = cumulative[0, -1]
    best, split = leaf_loss(total) + penalty, None
    for j, positions in enumerate(_valid_positions(cols, rank)):
        if not len(positions):
            continue
        left = cumulative[j, positions]
        costs = _side(left) + _side(total - left)
        p = int(np.argmin(costs))
        if costs[p] + 2 * penalty < best:
            best, split = float(costs[p]) + 2 * penalty, (j, int(rank[j, cols[j, positions[p]]]))
    return best, split


def batch_size(n_support: int, n_classes: int, n_columns: int, limit: int) -> int:
    """How many root thresholds one depth-two batch evaluates (at least one, at most ``limit``).

    Examples
    --------
    >>> batch_size(1000, 2, 4, 64), batch_size(10_000, 2, 8, 64), batch_size(10**6, 2, 4, 64)
    (64, 3, 1)
    """
    return max(1, min(limit, BATCH_ENTRIES // max(1, n_support * n_classes * n_columns)))


class SupportColumns:
    """What the depth-two solver reads of one support, computed once: per column ``j``, the
    cost-weighted class weights of its rows in ``j``'s order (classes × rows), their cumulative
    sums, the threshold positions, and every column's ranks of those rows.

    Parameters
    ----------
    cols, rank, cw
        As for :func:`best_depth_one`.
    """

    def __init__(self, cols: np.ndarray, rank: np.ndarray, cw: np.ndarray):
        self.cols = cols
        self.rank = rank
        self.weighted = [np.ascontiguousarray(cw[order].T) for order in cols]          # classes × support
        self.cumulative = [np.cumsum(w, axis=1) for w in self.weighted]
        self.positions = _valid_positions(cols, rank)
        self._ranks: dict = {}

    def ranks_in_order(self, j: int) -> np.ndarray:
        """``rank[:, cols[j]]``: every column's rank of the support's rows in column ``j``'s order."""
        made = self._ranks.get(j)
        if made is None:
            made = self._ranks[j] = self.rank[:, self.cols[j]]
        return made


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
    n_batch = len(columns)
    best_left = np.full(n_batch, np.inf)
    best_right = np.full(n_batch, np.inf)
    total_left = total_right = None
    for j in range(len(support.weighted)):
        weighted, cumulative, valid = support.weighted[j], support.cumulative[j], support.positions[j]
        member = support.ranks_in_order(j)[columns] <= ranks[:, None]               # batch × support
        left_cum = np.cumsum(member[:, None, :] * weighted[None], axis=2)           # batch × classes × support
        if total_left is None:
            total_left = left_cum[:, :, -1]
            total_right = cumulative[:, -1][None] - total_left
        if not len(valid):
            continue
        a = left_cum[:, :, valid]                              # left child, left of the split
        best_left = np.minimum(best_left, (_side(a, 1) + _side(total_left[:, :, None] - a, 1)).min(axis=1))
        b = cumulative[:, valid][None] - a                     # right child, left of the split
        best_right = np.minimum(best_right, (_side(b, 1) + _side(total_right[:, :, None] - b, 1)).min(axis=1))
    leaf_left = _side(total_left, 1) + penalty
    leaf_right = _side(total_right, 1) + penalty
    return np.minimum(leaf_left, best_left + 2 * penalty), np.minimum(leaf_right, best_right + 2 * penalty)

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

#: A column with thresholds at this share of its positions or more is read whole (see SupportColumns).
DENSE_SHARE = 0.75

#: Supports whose cost-weighted total stays below this are summed in int32 when their weights are whole.
INT32_TOTAL = 2 ** 30

#: A depth-two batch handles about this many (root threshold × class × row × column) entries, so that
#: one unit of work stays short.
BATCH_ENTRIES = 1 << 19


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
    # Classes first, so that every pass below runs along the support (contiguous), one column at a time:
    # no columns × support × classes array is ever held.
    by_class = cw.T
    total = cw[rows].sum(axis=0)
    weight = float(total.sum())
    best, split = leaf_loss(total) + penalty, None
    for j, positions in enumerate(_valid_positions(cols, rank)):
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
        weighted = cw[cols[0]] if len(cols) else cw[:0]
        # Whole weights (unweighted rows, accuracy) are summed as int32: exact, and half the memory
        # traffic of float64 in the cumulative sums that dominate the solver's time.
        integral = bool(np.all(weighted == np.round(weighted))) and float(weighted.sum()) < INT32_TOTAL
        kind = np.int32 if integral else cw.dtype
        self.weighted = [np.ascontiguousarray(cw[order].T).astype(kind) for order in cols]   # classes × support
        self.positions = _valid_positions(cols, rank)
        self.threshold_positions = list(self.positions)          # the thresholds, dense columns too
        # Each column's cumulative class weights at its thresholds (classes × thresholds), and its total.
        cumulative = [np.cumsum(w, axis=1) for w in self.weighted]
        # A column whose values are nearly all distinct is read at every position (a view, no copy),
        # the few positions between equal values made unusable by an infinite loss.
        self.blocked = []
        for j, (c, p) in enumerate(zip(cumulative, self.positions)):
            n_positions = c.shape[1] - 1
            if n_positions > 0 and len(p) >= DENSE_SHARE * n_positions:
                blocked = np.full(n_positions, np.inf)
                blocked[p] = 0.0
                self.blocked.append(blocked)
                self.positions[j] = slice(0, n_positions)
            else:
                self.blocked.append(None)
        self.at_thresholds = [c[:, p] for c, p in zip(cumulative, self.positions)]
        self.total = cumulative[0][:, -1] if cumulative else np.zeros(cw.shape[1])
        self._ranks: dict = {}
        if cw.shape[1] == 2:
            # Two classes: a leaf's loss is (weight - |class 0 - class 1|) / 2, so one cumulative sum
            # of the class difference per column does (see _two_class_children).
            self.difference = [w[0] - w[1] for w in self.weighted]
            self.difference_at_thresholds = [c[0, p] - c[1, p] for c, p in zip(cumulative, self.threshold_positions)]
            self.sorted_ranks = [rank[j, order] for j, order in enumerate(cols)]
            self.weight_cumulative = [c[0] + c[1] for c in cumulative]
            self.difference_cumulative = [c[0] - c[1] for c in cumulative]

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
    if len(support.total) == 2:
        return _two_class_children(support, columns, ranks, penalty)
    n_batch, n_classes = len(columns), len(support.total)
    # A split of a child with class totals T loses W - max_c a_c - max_c (T_c - a_c), with a the class
    # totals left of the split and W the child's weight: only the two largest class terms matter, so
    # they are accumulated class by class over contiguous (batch × positions) arrays.
    best_left = np.full(n_batch, -np.inf)
    best_right = np.full(n_batch, -np.inf)
    total_left = total_right = None
    for j in range(len(support.weighted)):
        weighted, valid = support.weighted[j], support.positions[j]
        member = support.ranks_in_order(j)[columns] <= ranks[:, None]               # batch × support
        blocked = support.blocked[j]
        if total_left is None:
            total_left = np.stack([member @ weighted[c] for c in range(n_classes)], axis=1)   # batch × classes
            total_right = support.total[None] - total_left
        if blocked is None and not len(valid):
            continue
        terms = None
        for c in range(n_classes):
            a = member * weighted[c]
            np.cumsum(a, axis=1, out=a)
            a = a[:, valid]                                     # left child, left of the split
            b = support.at_thresholds[j][c][None] - a          # right child, left of the split
            four = (a, total_left[:, c, None] - a, b, total_right[:, c, None] - b)
            if terms is None:
                terms = [t.copy() if t is a else t for t in four]
            else:
                for kept, t in zip(terms, four):
                    np.maximum(kept, t, out=kept)
        left_gain, right_gain = terms[0] + terms[1], terms[2] + terms[3]
        if blocked is not None:
            left_gain = left_gain - blocked
            right_gain = right_gain - blocked
        np.maximum(best_left, left_gain.max(axis=1), out=best_left)
        np.maximum(best_right, right_gain.max(axis=1), out=best_right)
    weight_left, weight_right = total_left.sum(axis=1), total_right.sum(axis=1)
    leaf_left = _side(total_left) + penalty
    leaf_right = _side(total_right) + penalty
    return (np.minimum(leaf_left, weight_left - best_left + 2 * penalty),
            np.minimum(leaf_right, weight_right - best_right + 2 * penalty))


def _two_class_children(support: SupportColumns, columns: np.ndarray, ranks: np.ndarray, penalty: float) -> tuple:
    """:func:`depth_two_children` for two classes, from the extremes of the cumulative class difference.

    With ``W`` a set's cost-weighted weight and ``D`` its class-0 minus class-1 weight, a leaf loses
    ``(W - |D|) / 2``, and the split of a child ``(W, D)`` whose left side has difference ``d`` loses
    ``(W - |d| - |D - d|) / 2``. Since ``|a| + |b| = max(|a + b|, |a - b|)``, the best split's
    ``|d| + |D - d|`` over a column's thresholds is ``max(|D|, 2 max d - D, D - 2 min d)``: the
    largest and least cumulative difference at the thresholds are all a column contributes.
    """
    # Each child's weight and difference, read off the root column's cumulative sums.
    at = np.array([np.searchsorted(support.sorted_ranks[f], r, side="right") - 1 for f, r in zip(columns, ranks)])
    weight_left = np.array([support.weight_cumulative[f][p] for f, p in zip(columns, at)])
    difference_left = np.array([support.difference_cumulative[f][p] for f, p in zip(columns, at)])
    weight_right = support.total.sum() - weight_left
    difference_right = (support.total[0] - support.total[1]) - difference_left
    high_left = np.full(len(columns), -np.inf)
    low_left = np.full(len(columns), np.inf)
    high_right, low_right = high_left.copy(), low_left.copy()
    for j in range(len(support.difference)):
        valid = support.threshold_positions[j]
        if not len(valid):
            continue
        member = support.ranks_in_order(j)[columns] <= ranks[:, None]               # batch × support
        cumulative = member * support.difference[j]
        np.cumsum(cumulative, axis=1, out=cumulative)
        left = cumulative[:, valid]                            # left child, left of each threshold
        np.maximum(high_left, left.max(axis=1), out=high_left)
        np.minimum(low_left, left.min(axis=1), out=low_left)
        np.subtract(support.difference_at_thresholds[j][None], left, out=left)     # right child
        np.maximum(high_right, left.max(axis=1), out=high_right)
        np.minimum(low_right, left.min(axis=1), out=low_right)
    best_left = np.maximum(2 * high_left - difference_left, difference_left - 2 * low_left)
    best_right = np.maximum(2 * high_right - difference_right, difference_right - 2 * low_right)
    leaf_left = (weight_left - np.abs(difference_left)) / 2 + penalty
    leaf_right = (weight_right - np.abs(difference_right)) / 2 + penalty
    return (np.minimum(leaf_left, (weight_left - best_left) / 2 + 2 * penalty),
            np.minimum(leaf_right, (weight_right - best_right) / 2 + 2 * penalty))

"""The depth-two solver over sorted values: threshold features as one sorted column each.

Briţa, van der Linden and Demirović, *Optimal Classification Trees for Continuous Feature
Data Using Dynamic Programming with Branch-and-Bound* (AAAI 2025), solve depth two on a
numeric column by sorting the rows once and sweeping the thresholds in order: the rows
left of a threshold are a prefix of the sorted rows, so the class counts of every
threshold are one cumulative sum. Here the same idea works on binary data, from the
features alone.

**Chains.** A *chain* is a run of consecutive features whose true sets are nested,
``f_a ⊆ f_b ⊆ f_c ⊆ …`` (or the reverse); the thresholds ``x <= t_1 < t_2 < …`` of one
numeric column, as :class:`~treeopt.binarize.Binarizer` and the all-threshold encodings list
them, form one chain. Sorting the points by their *rank* in a chain (the first of its
features that is true on them) puts, for every feature of the chain, the points where it is
true before those where it is false. So over a support set ``S`` every split on a
chain's features is "the first ``k`` points of ``S`` in chain order", and its class
weights are a cumulative sum: all splits of all chains cost ``O(|S| × chains)`` instead
of ``O(|S| × features)``. A feature that nests with neither neighbour is a chain of one
(one-hot columns), so the solver is exact on any binary data; it pays where chains are long.

**Search.** Each child of a root split costs at least its leaf or its equivalent-points
loss plus 2λ (GOSDT Theorems B.2, B.9), and a solved root split ``j`` bounds the children
of every other split ``k`` by the similar-support bound (GOSDT Theorem B.10,
:func:`~treeopt.solvers.gosdt.depth_two.similar_bounds`) with the weights ``w(f_j ∧ f_k)``, which
are the same cumulative sums over the rows of ``f_j``. Neighbouring thresholds differ by a
few rows, so one solved split closes a range of them (ConTree's threshold-range pruning).
The search over root splits is :func:`~treeopt.solvers.gosdt.depth_two.search_root_splits`, shared
with :meth:`~treeopt.solvers.gosdt.depth_two.DepthTwoSolver.bounded`: only how the weights of
``f_j ∧ f_k`` are counted differs.

Objectives are in weight units (scored loss + λ per leaf), like the solvers'.
"""

from __future__ import annotations

import numpy as np

from ...data import blocks, pack_columns
from .bit_columns import nested_neighbours
from ..slices import drain
from .depth_two import LEAF, SlicedRun, leaf_loss, search_root_splits_steps, whole_weights

__all__ = ["SortedDepthTwo", "nested_chains"]


def nested_chains(points: np.ndarray, column_words: np.ndarray | None = None) -> list[np.ndarray]:
    """Split the features into runs of consecutive features with nested true sets.

    Each returned chain lists feature indices so that their true sets grow:
    ``points[:, chain[i]]`` implies ``points[:, chain[i + 1]]``. A run may go either way
    in the data (``x <= t`` with rising or falling ``t``); equal neighbours nest both ways.

    Parameters
    ----------
    points : ndarray of bool, shape (n_points, n_features)
    column_words : ndarray of uint64, shape (n_features, words), optional
        ``pack_columns(points)`` when at hand (``Dataset.column_words``): the nesting of neighbours
        is read from it, 64 points at a time.

    Returns
    -------
    list of ndarray of int
        Every feature exactly once, in runs of consecutive features.

    Examples
    --------
    >>> x = np.array([1, 2, 3, 4])
    >>> points = np.stack([x <= 1, x <= 2, x <= 3, (x == 2) | (x == 3), x > 3, x > 1], axis=1)
    >>> [chain.tolist() for chain in nested_chains(points)]
    [[0, 1, 2], [3], [4, 5]]
    """
    n_features = np.shape(points)[1]
    if n_features == 0:
        return []
    rising, falling = nested_neighbours(pack_columns(points) if column_words is None else column_words)
    # Each neighbouring pair i (features i, i + 1) is equal (both ways), rising, falling or not nested.
    # A chain runs over equal pairs and pairs of its one direction (the first that is not equal sets
    # it); any other pair ends it, and the next chain starts at that pair's second feature. Jumping
    # from one such event to the next keeps the Python work per chain, not per feature (15,000
    # thresholds on breast cancer).
    pair_kind = np.where(rising & falling, 0, np.where(rising, 1, np.where(falling, -1, 2)))
    where = {kind: np.flatnonzero(pair_kind == kind) for kind in (-1, 1, 2)}
    n_pairs = n_features - 1

    def next_pair(kinds, after: int) -> int:
        """The first pair from ``after`` on whose kind is one of ``kinds`` (``n_pairs`` if none)."""
        found = n_pairs
        for kind in kinds:
            at = np.searchsorted(where[kind], after)
            if at < len(where[kind]):
                found = min(found, int(where[kind][at]))
        return found

    chains, start = [], 0
    while start < n_features:
        first = next_pair((-1, 1, 2), start)              # the first pair of the chain that is not equal
        if first >= n_pairs or pair_kind[first] == 2:       # only equal pairs, then the end or a break
            direction, stop = 0, first + 1
        else:
            direction = int(pair_kind[first])
            stop = next_pair((-direction, 2), first + 1) + 1
        chains.append((start, min(stop, n_features), direction))
        start = stop
    out = []
    for first, stop, direction in chains:
        run = np.arange(first, stop)
        out.append(run[::-1] if direction == -1 else run)
    return out


class SortedDepthTwo:
    """Exact depth-two solves over support sets, with the features grouped in sorted chains.

    Parameters
    ----------
    points : ndarray of bool, shape (n_points, n_features)
        The distinct binary feature vectors (``Dataset.points``).
    scored_counts : ndarray of float, shape (n_points, n_classes)
        Per point and class, the weight of its rows times that class's cost of a mistake.
    penalty : float
        λ in weight units.
    eps : float
        Tolerance for ties: a split must beat the leaf by more than ``eps``.
    chains : list of ndarray, optional
        Default :func:`nested_chains` of ``points``.

    Attributes
    ----------
    solves : int
        Support sets solved so far.

    Examples
    --------
    >>> x = np.arange(8)
    >>> points = np.stack([x <= t for t in range(7)], axis=1)          # one numeric column, 7 thresholds
    >>> counts = np.stack([(x % 4 < 2) * 5, (x % 4 >= 2) * 5], axis=1).astype(float)
    >>> solver = SortedDepthTwo(points, counts, penalty=1.0, eps=1e-9)
    >>> len(solver.chains)
    1
    >>> objective, spec = solver.best(np.ones(8, dtype=bool))
    >>> objective, spec           # 0,1 | 2,3 | 4,5 | 6,7 alternate: three splits, four pure leaves
    (4.0, (3, 5, 1))
    """

    #: Children are split only at the support's class boundaries (:meth:`_class_boundaries`; exact).
    boundary_children = True

    def __init__(self, points: np.ndarray, scored_counts: np.ndarray, penalty: float, eps: float,
                 chains: list | None = None):
        points = np.asarray(points, dtype=bool)
        self.scored = np.asarray(scored_counts, dtype=np.float64)
        self.penalty, self.eps = float(penalty), float(eps)
        self.n_points, self.n_features = points.shape
        self.chains = nested_chains(points) if chains is None else [np.asarray(c) for c in chains]
        # rank[c, u]: the first feature of chain c true on point u (its length if none), and
        # order[c]: the points sorted by that rank, so each feature's true points come first.
        self.rank = self._ranks(points)
        self.order = np.argsort(self.rank, axis=1, kind="stable")
        self.point_eq = self.scored.sum(axis=1) - self.scored.max(axis=1)
        # Whole weights (unit costs, no fractional sample weights) are summed as integers: numpy's
        # integer cumulative sums are about four times faster than its floating-point ones, and exact.
        self.whole = whole_weights(self.scored)
        whole = self.whole and self.scored.sum() < 2.0 ** 52
        self._summed = self.scored.astype(np.int64) if whole else self.scored
        # Two classes: the pair weights are summed as each point's weight and class difference
        # (w₀ + w₁, w₁ − w₀), which the children's splits read directly (two_class_depth_two.py).
        self._weight_difference = None
        if self.scored.shape[1] == 2:
            self._weight_difference = np.stack([self._summed.sum(axis=1), self._summed[:, 1] - self._summed[:, 0]],
                                               axis=1)
        # The class of each point that has weight in one class only (-1 for mixed points).
        has_weight = self.scored > 0
        self.pure_class = np.where(has_weight.sum(axis=1) == 1, has_weight.argmax(axis=1), -1)
        self.solves = 0

    def _ranks(self, points: np.ndarray) -> np.ndarray:
        """``rank[c, u]``: the first feature of chain ``c`` true on point ``u`` (its length if none).

        Along a chain the true sets grow, so a point is true on a suffix of it and its rank is the
        chain's length minus the chain's features true on it. Chains that are runs of consecutive
        features (what :func:`nested_chains` returns) read it from the first true or false feature
        of the run; other chains count their true features.
        """
        if not self.chains:
            return np.zeros((0, self.n_points), dtype=np.int32)
        lengths = np.array([len(chain) for chain in self.chains])
        starts = np.array([int(chain.min()) for chain in self.chains])
        stops = np.array([int(chain.max()) + 1 for chain in self.chains])
        runs = np.array_equal(stops - starts, lengths) and np.array_equal(starts[1:], stops[:-1]) \
            and starts[0] == 0 and stops[-1] == self.n_features
        if not runs:
            true_on = np.stack([points[:, chain].sum(axis=1, dtype=np.int32) for chain in self.chains])
            return (lengths[:, None] - true_on).astype(np.int32)
        # A run's true features are a suffix of it (rising) or a prefix (falling), so the first
        # true (or false) feature of each point gives the count: a byte scan that stops early,
        # faster than summing every feature.
        rank = np.empty((len(self.chains), self.n_points), dtype=np.int32)
        for c, (start, stop, chain) in enumerate(zip(starts, stops, self.chains)):
            for first, last in blocks(self.n_points, stop - start):   # bounded pieces on wide tables
                run = points[first:last, start:stop]
                if chain[0] <= chain[-1]:               # rising: rank = the first true feature
                    rank[c, first:last] = np.where(run[:, -1], run.argmax(axis=1), stop - start)
                else:                                   # falling: rank = the run's features after the trues
                    rank[c, first:last] = np.where(run[:, -1], 0, (stop - start) - run.argmin(axis=1))
        return rank

    def best(self, mask: np.ndarray, target: float = np.inf) -> tuple[float, object]:
        """``(objective, spec)`` of the best tree of depth at most two over a mask's points.

        Exact when the optimum is below ``target - eps``; otherwise ``(target - eps, None)``,
        a lower bound (nothing beats the target). The spec is ``LEAF`` or
        ``(root, left, right)`` dataset features, ``LEAF`` for a leaf child, as
        :meth:`treeopt.solvers.gosdt.depth_two.DepthTwoSolver.best` returns.
        """
        return drain(self.best_steps(mask, target))

    def start(self, mask: np.ndarray, target: float, slice_seconds: float | None = None,
              depth: int = 2) -> SlicedRun:
        """:meth:`best` as a run that advances one slice at a time (for a stepwise search; depth two only)."""
        if depth != 2:
            raise ValueError(f"the sorted depth-two solver solves depth two, not {depth}")
        return SlicedRun(self.best_steps(mask, float(target), slice_seconds))

    def best_steps(self, mask: np.ndarray, target: float = np.inf, slice_seconds: float | None = None):
        """:meth:`best` in slices: a generator that yields between two tried root splits when a slice
        is spent, and returns the same ``(objective, spec)``."""
        self.solves += 1
        lam, eps, loss = self.penalty, self.eps, leaf_loss
        mask = np.asarray(mask, dtype=bool)
        m = int(mask.sum())
        total = self.scored[mask].sum(axis=0)[:, None]                  # (K, 1)
        leaf = float(loss(total)[0]) + lam
        best, spec = target - eps, None
        if leaf < best:
            best, spec = leaf, LEAF
        if m < 2 or not self.chains:
            return best, spec
        n_chains = len(self.chains)
        # Split (c, k) puts the first k + 1 of S's points in chain c's order on the true side; it is
        # a real split when the next point has a higher rank. Only those are kept (``splits``, as
        # flat indices c * m + k); arrays over them are class-major, (K, n_splits).
        order = self.order[mask[self.order]].reshape(n_chains, m)      # S's points in each chain's order
        rank = np.take_along_axis(self.rank, order, axis=1)
        valid = np.zeros((n_chains, m), dtype=bool)
        valid[:, :-1] = rank[:, :-1] < rank[:, 1:]
        splits = np.flatnonzero(valid)
        if len(splits) == 0:
            return best, spec
        weights = np.ascontiguousarray(np.moveaxis(self._summed[order], 2, 0))  # (K, chains, m)
        n_classes = weights.shape[0]
        single = np.cumsum(weights, axis=2).reshape(n_classes, -1).take(splits, axis=1)  # the true side's weight
        right_leaf = loss(single) + lam
        left_leaf = loss(total - single) + lam
        eq_prefix = np.cumsum(self.point_eq[order], axis=1).ravel()[splits]
        eq_total = float(self.point_eq[mask].sum())
        two = 2 * lam
        low_right = np.minimum(right_leaf, eq_prefix + two)
        low_left = np.minimum(left_leaf, (eq_total - eq_prefix) + two)
        in_true_side = np.zeros(self.n_points, dtype=bool)
        children = self._class_boundaries(order, valid, splits) if self.boundary_children else None
        child_splits = splits if children is None else splits[children]

        # What pair_with sums: the class weights, or with two classes each point's (w₀ + w₁, w₁ − w₀).
        two_classes = self._weight_difference is not None
        summed = np.ascontiguousarray(np.moveaxis(self._weight_difference[order], 2, 0)) if two_classes else weights

        def pair_with(j: int, alive: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            """Class weights of the rows on the true side of both split ``j`` and each split ``k``:
            per class (two classes: their difference) at the children's candidates, summed over the
            classes at the splits still open (``alive``, indices into ``splits``)."""
            c, k = divmod(int(splits[j]), m)
            in_true_side[:] = False
            in_true_side[order[c, :k + 1]] = True
            pair = np.cumsum(summed * in_true_side[order], axis=2).reshape(len(summed), -1)
            at = splits.take(alive)
            if two_classes:
                return pair[1].take(child_splits), pair[0].take(at)
            return pair.take(child_splits, axis=1), pair.take(at, axis=1).sum(axis=0)

        best, split = yield from search_root_splits_steps(total[:, 0], single, left_leaf, right_leaf, low_left,
                                                          low_right, pair_with, lam, eps, best, children,
                                                          slice_seconds)
        if split is not None:
            spec = tuple(LEAF if k == LEAF else self._feature(int(splits[k]), rank, m) for k in split)
        return best, spec

    def _class_boundaries(self, order: np.ndarray, valid: np.ndarray, splits: np.ndarray) -> np.ndarray:
        """The splits a child's best split into two leaves is found among: the class boundaries.

        Group the support's points of each chain by equal rank (rows no threshold of the chain
        separates). Between two groups that hold only one and the same class, moving the threshold
        over a group moves rows of that class alone from one side to the other, and the loss of two
        leaves, ``min`` of linear functions on each side, is concave in how many moved, so it is
        least at an end of the run of such groups (Fayyad and Irani's boundary points, here for
        the misclassification loss). The same holds on every subset of the support, so a child of
        any root split has a best split into two leaves at a class boundary of the whole support.
        Returns indices into ``splits``.
        """
        n_chains, m = order.shape
        pure = self.pure_class[order].ravel()                 # each point's only class, or -1 (mixed)
        starts = np.ones((n_chains, m), dtype=bool)           # where a group of equal rank starts
        starts[:, 1:] = valid[:, :-1]
        first = np.flatnonzero(starts)
        low, high = np.minimum.reduceat(pure, first), np.maximum.reduceat(pure, first)
        group_class = np.where(low == high, low, -1)          # the group's only class, or -1
        group = np.cumsum(starts.ravel()) - 1                 # the group of each position
        left = group[splits]                                  # a split lies between groups g and g + 1
        inside_a_run = (group_class[left] == group_class[left + 1]) & (group_class[left] >= 0)
        return np.flatnonzero(~inside_a_run)

    def _feature(self, split: int, rank: np.ndarray, m: int) -> int:
        """The dataset feature of split ``c * m + k``: chain ``c``'s split after S's ``k``-th point in its order."""
        c, k = divmod(split, m)
        return int(self.chains[c][rank[c, k]])             # the split "rank <= r" on chain c

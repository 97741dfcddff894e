"""Good trees early: CART's tree as a floor, then limited discrepancy passes over ranked splits.

The exact search of :mod:`.search` proves the optimum but may hold its first tree for a long
time on a deep budget: its first complete tree waits for a whole subtree to be solved. This
module finds complete trees of the full depth quickly and hands each better one to the exact
search as its incumbent (the exact search then solves the root under that budget, so a good
incumbent prunes from its first threshold on).

* **CART floor** (Breiman, Friedman, Olshen, Stone, *Classification and Regression Trees*, 1984,
  chapter 4): the Gini-greedy tree of the depth budget, each split replaced by a leaf where a leaf
  costs no more (cost-complexity pruning at λ, chapter 3), grown level by level with each level's
  tree offered as it is complete, so a large fit holds CART's shallower trees within its first
  moments, and its incumbent is never worse than CART's tree of the same depth once CART is done.
* **Limited discrepancy search** (Harvey and Ginsberg, *Limited Discrepancy Search*, IJCAI 1995),
  the anytime variant of ConTree (pytrees-rs, ``ConTreeClassifier(use_lds=True)``): every node of
  depth three or more ranks a few candidate splits by a cheap score (Gini impurity picks them, one
  per column first, and the cost of the split's best depth-two tree, :mod:`.terminal`, orders them),
  and the last two levels are solved exactly by the search's own depth-two solver. Pass ``k``
  allows ``k`` discrepancies: a node may take its ``i``-th ranked split (``i <= k``) and leaves
  ``k - i`` to each child. Pass ``k + 1`` contains every tree of pass ``k``, so the passes
  improve monotonically; results of earlier passes are memoised, so a pass pays only for its new
  subproblems. The passes stop when two in a row bring no better tree, when a tree without
  errors is found, or when every node's candidates are exhausted.
* **Quick passes first.** The exact depth-two solver is most of a pass's cost on a large table.
  The first passes finish each depth-two node with the best of its ranked candidates instead
  (each candidate's depth-two cost is already known from the ranking: the split followed by the
  best depth-one split of each child), so a complete tree of the full depth comes at the cost of
  the rankings alone. They run with the same discrepancies and stopping rule; the passes with the
  exact depth-two solver follow, and each of their trees is at least as good as the quick pass
  with the same discrepancies (the same splits above, the optimum below).
* **Proposals from a sample of a large node.** A node with more than :data:`SAMPLE_ROWS` rows
  proposes and orders its candidates on a fixed random subset of that many rows (a row's draw is
  the same at every node, so a child's sample lies inside its parent's), then scores the kept
  candidates on all its rows. Only the choice of candidates is approximate: every cost the
  passes compare is computed on the full data.
* **Error-free nodes are done.** At λ = 0 a node whose tree makes no error takes no further
  candidates (a later one could only save leaves, which the exact search settles).

All work is done in slices (:class:`~treeopt.solvers.slices.SliceClock`): the generators yield
when a unit of work is spent, and the trees they find do not depend on where the slices fall.

Trees are the search's nested tuples: ``("leaf",)`` or ``("split", column, rank, low, high)``
with ``low`` the rows of rank at most ``rank``. Costs are in weight units with the search's
per-leaf charge.

Examples
--------
>>> import numpy as np
>>> from treeopt.sorted_columns import SortedDataset
>>> from treeopt.solvers.continuous import ContinuousSearch
>>> rng = np.random.default_rng(1)
>>> X = rng.normal(size=(200, 3))
>>> y = ((X[:, 0] > 0) ^ (X[:, 1] > 0.5)) & (X[:, 2] > -0.5)
>>> solver = ContinuousSearch(SortedDataset.from_arrays(X, y), regularization=0, depth_budget=3,
...                           strategies={"error_free_first": False})   # else a tree without errors is sought first
>>> solver.passes_at_depth_three_above = 0     # at depth three a table this small skips the passes
>>> result = solver.run()
>>> result.optimal, result.objective
(True, 0.0)
>>> solver.prune_counts["cart_start"], solver.prune_counts["discrepancy_search"] > 0
(1, True)
"""

from __future__ import annotations

import hashlib

import numpy as np

from ..slices import SliceClock
from .terminal import SupportColumns, batch_size, best_depth_one, depth_two_children, leaf_loss, threshold_positions

__all__ = ["DiscrepancySearch", "cart_floor", "gini_tree"]

_LEAF = ("leaf",)

#: Candidate splits ranked at a node of depth three or more (the widest discrepancy a pass can use).
CANDIDATES = 12

#: Splits proposed by Gini impurity at such a node, of which the depth-two cost keeps the best ones.
PROPOSALS = 64

#: Passes in a row without a better tree after which an order's passes stop.
PATIENCE = 2

#: The same for the quick passes (the exact ones that follow contain their trees).
QUICK_PATIENCE = 1

#: A column's next candidate threshold lies at least this share of the node's weight away from its
#: earlier candidates (so that the candidates are different splits, not neighbours of one split).
SPREAD = 0.03

#: A node with more rows proposes its candidate splits from a fixed random subset of this many rows.
SAMPLE_ROWS = 4096


def _key(cols: np.ndarray) -> bytes:
    return hashlib.blake2b(cols[0].tobytes(), digest_size=16).digest()


def _gini_scores(cols: np.ndarray, rank: np.ndarray, cw: np.ndarray, clock: SliceClock):
    """Generator: for each column, the positions of its thresholds, their ranks and Gini scores.

    The score of a split is the weighted Gini impurity of its two sides, ``W_l - Σ l_c² / W_l +
    W_r - Σ r_c² / W_r`` (less is better; CART's criterion). Yields between columns when the
    slice is spent; returns a list of ``(threshold ranks, cumulative weights, scores)`` per column.
    """
    out = []
    for j in range(cols.shape[0]):
        ranks = rank[j, cols[j]]
        positions = threshold_positions(ranks)
        cumulative = np.cumsum(cw[cols[j]], axis=0)
        left = cumulative[positions]                       # thresholds × classes
        right = cumulative[-1][None] - left
        w_left, w_right = left.sum(axis=1), right.sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            scores = (w_left - np.where(w_left > 0, (left ** 2).sum(axis=1) / w_left, 0.0)
                      + w_right - np.where(w_right > 0, (right ** 2).sum(axis=1) / w_right, 0.0))
        out.append((ranks[positions], w_left, scores))
        if clock.due():
            yield
    return out


def _leaves(tree) -> int:
    return 1 if tree[0] == "leaf" else _leaves(tree[3]) + _leaves(tree[4])


def _split(cols: np.ndarray, rank: np.ndarray, f: int, r: int) -> tuple:
    """The supports of the two sides of ``column f <= rank r``."""
    n = cols.shape[0]
    low = rank[f][cols] <= r
    return cols[low].reshape(n, -1), cols[~low].reshape(n, -1)


def gini_tree(cols: np.ndarray, rank: np.ndarray, cw: np.ndarray, depth: int, penalty: float,
              clock: SliceClock | None = None):
    """Generator: CART's tree of at most ``depth`` levels, pruned at ``penalty``; returns ``(cost, tree)``.

    Every node takes the split of least Gini impurity (the first in column order on ties, like
    ``DecisionTreeClassifier`` without its random feature order) until the depth runs out or the node
    is pure; then, bottom-up, a split is kept only where it costs less than a leaf (CART's
    cost-complexity pruning with ``α = penalty``, Breiman et al. 1984, chapter 3).

    Parameters
    ----------
    cols : ndarray of int, shape (n_columns, n_support)
        The support's rows in each column's sorted order.
    rank : ndarray of int, shape (n_columns, n_rows)
        Each row's rank in each column.
    cw : ndarray of float, shape (n_rows, n_classes)
        Cost-weighted class weight of each row.
    depth : int
        The depth budget.
    penalty : float
        The cost of one leaf (weight units).
    clock : SliceClock, optional
        When to yield; by default never.

    Examples
    --------
    >>> from treeopt.solvers.slices import drain
    >>> rank = np.array([[0, 1, 2, 3]])
    >>> cols = np.array([[0, 1, 2, 3]])
    >>> cw = np.array([[1.0, 0], [1, 0], [0, 1], [1, 0]])
    >>> drain(gini_tree(cols, rank, cw, 2, penalty=0.0))
    (0.0, ('split', 0, 1, ('leaf',), ('split', 0, 2, ('leaf',), ('leaf',))))
    """
    clock = clock or SliceClock(None)
    rows = cols[0]
    loss = leaf_loss(cw[rows].sum(axis=0))
    leaf = loss + penalty
    if depth == 0 or loss <= 0 or len(rows) < 2:
        return leaf, _LEAF
    split = _gini_split((yield from _gini_scores(cols, rank, cw, clock)))
    if split is None:
        return leaf, _LEAF
    low, high = _split(cols, rank, *split)
    low_cost, low_tree = yield from gini_tree(low, rank, cw, depth - 1, penalty, clock)
    high_cost, high_tree = yield from gini_tree(high, rank, cw, depth - 1, penalty, clock)
    if low_cost + high_cost < leaf:
        return low_cost + high_cost, ("split", *split, low_tree, high_tree)
    return leaf, _LEAF


def _gini_split(scored) -> tuple | None:
    """The split ``(column, rank)`` of least Gini impurity (the first in column order on ties), or None."""
    best = None
    for j, (ranks, _, scores) in enumerate(scored):
        if len(scores):
            p = int(np.argmin(scores))
            if best is None or scores[p] < best[0]:
                best = (float(scores[p]), j, int(ranks[p]))
    return None if best is None else best[1:]


def cart_floor(cols: np.ndarray, rank: np.ndarray, cw: np.ndarray, depth: int, penalty: float, offer,
               clock: SliceClock | None = None):
    """Generator: CART's tree grown level by level, offering the pruned tree of each level.

    The splits are :func:`gini_tree`'s, chosen breadth first; once every node of a level has its
    split, the tree cut below that level (pruned as :func:`gini_tree` prunes) goes to ``offer``. The
    last offer is :func:`gini_tree`'s tree, and a fit stopped within the first moments of a large
    table still holds the shallower levels of it rather than a single leaf.

    Examples
    --------
    >>> from treeopt.solvers.slices import drain
    >>> rank = cols = np.array([[0, 1, 2, 3]])
    >>> cw = np.array([[1.0, 0], [1, 0], [0, 1], [1, 0]])
    >>> offered = []
    >>> drain(cart_floor(cols, rank, cw, 2, 0.0, lambda cost, tree: offered.append(cost)))
    >>> offered
    [1.0, 0.0]
    """
    clock = clock or SliceClock(None)
    # Each node: [support (dropped once split), leaf loss, split, low child, high child].
    nodes = [[cols, leaf_loss(cw[cols[0]].sum(axis=0)), None, None, None]]
    frontier, offered = [0], False
    for _ in range(depth):
        grown = []
        for i in frontier:
            support = nodes[i][0]
            if nodes[i][1] <= 0 or support.shape[1] < 2:
                continue
            split = _gini_split((yield from _gini_scores(support, rank, cw, clock)))
            if split is None:
                continue
            low, high = _split(support, rank, *split)
            nodes[i][0] = None
            nodes[i][2:] = [split, len(nodes), len(nodes) + 1]
            for part in (low, high):
                nodes.append([part, leaf_loss(cw[part[0]].sum(axis=0)), None, None, None])
            grown += [len(nodes) - 2, len(nodes) - 1]
        if not grown:
            break
        frontier = grown
        offer(*_pruned(nodes, 0, penalty))
        offered = True
    if not offered:
        offer(nodes[0][1] + penalty, _LEAF)


def _pruned(nodes: list, i: int, penalty: float) -> tuple:
    """``(cost, tree)`` of node ``i`` with each split kept only where it costs less than a leaf."""
    _, loss, split, low, high = nodes[i]
    leaf = loss + penalty
    if split is None:
        return leaf, _LEAF
    low_cost, low_tree = _pruned(nodes, low, penalty)
    high_cost, high_tree = _pruned(nodes, high, penalty)
    if low_cost + high_cost < leaf:
        return low_cost + high_cost, ("split", *split, low_tree, high_tree)
    return leaf, _LEAF


class DiscrepancySearch:
    """Limited discrepancy passes over ranked splits, quick ones first, then with the exact depth-two solver.

    Parameters
    ----------
    rank, cw
        As for :func:`gini_tree`.
    penalty : float
        The cost of one leaf (weight units).
    exact : callable
        ``exact(cols, depth, path)`` returns a generator whose value is ``(cost, tree)``, the
        optimal tree of depth at most ``depth`` (one or two) on the support: the exact search's own
        solver, so that its memo serves both.
    offer : callable
        ``offer(cost, tree)`` receives every complete tree of the root found better than the ones
        before it.
    unit_budget : float or None
        Seconds of one unit of work.
    error_free_is_optimal : bool, default=False
        Whether a tree without errors is as good as the passes can do (λ = 0, where only the
        infinitesimal tie charge is left); then an error-free node takes no further candidates.

    Attributes
    ----------
    passes : int
        Passes completed, quick and exact.
    quick_passes : int
        Of these, the passes with quick depth-two nodes.
    improvements : int
        Better trees offered by the passes.
    """

    def __init__(self, rank: np.ndarray, cw: np.ndarray, *, penalty: float, exact, offer,
                 unit_budget: float | None, error_free_is_optimal: bool = False):
        self.rank = rank
        self.cw = cw
        self.penalty = penalty
        self.exact = exact
        self.offer = offer
        self.clock = SliceClock(unit_budget)
        self.error_free_is_optimal = error_free_is_optimal
        self.passes = 0
        self.quick_passes = 0
        self.improvements = 0
        self.gini_first = True
        self._ranked: dict = {}
        self._results: dict = {}
        self._exhausted = False
        # Rounding slack of "no errors": costs are sums of per-leaf charges.
        self._tolerance = 1e-9 * max(1.0, float(cw.sum()))
        # Each row's fixed draw: a node's sample is its rows with the smallest draws' share.
        self._draw = np.random.default_rng(0).random(rank.shape[1])

    def run(self, cols: np.ndarray, depth: int, incumbent: float):
        """Generator: quick passes ``k = 0, 1, …``, then exact ones, each until they stop improving.

        ``incumbent`` is the cost of the best tree known before the passes (CART's).
        """
        best = incumbent
        for quick in (True, False):
            passes = {True: 0, False: 0}                 # each order's next discrepancy count
            idle = {True: 0, False: 0}                   # each order's passes in a row without a better tree
            live = [True, False]                         # Gini's split first, or the best depth-two cost first
            while live:
                for gini_first in list(live):
                    self.gini_first = gini_first
                    self._exhausted = True
                    cost, tree = yield from self._dive(cols, depth, passes[gini_first], (), quick, best)
                    self.passes += 1
                    self.quick_passes += quick
                    passes[gini_first] += 1
                    if cost < best:
                        best, idle[gini_first] = cost, 0
                        if self._error_free(cost, tree):      # no errors left to remove
                            return
                    else:
                        idle[gini_first] += 1
                    if idle[gini_first] >= (QUICK_PATIENCE if quick else PATIENCE) or self._exhausted:
                        live.remove(gini_first)

    def _error_free(self, cost: float, tree) -> bool:
        return cost - self.penalty * _leaves(tree) <= self._tolerance

    def _dive(self, cols, depth, k, path, quick, root_best=None):
        """Generator: the best tree of ``cols`` at ``depth`` within ``k`` discrepancies.

        With ``quick``, a depth-two node takes the best of its ranked candidates rather than the
        exact solver's optimum.
        """
        rows = cols[0]
        loss = leaf_loss(self.cw[rows].sum(axis=0))
        leaf = loss + self.penalty
        if depth == 0 or loss <= 0 or len(rows) < 2:
            return leaf, _LEAF
        if depth == 1 or (depth == 2 and not quick):
            return (yield from self.exact(cols, depth, path))
        support_key = _key(cols)
        if depth == 2:                                  # quick: its candidates are ranked once
            ranked = yield from self._ranking(support_key, cols)
            return (yield from self._quick_depth_two(cols, ranked, leaf))
        key = (depth, support_key, k, quick, self.gini_first)
        done = self._results.get(key)
        if done is not None:
            return done
        ranked = yield from self._ranking(support_key, cols)
        if k + 1 < len(ranked):
            self._exhausted = False
        best = (leaf, _LEAF)
        for i, (f, r, _) in enumerate(ranked[:k + 1]):
            low, high = _split(cols, self.rank, f, r)
            low_cost, low_tree = yield from self._dive(low, depth - 1, k - i, path + ((f, r, True),), quick)
            high_cost, high_tree = yield from self._dive(high, depth - 1, k - i, path + ((f, r, False),), quick)
            if low_cost + high_cost < best[0]:
                best = (low_cost + high_cost, ("split", f, r, low_tree, high_tree))
                if root_best is not None and best[0] < root_best:
                    root_best = best[0]
                    self.improvements += 1
                    self.offer(*best)
            if self.clock.due():
                yield
            if self.error_free_is_optimal and self._error_free(*best):
                break
        self._results[key] = best
        return best

    def _ranking(self, support_key, cols):
        """Generator: the support's ranked candidates in the passes' order, ranked once per support."""
        orders = self._ranked.get(support_key)
        if orders is None:
            orders = self._ranked[support_key] = (yield from self._rank(cols)) or ([], [])
        return orders[self.gini_first]

    def _quick_depth_two(self, cols, ranked, leaf):
        """Generator: the best depth-two tree among the node's ranked candidates (or the leaf)."""
        if not ranked:
            return leaf, _LEAF
        f, r, cost = min(ranked, key=lambda candidate: candidate[2])
        if cost >= leaf:
            return leaf, _LEAF
        low, high = _split(cols, self.rank, f, r)
        children = []
        for part in (low, high):
            _, split = best_depth_one(part, self.rank, self.cw, penalty=self.penalty)
            children.append(_LEAF if split is None else ("split", *split, _LEAF, _LEAF))
        if self.clock.due():
            yield
        return cost, ("split", f, r, *children)

    def _sample(self, cols):
        """The support itself, or a fixed random subset of :data:`SAMPLE_ROWS` of its rows (each
        column's order kept)."""
        n = cols.shape[1]
        if n <= SAMPLE_ROWS:
            return cols
        cut = np.partition(self._draw[cols[0]], SAMPLE_ROWS - 1)[SAMPLE_ROWS - 1]
        return cols[self._draw[cols] <= cut].reshape(cols.shape[0], -1)

    def _depth_two_costs(self, cols, splits):
        """Generator: the cost of each split ``(column, rank)`` followed by its children's best depth-one trees."""
        support = SupportColumns(cols, self.rank, self.cw)
        size = batch_size(cols.shape[1], self.cw.shape[1], cols.shape[0], PROPOSALS)
        costs = []
        for start in range(0, len(splits), size):
            batch = splits[start:start + size]
            left, right = depth_two_children(support, np.array([f for f, _ in batch]),
                                             np.array([r for _, r in batch]), penalty=self.penalty)
            costs += (left + right).tolist()
            if self.clock.due():
                yield
        return costs

    def _rank(self, cols):
        """Generator: the node's candidate splits ``(column, rank, depth-two cost)``, best first.

        Gini impurity proposes them, each column's best threshold first and then thresholds at
        least :data:`SPREAD` of the weight away from those already taken, up to :data:`PROPOSALS`;
        the cost of each split's best depth-two tree orders them (ties in Gini order) and the best
        :data:`CANDIDATES` are kept. A node of more than :data:`SAMPLE_ROWS` rows proposes and
        orders on its sample, and the kept candidates' costs are then computed on all its rows.
        """
        sample = self._sample(cols)
        scored = yield from _gini_scores(sample, self.rank, self.cw, self.clock)
        total = float(self.cw[sample[0]].sum())
        per_column = min(PROPOSALS, -(-PROPOSALS // max(1, len(scored))) + 1)
        rounds = []                                      # per column: its candidates in Gini order
        for j, (ranks, w_left, scores) in enumerate(scored):
            taken, allowed = [], np.ones(len(scores), dtype=bool)
            while len(taken) < per_column and allowed.any():
                p = int(np.argmin(np.where(allowed, scores, np.inf)))       # the best threshold still allowed
                taken.append(p)
                allowed &= np.abs(w_left - w_left[p]) >= SPREAD * total
            rounds.append([(float(scores[p]), j, int(ranks[p])) for p in taken])
            if self.clock.due():
                yield
        proposed = []
        for level in range(PROPOSALS):
            proposed += sorted(column[level] for column in rounds if len(column) > level)
            if len(proposed) >= PROPOSALS:
                break
        proposed = [(f, r) for _, f, r in proposed[:PROPOSALS]]
        if not proposed:
            return []
        costs = yield from self._depth_two_costs(sample, proposed)
        order = sorted(range(len(proposed)), key=lambda i: (costs[i], i))[:CANDIDATES]
        if 0 not in order:
            order.append(0)                              # the Gini-best split is always a candidate
        kept = [proposed[i] for i in order]
        gini_kept = order.index(0)
        if sample is not cols:                           # scored on all the node's rows
            costs = yield from self._depth_two_costs(cols, kept)
        else:
            costs = [costs[i] for i in order]
        order = sorted(range(len(kept)), key=lambda i: (costs[i], i))
        ranked = [(*kept[i], costs[i]) for i in order]
        gini_best = order.index(gini_kept)
        return ranked, [ranked[gini_best]] + ranked[:gini_best] + ranked[gini_best + 1:]

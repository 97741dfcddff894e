"""Building the Rashomon set's dependency graph: every subproblem, split and count table.

The construction follows "Exploring the Whole Rashomon Set of Sparse Decision Trees"
(Xin et al., NeurIPS 2022, TreeFARMS) on top of the GOSDT ideas ("Generalized and Scalable
Optimal Sparse Decision Trees", Lin et al. 2020):

1. **The optimum** ``R*`` by a memoised branch and bound over support sets (:meth:`RashomonGraph.best`).
   A subproblem's lower bound is GOSDT's: one leaf costs its loss plus λ, anything else costs at
   least the equivalent-points loss plus 2λ (Theorem B.9 and the one-step lookahead). Every
   subproblem solved exactly keeps its optimum, which later budgets use.
2. **The set** under a budget (:meth:`RashomonGraph.solve`): a subproblem with budget ``b`` (the
   most objective its subtree may cost) keeps its leaf if it fits, and every split whose children's
   optima fit together; each child is solved with budget ``b`` minus the *other* child's optimum,
   the tightest budget that can still complete a tree. A subproblem whose optimum exceeds its budget
   contributes nothing and is not expanded. Results are memoised by support bitset with the budget
   they were computed for; a larger budget recomputes, a smaller one reuses the table.

Each subproblem's trees are summarised by a table ``(loss, leaves) -> count`` (loss in weight
units, an exact ``int`` when the weights are integers); the objective of a cell is
``loss × scale + λ × leaves``, and a split's table is the convolution of its children's tables cut
at the budget. A split whose two children are leaves predicting the same class is a trivial
extension of a leaf and is not a tree (TreeFARMS's definition), nor is a split leaving a side empty.
Counts are Python ints, so sets of 10^20 trees are counted exactly without listing them.
"""
from __future__ import annotations

from treeopt.data import Dataset
from treeopt.nodes import Leaf, Split
from treeopt.objectives import get_objective
from treeopt.solvers.slices import SliceClock

__all__ = ["RashomonGraph", "GraphNode"]

#: Subproblem visits between two pause points of the stepwise construction (treeopt/rashomon/stepwise.py):
#: a few milliseconds of work, so a player's Pause answers quickly even on large data.
UNITS_PER_PAUSE = 200


def _drain(steps):
    """Run a pausing generator to its end; its return value."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


class GraphNode:
    """One subproblem of the graph: its leaf, its budget, its splits and its count table.

    Attributes
    ----------
    support : int
        Bitset of the dataset's points that reach the subproblem.
    budget : float
        The largest subtree objective (weight units) the table covers.
    leaf_loss, label : number, int
        Loss (weight units) and predicted class index of the subproblem as one leaf.
    leaf_fits : bool
        Whether the single leaf is within the budget.
    splits : list of (int, int, int)
        ``(feature, left support, right support)`` of every split with at least one tree in budget.
    table : dict
        ``(loss, leaves) -> count`` of every tree on the support within the budget.
    """

    __slots__ = ("support", "budget", "leaf_loss", "label", "leaf_fits", "splits", "table", "cells")

    def __init__(self, support, budget, leaf_loss, label, leaf_fits, splits, table, cells):
        self.support, self.budget = support, budget
        self.leaf_loss, self.label, self.leaf_fits = leaf_loss, label, leaf_fits
        self.splits, self.table, self.cells = splits, table, cells


class RashomonGraph:
    """Subproblems, their optima and their budgeted count tables, for one dataset and λ.

    Parameters
    ----------
    dataset : Dataset
        Binary features (points as bitsets), labels and weights.
    regularization : float
        λ, the objective cost of one leaf (> 0).
    objective : str or Objective, default="accuracy"
        An additive objective (accuracy, balanced_accuracy, weighted_accuracy).

    Examples
    --------
    >>> import numpy as np
    >>> ds = Dataset.from_binary(np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), [0, 0, 1, 1])
    >>> graph = RashomonGraph(ds, 0.1)
    >>> round(graph.optimum(), 6)                 # split on x0: no mistakes, two leaves
    0.2
    >>> sorted(graph.solve_root(0.45).table.items())
    [((0, 2), 1), ((0, 4), 1)]
    """

    def __init__(self, dataset: Dataset, regularization: float, objective="accuracy"):
        if not regularization > 0:
            raise ValueError("regularization must be > 0 for a finite Rashomon set; pass e.g. 0.01.")
        objective = get_objective(objective)
        if not getattr(objective, "additive", False) or not hasattr(objective, "loss_model"):
            raise ValueError(f"the Rashomon set needs an additive objective (a sum over leaves), got {objective!r}; "
                             "use 'accuracy', 'balanced_accuracy' or 'weighted_accuracy'.")
        self.dataset, self.regularization, self.objective = dataset, float(regularization), objective
        model = objective.loss_model(dataset)
        self.scale = model.scale                        # weight units -> objective units
        self.leaf_cost = self.regularization / self.scale   # λ in weight units
        self._leaf_model = model.leaf
        if model.unit_costs and dataset.n_classes == 2:
            self._leaf_model = _two_class_leaf                # the common case, without the general loop
        self._eq = model.equivalent_points
        self._class_counts = dataset.class_counts
        self.features = list(dataset.feature_masks)
        self.root = dataset.all_points
        self.tol = 1e-9 * max(1.0, float(dataset.total_weight) * (1 + self.regularization))
        self.nodes: dict[int, GraphNode] = {}
        self.exact: dict[int, float] = {}
        self.lower: dict[int, float] = {}
        self._leaves: dict[int, tuple] = {}
        self.n_solved = 0                                  # subproblem tables computed (recomputations included)
        self._work = 0                                     # subproblem visits since the last pause point
        # Also pause once a slice of time is spent: a visit may convolve large tables, so a count of
        # visits alone does not bound a step (the stepwise search sets its unit budget here).
        self.pause_clock = SliceClock(None)

    # -- leaves and bounds (weight units) --------------------------------------
    def leaf(self, support: int) -> tuple:
        """``(loss, label)`` of the support as one leaf (weight units)."""
        out = self._leaves.get(support)
        if out is None:
            out = self._leaves[support] = self._leaf_model(self._class_counts(support))
        return out

    def lower_bound(self, support: int) -> float:
        """A lower bound on the objective (weight units) of every tree on the support."""
        value = self.exact.get(support)
        if value is not None:
            return value
        value = self.lower.get(support)
        if value is None:
            loss, _ = self.leaf(support)
            value = min(loss + self.leaf_cost, self._eq(support) + 2 * self.leaf_cost)
            self.lower[support] = value
        return value

    def best(self, support: int, cap: float) -> float:
        """The optimum (weight units) of the support if it is at most ``cap``, else a lower bound above ``cap``.

        When the optimum is at most ``cap`` (within the tolerance) it is stored in :attr:`exact`.
        """
        return _drain(self._best(support, cap))

    def _best(self, support: int, cap: float):
        """:meth:`best` as a generator that pauses now and then (its value is the generator's return)."""
        value = self.exact.get(support)
        if value is not None:
            return value
        tol, cost = self.tol, self.leaf_cost
        low = self.lower_bound(support)
        if low > cap + tol:
            return low
        self._work += 1
        if self._work >= UNITS_PER_PAUSE or self.pause_clock.due():   # where a stepwise search may pause
            self._work = 0
            yield
        loss, _ = self.leaf(support)
        value = loss + cost
        bound = self._eq(support) + 2 * cost                 # every split costs at least this
        if bound < value - tol:                               # a split might beat the leaf
            value, bound = yield from self._best_of_splits(support, value, cap)
        if value <= cap + tol:
            self.exact[support] = value
            return value
        self.lower[support] = max(self.lower.get(support, 0.0), cap + tol, min(value, bound))
        return self.lower[support]

    def _best_of_splits(self, support: int, value: float, cap: float) -> tuple:
        """``(value, bound)``: the better of ``value`` and every split of ``support``, and a lower bound on every split.

        Weight units. Splits are visited by increasing lower bound, so a good tree found early prunes
        the rest (every split whose bound exceeds the incumbent or ``cap`` is skipped, and once one
        does, all later ones do); splits making the same two children (duplicate features) are looked
        at once. ``bound`` is the least lower bound proved for a split (each pruned split keeps the
        bound that pruned it), so a support whose optimum exceeds ``cap`` learns how far it exceeds it
        (GOSDT's incremental lower bound) and is not expanded again for a slightly larger cap.
        """
        tol, exact, best, lower_bound = self.tol, self.exact, self._best, self.lower_bound
        exact_get, lower_get = exact.get, self.lower.get
        limit = min(value - tol, cap + tol)
        candidates, seen = [], set()
        bound = float("inf")
        for mask in self.features:
            right = support & mask
            if not right or right == support or right in seen:
                continue
            seen.add(right)
            left = support ^ right
            # every bound is at least λ > 0, so `or` falls through only on a missing entry
            low = (exact_get(left) or lower_get(left) or lower_bound(left)) + \
                (exact_get(right) or lower_get(right) or lower_bound(right))
            if low <= limit:
                candidates.append((low, left, right))
            elif low < bound:
                bound = low
        candidates.sort()
        for low, left, right in candidates:
            limit = min(value - tol, cap + tol)
            if low > limit:
                bound = min(bound, low)
                continue
            lower_right = lower_bound(right)
            low = lower_bound(left) + lower_right
            if low > limit:
                bound = min(bound, low)
                continue
            value_left = exact_get(left)                      # known optima without a generator
            if value_left is None:
                value_left = yield from best(left, limit - lower_right)
            if value_left + lower_right > limit or left not in exact:
                bound = min(bound, value_left + lower_right)
                continue
            value_right = exact_get(right)
            if value_right is None:
                value_right = yield from best(right, limit - value_left)
            if value_left + value_right > limit or right not in exact:
                bound = min(bound, value_left + value_right)
                continue
            value = value_left + value_right
        return value, bound

    def best_split(self, support: int, mask: int, value: float, cap: float):
        """The better of ``value`` and the split of ``support`` on the feature ``mask`` (weight units).

        The split is only looked at if it can beat ``value`` and stay within ``cap``: its children's
        optima are computed (:meth:`best`) under the room the other child's lower bound leaves. A
        generator that pauses now and then (``value = yield from graph.best_split(...)``), for a
        stepwise search; ``_drain`` runs it to its end.
        """
        right = support & mask
        if not right or right == support:
            return value
        left = support ^ right
        tol = self.tol
        limit = min(value - tol, cap + tol)
        lower_right = self.lower_bound(right)
        if self.lower_bound(left) + lower_right > limit:
            return value
        value_left = yield from self._best(left, limit - lower_right)
        if value_left + lower_right > limit or left not in self.exact:
            return value
        value_right = yield from self._best(right, limit - value_left)
        if value_left + value_right > limit or right not in self.exact:
            return value
        return value_left + value_right

    def optimal_root(self, support: int):
        """An optimal tree on the support (its root :class:`Leaf` / :class:`Split`), after :meth:`best` solved it."""
        value = self.best(support, float("inf"))
        loss, _ = self.leaf(support)
        if loss + self.leaf_cost <= value + self.tol:
            return self.leaf_node(support)
        for j, mask in enumerate(self.features):
            right = support & mask
            if not right or right == support:
                continue
            left = support ^ right
            if left in self.exact and right in self.exact and \
                    abs(self.exact[left] + self.exact[right] - value) <= self.tol:
                return Split(j, self.optimal_root(left), self.optimal_root(right))
        raise RuntimeError("no split reaches the stored optimum")   # cannot happen: best() stored both children

    def leaf_node(self, support: int) -> Leaf:
        """The support as one :class:`Leaf` (class counts, loss in objective units)."""
        loss, label = self.leaf(support)
        return Leaf(int(label), tuple(self._class_counts(support)), float(loss * self.scale))

    def optimum(self) -> float:
        """The optimal objective ``R*`` (objective units) over all trees on the data."""
        loss, _ = self.leaf(self.root)
        return self.best(self.root, loss + self.leaf_cost) * self.scale

    # -- the set ---------------------------------------------------------------
    def solve_root(self, bound: float) -> GraphNode | None:
        """Build the graph for every tree with objective ≤ ``bound`` (objective units); the root node."""
        return self.solve(self.root, bound / self.scale)

    def objective_of(self, loss, leaves: int) -> float:
        """Objective (objective units) of a table cell."""
        return loss * self.scale + self.regularization * leaves

    def solve(self, support: int, budget: float) -> GraphNode | None:
        """The node of the support covering every subtree with objective ≤ ``budget`` (weight units).

        ``None`` when no subtree fits. A stored node computed for at least this budget is reused
        (its table may hold cells above ``budget``: callers cut them).
        """
        return _drain(self._solve(support, budget))

    def _solve(self, support: int, budget: float):
        """:meth:`solve` as a generator that pauses now and then."""
        node = self.nodes.get(support)
        tol = self.tol
        if node is not None and node.budget >= budget - tol:
            return node if node.cells else None
        yield from self._best(support, budget)
        if support not in self.exact or self.exact[support] > budget + tol:
            return None                                   # the optimum exceeds the budget: no tree fits
        self.n_solved += 1
        cost = self.leaf_cost
        loss, _ = self.leaf(support)
        table: dict = {}
        if loss + cost <= budget + tol:
            table[(loss, 1)] = 1
        splits = []
        if self._eq(support) + 2 * cost <= budget + tol:
            solve_split, clock = self.solve_split, self.pause_clock
            for j, mask in enumerate(self.features):
                if clock.due():                               # children already solved take no pause of their own
                    yield
                children = yield from solve_split(support, mask, budget, table)
                if children is not None:
                    splits.append((j, *children))
        return self.store(support, budget, table, splits)

    def solve_split(self, support: int, mask: int, budget: float, table: dict):
        """Add the trees splitting ``support`` on the feature ``mask`` within ``budget`` to ``table``.

        Returns ``(left, right)`` supports when the split has at least one tree in budget, else ``None``.
        A generator that pauses now and then (``children = yield from graph.solve_split(...)``).
        """
        right = support & mask
        if not right or right == support:
            return None
        left = support ^ right
        exact, tol = self.exact, self.tol
        limit = budget + tol
        lower_right = self.lower_bound(right)
        if self.lower_bound(left) + lower_right > limit:
            return None
        value_left = yield from self._best(left, budget - lower_right)
        if left not in exact or value_left + lower_right > limit:
            return None
        value_right = yield from self._best(right, budget - value_left)
        if right not in exact or value_left + value_right > limit:
            return None
        node_left = yield from self._solve(left, budget - value_right)
        node_right = yield from self._solve(right, budget - value_left)
        if node_left is None or node_right is None:
            return None
        (loss_l, label_l), (loss_r, label_r) = self.leaf(left), self.leaf(right)
        trivial = (loss_l, loss_r) if label_l == label_r else None
        if _convolve(node_left.cells, node_right.cells, limit, self.leaf_cost, table, trivial):
            return left, right
        return None

    def store(self, support: int, budget: float, table: dict, splits: list) -> GraphNode | None:
        """Keep the node of a support solved for ``budget``; the node, or ``None`` when it holds no tree."""
        cost = self.leaf_cost
        loss, label = self.leaf(support)
        cells = sorted(((m + cost * k, m, k, c) for (m, k), c in table.items() if c), key=lambda t: t[:3])
        node = GraphNode(support, budget, loss, label, loss + cost <= budget + self.tol, splits, table, cells)
        self.nodes[support] = node
        return node if cells else None


def _two_class_leaf(counts) -> tuple:
    """``(loss, label)`` of a two-class leaf with unit costs (ties: class 0, as :class:`LossModel`)."""
    first, second = counts
    return (second, 0) if first >= second else (first, 1)


def _convolve(cells_left, cells_right, limit, cost, out, trivial) -> bool:
    """Add every pair of a left and a right cell within ``limit`` to ``out``; whether any was added.

    ``cells_*`` are sorted by objective (weight units). The pair of the two single leaves is left out
    when ``trivial`` (their losses) is given: it is the trivial extension of a leaf.
    """
    if not cells_left or not cells_right:
        return False
    first_right = cells_right[0][0]
    added = False
    get = out.get
    for obj_l, m_l, k_l, c_l in cells_left:
        room = limit - obj_l
        if room < first_right:
            break
        for obj_r, m_r, k_r, c_r in cells_right:
            if obj_r > room:
                break
            count = c_l * c_r
            if trivial is not None and k_l == 1 and k_r == 1 and m_l == trivial[0] and m_r == trivial[1]:
                count -= 1
                if not count:
                    continue
            key = (m_l + m_r, k_l + k_r)
            out[key] = get(key, 0) + count
            added = True
    return added

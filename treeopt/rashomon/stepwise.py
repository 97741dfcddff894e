"""Building a Rashomon set step by step, speaking the solvers' protocol (:class:`~treeopt.solvers.base.Solver`).

Two phases, one root split per unit of work, so a player can watch the set form:

1. ``optimum``: the best tree (GOSDT-style branch and bound under each root split, see
   :mod:`treeopt.rashomon.search`); the snapshot shows the incumbent, its objective (upper bound) and
   a lower bound (the best of the incumbent and of the unexplored root splits' bounds).
2. ``set``: every tree within the bound ``(1 + ε) R*`` (or ``bound``), root split by root split; the
   snapshot's ``extra`` holds the bound and the number of trees counted so far.

When finished, :attr:`RashomonSearch.rashomon_set` is the :class:`~treeopt.rashomon.RashomonSet`.
"""
from __future__ import annotations

from treeopt.events import Expanded, Started
from treeopt.nodes import Split
from treeopt.rashomon.rashomon_set import RashomonSet
from treeopt.rashomon.search import RashomonGraph
from treeopt.rashomon.views import SetView
from treeopt.solvers.base import QueueEntry, Solver
from treeopt.solvers.capabilities import Capabilities
from treeopt.solvers.slices import SliceClock
from treeopt.tree import Tree

__all__ = ["RashomonSearch"]


class RashomonSearch(Solver):
    """The Rashomon set's construction as a stepwise search.

    Parameters
    ----------
    dataset : Dataset
    regularization : float
    objective : str or Objective, default="accuracy"
        An additive objective.
    epsilon : float, optional
        Keep trees within ``(1 + epsilon) R*`` (default 0.05 when ``bound`` is not given).
    bound : float, optional
        An absolute objective bound instead.

    Examples
    --------
    >>> from treeopt.data import Dataset
    >>> from treeopt.datasets import load_monk
    >>> search = RashomonSearch(Dataset.from_arrays(*load_monk(1)), regularization=0.05, epsilon=0.05)
    >>> search.step(3)
    True
    >>> search.snapshot().extra["phase"]
    'optimum'
    >>> result = search.run()
    >>> result.optimal, search.snapshot().extra["count"] == len(search.rashomon_set)
    (True, True)
    """

    name = "rashomon"
    CAPABILITIES = Capabilities(dataset="binary", objectives="additive", options=("epsilon", "bound"),
                                depth_budget=False)

    def __init__(self, dataset, *, regularization: float, objective="accuracy", epsilon: float | None = None,
                 bound: float | None = None, bounds: dict | None = None, depth_budget: int | None = None):
        super().__init__(dataset, regularization=regularization, objective=objective, bounds=bounds,
                         depth_budget=depth_budget)
        if depth_budget is not None:
            raise ValueError("RashomonSearch keeps trees of every depth; filter the result with "
                             "rashomon_set.filter(max_depth=...) instead of depth_budget.")
        if epsilon is not None and bound is not None:
            raise ValueError("give at most one of epsilon= and bound=.")
        self.epsilon = 0.05 if epsilon is None and bound is None else epsilon
        self.bound = bound
        self.graph = RashomonGraph(dataset, regularization, self.objective)
        graph = self.graph
        loss, _ = graph.leaf(graph.root)
        self._value = loss + graph.leaf_cost             # incumbent objective, weight units
        self._split = None                                # incumbent root split (feature, left, right)
        self._pending = list(range(len(graph.features)))  # root splits not looked at in this phase
        self._phase = "optimum"
        self._count = 0
        self._limit = None                                # the set's bound, objective units
        self._set = None
        self._partial = None                              # (budget, root table, root splits) of the set phase

    # -- the search -------------------------------------------------------------
    def _search(self):
        graph = self.graph
        graph.pause_clock = SliceClock(self.unit_budget)
        root, features, tol = graph.root, graph.features, graph.tol
        self._emit(Started(0, self.lower_bound, self.upper_bound))
        self._record()
        splits_can_win = graph._eq(root) + 2 * graph.leaf_cost < self._value - tol
        while self._pending:
            j = self._pending[0]
            before, lower_before = self._value, self.lower_bound
            if splits_can_win:
                # A split's subproblems are solved in slices (the graph pauses every few hundred
                # visits), so one step is milliseconds even when a root split takes seconds; until
                # it is done, the split stays pending and its bound stays in the lower bound.
                self._value = yield from graph.best_split(root, features[j], self._value, self._value)
            self._pending.pop(0)
            if self._value < before - tol:
                right = root & features[j]
                self._split = (j, root ^ right, right)
            self.expansions += 1
            self._emit(Expanded(self.expansions, self._rule(j), self.lower_bound, self.upper_bound, 2))
            self._record(improved=self._value < before - tol, raised=self.lower_bound > lower_before + 1e-12)
            yield
        graph.exact[root] = self._value
        optimum = self._value * graph.scale
        self._limit = (1 + self.epsilon) * optimum if self.bound is None else float(self.bound)
        budget = self._limit / graph.scale
        self._phase = "set"
        self._pending = list(range(len(features)))
        table, splits = {}, []
        self._partial = (budget, table, splits)           # what partial_set() keeps if the search stops here
        loss, _ = graph.leaf(root)
        if loss + graph.leaf_cost <= budget + tol:
            table[(loss, 1)] = 1
        self._count = sum(table.values())
        splits_fit = graph._eq(root) + 2 * graph.leaf_cost <= budget + tol
        while self._pending:
            j = self._pending[0]
            children = (yield from graph.solve_split(root, features[j], budget, table)) if splits_fit else None
            self._pending.pop(0)
            if children is not None:
                splits.append((j, *children))
            self._count = sum(count for (m, k), count in table.items()
                              if graph.objective_of(m, k) <= self._limit + tol * graph.scale)
            self.expansions += 1
            self._emit(Expanded(self.expansions, self._rule(j), self.lower_bound, self.upper_bound, 2))
            yield
        graph.store(root, budget, table, splits)
        self._set = RashomonSet(graph, SetView(graph, self._limit), optimum, self.epsilon)
        self._phase = "done"

    def _rule(self, j: int) -> str:
        return f"root split on {self.dataset.feature_names[j]}"

    # -- the protocol's views ------------------------------------------------------
    @property
    def lower_bound(self) -> float:
        """The best of the incumbent and of the unexplored root splits' bounds (objective units)."""
        graph = self.graph
        if self._phase != "optimum":
            return self._value * graph.scale
        low = self._value
        for j in self._pending:
            right = graph.root & graph.features[j]
            if right and right != graph.root:
                low = min(low, graph.lower_bound(graph.root ^ right) + graph.lower_bound(right))
        return low * graph.scale

    @property
    def upper_bound(self) -> float:
        """Objective of the incumbent (objective units)."""
        return self._value * self.graph.scale

    def _incumbent(self) -> Tree:
        graph = self.graph
        if self._split is None:
            root = graph.leaf_node(graph.root)
        else:
            j, left, right = self._split
            root = Split(j, graph.optimal_root(left), graph.optimal_root(right))
        return Tree(root, list(self.dataset.features), self.dataset.classes, binarizer=self.dataset.binarizer)

    @property
    def queue_size(self) -> int:
        """Root splits not yet looked at in the current phase."""
        return len(self._pending)

    def _queue_entries(self, k: int) -> list:
        graph = self.graph
        out = []
        for j in self._pending[:k]:
            right = graph.root & graph.features[j]
            left = graph.root ^ right
            if not (right and left):                      # splits nothing here
                low = high = float("inf")
            else:                                          # bounds of the best tree under root split j:
                low = graph.lower_bound(left) + graph.lower_bound(right)          # its children's bounds,
                high = graph.leaf(left)[0] + graph.leaf(right)[0] + 2 * graph.leaf_cost   # its two-leaf tree
            out.append(QueueEntry((j,), self._rule(j), float(self.dataset.total_weight), low * graph.scale,
                                  high * graph.scale, payload={"feature": j, "phase": self._phase}))
        return out

    @property
    def cache_size(self) -> int:
        """Subproblems holding an optimum or a count table."""
        return len(self.graph.exact) + len(self.graph.nodes)

    def _snapshot_extra(self) -> dict:
        return {"phase": self._phase, "count": self._count, "bound": self._limit,
                "optimum": self.upper_bound if self._phase != "optimum" else None}

    @property
    def rashomon_set(self) -> RashomonSet:
        """The finished set (raises before the search has finished; see :meth:`partial_set`)."""
        if self._set is None:
            raise RuntimeError("the Rashomon set is not built yet: run() the search to its end first, or take "
                               "partial_set().")
        return self._set

    def partial_set(self) -> RashomonSet:
        """The trees proved to be in the set so far: the finished set, or a part marked ``complete=False``.

        In the ``set`` phase these are the single leaf (when it is within the bound) and every tree
        under the root splits already looked at: each is within the bound, and the rest of the set
        lies under the root splits still pending. In the ``optimum`` phase no tree of the set is
        proved yet (the bound ``(1 + ε) R*`` waits for ``R*``): the part is empty and its
        ``optimum`` is NaN. The search should not be resumed afterwards (the part shares its
        subproblems).

        Examples
        --------
        >>> from treeopt.data import Dataset
        >>> from treeopt.datasets import load_monk
        >>> search = RashomonSearch(Dataset.from_arrays(*load_monk(1)), regularization=0.05, epsilon=0.05)
        >>> _ = search.run()
        >>> search.partial_set() is search.rashomon_set
        True
        """
        if self._set is not None:
            return self._set
        graph = self.graph
        status = self.status if self.status in ("time_limit", "interrupted", "node_limit", "cache_limit",
                                                "memory_limit") else "stopped"
        if self._partial is None:
            limit = float("-inf") if self.bound is None else float(self.bound)
            graph.store(graph.root, float("-inf"), {}, [])
            return RashomonSet(graph, SetView(graph, limit), float("nan"), self.epsilon, status=status)
        budget, table, splits = self._partial
        graph.store(graph.root, budget, dict(table), list(splits))
        return RashomonSet(graph, SetView(graph, self._limit), self.upper_bound, self.epsilon, status=status)

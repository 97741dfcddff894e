"""Certificates through depth: solve depth budgets 1, 2, 3, … until the leaf-count bound closes the gap.

OSDT's upper bound on the number of leaves (Hu, Rudin, Seltzer, *Optimal Sparse
Decision Trees*, NeurIPS 2019, Theorem 3; GOSDT Theorem B.4 with the equivalent
points of Theorem B.9): every tree pays λ per leaf and at least the
equivalent-points loss ``eq``, so a tree with ``L`` leaves costs at least
``eq + L·λ``. A tree of depth greater than ``d`` has at least ``d + 2`` leaves.
Hence, with ``R*_d`` the optimum among trees of depth at most ``d``::

    R* = min(R*_d, optimum over deeper trees) >= min(R*_d, eq + (d + 2)·λ)

and ``R*_d`` is attained by a tree, so ``R* <= R*_d``. Solving ``d = 1, 2, 3, …``
exactly (each a GOSDT search with ``depth_budget=d``, where the depth-two solver
closes the last two levels, see ``treeopt/solvers/gosdt/depth_two.py``) gives an
incumbent that only improves and a lower bound ``max_d min(R*_d, eq + (d+2)·λ)``
that only rises; the search is certified once ``eq + (d + 2)·λ >= R*_d``. This is
how depth-first peers (STreeD with iterative deepening, ConTree) certify wide
data where one unbounded search does not close.

The current depth and each depth's result are in the snapshot (``depth`` and
``depth_results``); every unit of work is one unit of the current depth's search.

The depth searches share one set of exact small-tree solvers (``GOSDT.adopt_subsolvers``), which
keep their results by support: the depth-``d`` search's first step, the best tree of depth ``d - 1``
over all rows (the seed of the loop over root splits, ``treeopt/solvers/gosdt/depth_four.py``), is the
previous search's answer, found kept, so each depth starts where the last one ended
(``benchmarks/results_contree.md`` has the measurements).
"""

from __future__ import annotations

from ...data import Dataset
from ...events import Started
from ...tree import Leaf, Tree
from ..base import EPS, Solver
from ..capabilities import Capabilities
from .search import GOSDT

__all__ = ["DepthDeepening"]

#: What the generator of a finished depth search returns (one per unit before: None).
_END = object()


class DepthDeepening(Solver):
    """Optimal sparse trees by iterative deepening on the depth budget, certified by leaf counts.

    Parameters
    ----------
    dataset : Dataset
    regularization : float
        λ, the cost of one leaf in objective units.
    objective : str or Objective, default="accuracy"
        Any additive objective.
    bounds : dict of str to bool, optional
        GOSDT's switches, passed to every depth's search (see :class:`GOSDT`).
    depth_budget : int, optional
        The deepest budget to try; the result is then optimal among trees of at
        most that depth (a user constraint, as for GOSDT).
    strategies : dict of str to bool, optional
        GOSDT's search orders, first incumbents and subsolvers, passed to every depth's search.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> y = np.array([0, 1, 1, 0] * 5)                          # XOR: needs depth two
    >>> solver = DepthDeepening(Dataset.from_binary(X, y), regularization=0.05)
    >>> result = solver.run()
    >>> result.optimal, round(result.objective, 4), result.tree.n_leaves
    (True, 0.2, 4)
    >>> [(r["depth"], round(r["objective"], 4)) for r in solver.depth_results]
    [(1, 0.55), (2, 0.2)]
    """

    name = "deepening"
    CAPABILITIES = Capabilities()
    SWITCHES = GOSDT.SWITCHES.without("reference_lower_bound")

    def __init__(self, dataset: Dataset, *, regularization: float, objective="accuracy",
                 bounds: dict | None = None, depth_budget: int | None = None, strategies: dict | None = None):
        super().__init__(dataset, regularization=regularization, objective=objective, bounds=bounds,
                         depth_budget=depth_budget, strategies=strategies)
        if not self.objective.additive:
            raise ValueError(f"solver='deepening' needs an additive objective; {self.objective.name!r} is not. "
                             "Use solver='osdt' for F-score and AUC objectives.")
        self.model = self.objective.loss_model(dataset)
        self.penalty = self.regularization * dataset.total_weight
        self.eps = EPS * dataset.total_weight
        self.depth = 0                            # the depth budget being solved (0 before the start)
        self.depth_results: list[dict] = []       # one entry per finished depth
        self._search_at_depth: GOSDT | None = None
        # The incumbent starts as the single leaf; bounds in weight units.
        counts = dataset.class_counts(dataset.all_points)
        loss, prediction = self.model.leaf(counts)
        self._best = loss + self.penalty
        self._best_tree = Tree(Leaf(prediction, counts, self.model.to_objective(loss)), dataset.features,
                               dataset.classes, binarizer=dataset.binarizer)
        self._eq = self.model.equivalent_points(dataset.all_points) if self.bounds["equivalent_points"] else 0
        self._lb = 0.0                            # raised to eq + λ when the search starts
        self._done_expansions = 0
        self._done_counts = {name: 0 for name in self.SWITCHES}
        # The exact solvers every depth's search shares (GOSDT.subsolvers), built here, in the setup
        # (where a Ctrl-C is answered at once), not inside the first unit of work: on a wide table
        # building them is the longest part of a search's setup. The portfolio gives its GOSDT
        # member's instead (:meth:`sharing`).
        shared = self.__dict__.pop("_shared_subsolvers", None)
        self._subsolvers = shared if shared is not None else GOSDT(dataset, **self._depth_settings(1)).subsolvers

    @classmethod
    def sharing(cls, subsolvers, dataset: Dataset, **settings) -> "DepthDeepening":
        """Iterative deepening whose depth searches use another search's exact solvers, built without its own.

        The same search as ``cls(dataset, **settings)`` followed by :meth:`adopt_subsolvers`, without
        first building the solvers it would drop (see ``GOSDT.sharing``).

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
        >>> ds = Dataset.from_binary(X, X[:, 0] ^ X[:, 1])
        >>> shared = GOSDT(ds, regularization=0.05).subsolvers
        >>> round(DepthDeepening.sharing(shared, ds, regularization=0.05).run().objective, 4)
        0.2
        """
        solver = cls.__new__(cls, dataset, **settings)
        solver._shared_subsolvers = subsolvers
        solver.__init__(dataset, **settings)
        return solver

    def _depth_settings(self, depth: int) -> dict:
        """The settings of the GOSDT search of one depth budget."""
        return dict(regularization=self.regularization, objective=self.objective, depth_budget=depth,
                    **self.switch_settings())

    # -- the search --------------------------------------------------------------------------
    def _depth_search(self, depth: int) -> GOSDT:
        # One set of exact small-tree solvers for every depth: what one depth's search solved (the
        # best tree of depth d over all rows, its children's seeds) the next one finds kept. A depth
        # search is built inside a unit of work, so it is built with them, not with its own first.
        return GOSDT.sharing(self._subsolvers, self.dataset, **self._depth_settings(depth))

    def _search(self):
        eq, lam = self._eq, self.penalty
        self._lb = min(self._best, eq + lam)
        self._emit(Started(0, self.lower_bound, self.upper_bound))
        self._record()
        depth = 0
        while self._lb < self._best - self.eps and (self.depth_budget is None or depth < self.depth_budget):
            depth += 1
            self.depth = depth
            search = self._search_at_depth = self._depth_search(depth)
            if self._best_tree.n_leaves > 1:
                # The best tree so far bounds the new depth's search from the start (Theorem B.3):
                # only subtrees that can beat it are explored; it then proves min(R*_d, best).
                search.offer_incumbent(self._best_tree, self.upper_bound)
            search._ensure_started()
            steps = search._generator
            # Deeper trees have at least depth + 2 leaves (none if depth is the user's budget).
            deeper = eq + (depth + 2) * lam if depth != self.depth_budget else float("inf")
            while True:
                alive = self._member_unit(search, lambda: next(steps, _END)) is not _END
                self.expansions = self._done_expansions + search.expansions
                for name in self.prune_counts:
                    self.prune_counts[name] = self._done_counts[name] + search.prune_counts[name]
                self._absorb(search, deeper)
                if not alive:
                    break
                yield
            self._done_expansions += search.expansions
            for name in self.prune_counts:
                self._done_counts[name] += search.prune_counts[name]
                self.prune_counts[name] = self._done_counts[name]
            self.depth_results.append({"depth": depth, "objective": search.upper_bound,
                                       "leaves": search.best_tree.n_leaves, "expansions": search.expansions,
                                       "lower_bound": self.lower_bound})
            self._search_at_depth = None           # its memo is no longer needed
            yield

    def adopt_subsolvers(self, subsolvers) -> None:
        """Give every depth's search these exact small-tree solvers (``GOSDT.subsolvers`` of a search
        over the same data, λ, objective and switches; see ``GOSDT.adopt_subsolvers``). The
        portfolio (``treeopt/solvers/gosdt/portfolio.py``) shares its GOSDT member's this way. Call before
        the search starts.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
        >>> ds = Dataset.from_binary(X, X[:, 0] ^ X[:, 1])
        >>> deepening = DepthDeepening(ds, regularization=0.05)
        >>> deepening.adopt_subsolvers(GOSDT(ds, regularization=0.05).subsolvers)
        >>> round(deepening.run().objective, 4)
        0.2
        """
        self._subsolvers = subsolvers

    def offer_incumbent(self, tree: Tree, objective: float) -> bool:
        """Take a tree found by another search over the same dataset as the incumbent, if it is better.

        It bounds the current depth's search and every later one (see
        ``GOSDT.offer_incumbent``); the certificate is unchanged, since the lower bound
        ``min(R*_d, eq + (d+2)·λ)`` holds whoever found the incumbent.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
        >>> ds = Dataset.from_binary(X, X[:, 0] ^ X[:, 1])
        >>> found = GOSDT(ds, regularization=0.05).run()
        >>> solver = DepthDeepening(ds, regularization=0.05)
        >>> solver.offer_incumbent(found.tree, found.objective), round(solver.upper_bound, 4)
        (True, 0.2)
        """
        weight = objective / self.model.scale
        if weight >= self._best - self.eps:
            return False
        self._best, self._best_tree = weight, tree
        if self._search_at_depth is not None:
            self._search_at_depth.offer_incumbent(tree, objective)
        if self._lb > self._best:
            self._lb = self._best
        self._record(improved=True)
        return True

    def _absorb(self, search: GOSDT, deeper: float) -> None:
        """Take the depth's incumbent if better, and raise the global lower bound (module docstring)."""
        improved = raised = False
        if search.root.ub < self._best - self.eps:
            self._best = search.root.ub
            self._best_tree = search._incumbent()
            improved = True
        lb = min(search.root.lb, deeper)
        if lb > self._lb + self.eps:
            self._lb = min(lb, self._best)
            raised = True
        if improved or raised:
            self._record(improved=improved, raised=raised)

    # -- reading the state -----------------------------------------------------------------------
    @property
    def lower_bound(self) -> float:
        return self.model.to_objective(self._lb)

    @property
    def upper_bound(self) -> float:
        return self.model.to_objective(self._best)

    @property
    def queue_size(self) -> int:
        return 0 if self._search_at_depth is None else self._search_at_depth.queue_size

    @property
    def cache_size(self) -> int:
        """Problems in the memo of the current depth's search (earlier depths' memos are freed)."""
        return 0 if self._search_at_depth is None else self._search_at_depth.cache_size

    def _incumbent(self) -> Tree:
        return self._best_tree

    def _queue_entries(self, k: int) -> list:
        return [] if self._search_at_depth is None else self._search_at_depth._queue_entries(k)

    def _drop_search(self) -> None:
        if self._search_at_depth is not None:
            self._search_at_depth.release()          # cuts the depth search's reference cycles

    def _snapshot_extra(self) -> dict:
        return {"depth": self.depth, "depth_results": list(self.depth_results)}

"""The accuracy–sparsity frontier by dynamic programming over Pareto sets.

For an additive objective (GOSDT section 3: the loss of a tree is the sum of
its leaves' losses) let ``f(s, k)`` be the least loss of a tree with *at most*
``k`` leaves on the support set ``s``. Then (the per-budget form of GOSDT
equation 7, with λ replaced by an explicit leaf count)::

    f(s, 1) = leaf(s)
    f(s, k) = min( f(s, k-1),  min_j  min_{a+b=k}  f(s_l^j, a) + f(s_r^j, b) )

so each subproblem carries the vector ``f(s, 1..K)``: its Pareto set of
(loss, leaves) pairs, and a split combines its children's vectors by a
min-plus merge (the inner minimum over ``a + b = k``). The root's vector is
the whole frontier; the regularized optimum for any λ is
``min_k f(root, k) + λ k`` (see :mod:`treeopt.frontier.result` for the convex hull and
its λ intervals).

Search
------
Subproblems are memoised by support set (as in GOSDT: different paths to
the same rows share one problem, GOSDT Theorem B.8). Each value ``f(s, k)``
is computed by a budgeted, upper-bounded recursion (the scheme of MurTree's
``solve(s, k, UB)``, but with leaves instead of depth): ``solve(s, k, ub)``
either finds ``f(s, k)`` exactly, when it is below ``ub``, or proves
``f(s, k) >= ub`` and records that as a lower bound of the subproblem. The
root frontier is filled in left to right: ``f(root, k)`` is searched with
upper bound ``f(root, k-1)`` (a tree with ``k`` leaves matters only if it is
strictly better than every tree with fewer leaves), so points are certified
one at a time and a stopped search reports exactly which are certified.

Bounds (each counted in ``prune_counts``):

``equivalent_points``
    GOSDT Theorem B.9 / OSDT Theorem 9: no tree separates rows with equal
    features, so ``f(s, k) >= eq(s)`` for every ``k``; a problem whose leaf
    already reaches ``eq(s)`` is closed as a leaf for every budget, and a
    budget that reaches ``eq(s)`` closes every larger budget.
``hierarchical``
    GOSDT Theorems B.1/B.3 in per-budget form: a split of the budget
    ``k = a + b`` whose children's lower bounds add up to at least the best
    loss found so far cannot improve it and is skipped.
``upper_bound``
    The children of a split inherit the remaining margin as their upper
    bound; a child that proves it cannot beat its margin stops the split
    early (its failure is remembered as a lower bound, GOSDT Theorem B.3).
``monotone``
    ``f(s, k)`` never increases with ``k``: a lower bound proved for a budget
    holds for every smaller budget, and an exact value for a budget is an
    upper bound for every larger one.

Costs are in weight units (loss × total weight, :class:`~treeopt.objectives.LossModel`),
so accuracy losses are exact integer counts and the recursion's comparisons
are exact for them.
"""

from __future__ import annotations

import math

from ..data import Dataset
from ..events import Expanded, Started
from ..tree import Leaf, Split, Tree
from ..solvers.base import EPS, QueueEntry, Solver
from ..solvers.capabilities import Capabilities
from ..solvers.slices import SliceClock

__all__ = ["FrontierSearch"]

INF = math.inf


class FrontierProblem:
    """A support set with its per-budget values ``f(s, k)`` (weight units).

    ``depth`` is the depth its trees may still use (None: any depth); ``value[k]`` is exact when ``solved[k]``; ``lower[k]`` is a proved lower
    bound; ``choice[k]`` is ``None`` (a leaf) or ``(feature, a)``: split on
    ``feature`` with at most ``a`` leaves on the false side and ``k - a`` on
    the true side.
    """

    __slots__ = ("support", "counts", "leaf_loss", "prediction", "eq", "value", "lower", "solved",
                 "choice", "children", "closed_from", "cap", "depth")

    def __init__(self, support, counts, leaf_loss, prediction, eq, budget, depth=None):
        self.support = support
        self.depth = depth
        self.counts = counts
        self.leaf_loss = leaf_loss
        self.prediction = prediction
        self.eq = eq
        size = budget + 1
        self.value = [INF] * size
        self.lower = [eq] * size
        self.solved = [False] * size
        self.choice = [None] * size
        self.children = None          # list of (feature, left problem, right problem) once expanded
        self.closed_from = None       # smallest k with f(s, k) == eq(s): every larger budget is the same
        self.cap = budget             # budgets above this one copy its value (min_regularization)
        self.value[1] = leaf_loss
        self.lower[1] = leaf_loss
        self.solved[1] = True


class FrontierSearch(Solver):
    """Every minimum-loss tree with ``k <= max_leaves`` leaves, from one search.

    A stepwise solver (it speaks the protocol of :mod:`treeopt.solvers.base`):
    one unit of work is one expansion of a (subproblem, leaf budget) pair.
    Its scalar bounds are those of the best loss with at most ``max_leaves``
    leaves; the whole front is in :meth:`front` and in the snapshot's
    ``extra["front"]``.

    Parameters
    ----------
    dataset : Dataset
    max_leaves : int, optional
        ``K``, the largest number of leaves of a frontier tree (>= 1). Required
        without ``regularization``; with it, the default is the leaf-count bound
        ``1 + (leaf - eq) / λ`` (GOSDT Theorems B.4, B.9: no tree with more leaves
        beats the single leaf at λ).
    objective : str or Objective, default="accuracy"
        Any additive objective.
    min_regularization : float, optional
        λ₀. When given, the search is exact only where it matters for
        ``λ >= λ₀``: the trees on the lower convex hull of the front that are
        optimal for some ``λ >= λ₀`` are certified, the other Pareto points
        may be missed. This prunes like GOSDT at λ₀ (much faster on large
        data). Default: the whole Pareto front, or ``regularization`` when given.
    bounds : dict of str to bool, optional
        Switch bounds off by name (see ``BOUNDS``).
    regularization : float, optional
        λ. When given, the search is also a solver of ``loss + λ × leaves`` like the
        others (``treeopt.make_solver(X, y, solver="frontier", regularization=λ)``):
        its incumbent, bounds and result are those of the regularized objective at λ,
        read off the front (the best ``loss(k) + λ k``), and the front is exact for
        every ``λ' >= λ``. Without it the scalar bounds are those of the least loss
        with at most ``max_leaves`` leaves.
    depth_budget : int, optional
        Keep only trees of depth at most this. Such a tree has at most ``2 ** depth_budget``
        leaves, so the budgets above that copy its value, and with ``max_leaves >= 2 ** depth_budget``
        the front's last point is the most accurate tree of that depth (fewest leaves on ties): the
        optimum at λ = 0. Subproblems are then kept by (support, depth left), as in the depth-limited
        dynamic program of MurTree (Demirović et al., *MurTree: Optimal Decision Trees via Dynamic
        Programming and Search*, JMLR 2022, section 4.1). Default: trees of every depth.

    Notes
    -----
    With λ₀ the search computes ``g`` instead of ``f``: ``g(s, 1) = leaf(s)``
    and ``g(s, k)`` is the least ``g(s_l, a) + g(s_r, b)`` over splits and
    ``a + b = k`` if that is below ``g(s, k-1) - λ₀``, else ``g(s, k-1)``;
    budgets above ``1 + (leaf(s) - eq(s)) / λ₀`` copy that budget. ``g`` is
    the loss of a real tree with at most ``k`` leaves, so ``g >= f``; and for
    every ``λ >= λ₀`` the fewest-leaves optimal tree of ``loss + λ leaves`` on
    ``s`` (with ``k`` leaves) has ``g(s, k) = f(s, k)``: its subtrees are the
    fewest-leaves optima of their own subproblems (the objective is additive),
    its loss is below every tree with fewer leaves by more than λ per leaf
    (else that tree would be as good with fewer leaves), and it saves at least
    λ per extra leaf over a single leaf (GOSDT Theorems B.4-B.6). Hence
    ``min_k g(s, k) + λ k`` is the regularized optimum for every ``λ >= λ₀``.

    Attributes
    ----------
    certified_leaves : int
        The frontier is exact for every budget up to this many leaves.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    >>> y = np.array([0, 1, 1, 1] * 3)                 # OR: one split does not help, two do
    >>> search = FrontierSearch(Dataset.from_binary(X, y), max_leaves=4)
    >>> result = search.run()
    >>> result.optimal, [(p["leaves"], p["loss"], p["certified"]) for p in search.front()]
    (True, [(1, 0.25, True), (3, 0.0, True)])
    >>> print(search.tree_for_budget(3).rules(show_counts=False))
    if x0:
        predict 1
    else:  # not (x0)
        if x1:
            predict 1
        else:  # not (x1)
            predict 0
    """

    name = "frontier"
    CAPABILITIES = Capabilities(options=("max_leaves", "min_regularization"), single_class=True)
    BOUNDS = {
        "equivalent_points": "GOSDT Theorem B.9 / OSDT Theorem 9 (equivalent points bound)",
        "hierarchical": "GOSDT Theorems B.1, B.3 per leaf budget (children's lower bounds)",
        "upper_bound": "GOSDT Theorem B.3 (a child that cannot beat its margin stops the split)",
        "monotone": "f(s, k) is non-increasing in k (bounds shared across budgets)",
        "leaf_cap": "GOSDT Theorems B.4-B.6 at λ₀ = min_regularization (a subtree saves λ₀ per extra leaf)",
    }

    def __init__(self, dataset: Dataset, *, max_leaves: int | None = None, objective="accuracy",
                 min_regularization: float | None = None, bounds: dict | None = None,
                 regularization: float | None = None, depth_budget: int | None = None):
        if max_leaves is None and regularization is None:
            raise TypeError("FrontierSearch needs max_leaves (the largest number of leaves of a frontier tree, "
                            "e.g. max_leaves=20) or regularization (then the leaf-count bound at that λ).")
        if max_leaves is not None and (isinstance(max_leaves, bool) or not isinstance(max_leaves, int)
                                       and not hasattr(max_leaves, "__index__")):
            raise TypeError(f"max_leaves must be an integer, got {type(max_leaves).__name__}.")
        if max_leaves is not None and max_leaves < 1:
            raise ValueError(f"max_leaves must be at least 1, got {max_leaves}; it caps the number of "
                             "leaves of the frontier's trees (e.g. max_leaves=20).")
        # Without λ the base class's regularization is unused (1.0 keeps its checks valid).
        super().__init__(dataset, regularization=1.0 if regularization is None else regularization,
                         objective=objective, bounds=bounds, depth_budget=depth_budget)
        if not self.objective.additive:
            raise ValueError(f"the frontier needs an additive objective; {self.objective.name!r} is not. "
                             "Use 'accuracy', 'balanced_accuracy' or 'weighted_accuracy'.")
        if min_regularization is not None and (
                isinstance(min_regularization, bool) or not isinstance(min_regularization, (int, float))
                or not math.isfinite(min_regularization) or min_regularization < 0):
            raise ValueError(f"min_regularization must be a non-negative number or None, got "
                             f"{min_regularization!r}; it is the smallest λ the frontier must be exact for.")
        if regularization is not None and min_regularization is not None and min_regularization > regularization:
            raise ValueError(f"min_regularization={min_regularization} exceeds regularization={regularization}: the "
                             "front must be exact at λ = regularization, so λ₀ can be at most that.")
        self.regularization = None if regularization is None else float(regularization)
        if min_regularization is None and regularization is not None:
            min_regularization = regularization
        self.min_regularization = float(min_regularization) if min_regularization else None
        self.model = self.objective.loss_model(dataset)
        if max_leaves is None:
            # GOSDT Theorems B.4, B.9: a tree with L leaves costs at least eq + λL, so beyond
            # 1 + (leaf - eq) / λ leaves nothing beats the single leaf.
            counts = dataset.class_counts(dataset.all_points)
            spare = self.model.leaf(counts)[0] - self.model.equivalent_points(dataset.all_points)
            max_leaves = 1 + int(spare / (self.regularization * dataset.total_weight) + EPS)
        self.max_leaves = int(max_leaves)
        self.penalty = (self.min_regularization or 0.0) * dataset.total_weight   # λ₀ in weight units
        self._subtract = bool(dataset.exact_counts and self.model.unit_costs and self.bounds["equivalent_points"])
        self.eps = EPS * dataset.total_weight   # relative: tiny weights keep their ties
        self.problems: dict = {}       # by support, or by (support, depth left) with a depth budget
        self.root: FrontierProblem | None = None
        self.certified_leaves = 0
        self._target = 0              # the root budget being searched now
        self._stack: list = []        # (problem, k, ub) of the recursion, for the snapshot's queue

    # -- subproblems ----------------------------------------------------------------
    def _problem(self, support: int, parent: FrontierProblem | None = None,
                 sibling: FrontierProblem | None = None, depth: int | None = None) -> FrontierProblem:
        key = support if depth is None else (support, depth)
        problem = self.problems.get(key)
        if problem is not None:
            return problem
        if sibling is not None and self._subtract:
            # Counts and the equivalent-points loss are sums over points: the other side of a split
            # is the parent minus the sibling (exact for integer counts and unit costs).
            counts = tuple(p - q for p, q in zip(parent.counts, sibling.counts))
            eq = parent.eq - sibling.eq
        else:
            counts = self.dataset.class_counts(support)
            eq = self.model.equivalent_points(support)
        if not self.bounds["equivalent_points"]:
            eq = 0
        leaf_loss, prediction = self.model.leaf(counts)
        problem = FrontierProblem(support, counts, leaf_loss, prediction, eq, self.max_leaves, depth)
        if depth is not None and 2 ** depth < problem.cap:
            problem.cap = 2 ** depth            # a tree of depth d has at most 2**d leaves
        if self.penalty > 0 and self.bounds["leaf_cap"]:
            # A subtree with k leaves that is optimal for some λ >= λ₀ saves at least λ₀ per extra
            # leaf over the single leaf, and cannot go below eq: k <= 1 + (leaf - eq) / λ₀.
            cap = 1 + int((leaf_loss - eq + self.eps) // self.penalty)
            if cap < problem.cap:
                problem.cap = max(1, cap)
                self.prune_counts["leaf_cap"] += 1
        if leaf_loss <= eq + self.eps:
            # The leaf already reaches the equivalent-points bound: a leaf for every budget.
            self.prune_counts["equivalent_points"] += 1
            self._close(problem, 1)
        self.problems[key] = problem
        return problem

    def _close(self, problem: FrontierProblem, k: int) -> None:
        """f(s, k) reached eq(s): every budget from ``k`` on has the same value and tree."""
        problem.closed_from = k
        value, choice = problem.value[k], problem.choice[k]
        for m in range(k + 1, self.max_leaves + 1):
            problem.value[m] = value
            problem.lower[m] = value
            problem.choice[m] = choice
            problem.solved[m] = True

    def _children(self, problem: FrontierProblem) -> list:
        """The splits of ``problem`` (built by :meth:`_build_children`, which :meth:`_solve` runs first)."""
        if problem.children is None:
            for _ in self._build_children(problem):
                pass
        return problem.children

    def _build_children(self, problem: FrontierProblem):
        """Build ``problem.children``, yielding whenever a slice of the unit budget is spent. A generator.

        A support with many features (every threshold of a large table) has tens of thousands of
        splits, whose children take longer to build than one unit of work may last
        (:mod:`treeopt.solvers.slices`).
        """
        if problem.children is not None:
            return
        clock = SliceClock(self.unit_budget)
        support = problem.support
        masks = self.dataset.feature_masks
        depth = None if problem.depth is None else problem.depth - 1
        children = []
        for j in range(self.dataset.n_features):
            right = support & masks[j]
            if right and right != support:
                right_problem = self._problem(right, depth=depth)
                children.append((j, self._problem(support ^ right, problem, right_problem, depth),
                                 right_problem))
            if clock.due():
                yield
        # Most promising first: the split with the least loss as two leaves.
        children.sort(key=lambda c: c[1].leaf_loss + c[2].leaf_loss)
        problem.children = children

    # -- the recursion -----------------------------------------------------------
    def _solve(self, problem: FrontierProblem, k: int, ub: float):
        """Find g(s, k) exactly if it is below ``ub``; else record ``g(s, k) >= ub``. A generator.

        ``g`` is ``f`` when ``min_regularization`` is None. Otherwise (λ₀ =
        ``min_regularization`` in weight units) a split tree with ``k`` leaves
        is kept only if its loss is below ``g(s, k-1) - λ₀``, and budgets
        above ``problem.cap`` copy the value at the cap: see the class notes.
        """
        if problem.solved[k] or problem.lower[k] >= ub:
            return
        cap = problem.cap
        if k > cap:
            # Leaf cap (the per-subproblem form of GOSDT Theorems B.4-B.6): g(s, k) = g(s, cap).
            yield from self._solve(problem, cap, ub)
            if problem.solved[cap]:
                self._close(problem, cap)
            else:
                self._raise_lower(problem, k, problem.lower[cap])
            return
        lam = self.penalty
        if not problem.solved[k - 1]:
            yield from self._solve(problem, k - 1, ub + lam)
            if problem.solved[k]:             # closed by the smaller budget
                return
        eps = self.eps
        if problem.solved[k - 1]:
            previous = problem.value[k - 1]
            bar = min(ub, previous - lam)
            exact_if_none = previous - lam <= ub   # then "no split beats the bar" means g(s, k) = g(s, k-1)
        else:
            previous = None                   # g(s, k-1) >= ub + λ₀: only a split below ub matters
            bar = ub
            exact_if_none = False
        floor = problem.eq
        yield from self._build_children(problem)
        self._stack.append((problem, k, ub))
        self.expansions += 1
        if self._events is not None:
            self._emit(Expanded(self.expansions, f"{problem.support.bit_count()} points, budget {k} leaves",
                                self._obj(problem.lower[k]), self._obj(min(bar, INF)),
                                len(self._children(problem))))
        yield
        counts = self.prune_counts
        use_hier = self.bounds["hierarchical"]
        use_ub = self.bounds["upper_bound"]
        best, choice, found = bar, None, False
        hier_pruned = 0
        clock = SliceClock(self.unit_budget)
        for j, left, right in self._children(problem):
            if best <= floor + eps:
                break
            if clock.due():            # many splits, all pruned: the loop alone outlasts a unit
                yield
            left_lower, right_lower = left.lower, right.lower
            left_solved, right_solved = left.solved, right.solved
            for a in range(1, k):
                b = k - a
                if use_hier and left_lower[a] + right_lower[b] >= best - eps:
                    hier_pruned += 1
                    continue
                if not left_solved[a]:
                    margin = best - right_lower[b] if use_ub else INF
                    yield from self._solve(left, a, margin)
                    if not left_solved[a]:
                        counts["upper_bound"] += 1
                        continue
                value_left = left.value[a]
                if not right_solved[b]:
                    margin = best - value_left if use_ub else INF
                    yield from self._solve(right, b, margin)
                    if not right_solved[b]:
                        counts["upper_bound"] += 1
                        continue
                total = value_left + right.value[b]
                if total < best - eps:
                    best, choice, found = total, (j, a, b), True
                    if problem is self.root:
                        self._root_incumbent(k, best, choice)
                if best <= floor + eps:
                    break
        self._stack.pop()
        counts["hierarchical"] += hier_pruned
        if not found and exact_if_none:
            best, choice, found = previous, problem.choice[k - 1], True
        if found:
            problem.value[k] = best
            problem.lower[k] = best
            problem.choice[k] = choice
            problem.solved[k] = True
            if best <= floor + eps:
                self._close(problem, k)
        else:
            self._raise_lower(problem, k, ub)

    def _raise_lower(self, problem: FrontierProblem, k: int, bound: float) -> None:
        """f(s, k) >= bound, and so is f(s, m) for every m < k (monotone in k)."""
        lower = problem.lower
        if bound > lower[k]:
            lower[k] = bound
            if self.bounds["monotone"]:
                for m in range(k - 1, 1, -1):
                    if lower[m] >= bound:
                        break
                    lower[m] = bound
                    self.prune_counts["monotone"] += 1

    def _root_incumbent(self, k: int, loss: float, choice) -> None:
        self._incumbents[k] = (loss, choice)
        self._record(improved=True)

    def _search(self):
        self.root = self._problem(self.dataset.all_points, depth=self.depth_budget)
        self._incumbents = {1: (self.root.leaf_loss, None)}
        root = self.root
        self.certified_leaves = 1
        self._emit(Started(0, self.lower_bound, self.upper_bound))
        self._record()
        for k in range(2, self.max_leaves + 1):
            if root.closed_from is not None:
                break
            self._target = k
            before = self.lower_bound
            yield from self._solve(root, k, INF)
            # Searched with no cap, so the value is exact (a leaf-only result means no k-leaf tree is better).
            self.certified_leaves = k
            self._incumbents[k] = (root.value[k], root.choice[k])
            self._emit(Expanded(self.expansions, f"budget {k} leaves", self._obj(root.value[k]),
                                self._obj(root.value[k]), len(root.children or ())))
            self._record(improved=root.value[k] < root.value[k - 1], raised=self.lower_bound > before)
        self.certified_leaves = self.max_leaves
        self._target = 0

    # -- reading the state -----------------------------------------------------------
    def _obj(self, weight_units: float) -> float:
        return self.model.to_objective(weight_units)

    def _best_k(self) -> int:
        """Budget of the best incumbent: the least objective (:meth:`_incumbent_objective`), fewest leaves."""
        if self.root is None:
            return 1
        return min(self._incumbents, key=lambda m: (self._incumbent_objective(m), m))

    def _incumbent_objective(self, k: int) -> float:
        """The incumbent of budget ``k``: its loss, + λ × its leaves with ``regularization`` (objective units)."""
        loss, choice = self._incumbents[k]
        if self.regularization is None:
            return self._obj(loss)
        return self._obj(loss) + self._leaf_cost() * self._leaves_of(self.root, choice)

    def _leaf_cost(self) -> float:
        """λ per leaf in objective units (0 without ``regularization``: the least loss is the target)."""
        if self.regularization is None:
            return 0.0
        return self._obj(self.regularization * self.dataset.total_weight)

    @property
    def lower_bound(self) -> float:
        """Lower bound on the least loss (+ λ × leaves with ``regularization``) of a tree with at most
        ``max_leaves`` leaves.

        With λ: the budgets solved so far are exact, and every larger budget ``k`` has
        ``loss(k) >= loss(max_leaves) >= lower`` (the loss never rises with the budget), so the
        bound is the least of ``loss(k) + λ k`` over the solved budgets and ``lower + λ (certified + 1)``.
        """
        if self.root is None:
            return 0.0
        root, top = self.root, self.max_leaves
        least = self._obj(root.value[top] if root.solved[top] else root.lower[top])
        lam = self._leaf_cost()
        if lam == 0.0:
            return least
        solved = [self._obj(root.value[k]) + lam * k for k in range(1, self.certified_leaves + 1)]
        if self.certified_leaves < top:
            solved.append(least + lam * (self.certified_leaves + 1))
        return min(solved)

    @property
    def upper_bound(self) -> float:
        """Least loss (+ λ × leaves with ``regularization``) of a tree found so far (at most ``max_leaves`` leaves)."""
        if self.root is None:
            counts = self.dataset.class_counts(self.dataset.all_points)
            return self._obj(self.model.leaf(counts)[0]) + self._leaf_cost()
        return self._incumbent_objective(self._best_k())

    def _incumbent_leaves(self) -> int:
        return self.tree_for_budget(self._best_k()).n_leaves

    def _incumbent(self) -> Tree:
        if self.root is None:
            counts = self.dataset.class_counts(self.dataset.all_points)
            loss, pred = self.model.leaf(counts)
            return self._wrap(Leaf(pred, counts, self._obj(loss)))
        return self.tree_for_budget(self._best_k())

    def _wrap(self, node) -> Tree:
        return Tree(node, self.dataset.features, self.dataset.classes, binarizer=self.dataset.binarizer)

    def tree_for_budget(self, k: int) -> Tree:
        """The best tree found with at most ``k`` leaves (optimal when ``k <= certified_leaves``)."""
        self._ensure_started()
        if not 1 <= k <= self.max_leaves:
            raise ValueError(f"k must be between 1 and max_leaves={self.max_leaves}, got {k}.")
        if self.root is None:
            return self._incumbent()
        known = [m for m in self._incumbents if m <= k]
        m = min(known, key=lambda m: (self._incumbents[m][0], m))
        choice = self._incumbents[m][1]
        return self._wrap(self._node(self.root, choice))

    def _node(self, problem: FrontierProblem, choice):
        if choice is None:
            return Leaf(problem.prediction, problem.counts, self._obj(problem.leaf_loss))
        j, a, b = choice
        for feature, left, right in problem.children:
            if feature == j:
                return Split(j, self._node(left, left.choice[a]), self._node(right, right.choice[b]))
        raise RuntimeError("frontier choice refers to a missing split; please report this bug.")  # pragma: no cover

    def front(self, pareto_only: bool = True) -> list[dict]:
        """The root's current front, one dict per leaf budget ``k = 1..max_leaves``.

        Keys: ``budget``; ``leaves`` of the best tree found with at most
        ``budget`` leaves; its ``loss`` and the proved ``lower_bound`` on the
        optimum for that budget (objective units); ``certified`` (the loss is
        the proved optimum for the budget); ``pareto`` (the loss is strictly
        below that of every smaller budget, so the tree has exactly
        ``budget`` leaves). ``pareto_only`` keeps the Pareto rows only.
        """
        self._ensure_started()
        rows = []
        if self.root is None:
            loss = self.upper_bound
            return [{"budget": 1, "leaves": 1, "loss": loss, "lower_bound": loss, "certified": True,
                     "pareto": True}]
        root = self.root
        previous = INF
        for k in range(1, self.max_leaves + 1):
            certified = k <= self.certified_leaves or root.solved[k]
            if certified:
                loss, lower, choice = root.value[k], root.value[k], root.choice[k]
            else:
                m = min((m for m in self._incumbents if m <= k), key=lambda m: (self._incumbents[m][0], m))
                loss, choice = self._incumbents[m]
                lower = root.lower[k]
            pareto = loss < previous - self.eps
            if pareto:
                previous = loss
            if pareto or not pareto_only:
                rows.append({"budget": k, "leaves": self._leaves_of(root, choice), "loss": self._obj(loss),
                             "lower_bound": self._obj(min(lower, loss)), "certified": certified,
                             "pareto": pareto})
        return rows

    def _leaves_of(self, problem: FrontierProblem, choice) -> int:
        if choice is None:
            return 1
        j, a, b = choice
        for feature, left, right in problem.children:
            if feature == j:
                return self._leaves_of(left, left.choice[a]) + self._leaves_of(right, right.choice[b])
        raise RuntimeError("frontier choice refers to a missing split; please report this bug.")  # pragma: no cover

    @property
    def queue_size(self) -> int:
        return len(self._stack)

    @property
    def cache_size(self) -> int:
        """Subproblems in the memo (each holds its values for budgets ``1..max_leaves``).

        The recursion stack only refers to memo problems, so it adds nothing.
        Problems are never freed, so this never decreases during a search.
        """
        return len(self.problems)

    def _queue_entries(self, k: int) -> list:
        entries = []
        for depth, (problem, budget, ub) in enumerate(reversed(self._stack[-k:] if k else [])):
            entries.append(QueueEntry(priority=(depth,), rule=f"{problem.support.bit_count()} points, "
                                      f"budget {budget} leaves", support=float(sum(problem.counts)),
                                      lower_bound=self._obj(problem.lower[budget]),
                                      upper_bound=self._obj(ub) if ub < INF else INF, payload=problem))
        return entries

    def _snapshot_extra(self) -> dict:
        return {"front": self.front(), "certified_leaves": self.certified_leaves, "target_leaves": self._target,
                "problems": len(self.problems), "max_leaves": self.max_leaves}

    def __repr__(self) -> str:
        if self._generator is None:
            return f"FrontierSearch(max_leaves={self.max_leaves}, status='not_started')"
        return (f"FrontierSearch(max_leaves={self.max_leaves}, status={self.status!r}, "
                f"certified_leaves={self.certified_leaves}, expansions={self.expansions})")

"""The depth-limited search over sorted values, and the stepwise solver around it.

The optimal tree of depth at most ``d`` on a support ``S`` is a leaf or, over every column and
threshold, the optimal depth ``d - 1`` trees of the two children (the dynamic program of Brița,
van der Linden and Demirović, *Optimal Classification Trees for Continuous Feature Data Using
Dynamic Programming with Branch-and-Bound*, AAAI 2025, section 3). This module runs it with:

* interval pruning over each column's thresholds (:mod:`.intervals`, section 4.2 of that paper); the
  depth-two solver, which takes thresholds by the batch, bounds every threshold of a small support at
  once (:mod:`.threshold_bounds`);
* upper bounds passed down (section 4.1): a subproblem is asked for its optimum only if it is
  below a budget (the best split so far minus a lower bound on the sibling), and otherwise
  answers with a lower bound at least the budget;
* ConTree's schedule of a split's children: the larger child first, then the other under the
  budget left plus the weight of the larger half of the threshold's interval, so that its lower
  bound closes the interval's neighbours even when the split itself is ruled out;
* the terminal depth-two solver (:mod:`.terminal`, section 4.3) for the last two levels, whose
  children read only the columns their neighbours' per-column costs leave open
  (:mod:`.column_bounds`); a support whose root thresholds all fit in one of its batches evaluates
  them all at once (``whole_depth_two``), where the interval search's bookkeeping would cost more
  than the thresholds it closes;
* a memo of subproblems by (depth, support), results and lower bounds alike;
* a subproblem's first batch tries the best root split of its nearest solved sibling (the child
  on the same side of a nearby threshold of the same parent column): nested supports that differ
  by a few rows have splits of nearly the same cost (section 4.2's similarity bound), so a tight
  incumbent comes at once;
* with a depth budget of three or more, good trees before the exact search (:mod:`.anytime`):
  CART's tree as a floor, then limited discrepancy passes; the root is then solved under the
  incumbent's cost;
* with λ > 0, GOSDT's one-step lookahead (Lin et al., *Generalized and Scalable Optimal Sparse
  Decision Trees*, ICML 2020, Theorem B.5): a split must pay for its extra leaf, so a leaf whose
  loss is at most λ is not split; and the leaf-support bound (Hu, Rudin, Seltzer, *Optimal Sparse
  Decision Trees*, NeurIPS 2019, Theorem 3): a side of cost-weighted weight ``w <= λ`` can be
  routed into its sibling's subtree, which costs at most ``w`` and saves at least one leaf, so such
  a split is never needed.

``regularization=0`` with a depth budget asks for the most accurate tree of at most that depth,
ties broken by fewer leaves (``tie_break="fewest_leaves"``, the default; ``tie_break="any"``
certifies the errors alone, as ConTree does, and returns the first most accurate tree found).
The search charges every leaf an infinitesimal penalty (a ``2**-(d+1)`` share of the tolerance
within which treeopt calls two objectives equal), so a tree with fewer leaves wins every tie;
objectives are reported without it. When a tree without errors exists, proving that none has fewer
leaves is most of the work, and four parts make it short:

* ``class_count_bound`` (:mod:`.leaf_counts`): a tree without errors has a leaf per class present,
  one with errors loses at least the least row; a subproblem whose budget is below that bound is
  closed unsearched, one whose tree reaches it stops, and below one error a threshold whose two
  sides' classes need too many leaves is not evaluated;
* ``perfect_depth_bound``: when the support's best tree one level shallower has errors, a tree
  without errors has depth exactly ``d``, hence ``d + 1`` leaves;
* ``pure_side_dominance``: of the thresholds that leave one class on a side, only the one leaving
  the other side smallest is evaluated;
* ``one_error_budget``: a subproblem asked below one error with a budget that admits every tree
  without errors of its depth is asked for its best tree without errors or a proof that it has
  errors, an answer the memo serves to every later budget below one error (a smaller budget is a
  leaf budget, kept so that the search stops sooner);
* ``perfect_depth_two`` (:mod:`.perfect_depth_two`): a depth-two support asked below one error gets
  its best tree without errors from one pass per root column, for all its root thresholds at once;
* ``error_free_first`` (search order): with an incumbent that has errors, the root is first asked
  below one error, so that every subproblem looks for trees without errors only and the bounds
  above close most of them; a tree without errors found so is optimal, and otherwise the search
  under the incumbent follows;
* ``side_leaf_floors``: below one error a threshold is kept only if its sides' leaves fit the
  budget, a side needing a leaf per class and three unless one split separates it; and, since the
  support's best tree one level shallower is not below the target, a better tree has full depth, so
  one of its children needs as many leaves as the support's depth;
* ``fewest_leaves_first`` (search order): below one error the interval bounds tell thresholds
  little apart, so each of the root's columns first tries its threshold whose side floors are least
  (a pure side is one leaf), where the tree without errors with the fewest leaves is likeliest:
  finding it sooner, not proving it, is where the time goes.

Without a depth budget (λ > 0) the search deepens, ``d = 1, 2, …``, and stops when the leaf-count
bound of :mod:`treeopt.solvers.deepening` certifies the best tree.

The search is a generator that yields after each unit of work: one threshold of a depth-three
or deeper subproblem, or one batch of root thresholds of a depth-two subproblem (sized so that
a unit stays short).
"""

from __future__ import annotations

import hashlib
import time

import numpy as np

from ...events import Pruned, Started
from ...nodes import Leaf, Split
from ...sorted_columns import SortedDataset
from ...tree import Tree
from ..base import EPS, QueueEntry, Solver
from ..capabilities import Capabilities
from ..slices import SliceClock, drain
from ..switches import Switches, bound, first_incumbent, search_order, subsolver
from .anytime import DiscrepancySearch, cart_floor
from .intervals import IntervalBatches, IntervalSearch
from .threshold_bounds import ARRAY_ENTRIES, ThresholdBounds
from .column_bounds import ColumnBounds
from .leaf_counts import least_cost, least_error, pure_runs, split_floors
from .perfect_depth_two import WITH_ERRORS, fewest_leaves_without_errors, split_leaf_floors
from . import split_blocks
from .terminal import (SupportColumns, batch_size, best_depth_one, depth_one_by_column, depth_two_steps, leaf_loss,
                       split_columns, whole_weights)

__all__ = ["ContinuousSearch"]

#: A depth-two batch evaluates at most this many root thresholds.
BATCH_LIMIT = 64

#: ... and at most this many when only trees without errors are searched for (``one_error_budget``): the
#: bounds of a few thresholds close most of the others, so large batches mostly evaluate closed ones.
TIE_BATCH_LIMIT = 16

_LEAF = ("leaf",)

#: A depth-two tree's child that one split classifies without errors (``perfect_depth_two``): its split
#: is found only when the tree is built (``_build_tree``), from the rows that reach it, since most such
#: trees never become part of the returned tree. It has the shape of a split of two leaves, so every
#: reader of the nested tuples counts its leaves right.
_SEPARABLE = ("separable", -1, -1, _LEAF, _LEAF)

#: The switches that prune (each emits ``Pruned``); ``depth_two`` chooses a subsolver.
_PRUNING = ("interval_pruning", "column_bounds", "split_blocks", "upper_bound_pass_down", "leaf_lookahead", "leaf_support",
            "leaf_bound", "class_count_bound", "perfect_depth_bound", "pure_side_dominance", "side_leaf_floors")


class ContinuousSearch(Solver):
    """The best tree of bounded depth over numeric columns kept as sorted values.

    Parameters
    ----------
    dataset : SortedDataset or Dataset
        Built by ``make_solver(..., solver="continuous")`` or ``SortedDataset.from_arrays``; a binary
        :class:`~treeopt.data.Dataset` is read as 0/1 columns split on its own features.
    regularization : float
        λ, the cost of one leaf in objective units; 0 (with a ``depth_budget``) for the most
        accurate tree, ties broken by fewer leaves.
    objective : str or Objective, default="accuracy"
        Any additive objective.
    bounds : dict of str to bool, optional
        Switch off ``interval_pruning``, ``column_bounds``, ``split_blocks``,
        ``upper_bound_pass_down``, ``leaf_lookahead``, ``leaf_bound``, ``leaf_support``,
        ``class_count_bound``, ``perfect_depth_bound``, ``pure_side_dominance`` or ``side_leaf_floors``.
    depth_budget : int, optional
        Maximum depth. Without one (λ > 0), depths 1, 2, … are solved until the leaf-count bound
        certifies the best tree.
    tie_break : {"fewest_leaves", "any"}, default="fewest_leaves"
        At ``regularization=0``, which of the most accurate trees to return. ``"fewest_leaves"``
        proves that no tree as accurate has fewer leaves; when a tree without errors exists, that
        proof can take far longer than finding one. ``"any"`` certifies the errors only (ConTree's
        task): the search stops at the first tree it proves most accurate. A split is kept only when
        it is better than a leaf, so no split ends in two leaves of one class, but a tree as accurate
        may have fewer leaves. With λ > 0 every leaf costs λ and this has no effect.
    strategies : dict of str to bool, optional
        Switch off the ``depth_two`` subsolver (the depth-two levels are then searched like deeper
        ones) or its ``whole_depth_two`` path for small supports, the ``shallower_start`` or
        ``cart_start`` first incumbent, the ``discrepancy_search`` passes that find good trees
        before the exact search (both from depth three on, the passes at depth three on large
        tables only; ``treeopt.solvers.continuous.anytime``), the ``larger_child_first`` and
        ``interval_budget`` orders of a split's children, ``sibling_split_first`` (a subproblem
        tries its nearest solved sibling's best root split in its first batch), or
        ``one_error_budget`` (at λ = 0, a subproblem asked below one error, with a budget that admits
        every tree without errors of its depth, looks for its best tree without errors), or
        ``error_free_first`` (at λ = 0 with an incumbent that has errors, the root is first asked for
        its best tree without errors), or the ``perfect_depth_two`` subsolver (at λ = 0 below one error, a
        depth-two support's fewest leaves without errors for all root thresholds at once), or
        ``fewest_leaves_first`` (below one error, each of the root's columns first tries its threshold
        whose sides' leaf floors are least).

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.sorted_columns import SortedDataset
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(60, 2))
    >>> y = (X[:, 0] > 0.3) ^ (X[:, 1] > -0.2)                    # XOR of two thresholds
    >>> solver = ContinuousSearch(SortedDataset.from_arrays(X, y), regularization=0, depth_budget=2)
    >>> result = solver.run()
    >>> result.optimal, result.objective, result.tree.n_leaves
    (True, 0.0, 4)
    >>> any_tree = ContinuousSearch(SortedDataset.from_arrays(X, y), regularization=0, depth_budget=3,
    ...                             tie_break="any").run()           # errors certified, leaves not
    >>> any_tree.optimal, any_tree.objective
    (True, 0.0)
    >>> sorted(solver.prune_counts)  # doctest: +NORMALIZE_WHITESPACE
    ['cart_start', 'class_count_bound', 'column_bounds', 'depth_two', 'discrepancy_search', 'error_free_first',
     'fewest_leaves_first', 'interval_budget', 'interval_pruning', 'larger_child_first', 'leaf_bound',
     'leaf_lookahead', 'leaf_support', 'one_error_budget', 'perfect_depth_bound', 'perfect_depth_two',
     'pure_side_dominance', 'shallower_start', 'sibling_split_first', 'side_leaf_floors', 'split_blocks',
     'upper_bound_pass_down', 'whole_depth_two']
    """

    name = "continuous"
    SWITCHES = Switches([
        bound("interval_pruning", "Brița, van der Linden, Demirović (AAAI 2025) section 4.2: one evaluated threshold "
                                  "bounds the thresholds between it and its evaluated neighbours"),
        bound("column_bounds", "Brița et al. (AAAI 2025) section 4.2's monotonicity and similarity bounds, column by "
                               "column: a depth-two child does not read a column on which its neighbouring root "
                               "thresholds' costs show it cannot beat its best split so far"),
        bound("split_blocks", "Brița et al. (AAAI 2025) section 4.2's bound over the splits between two positions, "
                              "inside the depth-two solver (section 4.3): a block of split positions is read row by "
                              "row only if its partial sums leave room to beat the child's best split so far"),
        bound("upper_bound_pass_down", "Brița et al. (AAAI 2025) section 4.1: a child is solved only below the best "
                                       "split so far minus its sibling's lower bound"),
        bound("leaf_lookahead", "GOSDT Theorem B.5 (one-step lookahead): a leaf whose loss is at most λ is not split"),
        bound("leaf_bound", "GOSDT Theorem B.4 (upper bound on the number of leaves): below a budget b a tree has "
                            "fewer than b / λ leaves, so a subproblem is solved at depth at most ceil(b / λ) - 2"),
        bound("class_count_bound", "leaf counting (treeopt/solvers/continuous/leaf_counts.py; Lin et al., ICML 2020, "
                                   "Theorem B.4's leaf-count argument): a tree without errors has a leaf per class present "
                                   "and one with errors loses at least the least row, so a support costs at least "
                                   "min(leaf, least error + 2λ, classes × λ)"),
        bound("perfect_depth_bound", "leaf counting (treeopt/solvers/continuous/leaf_counts.py): when no tree one "
                                     "level shallower is without errors, a tree without errors has depth exactly d, "
                                     "hence d + 1 leaves; at λ = 0 a depth-two support reads its depth-one optimum "
                                     "first to know it"),
        bound("pure_side_dominance", "Brița et al. (AAAI 2025) section 4.2's monotonicity: of the thresholds whose "
                                     "left (right) side holds one class, a leaf at the least cost of any subtree, the "
                                     "last (first) leaves the other side smallest and is no worse than the rest"),
        bound("side_leaf_floors", "leaf counting (treeopt/solvers/continuous/perfect_depth_two.py): below one error, "
                                  "a side needs a leaf per class, and three leaves unless one split separates it; and "
                                  "when the support's best tree one level shallower is not below the target, a better "
                                  "tree has full depth, so one child needs as many leaves as the support's depth"),
        bound("leaf_support", "OSDT Theorem 3 (lower bound on leaf support), in its one-sided form: a split with a "
                              "side of cost-weighted weight at most λ is no better than its other side's subtree"),
        search_order("larger_child_first", "Brița et al. (AAAI 2025), ConTree's schedule: of a split's two children "
                                           "the one with more rows is solved first, the other under the budget left"),
        search_order("interval_budget", "Brița et al. (AAAI 2025) section 4.2, ConTree's schedule: the second child's "
                                        "budget is raised by the weight of the larger half of the threshold's interval, so "
                                        "its bound closes the neighbours"),
        subsolver("depth_two", "Brița et al. (AAAI 2025) section 4.3: the terminal depth-two solver, one pass per "
                               "root threshold"),
        subsolver("whole_depth_two", "a depth-two support whose root thresholds all fit in one batch of the terminal "
                                     "solver (section 4.3 of Brița et al., AAAI 2025) evaluates them all at once, "
                                     "without the interval search"),
        subsolver("perfect_depth_two", "Brița et al. (AAAI 2025) section 4.3's depth-two solver for trees without "
                                       "errors (treeopt/solvers/continuous/perfect_depth_two.py): at λ = 0 below one "
                                       "error, a depth-two support's fewest leaves without errors for every root "
                                       "threshold of a column at once, from running class rank ranges"),
        first_incumbent("shallower_start", "a support's best tree one level shallower (solved under the same "
                                           "budget) starts its search, so its children get tight budgets at once"),
        first_incumbent("cart_start", "Breiman et al., Classification and Regression Trees (1984): the Gini-greedy "
                                      "tree of the depth budget, pruned at λ, is the first incumbent (depth 3 or more)"),
        search_order("sibling_split_first", "Brița et al. (AAAI 2025) section 4.2's similarity bound (Lin et al., "
                                            "ICML 2020, similar support): a subproblem's first batch tries the best "
                                            "root split of its nearest solved sibling (same parent column and side)"),
        search_order("fewest_leaves_first", "leaf counting (treeopt/solvers/continuous/perfect_depth_two.py): below "
                                            "one error, each of the root's columns hands out first its threshold whose "
                                            "sides' leaf floors are least, before its middles"),
        search_order("one_error_budget", "leaf counting (treeopt/solvers/continuous/leaf_counts.py): at λ = 0 a "
                                         "subproblem asked below one error, whose budget admits every tree without "
                                         "errors of its depth, is asked for its best tree without errors "
                                         "(or a proof that it has errors), an answer the memo gives every later budget "
                                         "below one error; its depth-two batches are small"),
        search_order("error_free_first", "ConTree's narrowing at λ = 0 (Brița et al., AAAI 2025): with an incumbent "
                                         "that has errors, the root is first asked below one error, where only trees "
                                         "without errors count and the leaf counts close most subproblems; the best "
                                         "tree without errors found so is optimal"),
        search_order("discrepancy_search", "Harvey and Ginsberg, Limited Discrepancy Search (IJCAI 1995), ConTree's "
                                           "anytime variant (pytrees-rs use_lds): passes over ranked splits with exact "
                                           "depth-two trees below find good trees before the exact search"),
    ])
    CAPABILITIES = Capabilities(dataset="sorted", zero_regularization=True, options=("tie_break",))
    #: The values of ``tie_break``: which of the most accurate trees ``regularization=0`` returns.
    TIE_BREAKS = ("fewest_leaves", "any")

    @classmethod
    def check_tie_break(cls, tie_break: str) -> None:
        """Raise a ValueError that names the values unless ``tie_break`` is one of :attr:`TIE_BREAKS`.

        Examples
        --------
        >>> ContinuousSearch.check_tie_break("any")
        >>> ContinuousSearch.check_tie_break("first")
        Traceback (most recent call last):
        ...
        ValueError: tie_break must be one of ['fewest_leaves', 'any'], got 'first': ...
        """
        if tie_break not in cls.TIE_BREAKS:
            raise ValueError(f"tie_break must be one of {list(cls.TIE_BREAKS)}, got {tie_break!r}: 'fewest_leaves' "
                             "proves that no tree as accurate has fewer leaves, 'any' certifies the errors only.")

    def __init__(self, dataset: SortedDataset, *, regularization: float, objective="accuracy",
                 bounds: dict | None = None, depth_budget: int | None = None, strategies: dict | None = None,
                 tie_break: str = "fewest_leaves"):
        self.check_tie_break(tie_break)
        self.tie_break = tie_break
        super().__init__(dataset, regularization=regularization, objective=objective, bounds=bounds,
                         depth_budget=depth_budget, strategies=strategies)
        # A binary Dataset is read as 0/1 columns, each split on its own feature (the tree keeps them all).
        self._binary_features = not isinstance(dataset, SortedDataset)
        sorted_view = SortedDataset.from_dataset(dataset) if self._binary_features else dataset
        if not self.objective.additive:
            raise ValueError(f"solver='continuous' needs an additive objective; {self.objective.name!r} is not. "
                             "Use solver='osdt' for F-score and AUC objectives.")
        self.model = self.objective.loss_model(dataset)
        columns = sorted_view.columns
        self._columns = columns
        self._rank = columns.rank
        n_classes = dataset.n_classes
        onehot = np.zeros((columns.n_rows, n_classes))
        onehot[np.arange(columns.n_rows), sorted_view.y_index] = sorted_view.weights
        self._weights = onehot                                    # raw class weight of each row
        self._cw = onehot * self.model.costs[None, :]             # cost-weighted (weight units)
        self._cw_row = self._cw.sum(axis=1)
        self._whole_weights = whole_weights(self._cw)             # every support's then too (SupportColumns)
        self._integer_counts = bool(np.all(sorted_view.weights == np.round(sorted_view.weights)))
        total = dataset.total_weight
        self.eps = EPS * total
        self.penalty = self.regularization * total
        deepest = depth_budget if depth_budget is not None else 0
        # λ = 0: an infinitesimal charge per leaf breaks ties towards fewer leaves (module docstring);
        # with tie_break="any" leaves cost nothing, and the first most accurate tree stops the search.
        fewest_leaves = self.penalty == 0 and tie_break == "fewest_leaves"
        self._tie = self.eps / 2 ** (deepest + 1) if fewest_leaves else 0.0
        self._lambda = self.penalty + self._tie
        self._least_error = least_error(self._cw_row)           # the least loss of a tree with errors
        self._present = (self._cw > 0).astype(np.int32)         # each row's class, if it weighs anything
        self._label = np.where(self._cw_row > 0, np.argmax(self._cw, axis=1), -1)
        self._memo: dict = {}
        self._frames: list = []                                   # the subproblems being searched, root first
        root_loss = leaf_loss(self._cw.sum(axis=0))
        self._best = root_loss + self._lambda                     # weight units, with the tie charge
        self._best_tree = _LEAF
        self._tree_cache = None
        self._lb = 0.0
        self.depth = 0
        self.depth_results: list = []
        self._emitted = dict.fromkeys(_PRUNING, 0)
        self._pass_cap = np.inf                                   # the budget of the root's search below one error

    # -- the search --------------------------------------------------------------------------
    def _search(self):
        self._lb = min(self._best, self._lambda)
        self._emit(Started(0, self.lower_bound, self.upper_bound))
        self._record()
        root = self._columns.order
        if self.depth_budget is not None:
            budgets, eq = [self.depth_budget], 0.0
        else:
            budgets, eq = None, self._equivalent_points_loss()
        depth = 0
        while True:
            depth = budgets[0] if budgets is not None else depth + 1
            self.depth = depth
            if budgets is not None and depth >= 3:
                yield from self._cart_start(root, depth)
            cost, tree = None, None
            if budgets is not None and self._tie and self._best > self._least_error and self.bounds["error_free_first"]:
                cost, tree = yield from self._error_free_first(root, depth)
            if tree is None:
                if budgets is not None and self._passes_pay(depth):
                    yield from self._discrepancy_passes(root, depth)
                cost, tree = yield from self._root(root, depth, self._best)
            if tree is not None and cost < self._best:
                self._best, self._best_tree, self._tree_cache = cost, self._resolved(tree), None
                self._record(improved=True)
            self.depth_results.append({"depth": depth, "objective": self._to_objective(min(cost, self._best)),
                                       "expansions": self.expansions})
            self._after_unit()
            if budgets is not None:
                self._lb = self._best
                self._record(raised=True)
                return
            # Deeper trees have at least depth + 2 leaves (treeopt/solvers/deepening.py).
            bound = min(cost, eq + (depth + 2) * self._lambda)
            if bound > self._lb:
                self._lb = min(bound, self._best)
                self._record(raised=True)
            if self._lb >= self._best - self.eps:
                self._lb = self._best
                return
            yield

    def _root(self, root: np.ndarray, depth: int, budget: float):
        """Generator: the root's optimum if it is below ``budget`` (:meth:`_solve`), a unit of work per step."""
        search = self._solve(root, depth, budget, ())
        while True:
            try:
                next(search)
            except StopIteration as stop:
                return stop.value
            self._after_unit()
            yield

    #: Seconds the root's search below one error (``error_free_first``) may take before it gives way
    #: to the discrepancy passes and the search under the incumbent ...
    error_free_seconds = 1.0
    #: ... and at most this share of the run's ``time_limit``: a short run's first trees come from the passes.
    error_free_share = 0.1

    def error_free_budget(self) -> float:
        """Seconds of its own steps the root's search below one error gets (``error_free_first``).

        :attr:`error_free_seconds`, or :attr:`error_free_share` of the ``time_limit`` of the
        :meth:`run` under way (:attr:`~treeopt.solvers.base.Solver.run_time_limit`) if that is less.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.sorted_columns import SortedDataset
        >>> solver = ContinuousSearch(SortedDataset.from_arrays(np.arange(8.0)[:, None], [0, 1] * 4),
        ...                           regularization=0, depth_budget=3)
        >>> solver.error_free_budget()               # stepped, or run without a time limit
        1.0
        >>> solver.run_time_limit = 2.0               # what run(time_limit=2.0) sets while it runs
        >>> solver.error_free_budget()
        0.2
        """
        if self.run_time_limit is None:
            return self.error_free_seconds
        return min(self.error_free_seconds, self.error_free_share * self.run_time_limit)

    def _error_free_first(self, root: np.ndarray, depth: int):
        """Generator: at λ = 0 with an incumbent that has errors, the root's best tree without errors.

        The root is first asked below one error: every subproblem is then asked for trees without
        errors only, which the leaf counts (:mod:`.leaf_counts`, :mod:`.perfect_depth_two`) answer or
        close quickly, the way ConTree's search narrows once its incumbent has a single error. A tree
        without errors found so is the optimum (the fewest leaves among those without errors); if
        there is none, the root costs at least one error, and the search under the incumbent
        follows, with the memo of this one. The question gets :meth:`error_free_budget` seconds;
        unanswered by then, it gives way (a noisy table's first trees come from the passes).
        Returns ``(cost, tree)`` or ``(bound, None)``.
        """
        self._count("error_free_first")
        self._pass_cap = self._least_error
        search = self._solve(root, depth, self._least_error, ())
        spent, share = 0.0, self.error_free_budget()  # seconds of its own steps (a pause is not counted)
        try:
            while True:
                began = time.perf_counter()
                try:
                    next(search)
                except StopIteration as stop:
                    cost, tree = stop.value
                    break
                self._after_unit()
                spent += time.perf_counter() - began
                if spent >= share:
                    # Not answered within its share: a table whose trees all have errors should not
                    # hold back the passes' first trees. Closing the search pops its frames; the memo
                    # keeps only answers its subproblems finished, which hold for every later budget.
                    search.close()
                    return self._lb, None
                yield
        finally:
            self._pass_cap = np.inf
        if tree is None and min(cost, self._best) > self._lb:
            self._lb = min(cost, self._best)         # no tree without errors: at least one error
            self._record(raised=True)
        return cost, tree

    # -- anytime: first incumbents before the exact search (treeopt/solvers/continuous/anytime.py) ----------
    def _cart_start(self, root: np.ndarray, depth: int):
        """CART's tree as the first incumbent (then, at λ = 0 with errors, ``error_free_first``, and
        limited discrepancy passes: :meth:`_discrepancy_passes`).

        The exact search that follows solves the root under the incumbent's cost, so it certifies
        the incumbent or finds a better tree.
        """
        if self.bounds["cart_start"]:
            self._count("cart_start")
            yield from cart_floor(root, self._rank, self._cw, depth, self._lambda, self._offer, SliceClock(self.unit_budget))

    #: At depth three, the discrepancy passes run only on tables of more cells (rows × columns) than this:
    #: a smaller table's exact search finds its good trees as early as the passes would, and in an
    #: exact fit the passes cost more than their trees save (``benchmarks/results_continuous.md``).
    #: Only on the largest tables is each depth-two subproblem slow enough for the passes' trees to come
    #: much sooner than the exact search's.
    passes_at_depth_three_above = 1 << 20

    def _passes_pay(self, depth: int) -> bool:
        """Whether a depth budget of ``depth`` runs the discrepancy passes before the exact search: from
        depth four on, and at depth three on tables of more than :attr:`passes_at_depth_three_above` cells.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.sorted_columns import SortedDataset
        >>> solver = ContinuousSearch(SortedDataset.from_arrays(np.arange(8.0)[:, None], [0, 1] * 4),
        ...                           regularization=0, depth_budget=3)
        >>> solver._passes_pay(2), solver._passes_pay(3), solver._passes_pay(4)
        (False, False, True)
        >>> solver.passes_at_depth_three_above = 0
        >>> solver._passes_pay(3)
        True
        """
        if depth < 3:
            return False
        return depth >= 4 or self._rank.size > self.passes_at_depth_three_above

    def _discrepancy_passes(self, root: np.ndarray, depth: int):
        """Limited discrepancy passes over ranked splits; each better tree becomes the incumbent."""
        if self.bounds["discrepancy_search"]:
            self._count("discrepancy_search")
            passes = DiscrepancySearch(self._rank, self._cw, penalty=self._lambda, offer=self._offer,
                                       exact=lambda cols, d, path: self._resolved_solve(cols, d, np.inf, path),
                                       unit_budget=self.unit_budget, error_free_is_optimal=self.penalty == 0)
            yield from passes.run(root, depth, self._best)

    def _offer(self, cost: float, tree) -> None:
        """Take a complete tree of the root as the incumbent if it is better."""
        if cost < self._best:
            self._best, self._best_tree, self._tree_cache = cost, tree, None
            self._record(improved=True)

    def _equivalent_points_loss(self) -> float:
        """Loss every tree incurs on rows with equal values in every column (GOSDT Theorem B.9)."""
        _, group = np.unique(self._rank.T, axis=0, return_inverse=True)
        sums = np.zeros((group.max() + 1, self._cw.shape[1]))
        np.add.at(sums, group.ravel(), self._cw)
        return float((sums.sum(axis=1) - sums.max(axis=1)).sum())

    def _after_unit(self) -> None:
        """Emit the prunes of the unit of work just done, and follow the root's bounds."""
        for name in _PRUNING:
            moved = self.prune_counts[name] - self._emitted[name]
            if moved:
                self._emit(Pruned(self.expansions, name, moved))
                self._emitted[name] = self.prune_counts[name]
        if self._frames and self.depth_budget is not None:
            frame = self._frames[0]
            if frame.best < self._best:
                frame.tree = self._resolved(frame.tree)    # a depth-two root's children are built now
                self._best, self._best_tree, self._tree_cache = frame.best, frame.tree, None
                self._record(improved=True)
            # Only the full-depth root bounds the optimum: a shallower root (the shallower start's)
            # bounds a shallower optimum, which may be above it.
            lb = min(self._best, max(frame.lower, frame.search.lower_bound()) if frame.search is not None
                     else frame.best) if frame.depth == self.depth else self._lb
            # A root asked below a budget closes what its budget excludes: its bounds hold up to the budget.
            lb = min(lb, self._pass_cap)
            if lb > self._lb:
                self._lb = lb
                self._record(raised=True)

    def _solve(self, cols: np.ndarray, depth: int, budget: float, path: tuple, known_lower: float = 0.0):
        """Generator: the optimum of the support ``cols`` at depth ``depth`` if it is below ``budget``.

        ``known_lower`` is a lower bound on that optimum found by the caller (the interval bounds of
        its neighbours): a tree that reaches it is optimal, and the search stops there.

        Returns ``(cost, tree)``, the optimal cost and tree, or ``(bound, None)`` with
        ``bound >= budget`` a lower bound when the optimum is not below the budget.
        """
        lam = self._lambda
        rows = cols[0]
        class_totals = self._cw[rows].sum(axis=0)
        loss = leaf_loss(class_totals)
        leaf = loss + lam
        if depth == 0 or loss <= 0 or len(rows) < 2:
            return leaf, _LEAF
        if loss <= self.penalty and self.bounds["leaf_lookahead"]:
            self._count("leaf_lookahead")         # a split costs at least 2λ >= loss + λ
            return leaf, _LEAF
        floor = min(leaf, 2 * lam)
        counted = self.bounds["class_count_bound"]
        if counted:
            floor = max(floor, least_cost(class_totals, depth=depth, penalty=lam, least_error=self._least_error))
        if floor >= budget:
            if counted and min(leaf, 2 * lam) < budget:
                self._count("class_count_bound")      # the classes present close the subproblem
            return floor, None
        if path and self._tie and 2 ** depth * lam < budget < self._least_error and self.bounds["one_error_budget"]:
            # The budget admits every tree without errors of this depth: ask for the best of them, or a
            # proof that there is none (a bound of one error), an answer for every later budget. A
            # smaller budget is kept: it admits fewer leaves, and the search stops sooner.
            budget = self._least_error
            self._count("one_error_budget")
        if self.penalty > 0 and budget < np.inf and self.bounds["leaf_bound"]:
            # A tree that costs less than the budget has fewer than budget / λ leaves, so depth <= leaves - 1.
            deepest = max(int(np.ceil(budget / lam)) - 2, 1)
            if deepest < depth:
                self._count("leaf_bound")
                cost, tree = yield from self._solve(cols, deepest, budget, path, known_lower)
                # Below the budget both depths have the same optimum; at or above it the shallower
                # optimum only proves that the deeper one is at least the budget.
                return (cost, tree) if cost < budget else (budget, None)
        if depth == 1:
            cost, split = best_depth_one(cols, self._rank, self._cw, penalty=lam)
            return cost, _LEAF if split is None else ("split", *split, _LEAF, _LEAF)
        key = (depth, hashlib.blake2b(rows.tobytes(), digest_size=16).digest())
        known = self._memo.get(key)
        if known is not None and (known[1] is not None or known[0] >= budget):
            return known
        if depth == 2 and self._tie and budget <= self._least_error and self.bounds["perfect_depth_two"]:
            self._count("perfect_depth_two")
            self._memo[key] = result = self._perfect_depth_two(cols, leaf, budget)
            return result if result[0] < budget else (result[0], None)
        support = None                               # a depth-two support's columns, built once for both readers
        if depth == 2 and self.bounds["depth_two"] and self.bounds["whole_depth_two"]:
            support = SupportColumns(cols, self._rank, self._cw, integral=self._whole_weights)
            whole = self._whole_depth_two(cols, leaf, support)
            if whole is not None:
                cost, tree = whole
                result = self._memo[key] = (cost, tree) if cost < budget else (cost, None)
                parent = self._parent_of(path)
                if parent is not None and tree[0] != "leaf":
                    f, r, goes_left = path[-1]
                    parent.best_splits.setdefault((f, goes_left, depth), {})[r] = (tree[1], tree[2])
                return result
        start, shallower = (leaf, _LEAF), None       # the support's optimum (or a bound) at depth - 1
        if depth >= 3 and self.bounds["shallower_start"]:
            self._count("shallower_start")
            shallower = yield from self._solve(cols, depth - 1, budget, path, known_lower)
        runs = None
        if self.bounds["pure_side_dominance"] or (depth == 2 and self._tie and self.bounds["perfect_depth_bound"]):
            runs = pure_runs(self._label[cols])
        if depth == 2 and self._tie and self.bounds["perfect_depth_bound"]:
            shallower = self._depth_one_without_errors(cols, *runs)
        if shallower is not None and shallower[1] is not None and shallower[0] < leaf:
            start = shallower
        # Stop as soon as the best split reaches a lower bound: the caller's interval bound, or
        # (leaf_counts.least_cost) the leaves a tree without errors needs.
        stop_at = known_lower if self.bounds["interval_pruning"] else -np.inf
        stopping = None                              # the switch whose bound raised ``stop_at``
        # Every tree of depth ``depth - 1`` without errors costs at most 2**(depth - 1) leaves.
        fewest = depth + 1 if (self.bounds["perfect_depth_bound"] and shallower is not None
                               and shallower[0] > (2 ** (depth - 1) + 0.5) * lam) else 0
        if counted or fewest:
            lower = least_cost(class_totals, depth=depth, penalty=lam, least_error=self._least_error,
                               fewest_leaves=fewest, count_classes=counted)
            closing = "perfect_depth_bound" if fewest else "class_count_bound"
            if lower >= budget or start[0] <= lower:
                self._count(closing)                # no search: the bound answers the budget, or the start meets it
                return (lower, None) if lower >= budget else start
            if lower > stop_at:
                stop_at, stopping = lower, closing
            floor = max(floor, lower)
        terminal = depth == 2 and self.bounds["depth_two"]
        if terminal:
            self._count("depth_two")
            if support is None:
                support = SupportColumns(cols, self._rank, self._cw, integral=self._whole_weights)
        thresholds, cumulative, totals = [], [], []
        # Below one error only trees without errors are left, and a threshold is kept only if the
        # classes on its two sides leave such a tree room (leaf_counts.split_floors).
        target = min(start[0], budget)
        by_classes = counted and self._tie > 0 and target <= self._least_error
        by_leaves = self._tie > 0 and target <= self._least_error and self.bounds["side_leaf_floors"]
        if by_leaves:
            floors = split_leaf_floors(cols, self._rank, self._label, self._cw.shape[1], depth=depth)
            # The support's best tree one level shallower costs at least the target, so every tree
            # below it has depth exactly ``depth``: one child has depth ``depth - 1``, so ``depth`` leaves.
            exact_depth = shallower is not None
        dropped = np.inf                             # the least bound of a threshold not kept
        fewest_first = {}                            # column -> its threshold of least side floors
        least_side = self.penalty if self.bounds["leaf_support"] else -np.inf
        # Every column's thresholds at once (a mask over the positions after which the value changes);
        # a subproblem is set up for each of the many supports the search visits.
        sorted_ranks = self._rank[np.arange(cols.shape[0])[:, None], cols] if support is None else support.sorted_ranks
        weight_before = np.cumsum(self._cw_row[cols], axis=1)
        # A copy of a depth-two support's mask (the filters below narrow it in place).
        open_thresholds = (sorted_ranks[:, 1:] != sorted_ranks[:, :-1] if support is None
                           else support.value_changes.copy())
        if least_side > 0:                          # both sides must weigh more than λ
            at = weight_before[:, :-1]
            heavy = (at > least_side) & (weight_before[:, -1:] - at > least_side)
            self._count("leaf_support", int(np.count_nonzero(open_thresholds & ~heavy)))
            open_thresholds &= heavy
        if self.bounds["pure_side_dominance"]:
            open_thresholds = self._undominated(open_thresholds, *runs)
        # The depth-two solver reads the mask (.threshold_bounds); deeper levels, lists of each column's
        # thresholds (.intervals). A column is read on its own only to filter its thresholds.
        for f in range(cols.shape[0]) if by_leaves or by_classes or not terminal else ():
            positions = np.flatnonzero(open_thresholds[f])
            kept = None
            if by_leaves and len(positions):
                low, high = floors[0][f][positions], floors[1][f][positions + 1]
                leaves = low + high
                if exact_depth:
                    leaves = np.minimum(np.maximum(low, depth) + high, low + np.maximum(high, depth))
                bounds = np.where(leaves >= WITH_ERRORS, self._least_error + 2 * lam, leaves * lam)
                kept = bounds < target
                if not kept.all():
                    self._count("side_leaf_floors", len(positions) - int(kept.sum()))
                    # A threshold dropped for its depth costs at least the target (module docstring).
                    dropped = min(dropped, target if exact_depth else float(bounds[~kept].min()))
                if kept.any():
                    least = int(np.argmin(leaves[kept]))
                    fewest_first[f] = int(positions[kept][least]) if terminal else least
            elif by_classes and len(positions):
                bounds = split_floors(np.cumsum(self._present[cols[f]], axis=0), positions, depth=depth - 1,
                                      penalty=lam, least_error=self._least_error)
                kept = bounds < target
                self._count("class_count_bound", len(positions) - int(kept.sum()))
                dropped = min(dropped, float(bounds[~kept].min(initial=np.inf)))
            if kept is not None:
                if terminal:
                    open_thresholds[f, positions[~kept]] = False
                positions = positions[kept]
            if not terminal:
                thresholds.append(sorted_ranks[f][positions])
                cumulative.append(weight_before[f][positions])
                totals.append(float(weight_before[f][-1]))
        # The depth-two solver takes its thresholds by the batch and bounds them all at once
        # (.threshold_bounds); deeper levels take one at a time, from a heap of intervals (.intervals).
        pruning = self.bounds["interval_pruning"]
        if terminal:
            batches = ThresholdBounds if open_thresholds.size <= ARRAY_ENTRIES else IntervalBatches
            search = batches(weight_before, open_thresholds, floor=lam, pruning=pruning)
        else:
            search = IntervalSearch(cumulative, totals, floor=lam, pruning=pruning)
        frame = _Frame(path, depth, "depth_two" if terminal else "recursion", start, float(weight_before[0, -1]),
                       search, lower=max(floor, known_lower))
        frame.least_evaluated = dropped
        self._fewest_leaves_first(frame.search, fewest_first, path)
        parent = self._parent_of(path)
        if parent is not None:
            self._try_sibling_split(parent, path, depth, frame.search, sorted_ranks if terminal else thresholds)
        self._frames.append(frame)
        try:
            if terminal:
                yield from self._depth_two(frame, cols, weight_before, budget, stop_at, support)
            else:
                yield from self._recursion(frame, cols, thresholds, depth, budget, stop_at)
        finally:
            self._frames.pop()
        search = frame.search
        self._count("interval_pruning", search.pruned - frame.counted)
        if stopping is not None and frame.best <= stop_at and search.lower_bound() < frame.best:
            self._count(stopping)                    # the search stopped at the bound with thresholds open
        if frame.best < budget:
            result = (frame.best, frame.tree)
        else:
            result = (max(min(frame.best, search.closed_bound, frame.least_evaluated), floor), None)
        self._memo[key] = result
        if parent is not None and frame.tree[0] != "leaf":
            f, r, goes_left = path[-1]
            parent.best_splits.setdefault((f, goes_left, depth), {})[r] = (frame.tree[1], frame.tree[2])
        return result

    def _whole_depth_two(self, cols: np.ndarray, leaf: float, support: SupportColumns | None = None):
        """A small support's optimum at depth two, every root threshold in one batch; None for a support
        whose thresholds do not fit in one batch (:meth:`.terminal.SupportColumns.batch_size`).
        ``support`` is the support's :class:`.terminal.SupportColumns` if the caller has it already
        (the terminal solver reads the same one when this answers None).

        When one batch holds them all, the interval search's bookkeeping (its heap, the bounds of each
        interval, a unit of work per batch) costs more than the thresholds it would close: every
        threshold is evaluated instead, and the optimum is exact without any bound.
        """
        if support is None:
            support = SupportColumns(cols, self._rank, self._cw, integral=self._whole_weights)
        ranks = support.sorted_ranks
        # Counted from the mask (most supports' thresholds do not fit in one batch; those that do list them).
        n_thresholds = int(np.count_nonzero(support.value_changes))
        if not n_thresholds:
            return leaf, _LEAF
        if support.batch_size(n_thresholds) < n_thresholds:
            return None
        positions = support.threshold_positions
        self._count("whole_depth_two")
        columns = np.repeat(np.arange(len(positions)), [len(p) for p in positions])
        roots = np.concatenate([ranks[f][p] for f, p in enumerate(positions)])
        left, right, by_left, by_right, _ = drain(depth_two_steps(support, columns, roots, penalty=self._lambda,
                                                                  positions=np.concatenate(positions)))
        costs = left + right
        best = int(np.argmin(costs))
        self.expansions += n_thresholds
        if costs[best] >= leaf:
            return leaf, _LEAF
        f, r = int(columns[best]), int(roots[best])
        # Copies: a row of the batch's per-column costs would keep the whole batch in the memo.
        return float(costs[best]), ("deferred", f, r, cols[0].copy(), (by_left[best].copy(), float(left[best])),
                                    (by_right[best].copy(), float(right[best])))

    def _undominated(self, open_thresholds: np.ndarray, first_other: np.ndarray, other_last: np.ndarray) -> np.ndarray:
        """The thresholds of every column that are not dominated, as a mask over the positions of the
        columns' sorted orders (``open_thresholds``: the thresholds still open, column × position).

        Every subtree costs at least one leaf, and a side holding one class (rows of positive weight)
        costs exactly that. Of the thresholds whose left side holds one class (before ``first_other``,
        :func:`.leaf_counts.pure_runs`), the last has the smallest right side, which costs no more
        than any larger one (monotonicity, Brița et al., AAAI 2025, section 4.2): the others are no
        better and are dropped. Likewise on the right (at or after ``other_last``).
        """
        position = np.arange(open_thresholds.shape[1])[None, :]
        pure_left = open_thresholds & (position < first_other[:, None])
        pure_right = open_thresholds & (position >= other_last[:, None])
        keep = open_thresholds & ~(pure_left | pure_right)
        columns = np.arange(open_thresholds.shape[0])
        left = pure_left.any(axis=1)
        keep[columns[left], open_thresholds.shape[1] - 1 - np.argmax(pure_left[left, ::-1], axis=1)] = True   # the last
        right = pure_right.any(axis=1)
        keep[columns[right], np.argmax(pure_right[right], axis=1)] = True                          # the first
        self._count("pure_side_dominance", int(np.count_nonzero(open_thresholds)) - int(np.count_nonzero(keep)))
        return keep

    def _depth_one_without_errors(self, cols: np.ndarray, first_other: np.ndarray, other_last: np.ndarray):
        """A support's best tree of depth one if it has no errors, else a lower bound on that optimum.

        A split without errors leaves one class on each side: on column ``f`` the rows before
        ``first_other[f]`` and those after ``other_last[f]`` (:func:`.leaf_counts.pure_runs`) must
        cover the weighted rows, with a change of value between them. Such a split has the two leaves
        that any split has, so it is the optimum; otherwise every tree of depth one has errors.
        """
        columns = np.arange(cols.shape[0])
        n = cols.shape[1]
        before = self._rank[columns, cols[columns, np.minimum(other_last, n - 1)]]
        after = self._rank[columns, cols[columns, np.minimum(first_other, n - 1)]]
        clean = np.flatnonzero((other_last < first_other) & (before < after))
        if len(clean):
            f = int(clean[0])
            return 2 * self._lambda, ("split", f, int(before[f]), _LEAF, _LEAF)
        return self._least_error + self._lambda, None

    def _perfect_depth_two(self, cols: np.ndarray, leaf: float, budget: float):
        """A depth-two support's optimum when only trees without errors can be below its budget.

        Its best tree without errors (:mod:`.perfect_depth_two`) is the optimum, since every tree
        with errors costs at least one error more than any tree without; when there is none, every
        tree has errors and costs at least the least of its leaf and one error plus two leaves. A
        budget below four leaves asks only for trees it admits: without one, the leaves it admits
        plus one are a lower bound at least the budget.
        """
        most_leaves = 4
        while most_leaves > 1 and most_leaves * self._lambda >= budget:
            most_leaves -= 1
        found = fewest_leaves_without_errors(cols, self._rank, self._label, self._cw.shape[1],
                                             most_leaves=most_leaves)
        if found is None:
            return min(leaf, self._least_error + 2 * self._lambda), None
        leaves, f, r = found
        if leaves == 1:
            return self._lambda, _LEAF
        if f < 0:                                 # none with the leaves the budget admits
            return leaves * self._lambda, None
        # Each side is a pure leaf or a side that one split separates (``_SEPARABLE``), built later.
        rows = cols[0]
        goes_left = self._rank[f, rows] <= r
        children = []
        for side in (rows[goes_left], rows[~goes_left]):
            labels = self._label[side]
            weighted = labels[labels >= 0]
            children.append(_LEAF if len(weighted) == 0 or (weighted == weighted[0]).all() else _SEPARABLE)
        return leaves * self._lambda, ("split", f, r, *children)

    def _fewest_leaves_first(self, search: IntervalSearch, fewest: dict, path: tuple) -> None:
        """Below one error, have each of the root's columns hand out first its threshold of fewest side floors.

        The interval bounds below one error tell the thresholds little apart, and the search would
        take them as the middles of their columns; a tree without errors with the fewest leaves most
        likely splits where the sides' classes leave room for the fewest (a pure side, one leaf), so
        those thresholds are evaluated first, each column's least before its middles. Only at the
        root, whose every threshold costs a whole search of both children: deeper down, the middles
        (balanced children, solved cheaply) give tight budgets sooner.
        """
        if path or not self.bounds["fewest_leaves_first"]:
            return
        for f, m in fewest.items():
            search.try_first(f, m)
        self._count("fewest_leaves_first", len(fewest))

    def _parent_of(self, path: tuple):
        """The frame whose split made the child ``path`` when ``sibling_split_first`` is on (else None)."""
        if not path or not self._frames or not self.bounds["sibling_split_first"]:
            return None
        parent = self._frames[-1]
        return parent if path[:-1] == parent.path else None

    def _try_sibling_split(self, parent, path: tuple, depth: int, search: IntervalSearch, thresholds: list) -> None:
        """Have the child ``path`` try, in its first batch, the best root split of its nearest solved sibling.

        The siblings on one side of a column's thresholds are nested supports that differ by the rows
        between their thresholds, and a split's cost changes by at most the cost-weighted weight of those
        rows (the similarity bound of Brița et al., AAAI 2025, section 4.2; Lin et al., ICML 2020, the
        similar-support bound): a near sibling's best split is a good split here, so trying it first
        gives the child a tight incumbent, and with it a low target, at once.
        """
        f, r, goes_left = path[-1]
        near = [(abs(s - r), g, rank) for s, (g, rank) in parent.best_splits.get((f, goes_left, depth), {}).items()]
        if not near:
            return
        _, g, rank = min(near)
        if isinstance(search, (ThresholdBounds, IntervalBatches)):
            # The last open threshold of this support at or below the sibling's (a rank keeps its meaning);
            # ``thresholds`` are the support's sorted ranks.
            p = search.last_open_at_or_before(g, int(np.searchsorted(thresholds[g], rank, side="right")) - 1)
            if p is not None:
                search.try_first(g, p)
                self._count("sibling_split_first")
        elif len(thresholds[g]):
            # The last threshold of this support at or below the sibling's (a rank keeps its meaning).
            search.try_first(g, max(0, int(np.searchsorted(thresholds[g], rank, side="right")) - 1))
            self._count("sibling_split_first")

    def _depth_two(self, frame, cols, weight_before, budget, known_lower, support):
        """The terminal solver's loop: batches of root thresholds, least interval bound first, over
        ``support`` (the support's :class:`.terminal.SupportColumns`; ``weight_before``, each
        column's cost-weighted rows up to each position).

        With ``column_bounds``, each threshold's children read only the columns on which their
        neighbours' per-column costs leave room to beat their best so far (:mod:`.column_bounds`).
        """
        search = frame.search
        clock = SliceClock(self.unit_budget)          # a large support's setup (and each batch) comes in slices
        size = support.batch_size(BATCH_LIMIT)
        neighbours = blocks = None
        # Two-class supports small enough to read every column at once are read so even when large
        # enough for blocks: that pass costs less than bounding blocks column by column.
        # Columns of few thresholds (:attr:`.terminal.SupportColumns.segment_starts`) are read whole, with
        # two classes segment by segment, which costs less than bounding their blocks: a support of such
        # columns alone makes no blocks.
        if (self.bounds["split_blocks"] and cols.shape[1] >= split_blocks.FEWEST_ROWS and not support.together
                and any(starts is None for starts in support.segment_starts)):
            if clock.due():
                yield
            blocks = split_blocks.SplitBlocks(support)
            size = batch_size(blocks.reach, self._cw.shape[1], cols.shape[0], BATCH_LIMIT)
        # Small supports read in rows are read every column at once (terminal.SupportColumns.together).
        if self.bounds["column_bounds"] and (blocks is not None or not support.together):
            # Thresholds are named by their positions, so every position's weight serves as the cumulative.
            neighbours = ColumnBounds(list(weight_before), [float(w[-1]) for w in weight_before],
                                      whole=depth_one_by_column(support, penalty=self._lambda))
        if self._tie and self.bounds["one_error_budget"] and min(frame.best, budget) <= self._least_error:
            size = min(size, TIE_BATCH_LIMIT)
        if clock.due():
            yield
        best_split = None
        blocks_counted = 0
        # Each threshold's rank (that of the last row on its left), laid out as the search's entries.
        flat_ranks = np.concatenate((np.full((cols.shape[0], 1), -1), support.sorted_ranks), axis=1).ravel()
        while frame.best > known_lower or not self.bounds["interval_pruning"]:
            target = min(frame.best, budget)
            chosen = search.candidates(target, size)
            if not chosen:
                break
            entries = search.pending
            columns = entries // search.width
            ranks = flat_ranks[entries]
            lower_left, lower_right = neighbours.lower(chosen) if neighbours is not None else (None, None)
            left, right, by_left, by_right, skipped = yield from depth_two_steps(
                support, columns, ranks, penalty=self._lambda, lower_left=lower_left, lower_right=lower_right,
                blocks=blocks, clock=SliceClock(self.unit_budget), positions=entries % search.width - 1)
            if blocks is not None:
                self._count("split_blocks", blocks.blocks_bounded - blocks.blocks_read - blocks_counted)
                blocks_counted = blocks.blocks_bounded - blocks.blocks_read
            if neighbours is not None:
                self._count("column_bounds", skipped)
                for row, (f, m) in enumerate(chosen):
                    neighbours.record(f, m, by_left[row], by_right[row])
            search.record_batch(entries, left, right)
            costs = left + right
            row = int(np.argmin(costs))                 # the first least: as if taken one after the other
            least = float(costs[row])
            frame.least_evaluated = min(frame.least_evaluated, least)
            if least < frame.best:
                frame.best = least
                # Copies: a row of the batch's per-column costs would keep the whole batch in the memo.
                best_split = (int(columns[row]), int(ranks[row]), (by_left[row].copy(), float(left[row])),
                              (by_right[row].copy(), float(right[row])))
            if best_split is not None:
                frame.tree = ("deferred", best_split[0], best_split[1], cols, *best_split[2:])
            self.expansions += len(chosen)
            self._count("interval_pruning", search.pruned - frame.counted)
            frame.counted = search.pruned
            yield
        if best_split is not None:                  # the memo keeps its rows, not the support (``_resolved``)
            frame.tree = ("deferred", best_split[0], best_split[1], cols[0].copy(), *best_split[2:])

    def _depth_two_tree(self, cols, f, r, left=None, right=None):
        """The tree of a depth-two split found by the terminal solver: its children's best depth-one
        trees, searched on the columns that can hold them (:func:`.terminal.split_columns` of each
        child's per-column costs and optimum, ``left`` and ``right``; all columns by default). The
        columns are chosen here, once, not at each improvement of the search."""
        chosen = self._rank[f][cols] <= r
        n = cols.shape[0]
        children = []
        for part, costs in ((cols[chosen].reshape(n, -1), left), (cols[~chosen].reshape(n, -1), right)):
            columns = None if costs is None else split_columns(*costs)
            _, split = best_depth_one(part, self._rank, self._cw, penalty=self._lambda, columns=columns)
            children.append(_LEAF if split is None else ("split", *split, _LEAF, _LEAF))
        return ("split", f, r, *children)

    def _resolved(self, tree):
        """``tree`` with its deferred depth-two subtrees built (:meth:`_depth_two_tree`).

        A depth-two subproblem's result names its root split, its support and its children's per-column
        costs, ``("deferred", column, rank, support, left, right)``, and its children's depth-one trees
        are searched only here: most results are only compared, and few end up in a tree the search
        keeps. While its frame searches, the support is its sorted orders (every column × row); the memo
        keeps its rows alone (the orders of every result would hold a copy of the table per result),
        and their orders are sorted again here, for the few built.
        """
        kind = tree[0]
        if kind == "deferred":
            _, f, r, cols, left, right = tree
            if cols.ndim == 1:
                cols = cols[np.argsort(self._rank[:, cols], axis=1, kind="stable")]
            return self._depth_two_tree(cols, f, r, left, right)
        if kind == "split":
            low, high = self._resolved(tree[3]), self._resolved(tree[4])
            if low is not tree[3] or high is not tree[4]:
                return ("split", tree[1], tree[2], low, high)
        return tree

    def _resolved_solve(self, cols: np.ndarray, depth: int, budget: float, path: tuple):
        """Generator: :meth:`_solve` with its tree built (for callers outside the search)."""
        cost, tree = yield from self._solve(cols, depth, budget, path)
        return cost, (None if tree is None else self._resolved(tree))

    def _recursion(self, frame, cols, thresholds, depth, budget, known_lower):
        """One threshold at a time, least interval bound first, children solved under budgets.

        With ``larger_child_first`` the child with more rows is solved first (it is the likelier to
        use up the budget on its own, and then the smaller one is solved under a small budget). With
        ``interval_budget`` the second child's budget is raised by the weight of the larger half of
        the threshold's interval, and it is solved even when the first child already rules the split
        out: its lower bound then reaches far enough to close that interval's neighbours (ConTree's
        schedule, Brița et al., AAAI 2025, section 4.2 with the bounds of :mod:`.intervals`).
        """
        search = frame.search
        pass_down = self.bounds["upper_bound_pass_down"]
        larger_first = self.bounds["larger_child_first"]
        widen = pass_down and self.bounds["interval_budget"]
        n = cols.shape[0]
        while frame.best > known_lower or not self.bounds["interval_pruning"]:
            target = min(frame.best, budget)
            chosen = search.candidates(target, 1)
            if not chosen:
                break
            (f, m), = chosen
            a, b = search.interval_of(f, m)
            low = search.child_bounds(f, a, m, b)               # (left, right)
            r = int(thresholds[f][m])
            goes_left = self._rank[f][cols] <= r
            parts = (cols[goes_left].reshape(n, -1), cols[~goes_left].reshape(n, -1))
            first = 1 if larger_first and parts[1].shape[1] > parts[0].shape[1] else 0
            second = 1 - first
            if first:
                self._count("larger_child_first")
            paths = (frame.path + ((f, r, True),), frame.path + ((f, r, False),))
            costs, trees = [0.0, 0.0], [None, None]
            first_budget = target - low[second] if pass_down else np.inf
            costs[first], trees[first] = yield from self._solve(parts[first], depth - 1, first_budget, paths[first],
                                                                low[first])
            if pass_down and trees[first] is None:
                self._count("upper_bound_pass_down")           # the first child stopped at its budget
            rules_out = pass_down and (trees[first] is None or costs[first] + low[second] >= target)
            second_budget = target - costs[first] if pass_down else np.inf
            if widen:
                second_budget += search.interval_reach(f, a, m, b)
            if self._tie and self.bounds["one_error_budget"] and target <= self._least_error:
                second_budget = min(second_budget, self._least_error)   # errors are all its bound can tell
            if rules_out and not (widen and second_budget > low[second]):
                self._count("upper_bound_pass_down")           # the second child cannot make this split the best
                costs[second] = low[second]
            else:
                if rules_out:
                    self._count("interval_budget")             # solved only for the bound it gives the neighbours
                costs[second], trees[second] = yield from self._solve(parts[second], depth - 1, second_budget,
                                                                      paths[second], low[second])
                if pass_down and trees[second] is None:
                    self._count("upper_bound_pass_down")
            left_cost, right_cost = costs
            search.record(f, m, left_cost, right_cost)
            frame.least_evaluated = min(frame.least_evaluated, left_cost + right_cost)
            if trees[0] is not None and trees[1] is not None and left_cost + right_cost < frame.best:
                frame.best, frame.tree = left_cost + right_cost, ("split", f, r, trees[0], trees[1])
            self.expansions += 1
            self._count("interval_pruning", search.pruned - frame.counted)
            frame.counted = search.pruned
            yield

    # -- reading the state -----------------------------------------------------------------------
    def _to_objective(self, cost: float, leaves: int | None = None) -> float:
        """Weight units with the tie charge to objective units without it."""
        if self._tie:
            cost -= self._tie * (leaves if leaves is not None else 2 ** (self.depth_budget or 0))
            cost = max(cost, 0.0)
        return self.model.to_objective(cost)

    @property
    def lower_bound(self) -> float:
        if self._lb >= self._best:
            return self.upper_bound
        return min(self._to_objective(self._lb), self.upper_bound)

    @property
    def upper_bound(self) -> float:
        return self._to_objective(self._best, _leaves(self._best_tree))

    @property
    def queue_size(self) -> int:
        return len(self._frames)

    @property
    def cache_size(self) -> int:
        """Subproblems kept in the memo (results and lower bounds by depth and support)."""
        return len(self._memo)

    def _incumbent(self) -> Tree:
        if self._tree_cache is None:
            self._tree_cache = self._build_tree(self._best_tree)
        return self._tree_cache

    def _build_tree(self, tree) -> Tree:
        """A :class:`~treeopt.tree.Tree` of the project's nodes from the search's nested tuples."""
        columns = self._columns
        features, index = [], {}

        def build(node, rows):
            if node[0] == "separable":               # its split is the best depth-one tree of its rows
                node = self._separating_split(rows)
            if node[0] == "leaf":
                counts = self._weights[rows].sum(axis=0)
                scored = self._cw[rows].sum(axis=0)
                prediction = int(np.argmax(scored))
                loss = float(scored.sum() - scored[prediction])
                counts = tuple(int(c) for c in counts) if self._integer_counts else tuple(float(c) for c in counts)
                return Leaf(prediction, counts, self.model.to_objective(loss))
            _, j, r, low, high = node
            if self._binary_features:
                index[(j, r)] = j                       # column j is the dataset's feature j
            elif (j, r) not in index:
                index[(j, r)] = len(features)
                features.append(columns.threshold_feature(j, r))
            below = self._rank[j, rows] <= r
            low_node, high_node = build(low, rows[below]), build(high, rows[~below])
            if columns.one_hot[j] is not None:         # the feature is true on rank 1: above the threshold
                return Split(index[(j, r)], left=low_node, right=high_node)
            return Split(index[(j, r)], left=high_node, right=low_node)

        root = build(tree, np.arange(columns.n_rows))
        if self._binary_features:
            return Tree(root, self.dataset.features, self.dataset.classes, binarizer=self.dataset.binarizer)
        return Tree(root, features, self.dataset.classes, columns_in=list(columns.columns_in))

    def _separating_split(self, rows: np.ndarray) -> tuple:
        """The split of a ``_SEPARABLE`` child: the best depth-one tree of the rows that reach it
        (without errors, since one split classifies them so), each column's order kept."""
        order = self._columns.order
        reaches = np.zeros(order.shape[1], dtype=bool)
        reaches[rows] = True
        cols = order[reaches[order]].reshape(order.shape[0], -1)
        _, split = best_depth_one(cols, self._rank, self._cw, penalty=self._lambda)
        return _LEAF if split is None else ("split", *split, _LEAF, _LEAF)

    def _queue_entries(self, k: int) -> list:
        entries = []
        for level, frame in enumerate(self._frames[:k]):
            search = frame.search
            lb = min(frame.best, search.lower_bound())
            entries.append(QueueEntry((level,), self._rule(frame.path), frame.weight * self.model.scale,
                                      self._to_objective(lb), self._to_objective(frame.best, 1),
                                      payload={"depth": frame.depth, "subsolver": frame.subsolver,
                                               "open_intervals": search.open_intervals,
                                               "thresholds_evaluated": search.evaluated,
                                               "thresholds_pruned": search.pruned}))
        return entries

    def _rule(self, path: tuple) -> str:
        if not path:
            return "(all rows)"
        parts = []
        for j, r, low in path:
            feature = self._columns.threshold_feature(j, r)
            true_side = low if self._columns.one_hot[j] is None else not low
            parts.append(feature.name if true_side else feature.negated_name)
        return " & ".join(parts)

    def _snapshot_extra(self) -> dict:
        return {"depth": self.depth, "depth_results": list(self.depth_results),
                "subsolver": self._frames[-1].subsolver if self._frames else None}

    def _drop_search(self) -> None:
        self._memo = {}
        self._frames = []

    def _incumbent_leaves(self) -> int:
        return _leaves(self._best_tree)


def _leaves(tree) -> int:
    """Leaves of a tree of nested tuples."""
    if tree[0] == "leaf":
        return 1
    return _leaves(tree[3]) + _leaves(tree[4])


class _Frame:
    """One subproblem being searched: its path from the root, its best split so far, its intervals, and
    a lower bound on its optimum."""

    def __init__(self, path, depth, subsolver, start, weight, search, lower=0.0):
        self.path = path
        self.lower = lower                        # a lower bound on its optimum known before its search
        self.depth = depth
        self.subsolver = subsolver
        self.best, self.tree = start
        self.weight = weight
        self.search = search
        self.least_evaluated = float("inf")
        self.counted = 0
        # Its solved children's best root splits: (column, goes left, depth) -> threshold rank -> split.
        self.best_splits: dict = {}

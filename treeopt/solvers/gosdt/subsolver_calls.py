"""How a GOSDT search hands small subproblems to its exact subsolvers.

The switches of kind ``subsolver`` of :class:`~treeopt.solvers.gosdt.search.GOSDT` close whole
subproblems at once: ``depth_two`` (:mod:`.depth_two`, MurTree's depth-two solver from pair counts),
``sorted_depth_two`` (:mod:`.sorted_depth_two`), ``depth_three``, ``depth_four`` and
``depth_five_six`` (the loop over root splits, :mod:`.depth_three`, :mod:`.depth_four`). One set of
subsolvers (:class:`Subsolvers`) may serve several searches on the same data and λ (iterative
deepening's depths, the portfolio's members): :meth:`SubsolverCalls.adopt_subsolvers`.

Subsolvers, each a switch of kind ``subsolver`` (``strategies=``) with a counter in ``prune_counts``:

``depth_two``
    MurTree (Demirović et al., JMLR 2022) section 4.3, the depth-two solver of
    ``treeopt/solvers/gosdt/depth_two.py``: all trees of depth at most two over a support
    set, from pair counts. Exact, so it closes a problem at once when the optimum
    is known to lie among them: at a remaining depth budget of two (or one), and
    when the problem's upper bound is at most ``eq + 4λ`` (every tree with four or
    more leaves costs at least that, Theorems B.4 and B.9, and a tree with at most
    three leaves has depth at most two). Counts problems solved this way.
``depth_three``
    The depth-three solver of ``treeopt/solvers/gosdt/depth_three.py``: every root split
    with two depth-two subtrees, tried in order of their lower bounds, where the
    similar-support bound (Theorem B.10: ``R*(B) >= R*(A) - w(A \\ B)``) lets each
    solved child bound the children of every other split. It closes a problem at
    a remaining depth budget of three, and on wide data when its upper bound is at
    most ``eq + 5λ`` (at most four leaves can do better, and four leaves fit in
    depth three). Needs ``depth_two``. With whole weights (plain accuracy, integer
    counts) both solvers raise each child's lower bound to the least objective a
    subtree can have (a whole loss plus λ per leaf, ``achievable_at_least`` in
    ``treeopt/solvers/gosdt/depth_two.py``), which closes root splits whose bounds fall
    short of the best tree by less than one row. Counts problems solved this way.
``depth_four``
    The depth-four solver of ``treeopt/solvers/gosdt/depth_four.py``: the ``depth_three`` solver's loop
    one level up, every root split with two exact depth-three subtrees, least bound first, the
    similar-support bound seeded with the support's own depth-three optimum (Theorem B.10).
    It closes a problem at a remaining depth budget of four, on data of at most
    :attr:`GOSDT.depth_four_max_cells` points × features, in slices like ``depth_three`` (a step
    is one root split of a child's depth-three solve). Needs ``depth_three``. Counts problems
    solved this way.
``depth_five_six``
    The same loop two levels deeper (``treeopt/solvers/gosdt/depth_four.py``, "Deeper"): a problem with
    five or six levels of depth budget left (up to :attr:`GOSDT.max_loop_depth`) is solved by root
    splits with exact children one level less deep, on the same data as ``depth_four`` when its
    columns are mostly thresholds (nested neighbours: on one-hot data these loops certify no faster
    and meet good trees later). Needs ``depth_four``. Counts problems solved this way.
``sorted_depth_two``
    How the two solvers above solve a depth-two subtree on threshold features: the
    features are grouped in *chains* (runs of nested features, such as the thresholds
    ``x <= t`` of one numeric column) and every split of a chain is a prefix of the
    support's points sorted once by that chain, so one cumulative sum gives the class
    weights of all its thresholds (ConTree's specialised depth-two solver, Briţa, van der
    Linden and Demirović, AAAI 2025; ``treeopt/solvers/gosdt/sorted_depth_two.py``). Exact, like
    the pair counts it replaces; used on data with more than :attr:`GOSDT.min_sorted_features`
    features (where a support's pair matrix is too large to build) whose chains average at
    least :attr:`GOSDT.min_chain_length` features. Counts depth-two subtrees solved this way.
``child_slack``
    How hard the ``depth_three`` solver works on each child of a root split: against the
    child's target plus :attr:`GOSDT.child_slack_lambdas` λ instead of the target alone
    (``treeopt/solvers/gosdt/depth_three.py``). A failed child solve then proves a bound that
    much above what its own split needs, and through
    the similar-support bound it closes the neighbouring thresholds that differ by fewer
    rows; a child whose optimum lies between the two targets is solved exactly. ConTree
    raises the upper bound of a subtree by the width of the threshold interval it should
    prune in the same way (Briţa, van der Linden and Demirović, AAAI 2025). Exact for any
    slack (``benchmarks/results_contree.md`` compares slacks). Counts the depth-two solves run
    with the raised target.
"""

from __future__ import annotations


import numpy as np

from ...data import Dataset, points_in
from ...events import Expanded
from .depth_three import DepthThreeSolver
from .depth_two import LEAF, DepthTwoSolver
from .sorted_depth_two import SortedDepthTwo
from .problem import Problem, counts_minus
from typing import NamedTuple

__all__ = ["SubsolverCalls", "Subsolvers"]


class Subsolvers(NamedTuple):
    """A GOSDT search's exact small-tree solvers (``GOSDT.subsolvers``), and what they were built for."""

    pairs: DepthTwoSolver | None
    sorted: SortedDepthTwo | None
    three: DepthThreeSolver | None
    loops: dict
    dataset: Dataset
    question: tuple


class SubsolverCalls:
    """The calls of a GOSDT search to its exact subsolvers (a part of :class:`GOSDT`)."""

    def _advance_run(self, problem: Problem, solver, counter: str, depth: int = 2) -> None:
        """``depth_two``, ``depth_three`` or ``depth_four``: one slice of the problem's exact solve by ``solver``.

        A solve on thousands of columns can take minutes, so it advances by slices of
        :attr:`three_slice_seconds` (``treeopt/solvers/gosdt/depth_three.py``, ``RootSplitRun``; the
        depth-two solve from pair counts, or with ``depth=1`` the depth-one solve, by slices of the
        unit budget, ``SlicedRun`` in ``treeopt/solvers/gosdt/depth_two.py``).
        Between slices the problem stays open, with its lower bound raised to the run's
        and its upper bound lowered to the best tree found so far, and goes back on the queue.
        """
        run = self._three_runs.get(id(problem))
        if run is None:
            mask = points_in(problem.support, self.dataset.n_points)
            run = self._three_runs[id(problem)] = solver.start(mask, problem.ub, self.unit_budget, depth) \
                if solver is self._pairs or solver is self._sorted else solver.start(mask, problem.ub)
        run.advance(self.unit_budget if self.three_slice_seconds is None else self.three_slice_seconds)
        self._count_subsolves()
        if run.done:
            del self._three_runs[id(problem)]
            self.prune_counts[counter] += 1
            self._solve_small(problem, run.objective, run.spec, counter=None)
            return
        old_lb, old_ub = problem.lb, problem.ub
        if run.spec is not None and run.best < problem.ub - self.eps:
            problem.ub = run.best
            if run.spec != LEAF:
                problem.completion = (run.best, run.spec)
        problem.lb = min(max(problem.lb, run.lower_bound), problem.ub)
        if self._events is not None:
            self._emit(Expanded(self.expansions, self.rule(problem), self._obj(problem.lb), self._obj(problem.ub), 0))
        if problem.lb != old_lb or problem.ub != old_ub:
            self._propagate(problem)
        self._push(problem)

    def _subsolve_totals(self) -> tuple[int, int]:
        """The counters the depth-two and depth-three subsolvers keep (possibly shared with other searches)."""
        return (0 if self._sorted is None else self._sorted.solves,
                0 if self._three is None else self._three.slack_solves)

    def _count_subsolves(self) -> None:
        """Add to ``prune_counts`` what the subsolvers counted since this search last counted. The
        marks are renewed at the start of each of its units of work, so solvers shared with other
        searches (:meth:`adopt_subsolvers`) count each search's own solves."""
        now = self._subsolve_totals()
        sorted_solves, slack_solves = (a - b for a, b in zip(now, self._subsolve_marks))
        self._subsolve_marks = now
        if self._sorted is not None:
            self.prune_counts["sorted_depth_two"] += sorted_solves
        if self._three is not None:
            self.prune_counts["child_slack"] += slack_solves

    @property
    def subsolvers(self) -> "Subsolvers":
        """This search's exact small-tree solvers, for :meth:`adopt_subsolvers` of another search."""
        return Subsolvers(self._pairs, self._sorted, self._three, self._loops, self.dataset, self._question())

    def _question(self) -> tuple:
        """What the subsolvers answer besides the dataset: λ, tolerance, class costs and switches."""
        return (self.penalty, self.eps, tuple(np.ravel(self.model.costs).tolist()), tuple(sorted(self.bounds.items())),
                self.lower_bound_guessed)

    def adopt_subsolvers(self, subsolvers: "Subsolvers") -> None:
        """Solve small subtrees with another search's exact solvers, and so reuse what they keep.

        The depth-two solver, the depth-three solver and the loops over root splits
        (``depth_four``, ``depth_five_six``) keep their results by support
        (``treeopt/solvers/gosdt/depth_three.py``, ``SupportMemo``). Iterative deepening
        (``treeopt/solvers/gosdt/deepening.py``) runs one search per depth budget over the same data: with
        the solvers shared, the depth-six search's first step, the best tree of depth five over all
        rows, is the depth-five search's answer, and so are the depth-four seeds of its children.
        Call before this search starts.

        Parameters
        ----------
        subsolvers : Subsolvers
            Another search's :attr:`subsolvers`.

        Raises
        ------
        ValueError
            When they were built for other data, another λ or objective, other switches, or a search
            that guesses its lower bounds: they would answer another question.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> from treeopt.solvers import GOSDT
        >>> X = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)] * 2)
        >>> ds = Dataset.from_binary(X, X.sum(axis=1) % 2)
        >>> shallow = GOSDT(ds, regularization=0.01, depth_budget=3)
        >>> deep = GOSDT(ds, regularization=0.01, depth_budget=4)
        >>> deep.adopt_subsolvers(shallow.subsolvers)
        >>> round(shallow.run().objective, 4), round(deep.run().objective, 4)   # parity: 8 leaves at depth 3
        (0.08, 0.08)
        """
        self._check_subsolvers(subsolvers)
        if self._generator is not None:
            raise ValueError("adopt_subsolvers must be called before the search starts.")
        self._pairs, self._sorted, self._three, self._loops = subsolvers[:4]

    def _check_subsolvers(self, subsolvers: "Subsolvers") -> None:
        """Refuse subsolvers built for another question (:meth:`adopt_subsolvers`, ``GOSDT.sharing``)."""
        if subsolvers.dataset is not self.dataset or subsolvers.question != self._question() \
                or self.lower_bound_guessed:
            raise ValueError("adopt_subsolvers needs the subsolvers of a search over the same dataset with the same "
                             "regularization, objective and bounds, without lower-bound guessing.")

    def _solve_small(self, problem: Problem, objective: float, spec, counter: str | None = "depth_two") -> None:
        """``depth_two``/``depth_three``: the problem's optimum is its best tree of depth at most two or three.

        ``objective`` is that optimum, or a lower bound at least ``problem.ub - eps`` when
        ``spec`` is None (no small tree beats the upper bound, which is then the optimum).
        ``spec`` is the tree as a nested spec (see :meth:`_small_tree`).
        """
        old_lb, old_ub = problem.lb, problem.ub
        problem.expanded = True
        problem.splits = []
        if spec is not None and objective < problem.ub - self.eps:
            problem.ub = objective
            if spec != LEAF and spec != (LEAF, LEAF, LEAF):
                problem.completion = (objective, spec)
        problem.lb = problem.ub
        if counter is not None:
            self.prune_counts[counter] += 1
        if self._events is not None:
            self._emit(Expanded(self.expansions, self.rule(problem), self._obj(problem.lb), self._obj(problem.ub), 0))
        if problem.lb != old_lb or problem.ub != old_ub:
            self._propagate(problem)

    def _solve_two_leaves(self, problem: Problem) -> None:
        """``two_leaves``: the optimum is the leaf or the best split into two leaves.

        Its leaf costs ``leaf_loss + λ <= eq + 3λ``, the least any tree with three
        or more leaves can cost (Theorems B.4, B.9), so one pass over the features
        decides the problem: each split's two leaf losses come from class counts
        (the right child's by popcounts, the left's by subtraction). Only the two
        children of the best split, if it beats the leaf, become problems.
        """
        ds, model = self.dataset, self.model
        support, counts = problem.support, problem.counts
        masks = ds.feature_masks
        best_obj, best = problem.leaf_obj - self.eps, None     # a split must beat the leaf (as _extract)
        two = 2 * self.penalty
        if self._binary and self._subtract:                     # the hot case, unrolled: a leaf loses min(n0, n1)
            first_fn, second_fn = ds._class_fns
            total_first, total_second = counts
            for j, mask in enumerate(masks):
                right = support & mask
                if not right or right == support:
                    continue
                first, second = first_fn(right), second_fn(right)
                left_first, left_second = total_first - first, total_second - second
                objective = (first if first < second else second) + \
                    (left_first if left_first < left_second else left_second) + two
                if objective < best_obj:
                    best_obj, best = objective, (j, right, (left_first, left_second), (first, second))
        else:
            for j in range(ds.n_features):
                right = support & masks[j]
                if not right or right == support:
                    continue
                right_counts = ds.class_counts(right)
                left_counts = counts_minus(counts, right_counts) if self._subtract else ds.class_counts(support ^ right)
                objective = model.leaf(left_counts)[0] + model.leaf(right_counts)[0] + two
                if objective < best_obj:
                    best_obj, best = objective, (j, right, left_counts, right_counts)
        old_lb, old_ub = problem.lb, problem.ub
        problem.expanded = True
        problem.splits = []
        if best is not None:
            j, right, left_counts, right_counts = best
            depth_left = None if problem.depth_left is None else problem.depth_left - 1
            shift = 0 if depth_left is None else depth_left << self._shift
            left_support = support ^ right
            children = []
            for side, (child_support, child_counts) in enumerate(((left_support, left_counts), (right, right_counts))):
                key = child_support | shift
                child = self.problems.get(key)
                if child is None:
                    child = self._create(child_support, key, depth_left, (problem, j, bool(side)), child_counts,
                                         self._eq_of(child_support))
                children.append(child)
            children[0].parent_links += (problem, children[1])
            children[1].parent_links += (problem, children[0])
            problem.splits = [(j, children[0], children[1])]
            problem.ub = min(problem.leaf_obj, children[0].ub + children[1].ub)
        problem.lb = problem.ub
        self.prune_counts["two_leaves"] += 1
        if self._events is not None:
            self._emit(Expanded(self.expansions, self.rule(problem), self._obj(problem.lb), self._obj(problem.ub),
                                len(problem.splits)))
        if problem.lb != old_lb or problem.ub != old_ub:
            self._propagate(problem)

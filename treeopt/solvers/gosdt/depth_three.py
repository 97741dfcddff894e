"""The depth-three solver: the best tree of depth at most three, with the similar-support bound.

A tree of depth at most three is a root split ``j`` and two subtrees of depth at most
two, which :class:`~treeopt.solvers.gosdt.depth_two.DepthTwoSolver` solves exactly. Trying
every root split costs two depth-two solves per feature; most of them are skipped by
two bounds:

* **Child lower bounds.** Below split ``j`` each child costs at least the least of its
  leaf and its equivalent-points loss plus 2λ (Hu, Rudin and Seltzer, *Optimal Sparse
  Decision Trees*; Lin, Zhong, Hu, Rudin and Seltzer, *Generalized and Scalable
  Optimal Sparse Decision Trees* (GOSDT), Theorems B.2 and B.9).
* **The similar-support bound** (GOSDT, section 4.2 and Theorem B.10), first with the
  whole support as the solved one (its depth-two optimum, found before any root split),
  then with each solved child. Adding rows to a
  support raises its optimum by at most their weight, and removing rows never raises
  it, so for two supports ``A`` and ``B``::

      R*(B) >= R*(A ∩ B) >= R*(A) - w(A \\ B).

  Once the children of split ``j`` are solved, every other split's children get a lower
  bound: ``R*(left_k) >= R*(left_j) - w(left_j \\ left_k)`` and the three other pairings
  of sides. The weights ``w(f_j ∧ f_k)`` of every pair of features come from the same
  pair counts as the depth-two solver's, so the bound costs no pass over the rows. On
  threshold features neighbouring thresholds differ by a few rows, so one solved split
  closes a whole range of them: this is the idea behind ConTree's threshold-range
  pruning (Briţa, van der Linden and Demirović, *Optimal Classification Trees for
  Continuous Feature Data Using Dynamic Programming with Branch-and-Bound*, AAAI 2025).

Splits are tried in order of their lower bound, least first; the search stops when
the least remaining bound reaches the best objective found.

**Slack on the children's targets.** A child of root split ``j`` needs to be solved only far
enough to tell whether split ``j`` can beat the best tree: its target is the best objective
minus the other child's bound. A child solve that does not beat its target proves only that its
optimum is at least the target, just enough to close ``j`` and too little to close its
neighbours through the similar-support bound. With ``target_slack`` each child is solved against
its target plus ``target_slack × λ``: a failed solve then proves a bound that much higher, which
closes the neighbouring thresholds that differ from ``j`` by fewer rows than that, and a solve that
succeeds between the two targets returns the child's exact optimum, the strongest bound there
is. This is ConTree's idea of solving a subtree against an upper bound raised by the width of the
threshold interval it should prune (Briţa, van der Linden and Demirović, AAAI 2025). Exact for
any slack: only how much each child solve proves changes.

**An anytime order.** Least bound first proves fastest but meets good trees late: on thousands of
threshold columns the optimum may come at the very end of the solve. A solve
started with ``anytime=True`` tries instead the split of least ``bound + w × (children as leaves)``,
``w =`` :attr:`RootSplitRun.ANYTIME_STUMP_WEIGHT`: splits whose own two leaves are already good
come earlier, and good trees with them. It proves more slowly, so it serves
solves whose trees matter and whose proof does not (``depth_three_start`` in
``treeopt/solvers/gosdt/search.py``). Exact either way: the order changes, not what is closed.

Objectives are in weight units (scored loss + λ per leaf), like the solvers'.
"""

from __future__ import annotations

import time

import numpy as np

from .depth_two import LEAF, DepthTwoSolver, Leaves, achievable_from, one_blas_thread, round_up_near, similar_bounds

__all__ = ["LoopSolver", "SupportMemo", "SolvedRun", "DepthThreeSolver", "RootSplitRun"]


class LoopSolver:
    """What the solvers that loop over root splits share: a whole solve is a run advanced to its end.

    Subclasses (:class:`DepthThreeSolver`, ``DepthFourSolver`` in ``treeopt/solvers/gosdt/depth_four.py``)
    set :attr:`depth`, the depth-two solver ``two`` and :attr:`results`.
    """

    #: Seconds of a large support's column copy, a seed's or a child's pair products between two
    #: pauses of a run (a run advances by the search's unit budget; this keeps one solve from
    #: outlasting it on large supports).
    seed_slice_seconds = 0.05

    #: The depth of the trees it solves.
    depth: int
    #: Its results by support (:class:`SupportMemo`): a solve of a support solved before, against the
    #: same target or a lower one, is answered at once.
    results: SupportMemo

    def solve(self, mask: np.ndarray, target: float) -> tuple[float, object]:
        """The best tree of depth at most :attr:`depth` over the rows in ``mask``, if it beats ``target``.

        Parameters
        ----------
        mask : ndarray of bool, shape (n_points,)
            The support set's points.
        target : float
            An objective to beat (weight units), such as a known tree's.

        Returns
        -------
        objective : float
            The optimum when it is below ``target - eps``; otherwise ``target - eps``, a
            lower bound on it (nothing better than the target exists).
        spec : int, tuple or None
            The optimal tree as a nested spec (``LEAF``, a feature for a split into two
            leaves, or ``(feature, left spec, right spec)``); None when nothing beats
            ``target``.
        """
        run = self.start(mask, target)
        while not run.done:
            run.advance()
        return run.objective, run.spec

    def start(self, mask: np.ndarray, target: float, anytime: bool = False) -> "RootSplitRun":
        """A solve that advances in slices (:meth:`RootSplitRun.advance`), for a stepwise search.

        With ``anytime`` it tries root splits in the order that meets good trees early rather than
        the one that proves fastest (the module docstring). A support whose kept result answers the
        target (:attr:`results`) gives a :class:`SolvedRun`, done at once.
        """
        key = self.results.key(mask)
        found = self.results.lookup(key, float(target))
        if found is not None:
            return SolvedRun(*found, eps=self.two.eps)
        return RootSplitRun(self, mask, float(target), key, anytime=anytime)


class SupportMemo:
    """A solver's results kept by support: the same support is reached through both orders of two
    splits, and by the searches of successive depth budgets (``treeopt/solvers/gosdt/deepening.py``).
    Cleared when it holds ``size`` results.

    A result is exact (its spec is the optimal tree), or a lower bound (spec None: nothing beat the
    solve's target, so the optimum is at least ``target - eps``), which still answers any solve
    against that target or a lower one.

    Examples
    --------
    >>> memo = SupportMemo(size=10, eps=1e-9)
    >>> key = memo.key(np.array([True, False, True]))
    >>> memo.keep(key, 3.0, (0, -1, -1))
    >>> memo.lookup(key, target=5.0), memo.lookup(key, target=2.0)   # beats 5; not 2 (a bound)
    ((3.0, (0, -1, -1)), (1.999999999, None))
    >>> other = memo.key(np.array([True, True, False]))
    >>> memo.keep(other, 3.999999999, None)                           # nothing beat a target of 4
    >>> memo.lookup(other, target=3.5), memo.lookup(other, target=6.0)
    ((3.499999999, None), None)
    """

    def __init__(self, size: int, eps: float):
        self.size, self.eps = size, eps
        self._results: dict = {}

    @staticmethod
    def key(mask: np.ndarray) -> bytes:
        """The support's key: its mask of points, packed."""
        return np.packbits(mask).tobytes()

    def lookup(self, key: bytes, target: float) -> tuple[float, object] | None:
        """The kept result as a solve against ``target`` returns it, or None when what is kept
        does not answer it (nothing, or a lower bound below ``target - eps``)."""
        found = self._results.get(key)
        if found is None:
            return None
        objective, spec = found
        if spec is not None and objective < target - self.eps:
            return objective, spec
        if objective >= target - self.eps:          # exact or a bound, nothing beats the target
            return target - self.eps, None
        return None

    def keep(self, key: bytes, objective: float, spec) -> None:
        """Keep a solve's result: exact (``spec`` not None), or a lower bound (``spec`` None) unless
        something as strong is kept already."""
        if spec is None:
            if objective == np.inf:                  # nothing beat an infinite target: that proves nothing
                return
            found = self._results.get(key)
            if found is not None and (found[1] is not None or found[0] >= objective):
                return                               # the kept answer is as strong
        if len(self._results) >= self.size:
            self._results.clear()
        self._results[key] = (objective, spec)


class SolvedRun:
    """A solve answered by a solver's kept results (:class:`SupportMemo`): done from the start,
    with the same attributes as a finished :class:`RootSplitRun`."""

    done = True

    def __init__(self, objective: float, spec, eps: float):
        self.best = self.lower_bound = objective
        self.spec = spec
        self._eps = eps

    @property
    def objective(self) -> float:
        return self.best

    def advance(self, seconds: float | None = None) -> None:
        """Nothing to do: the solve is done."""

    def step(self) -> None:
        """Nothing to do: the solve is done."""

    def lower_target(self, target: float) -> None:
        """As :meth:`RootSplitRun.lower_target`."""
        if target - self._eps < self.best:
            self.best = self.lower_bound = target - self._eps
            self.spec = None


class DepthThreeSolver(LoopSolver):
    """Solve subproblems of depth at most three exactly, with a target to beat.

    Parameters
    ----------
    two : DepthTwoSolver
        The depth-two solver of the same dataset (its points, scored weights, λ and tolerance).
    memo_size : int, default=200_000
        Depth-two results kept by support (the same grandchild is reached through both
        orders of two splits); cleared when full.
    children : SortedDepthTwo, optional
        Solves the children (any object with ``best(mask, target)`` as
        :meth:`DepthTwoSolver.best`); default ``two``. On threshold features
        :class:`~treeopt.solvers.gosdt.sorted_depth_two.SortedDepthTwo` pays per numeric
        column rather than per threshold.
    target_slack : float, default=1.0
        Each child is solved against its target plus this many λ (see the module docstring;
        0 solves it against its target alone).
    results_size : int, default=20_000
        Its own results kept by support (:attr:`LoopSolver.results`); cleared when full.

    Attributes
    ----------
    solved_children : int
        Depth-two solves run (children of a tried root split).
    skipped_splits : int
        Root splits never solved because a bound reached the target.
    slack_solves : int
        Depth-two solves run against a target raised by ``target_slack``.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.solvers.gosdt.depth_two import DepthTwoSolver
    >>> X = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)], dtype=bool)
    >>> parity = X.sum(axis=1) % 2
    >>> counts = np.stack([5 * (parity == 0), 5 * (parity == 1)], axis=1).astype(float)
    >>> three = DepthThreeSolver(DepthTwoSolver(X, counts, penalty=1.0, eps=1e-9))
    >>> objective, spec = three.solve(np.ones(8, dtype=bool), target=np.inf)
    >>> objective                 # parity of three bits: eight pure leaves
    8.0
    >>> spec[0] in (0, 1, 2)
    True
    """

    #: The depth of the trees it solves.
    depth = 3
    #: The most leaves a child of a root split has (depth two): what ``achievable_at_least`` rounds to.
    child_max_leaves = 4

    def __init__(self, two: DepthTwoSolver, memo_size: int = 200_000, children=None, target_slack: float = 1.0,
                 results_size: int = 20_000):
        self.two = two
        self.children = two if children is None else children
        self.slack = float(target_slack) * two.penalty          # in weight units
        self._memo = SupportMemo(memo_size, two.eps)            # the children's depth-two results
        self.results = SupportMemo(results_size, two.eps)
        self.solved_children = 0
        self.skipped_splits = 0

    @property
    def slack_solves(self) -> int:
        """Depth-two solves run against a target raised by ``target_slack`` (all of them, or none)."""
        return self.solved_children if self.slack > 0 else 0

    def _seed(self, columns, mask: np.ndarray, target: float) -> tuple[float, object, np.ndarray | None]:
        """The whole support's best tree at the children's depth (two), and ``w(f_j ∧ f_k)`` for every pair.

        Returns ``(objective, spec, both)``: the optimum and its spec, or a lower bound and None
        when the bounded search proves nothing beats ``target``; ``both`` is None without a pair
        matrix (too many columns), and then each tried split counts its own row.
        """
        two = self.two
        if columns.X.shape[1] <= two.max_pair_columns:
            return two.best_with_pair_weights(columns)
        objective, spec = two.bounded(columns, target)             # the best tree of depth at most two
        return objective, spec, None

    def _seed_steps(self, columns, mask: np.ndarray, target: float):
        """:meth:`_seed` as a generator of the run's steps: one depth-two solve, whose pair products
        over a large support pause every :attr:`seed_slice_seconds` (the same numbers in one piece)."""
        two = self.two
        if columns.X.shape[1] <= two.max_pair_columns:
            return (yield from two.best_with_pair_weights_steps(columns, self.seed_slice_seconds))
        return self._seed(columns, mask, target)

    def _child_steps(self, mask: np.ndarray, target: float):
        """A root split's child, its best tree of depth at most two if it beats ``target``, as a
        generator of the run's steps: one depth-two solve, pausing on a large child while its columns
        and pair products are summed over blocks of rows (the same numbers in one piece)."""
        key = self._memo.key(mask)
        found = self._memo.lookup(key, target)
        if found is not None:
            return found
        best_steps = getattr(self.children, "best_steps", None)
        if best_steps is None:
            objective, spec = self.children.best(mask, target)
        else:
            objective, spec = yield from best_steps(mask, target, self.seed_slice_seconds)
        self.solved_children += 1
        self._memo.keep(key, objective, spec)
        return objective, spec

    def _depth_two(self, mask: np.ndarray, target: float) -> tuple[float, object]:
        """A child's best tree of depth at most two if it beats ``target`` (exact results memoised by support)."""
        key = self._memo.key(mask)
        found = self._memo.lookup(key, target)
        if found is not None:
            return found
        objective, spec = self.children.best(mask, target)
        self.solved_children += 1
        self._memo.keep(key, objective, spec)
        return objective, spec


class RootSplitRun:
    """One solve of a loop over root splits (depth three here), advanced a slice at a time so that a
    search stays stepwise.

    The loop over root splits is the same one level up: with the children solved at depth three
    it is the depth-four solve of ``treeopt/solvers/gosdt/depth_four.py``. What differs comes from the
    solver: the support's optimum at the children's depth that seeds the similar-support bound
    (``solver._seed_steps``), how a child is solved (``solver._child_steps``) and the most leaves a
    child has (``solver.child_max_leaves``, for the rounding of whole-weight bounds). Both solves are
    generators that the run drives with ``yield from``: a depth-two solve never pauses, a
    depth-three solve pauses after each of its root splits, and the run after each of its own.

    On 15,000 threshold columns a depth-three solve takes minutes; a time limit or a
    Pause must not wait for it. Between slices :attr:`lower_bound` (the least bound of
    the root splits not yet tried, or the best tree's objective) and :attr:`best` (the
    best tree found so far) bracket the optimum, so the search can show them.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.solvers.gosdt.depth_two import DepthTwoSolver
    >>> X = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)], dtype=bool)
    >>> counts = np.stack([5 * (X.sum(axis=1) % 2 == 0), 5 * (X.sum(axis=1) % 2 == 1)], axis=1).astype(float)
    >>> run = DepthThreeSolver(DepthTwoSolver(X, counts, penalty=1.0, eps=1e-9)).start(np.ones(8, bool), np.inf)
    >>> run.advance(seconds=0.0)                  # one root split at most
    >>> run.lower_bound <= 8.0 <= run.best
    True
    >>> while not run.done:
    ...     run.advance()
    >>> run.objective
    8.0
    """

    #: ``anytime`` order: the weight of a root split's two children as leaves beside its bound (a
    #: small weight met the optimum soonest on thousands of threshold columns).
    ANYTIME_STUMP_WEIGHT = 0.25

    def __init__(self, solver: LoopSolver, mask: np.ndarray, target: float, key: bytes, anytime: bool = False):
        self.solver = solver
        self._key = key                    # where the result is kept (solver.results.key(mask))
        two = self.two = solver.two
        # Nothing beats the target yet; the support's columns are read first (in slices, by _search),
        # then the seed (the support at the children's depth).
        self.best, self.spec = target - two.eps, None
        self.done = False
        self._anytime = anytime
        self.lower_bound = -np.inf          # until the columns are read (_prepare)
        self._steps = self._search(mask, float(target))

    def _prepare(self, columns, mask: np.ndarray) -> None:
        """The run's state over the support's kept columns (call inside :func:`one_blas_thread`)."""
        two = self.two
        self.columns = columns
        X, W = columns.X, columns.W
        leaves = Leaves.of(two, columns)
        row_weight = W.sum(axis=1)
        self._single_w = row_weight @ X
        anytime = self._anytime
        # The anytime order's tie to good trees: each split's two children as leaves (its stump), weighted.
        self._order_weight = self.ANYTIME_STUMP_WEIGHT * (leaves.left_leaf + leaves.right_leaf) if anytime else None
        self._total_w = float(row_weight.sum())
        self._low_left, self._low_right = leaves.lower_bounds()
        self._left_leaf, self._right_leaf = leaves.left_leaf, leaves.right_leaf
        self._tried = np.zeros(X.shape[1], dtype=bool)
        self._rows = np.flatnonzero(mask)
        # Until the seed is known: the support as a leaf, or a split whose children cost their bounds.
        least_split = float((self._low_left + self._low_right).min()) if X.shape[1] else np.inf
        self.lower_bound = min(self.best, leaves.leaf_objective, least_split)

    def _round_up(self) -> None:
        """With whole weights, each child's bound rises to the least objective its subtree can have."""
        if self.two.whole:
            round_up_near(self._low_left, self._low_right, self.best, self.two.penalty, self.solver.child_max_leaves,
                          self.two.achievable(self.solver.child_max_leaves))

    def _round_up_split(self, j: int) -> bool:
        """:meth:`_round_up` of split ``j``'s two bounds alone; True when one rose.

        After the seed every bound is rounded at once; after each tried split only the split about
        to be tried is (:meth:`_next_split`): rounding closes a split only when it is the least
        open one, and two scalar roundings cost a tenth of rounding every split near the best.
        """
        if not self.two.whole:
            return False
        max_leaves = self.solver.child_max_leaves
        values = self.two.achievable(max_leaves)
        rose = False
        for low in (self._low_left, self._low_right):
            bound = low[j]
            rounded = achievable_from(bound, self.two.penalty, max_leaves, values)
            if rounded > bound:
                low[j] = rounded
                rose = True
        if rose:
            self._open_bound[j] = self._low_left[j] + self._low_right[j]
        return rose

    @property
    def objective(self) -> float:
        """The optimum (or ``target - eps`` when nothing beats the target), once :attr:`done`."""
        return self.best

    def lower_target(self, target: float) -> None:
        """Beat ``target`` from now on when it is below the best tree so far (found elsewhere).

        The best tree found here, if any, no longer counts; what is closed stays closed, since a
        split whose bound reached the old best cannot beat a lower one.
        """
        if target - self.two.eps < self.best:
            self.best, self.spec = target - self.two.eps, None

    def advance(self, seconds: float | None = None) -> None:
        """Go on until done or ``seconds`` have passed (at least one step: the seed, or a root split,
        or with depth-three children one root split of a child's solve)."""
        if self.done:
            return
        stop = None if seconds is None else time.perf_counter() + seconds
        with one_blas_thread():
            while not self.done:
                self.step()
                if stop is not None and time.perf_counter() >= stop:
                    break

    def step(self) -> None:
        """One step of :meth:`advance`, in the caller's BLAS context (:func:`one_blas_thread`).

        A seed's solve may hand up the better trees of the whole support it meets on its way
        (``(objective, spec)``: the depth-four solve's seed is a sliced depth-three solve), so that
        the best tree so far is shown and used as soon as it is found.
        """
        found = next(self._steps, None)
        if found is not None:
            objective, spec = found
            if spec is not None and objective < self.best:
                self.best, self.spec = objective, spec

    def _child_masks(self, right_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The two children's masks of points, from the split's column over the support's points."""
        left = np.zeros(self.two.n_points, dtype=bool)
        right = np.zeros(self.two.n_points, dtype=bool)
        left[self._rows[~right_rows]] = True
        right[self._rows[right_rows]] = True
        return left, right

    def _search(self, mask: np.ndarray, target: float):
        """The solve as a generator: it pauses after the seed's and the children's steps, and after
        every root split."""
        solver = self.solver
        # The support's kept columns: on a large support a copy of many rows, made in slices.
        columns = yield from self.two.columns_steps(mask, slice_seconds=solver.seed_slice_seconds)
        self._prepare(columns, mask)
        # The support's optimum at the children's depth (or a lower bound on it), and w(f_j ∧ f_k).
        seed, seed_spec, self._both_all = yield from solver._seed_steps(self.columns, mask, target)
        if seed_spec is not None and seed < self.best:
            self.best, self.spec = seed, seed_spec
        # Similar support with the whole support as the solved one (Theorem B.10 at the children's
        # depth): a child lacks the other child's rows, so its optimum is at least the support's
        # minus their weight. This closes the root splits that cut off a few rows, whose trees are
        # the support's tree at the children's depth and a tiny leaf (most thresholds near a column's ends).
        np.maximum(self._low_left, seed - self._single_w, out=self._low_left)
        np.maximum(self._low_right, seed - (self._total_w - self._single_w), out=self._low_right)
        self._round_up()
        self._update_lower_bound()
        while True:
            j = self._next_split()
            if j is None:
                return
            yield from self._try(j)
            yield

    def _next_split(self) -> int | None:
        """The next root split to try, or None once every bound reaches the best (then done). The
        split's bounds are rounded up first (:meth:`_round_up_split`); if they rise, the choice is made again."""
        bound = self._open_bound                        # as the last _update_lower_bound left it
        while True:
            if len(bound) == 0:
                j = None
            elif self._order_weight is None:
                j = int(bound.argmin())
            else:                                       # the anytime order, among the splits still open
                key = bound + self._order_weight
                key[bound >= self.best] = np.inf
                j = int(key.argmin())
            if j is None or bound[j] >= self.best:
                self._finish()
                return None
            if not self._round_up_split(j):
                return j

    def _finish(self) -> None:
        """Every open root split's bound reaches the best tree: done, and the result is kept."""
        self.done = True
        self.lower_bound = self.best
        self.solver.skipped_splits += int(len(self._tried) - self._tried.sum())
        self.solver.results.keep(self._key, self.best, self.spec)

    def _try(self, j: int):
        """Solve both children of root split ``j`` (as far as they can beat the best) and bound the others."""
        solver, low_left, low_right = self.solver, self._low_left, self._low_right
        self._tried[j] = True
        right_rows = self.columns.X[:, j] > 0
        left_mask, right_mask = self._child_masks(right_rows)
        # Each child against its target plus the slack: a failed solve proves more than split j needs,
        # so its bound closes neighbouring splits too (module docstring); only what beats the best counts.
        slack = solver.slack
        left_obj, left_spec = yield from self._child(j, left_mask, self.best - low_right[j] + slack, left=True)
        right_obj = right_spec = None
        if left_spec is not None and left_obj + low_right[j] < self.best:
            right_obj, right_spec = yield from self._child(j, right_mask, self.best - left_obj + slack, left=False)
            if right_spec is not None and left_obj + right_obj < self.best:
                self.best = left_obj + right_obj
                self.spec = (int(self.columns.features[j]), left_spec, right_spec)
        # Similar support (Theorem B.10): each solved child bounds the children of every other
        # split. A child that did not beat its target is bounded below by it (minus eps), which
        # is all the bound needs.
        both = self._both_all[j] if self._both_all is not None else self.two.pair_weights(self.columns, j).sum(axis=0)
        similar_bounds(low_left, low_right, j, left_obj, right_obj, both, self._single_w, self._total_w)
        self._update_lower_bound()

    def _child(self, j: int, mask: np.ndarray, target: float, left: bool):
        """One child of root split ``j``, its best tree at the children's depth if it beats ``target``
        (the solver's ``_child_steps``), or at once its leaf when its bound has reached the leaf's
        objective: no subtree costs less than the bound, and the leaf costs no more (at depth four, a
        whole depth-three solve saved)."""
        leaf = (self._left_leaf if left else self._right_leaf)[j]
        if (self._low_left if left else self._low_right)[j] >= leaf - self.two.eps:
            return float(leaf), LEAF
        return (yield from self.solver._child_steps(mask, target))

    def _update_lower_bound(self) -> None:
        """The least bound of the root splits not yet tried, or the best tree's objective (and each
        split's bound, infinite once tried, for :meth:`_next_split`: the bounds change only here)."""
        bound = self._open_bound = self._low_left + self._low_right
        bound[self._tried] = np.inf
        self.lower_bound = min(self.best, float(np.minimum.reduce(bound, initial=np.inf)))


"""GOSDT: dynamic programming with bounds over support sets.

Lin, Zhong, Hu, Rudin, Seltzer, *Generalized and Scalable Optimal Sparse
Decision Trees* (ICML 2020), section 4 and appendices B and H. Read it beside
this file; the names below follow Algorithm 1.

A *problem* is identified by its support set ``s`` (a bitset over the
equivalence classes, section 4.1), so two different paths that capture the
same rows share one problem: this is the leaf permutation bound
(Theorem B.8) made implicit, and why we key the memo by support rather than
by the path (Branches keys by clauses; see its module). With a depth budget
the key also holds the remaining depth.

Every problem ``p`` keeps bounds ``lb <= R*(p) <= ub`` on its optimal
objective ``R*(p) = min(leaf(p), min_j R*(p_l^j) + R*(p_r^j))`` (equation 7,
with the leaf option made explicit). The search pops a problem, creates its
children for every feature (``FIND_OR_CREATE_NODE``), recomputes its bounds
from theirs, propagates any change to all its parents (the paper sends those
as priority-1 queue entries; we run them at once, which is the same order)
and queues the children whose splits can still beat the parent's upper bound
(lines 25-36). The search ends when the root's bounds meet, and the optimal
tree is read off by following, at each problem, the split of least upper
bound (Algorithm 6).

Costs are kept in *weight units* (loss × total weight, λ × total weight), so
accuracy losses are exact integer counts.

The bounds below are switches of kind ``bound`` in ``SWITCHES`` (``bounds=``), each with a counter in
``prune_counts``. The subsolvers are described in :mod:`.subsolver_calls`, the search orders in
:mod:`.dives` and the first incumbents in :mod:`.starts` (``strategies=``).

Those three are mixin classes of ``GOSDT``, not plain functions or a collaborator object given the
search state explicitly, because each works both ways with this loop: a dive expands problems with
``_expand``, a sliced subsolver call lowers bounds and then calls ``_propagate`` and ``_push``, a start
takes its tree as the root's incumbent, and all of them read and write the memo (``problems``), the
queue, the root and ``prune_counts``. Made explicit, that state is nearly every attribute of the search
plus the loop's own steps as callbacks, so a collaborator would hold the search under another name and
plain functions would take a dozen arguments; neither reads better than ``self``. What the split does
give: each concept is one module named after it, and the loop below calls it by name at the point of
the paper's algorithm where it acts (the starts before the first pop and between pops, a dive between
two pops, a subsolver where a popped problem is expanded).

Bounds:

``hierarchical``
    Theorems B.1/B.3: a split whose children's lower bounds add up to at
    least the parent's upper bound cannot be optimal; it is dropped for good
    (lower bounds only rise, upper bounds only fall). Counts dropped splits.
``equivalent_points``
    Theorem B.9 and equation 9: rows with identical features cannot be
    separated, so a problem's loss is at least the minority weight of its
    equivalence classes. Counts problems whose lower bound it raised.
``lookahead``
    Theorem B.2 (one-step lookahead): a problem that splits pays for at
    least two leaves, so ``lb = min(leaf, eq + 2λ)`` instead of ``eq + λ``.
    Counts splits pruned thanks to it (that the plain bound would have kept).
``leaf_bound``
    Theorems B.4/B.5 (upper bound on the number of leaves), in the form of
    Algorithm 4's ``leaf_accuracy`` test: a leaf whose objective is at most
    2λ cannot be beaten by any tree with two or more leaves. Counts problems
    closed as leaves.
``incremental_progress``
    Theorem B.6 (Algorithm 4's ``incremental_accuracy``): splitting must
    reduce the loss by at least λ; if the leaf's loss is within λ of the
    equivalent-points loss, no subtree can do that. Counts problems closed.
``incremental_lower_bound``
    Theorem B.7: when both children of a split are forced leaves and they
    do not reduce the parent leaf's loss by λ, the split is dropped at once
    (with this switch off, ``hierarchical`` drops it one step later).

``scope``
    Theorem B.3 applied downwards (the hierarchical bound with the current
    best objective ``R^c`` of the parent). A problem ``c`` reached by the split
    ``(c, c')`` of ``p`` can only help ``p`` with a subtree cheaper than
    ``target(p) - lb(c')``, where ``target(p) = min(ub(p), scope(p))`` and the
    root's scope is infinite; the largest such value over its parents is
    ``c``'s *scope*. Splits of ``c`` whose lower bound reaches ``target(c)``
    are kept (a new parent may offer a larger scope, which queues them again)
    but their children are not queued: no tree through them can beat any
    parent's incumbent. Targets only shrink as incumbents improve and lower
    bounds rise, so a scope is recomputed from the parents' current targets
    when its problem is popped, and every scope when the root's incumbent
    improves (``GOSDT._fresh_scope``). Counts splits left unexplored for this reason.

``two_leaves``
    Theorems B.4 and B.9 (upper bound on the number of leaves, equivalent
    points): every tree pays λ per leaf and at least the equivalent-points loss
    ``eq``, so a tree with three or more leaves costs at least ``eq + 3λ``. A
    problem whose leaf costs no more than that is solved exactly by its leaf or
    its best single split, found in one pass over the features' class counts
    without creating the other subproblems (the special solver MurTree and
    STreeD use for depth two, here for a budget of two leaves). Counts problems
    solved this way.

``similar_support``
    Theorem B.10 (similar support bound) between the children of one problem's
    splits: adding rows to a support raises its optimum by at most their weight,
    and removing rows never raises it, so ``R*(B) >= R*(A) - w(A \\ B)``. When a
    child ``A`` is solved, every other child ``B`` of the same parent gets that
    lower bound; the weights of the four pairings of two splits' sides come from
    the parent's pair counts (``treeopt/solvers/gosdt/similar_support.py``). Kept for
    budgeted problems with at least four levels left, whose children the
    ``depth_three`` solver closes in one step each. Counts lower bounds raised.
``completions``
    Upper bounds, not a pruning rule: the same pair counts give, at every
    expansion, each child's best subtree of depth at most one, which becomes the
    child's upper bound (its *completion*) before the child is expanded. The
    incumbent is then a depth-two tree after the root's expansion and improves
    with every expansion below it, and the tighter upper bounds feed
    ``hierarchical`` and ``scope``. Counts children whose upper bound it lowered.
``reference_lower_bound``
    McTavish et al. 2022, section 4.3 (Steps 1-2), only with ``reference_errors``: a
    *guess*, not a proof. Each problem's lower bound starts at the reference model's
    loss on it + λ (with lookahead + 2λ) and a leaf within λ of that loss is taken;
    the returned tree then obeys Theorem 4.3 rather than being certified optimal.
    Counts problems whose lower bound it raised.

``depth_budget`` closes problems at the budget as leaves (counted as ``depth``).
"""

from __future__ import annotations

import heapq
import math
import time
from itertools import count

import numpy as np

from ...data import Dataset, points_in
from ...events import Expanded, Pruned, Started
from ...tree import Leaf, Split, Tree
from ..base import EPS, QueueEntry, Solver, check_zero_regularization
from ..capabilities import Capabilities
from .. import switches as kinds
from ..cart_start import cart_incumbent_steps
from .depth_four import DepthFourSolver
from .depth_three import DepthThreeSolver
from .depth_two import LEAF, DepthTwoSolver, one_blas_thread
from .sorted_depth_two import SortedDepthTwo, nested_chains
from .similar_support import SimilarSupport
from .gc_pause import HeapFreeze
from .dives import Dives
from .memo_trim import MemoTrimming
from .problem import Problem, counts_minus
from ..plugins import declare_plugins
from .plugin_bounds import PluginLowerBounds
from .starts import IncumbentStarts
from .subsolver_calls import SubsolverCalls, Subsolvers

__all__ = ["GOSDT", "tie_charge", "tie_charge_fits"]

#: The tie charge must stay this many times above the tolerance the search compares within.
TIE_OVER_TOLERANCE = 100


def tie_charge_fits(total_weight: float, depth_budget: int) -> bool:
    """Whether the charge per leaf of :func:`tie_charge` stands :data:`TIE_OVER_TOLERANCE` times above the
    search's tolerance (``EPS`` times the total weight) for this total weight and depth budget.

    Examples
    --------
    >>> tie_charge_fits(1000.0, 3), tie_charge_fits(1e9, 3)
    (True, False)
    """
    return TIE_OVER_TOLERANCE * EPS * total_weight < 2.0 ** -(depth_budget + 1)


def tie_charge(model, dataset: Dataset, depth_budget: int | None) -> float:
    """The charge per leaf (weight units) under which GOSDT's optimum is the most accurate tree of at most
    ``depth_budget`` levels with the fewest leaves among the most accurate.

    On whole losses (whole sample weights, unit class costs) two trees' losses differ by 0 or at least 1,
    and at most ``2 ** depth_budget`` leaves charged ``2 ** -(depth_budget + 1)`` each cost at most one half:
    errors decide first, leaves only between equal errors. The search's tolerance (``EPS`` times the
    total weight) must stay well below the charge, so a large total weight is refused with the solver that
    takes it (the continuous solver charges an infinitesimal tie instead).

    Raises
    ------
    ValueError
        Without a depth budget, with losses that are not whole numbers, or with a total weight too
        large for the charge to stand above the tolerance.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.objectives import get_objective
    >>> ds = Dataset.from_binary(np.array([[0], [1]] * 4), np.array([0, 1] * 4))
    >>> tie_charge(get_objective("accuracy").loss_model(ds), ds, 3)
    0.0625
    """
    check_zero_regularization(None, depth_budget)
    if not (model.unit_costs and dataset.exact_counts):
        raise ValueError("regularization=0 with solver='gosdt' needs whole losses (whole sample weights and "
                         "objective='accuracy'); use solver='continuous' (or solver='auto'), which takes any weights.")
    charge = 2.0 ** -(depth_budget + 1)
    if not tie_charge_fits(dataset.total_weight, depth_budget):
        raise ValueError(f"regularization=0 with solver='gosdt' at depth_budget={depth_budget} needs a total sample "
                         f"weight below {charge / (TIE_OVER_TOLERANCE * EPS):.0f}; use solver='continuous' "
                         "(or solver='auto').")
    return charge


class GOSDT(IncumbentStarts, Dives, SubsolverCalls, MemoTrimming, Solver):
    """Optimal sparse decision trees by dynamic programming with bounds (GOSDT).

    Minimises ``loss + λ × leaves`` for additive objectives (accuracy,
    balanced and weighted accuracy) over binary features.

    Parameters
    ----------
    dataset : Dataset
    regularization : float
        λ, the cost of one leaf in objective units. ``0`` with a ``depth_budget`` asks for the most
        accurate tree of at most that depth, ties broken by fewer leaves, on whole losses (whole
        sample weights and unit class costs, as with ``objective="accuracy"``): each leaf is then
        charged a fraction of one error internally (``tie_charge`` in this module), and reported objectives are
        without it.
    objective : str or Objective, default="accuracy"
        Any additive objective.
    bounds : dict of str to bool, optional
        Switch bounds off by name, e.g. ``{"lookahead": False}`` (see module docstring).
    depth_budget : int, optional
        Maximum depth of the tree (a single leaf has depth 0).
    reference_errors : array_like of shape (n_points, n_classes), optional
        Lower-bound guessing (McTavish et al. 2022, section 4.3; build it with
        :func:`treeopt.guessing.reference_errors`). The lower bound is then a
        guess: :attr:`lower_bound_guessed` is True.
    strategies : dict of str to bool, optional
        Switch its search orders, first incumbents and subsolvers off by name, e.g.
        ``{"cart_start": False}`` (the switches of those kinds in ``SWITCHES``).
    plugins : list, optional
        Plug-in lower bounds built with :func:`treeopt.lower_bound` (``treeopt.bounds_lab``),
        each a function of a :class:`treeopt.Subproblem`, the same as OSDT's. GOSDT shows it
        each support as a partial tree with one split leaf and raises the support's lower
        bound to ``min(leaf objective, bound)`` (``treeopt.solvers.gosdt.plugin_bounds``). Each is a bound switch with a counter in
        ``prune_counts`` and ``Pruned`` events; ``bounds={name: False}`` switches it off.
        Queue policies are refused: GOSDT's queue is not ordered by a key of a subproblem.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]] * 5)
    >>> y = np.array([1, 1, 0, 0] * 5)
    >>> result = GOSDT(Dataset.from_binary(X, y, feature_names=["a", "b"]), regularization=0.1).run()
    >>> print(result.tree.rules(show_counts=False))
    if a:
        predict 1
    else:  # not (a)
        predict 0
    >>> result.optimal, result.objective
    (True, 0.2)

    With ``regularization=0`` and a depth budget, the fewest errors (ties to fewer leaves):

    >>> zero = GOSDT(Dataset.from_binary(X, y, feature_names=["a", "b"]), regularization=0, depth_budget=2).run()
    >>> zero.optimal, zero.objective, zero.tree.n_leaves
    (True, 0.0, 2)
    """

    name = "gosdt"
    CAPABILITIES = Capabilities(guesses_lower_bounds=True, zero_regularization=True, options=("plugins",))
    #: Freeze the heap for the garbage collector during each unit of work (speed only; see gc_pause).
    freeze_heap = True
    SWITCHES = kinds.Switches([
        kinds.bound('hierarchical', 'GOSDT Theorems B.1, B.3 (hierarchical objective lower bound)'),
        kinds.bound('equivalent_points', 'GOSDT Theorem B.9, equation 9 (equivalent points bound)'),
        kinds.bound('lookahead', 'GOSDT Theorem B.2 (one-step lookahead)'),
        kinds.bound('leaf_bound', 'GOSDT Theorems B.4, B.5 / Algorithm 4 (upper bound on the number of leaves)'),
        kinds.bound('incremental_progress', 'GOSDT Theorem B.6 / Algorithm 4 (incremental progress to determine splitting)'),
        kinds.bound('incremental_lower_bound', 'GOSDT Theorem B.7 (lower bound on incremental progress)'),
        kinds.bound('two_leaves', 'GOSDT Theorems B.4, B.9 (at most two leaves when the leaf costs at most eq + 3λ)'),
        kinds.bound('scope', "GOSDT Theorem B.3 applied downwards (a child's subtree must beat its parent's target minus its sibling's lower bound)"),
        kinds.constraint('depth', "depth_budget (not a theorem: the user's constraint)"),
        kinds.subsolver('depth_two', 'MurTree section 4.3 (exact depth-two solver from pair counts) where at most three leaves can be optimal (GOSDT Theorems B.4, B.9) or two levels of depth budget remain'),
        kinds.subsolver('depth_three', 'GOSDT Theorem B.10 (similar support) between the root splits of an exact depth-three solver, where three levels of depth budget remain or at most four leaves can be optimal'),
        kinds.subsolver('depth_four', "GOSDT Theorem B.10 (similar support) between the root splits of an exact depth-four solver with depth-three children (ConTree's search one level up), where four levels of depth budget remain"),
        kinds.subsolver('depth_five_six', "the depth_four loop with exact children of depth four and five (ConTree's recursion), where five or six levels of depth budget remain"),
        kinds.subsolver('sorted_depth_two', 'ConTree (Brita et al., AAAI 2025) depth-two solver over sorted values: the splits of a chain of nested threshold features from one cumulative sum (exact)'),
        kinds.subsolver('child_slack', "ConTree (Brita et al., AAAI 2025) raised upper bounds: depth_three solves each child against its target plus 2λ, so a failed solve's bound closes neighbouring thresholds (similar support)"),
        kinds.bound('similar_support', 'GOSDT Theorem B.10 (similar support): a solved child bounds the children of every other split of its parent by its optimum minus the weight of the rows they lack'),
        kinds.bound('completions', "MurTree section 4.3 pair counts as upper bounds: each child's best depth-one subtree"),
        kinds.search_order('dives', "SPLIT/LicketySPLIT's idea: expand the incumbent's unexpanded leaves first"),
        kinds.search_order('bound_dives', 'best-first on the lower bound along one path: when the incumbent has no unexpanded leaf, expand those reached from the root by the splits of least lower bound'),
        kinds.search_order('completion_dives', "a known tree refined from the top down: dives go on into a completion tree (CART's, another search's), its subtrees becoming the children's upper bounds"),
        kinds.first_incumbent('cart_start', 'CART pruned at λ (Breiman et al. 1984, cost-complexity)'),
        kinds.first_incumbent('depth_two_start', "on wide data, the best tree of depth at most two (MurTree section 4.3 depth-two solver) when it beats CART's"),
        kinds.first_incumbent('depth_three_start', 'on wide data, an anytime start: the best tree of depth at most three, solved beside a search still open after a few seconds'),
        kinds.bound('reference_lower_bound', 'McTavish et al. 2022, section 4.3 (lower-bound guess from a reference model)'),
    ])
    #: Above this many features ``completions`` are off: they need a full pair matrix (features²
    #: numbers per class) on every dive. The exact depth-two and depth-three solvers work at any width.
    max_pair_features = 2000
    #: From this many features on, ``depth_two`` also closes unbudgeted problems with room for at
    #: most three leaves. On fewer, creating the children in Python is cheaper than the numpy call
    #: (chosen on the narrow suite, ``benchmarks/results.md``).
    wide_features = 32
    #: ``sorted_depth_two`` is used when the features form chains of at least this many on average
    #: (threshold encodings of numeric columns); on one-hot data the pair counts are faster.
    min_chain_length = 4
    #: ... and only above this many features: below it a support's exact pair matrix is cheaper,
    #: and its exact children bound the depth-three solver's other splits better (chosen on spiral
    #: and compas with all thresholds, ``benchmarks/results_contree.md``).
    min_sorted_features = DepthTwoSolver.max_pair_columns
    #: ``bound_dives`` start after this many expansions. Problems that close within them are certified
    #: fastest by the depth-first order alone (the narrow suite slows down with bound dives from the
    #: start), while on wide one-hot data the bound still rises in time (``benchmarks/results.md``,
    #: ``benchmarks/results_wide.md``).
    bound_dives_after = 50_000
    #: A depth-three solve advances by slices of about this many seconds (one unit of work each),
    #: so a time limit or a Pause waits at most about one slice; None: the unit budget
    #: (:attr:`~treeopt.solvers.base.Solver.unit_budget`).
    three_slice_seconds = None
    #: ``depth_four`` is used on data of at most this many points × features. Above, the loop waits for
    #: its seed and children while GOSDT's own search meets good trees sooner
    #: (``benchmarks/results_contree.md``).
    depth_four_max_cells = 1_000_000
    #: ``depth_five_six``: the deepest remaining budget solved by a loop over root splits. Measured at five
    #: and six (spiral, compas, three one-hot datasets); deeper loops wait for ever longer seeds.
    max_loop_depth = 6
    #: ``child_slack``: each child of a depth-three root split is solved against its target plus this
    #: many λ. Exact for any value; 2 tries fewer root splits than 1, and 3 about as many as 2
    #: (``benchmarks/results_contree.md``).
    child_slack_lambdas = 2.0
    #: ``depth_three_start`` begins once the search has run this many seconds without certifying
    #: (searches that certify sooner never pay for it) ...
    depth_three_start_after = 5.0
    #: ... and then takes at most this share of the search's time, one slice at a time.
    depth_three_start_share = 1 / 3
    #: ``depth_three_start`` goes on when another search offers trees (set by the portfolio).
    keep_start_when_offered = False

    def __init__(self, dataset: Dataset, *, regularization: float, objective="accuracy",
                 bounds: dict | None = None, depth_budget: int | None = None,
                 reference_errors=None, strategies: dict | None = None, plugins=None):
        plugins = declare_plugins(self, plugins, fixed_order="depth first by when a support was queued, "
                                  "between dives along the incumbent")
        super().__init__(dataset, regularization=regularization, objective=objective, bounds=bounds,
                         depth_budget=depth_budget, strategies=strategies)
        if not self.objective.additive:
            raise ValueError(f"GOSDT needs an additive objective; {self.objective.name!r} is not. "
                             "Use solver='osdt' for F-score and AUC objectives.")
        self.model = self.objective.loss_model(dataset)
        self.plugins = plugins
        # Lower-bound guessing (McTavish et al. 2022, section 4.3): the reference model's loss on a
        # subproblem, as per-class popcount sums weighted by the objective's class costs.
        self._reference = None if reference_errors is None else self._reference_sums(reference_errors)
        self.reference_errors = reference_errors     # kept so a player can rebuild the same search
        self.penalty = self.regularization * dataset.total_weight  # λ in weight units
        self.eps = EPS * dataset.total_weight   # relative: tiny weights keep their ties
        # regularization=0: a charge per leaf too small to outweigh one error ranks trees by errors,
        # then by leaves (tie_charge); lower_bound and upper_bound report the errors alone.
        self._tie = tie_charge(self.model, dataset, self.depth_budget) if self.regularization == 0 else 0.0
        self.penalty += self._tie
        self.problems: dict[int, Problem] = {}
        # Section 4.4 (fast selective vector sums): class counts and the equivalent-points loss are
        # sums over points, so a child's are its parent's minus its sibling's. Exact (and used)
        # only with integer counts and unit class costs; otherwise every problem sums its own.
        self._subtract = self.model.unit_costs and dataset.exact_counts
        self._binary = self.model.unit_costs and dataset.n_classes == 2
        # two_leaves solves a problem exactly, which a guessed lower bound must not be mixed with.
        self._two_leaves = self.bounds["two_leaves"] and not self.lower_bound_guessed
        self._depth_two = self.bounds["depth_two"] and not self.lower_bound_guessed
        self._wide = dataset.n_features >= self.wide_features
        shared = self.__dict__.pop("_shared_subsolvers", None)      # given by GOSDT.sharing
        if shared is not None:
            self._check_subsolvers(shared)
            self._pairs, self._sorted, self._three, self._loops = shared[:4]
        else:
            wanted = self._depth_two or self.bounds["completions"]
            self._pairs = DepthTwoSolver(dataset.points, dataset.counts * self.model.costs, self.penalty, self.eps,
                                         column_words=dataset.column_words) if wanted and dataset.n_features > 0 else None
            self._sorted = None                    # the sorted-chains depth-two solver, where chains are long
            if self._pairs is not None and self._depth_two and self.bounds["sorted_depth_two"] \
                    and dataset.n_features > self.min_sorted_features:
                chains = nested_chains(dataset.points, dataset.column_words)
                if dataset.n_features >= self.min_chain_length * len(chains):
                    self._sorted = SortedDepthTwo(dataset.points, dataset.counts * self.model.costs, self.penalty,
                                                  self.eps, chains=chains)
            self._three = DepthThreeSolver(self._pairs, children=self._sorted,
                                           target_slack=self.child_slack_lambdas if self.bounds["child_slack"] else 0.0) \
                if self._pairs is not None and self._depth_two and self.bounds["depth_three"] else None
            # depth_four and depth_five_six: remaining depth -> the loop solver of that depth.
            self._loops = {}
            if self._three is not None and self.bounds["depth_four"] \
                    and dataset.n_points * dataset.n_features <= self.depth_four_max_cells:
                self._loops[4] = DepthFourSolver(self._three)
                # Deeper loops on threshold columns only (mostly nested neighbours), where one solved split
                # closes its neighbouring thresholds; on one-hot data they certify no faster at depth five
                # and meet good trees later than the search's dives.
                thresholds = self._pairs.nested_with_previous.mean() >= DepthTwoSolver.min_nested_share
                for depth in range(5, self.max_loop_depth + 1) if self.bounds["depth_five_six"] and thresholds else ():
                    self._loops[depth] = DepthFourSolver(self._loops[depth - 1])
        # Completions need a full pair matrix at once; the exact solvers bound their way through any width.
        self._all_pairs = dataset.n_features <= self.max_pair_features
        self._similar = self._pairs is not None and self.bounds["similar_support"] and not self.lower_bound_guessed
        self._trim_at = None                   # memo size at which it is trimmed next (MemoTrimming)
        self.trimmed_problems = 0              # problems dropped from the memo by MemoTrimming
        self._three_runs = {}            # id(problem) -> RootSplitRun of a depth-three or depth-four solve under way
        self._subsolve_marks = (0, 0)    # the subsolvers' counters when this search last counted (_count_subsolves)
        self.root: Problem | None = None
        self._dive_targets: list = []          # unexpanded problems on the incumbent, to expand first
        self._diving_weakest = False           # ... or on the path of least lower bound (bound_dives)
        self._dived_at = None                  # the root's upper bound when the incumbent was last scanned
        self._dove_last = False                # the last unit was a dive (dives alternate with pops)
        self._ready_pairs = None               # (problem, its pair counts) counted in slices for a dive
        self._queue: list = []
        self._scoped = self.bounds["scope"]
        self._scope_epoch = 0                  # bumped when the root's upper bound drops (see _fresh_scope)
        self._epoch_ub = math.inf              # the root's upper bound when the epoch began
        self._sequence = count()
        self._shift = dataset.n_points
        self._offered = None                   # (objective in weight units, root node) offered before the start
        self._start_run = None                 # depth_three_start: the root's depth-three solve, when eligible
        self._start_clock = None               # (search start, seconds spent in its slices)
        # Plug-in lower bounds (treeopt.bounds_lab), called where a problem's lower bound is set.
        self._plugin_bounds = PluginLowerBounds(self, plugins) if plugins else None
        if self._plugin_bounds is not None:
            self._plugin_bounds.check_on_root()

    @classmethod
    def sharing(cls, subsolvers: Subsolvers, dataset: Dataset, **settings) -> "GOSDT":
        """A search that solves small subtrees with another search's exact solvers, built without its own.

        The same search as ``cls(dataset, **settings)`` followed by
        :meth:`adopt_subsolvers`, without first building the solvers it would drop: on a wide
        table (thousands of threshold columns over many rows) building them is the longest part of
        a search's setup, and iterative deepening builds one search per depth inside a unit of work.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> X = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)] * 2)
        >>> ds = Dataset.from_binary(X, X.sum(axis=1) % 2)
        >>> shallow = GOSDT(ds, regularization=0.01, depth_budget=3)
        >>> deep = GOSDT.sharing(shallow.subsolvers, ds, regularization=0.01, depth_budget=4)
        >>> deep.subsolvers.pairs is shallow.subsolvers.pairs, round(deep.run().objective, 4)
        (True, 0.08)
        """
        search = cls.__new__(cls, dataset, **settings)
        search._shared_subsolvers = subsolvers
        search.__init__(dataset, **settings)
        return search

    def _reference_sums(self, reference_errors) -> list:
        """Validate per-point reference errors; return [(class cost, SubsetSum of that class's errors)]."""
        from ...data import SubsetSum
        errors = np.asarray(reference_errors, dtype=float)
        n_points, n_classes = self.dataset.n_points, self.dataset.n_classes
        if errors.shape == (n_points,):
            if not np.allclose(self.model.costs, self.model.costs[0]):
                raise ValueError(f"objective {self.objective.name!r} weighs classes differently, so "
                                 f"reference_errors needs shape (n_points, n_classes) = ({n_points}, "
                                 f"{n_classes}); build it with treeopt.guessing.reference_errors.")
            return [(float(self.model.costs[0]), SubsetSum(errors))]
        if errors.shape != (n_points, n_classes):
            raise ValueError(f"reference_errors must have shape (n_points, n_classes) = ({n_points}, {n_classes}) "
                             f"or ({n_points},), got {errors.shape}; build it with treeopt.guessing.reference_errors.")
        if not np.all(np.isfinite(errors)) or (errors < 0).any():
            raise ValueError("reference_errors must be finite and non-negative (weights of misclassified rows).")
        return [(float(cost), SubsetSum(errors[:, c])) for c, cost in enumerate(self.model.costs)]

    # -- FIND_OR_CREATE_NODE (Algorithm 1, lines 38-46) --------------------------
    def _find_or_create(self, support: int, depth_left, origin) -> Problem:
        key = support if depth_left is None else support | (depth_left << self._shift)
        problem = self.problems.get(key)
        if problem is not None:
            return problem
        return self._create(support, key, depth_left, origin)

    def _create(self, support: int, key: int, depth_left, origin, counts=None, eq=None) -> Problem:
        """A new problem; ``counts`` and ``eq`` are summed over ``support`` unless given."""
        lam = self.penalty
        bounds = self.bounds
        if counts is None:
            counts = self.dataset.class_counts(support)
        if self._binary:                                          # model.leaf, unrolled for the hot case
            first, second = counts
            leaf_loss, prediction = (second, 0) if first >= second else (first, 1)
        else:
            leaf_loss, prediction = self.model.leaf(counts)
        leaf_obj = leaf_loss + lam
        if eq is None:
            eq = self.model.equivalent_points(support) if bounds["equivalent_points"] else 0
        if eq > 0:
            self.prune_counts["equivalent_points"] += 1
        plain_lb = eq + lam                                       # equation 9
        lb = min(leaf_obj, eq + 2 * lam) if bounds["lookahead"] else plain_lb
        if self._reference is not None and bounds["reference_lower_bound"]:
            # McTavish et al. 2022, section 4.3, a guess and not a proof: the loss floor is the
            # reference model's loss (equation 4), or eq where eq is higher. Step 1: a leaf within λ
            # of it is solved; otherwise the floor + λ (+ λ more with lookahead, Theorem B.2: a
            # split pays two leaves). It never exceeds the bound of Theorem 4.3 (see treeopt.guessing).
            floor = max(eq, sum(cost * part(support) for cost, part in self._reference))
            guess = leaf_obj if leaf_loss - floor <= lam + self.eps else \
                floor + (2 * lam if bounds["lookahead"] else lam)
            if guess > lb:
                lb = guess
                self.prune_counts["reference_lower_bound"] += 1
        problem = Problem(support, depth_left, counts, leaf_loss, prediction, leaf_obj, lb, eq, plain_lb, origin)
        problem.scope_epoch = self._scope_epoch
        if not self._scoped:
            problem.scope = math.inf                              # every split of it stays worth exploring
        # fails_bounds (Algorithm 4): problems that can only be leaves.
        if leaf_loss <= self.eps:
            problem.lb = leaf_obj                                 # pure: nothing to gain
        elif depth_left == 0:
            problem.lb = leaf_obj
            self.prune_counts["depth"] += 1
        elif bounds["leaf_bound"] and leaf_obj <= 2 * lam + self.eps:
            problem.lb = leaf_obj                                 # Theorem B.4/B.5: one leaf beats any split
            self.prune_counts["leaf_bound"] += 1
        elif bounds["incremental_progress"] and leaf_loss - eq <= lam + self.eps:
            problem.lb = leaf_obj                                 # Theorem B.6: no split can pay for a leaf
            self.prune_counts["incremental_progress"] += 1
        if self._plugin_bounds is not None:
            self._plugin_bounds.raise_bound(problem)              # plug-in lower bounds (plugin_bounds.py)
        self.problems[key] = problem
        return problem

    # -- the search --------------------------------------------------------------
    def _search(self):
        ds = self.dataset
        self._subsolve_marks = self._subsolve_totals()
        self.root = self._find_or_create(ds.all_points, self.depth_budget, None)
        self.root.scope = math.inf                                # the root's target is its own upper bound
        shallow = self._pairs is not None and self.depth_budget is not None and (
            self.depth_budget <= 2 and self._depth_two or self.depth_budget == 3 and self._three is not None)
        if self.bounds["cart_start"] and not self.root.solved and not shallow:   # shallow: solved in one step
            # CART grows in slices of the unit budget: on large tables it is many units of work.
            start = yield from cart_incumbent_steps(ds, self.model, self.penalty, ds.all_points, self.depth_budget,
                                                    slice_seconds=self.unit_budget)
            if start is not None and self._take_offer(*start, record=False):   # recorded with Started below
                self.prune_counts["cart_start"] += 1
        if self.bounds["depth_two_start"] and self._depth_two and self._wide and not shallow \
                and self._offered is None and not self.root.solved:
            self._start_from_depth_two()
        # A root solved by a loop over root splits (depth_four, depth_five_six) gets its trees from its
        # own seeds, so the depth-three start would only take a third of its time.
        if self.bounds["depth_three_start"] and self._three is not None and self._wide and not shallow \
                and (self.depth_budget is None or self.depth_budget > 3) and self.depth_budget not in self._loops \
                and (self._offered is None or self.keep_start_when_offered) and not self.root.solved:
            self._start_run = True                                # started after depth_three_start_after
            self._start_clock = [time.perf_counter(), 0.0]
        if self._offered is not None:
            self._take_offer(*self._offered, record=False)      # recorded with Started below
            self._offered = None
        self._push(self.root)
        self._emit(Started(0, self.lower_bound, self.upper_bound))
        self._record()
        root = self.root
        # The memo's objects stay out of the garbage collector's full scans during each unit of
        # work (see treeopt.solvers.gosdt.gc_pause; the search itself is unchanged).
        pause = HeapFreeze(self.freeze_heap)
        dives = self.bounds["dives"]
        while not root.solved and self._queue:
            self._subsolve_marks = self._subsolve_totals()       # others' solves since the last unit are theirs
            counts = dict(self.prune_counts) if self._events is not None else None
            if self._memo_trim_due():
                self._trim_memo()                                 # memo_trim.py: only unreachable problems go
            if root.ub < self._epoch_ub:
                self._epoch_ub = root.ub
                self._scope_epoch += 1                            # every scope is now stale (_fresh_scope)
            with pause:
                # Dives alternate with queue pops (at most every other unit), so the exact search
                # keeps at least half of the work even while the incumbent keeps changing.
                if self._start_run is not None and self._start_turn():
                    self._advance_start()
                elif dives and not self._dove_last and (yield from self._dive_steps()):
                    self._dove_last = True
                    self.expansions += 1
                else:
                    self._dove_last = False
                    problem = heapq.heappop(self._queue)[-1]
                    problem.queued = False
                    if problem.solved or not self._needed(problem):
                        continue
                    if problem.expanded:
                        if min(problem.ub, self._fresh_scope(problem)) > problem.explored:
                            self._explore(problem)                # a new parent raised its scope
                        continue
                    self._expand(problem)
                    self.expansions += 1
            if counts is not None:
                self._emit_prunes(counts)
            yield
        # The queue can only run dry once the root is solved; close any float residue.
        if not root.solved:  # pragma: no cover - defensive
            raise RuntimeError("GOSDT queue emptied before the root was solved; please report this bug.")

    def _emit_prunes(self, before: dict) -> None:
        """One ``Pruned`` event per bound whose counter moved during this unit of work."""
        for bound, n in self.prune_counts.items():
            if n > before[bound] and bound not in ("dives", "bound_dives", "completion_dives", "cart_start",
                                                   "depth_two_start", "depth_three_start"):  # orders and starts: no pruning
                self._emit(Pruned(self.expansions, bound, n - before[bound]))

    def _push(self, problem: Problem) -> None:
        if not problem.queued:
            problem.queued = True
            # Depth-first: the most recently created work first, so subtrees close early
            # and their bounds propagate up before siblings are explored.
            heapq.heappush(self._queue, (-next(self._sequence), problem))

    def _needed(self, problem: Problem) -> bool:
        """Whether some parent still depends on this problem (else skip it; it may be pushed again).

        With ``scope``, the problem's scope is recomputed on the way from its parents' current
        targets and its siblings' current lower bounds (see :meth:`_fresh_scope`)."""
        if problem is self.root:
            return True
        hierarchical = self.bounds["hierarchical"]
        if not hierarchical:
            return any(not parent.solved and parent.splits is not None for parent in problem.parent_links[::2])
        # A split pruned from parent.splits has lb sum >= ub(parent) already (Theorem B.3): its offer
        # never makes the problem needed.
        scope = self._scope_from_parents(problem)
        if self._scoped:
            problem.scope = scope
            problem.scope_epoch = self._scope_epoch
        if problem.lb < scope - self.eps:
            return True
        if self._scoped:
            self._forget_exploration(problem)
        return False

    @staticmethod
    def _forget_exploration(dropped: Problem) -> None:
        """A child left unexplored: each parent's splits count as explored only up to its target now.

        ``explored`` promises that every child a parent's target could use was queued. A
        queued child is dropped when no parent's current target can use it (:meth:`_needed`).
        A parent's scope can rise again later (a new parent of its own offers more), and
        :meth:`_explore` then queues it again only where its target passes ``explored``; so
        ``explored`` falls to the target the child was judged against, else that child
        would never be queued again and the root never solved.
        """
        links = iter(dropped.parent_links)
        for parent, _ in zip(links, links):
            if parent.solved or parent.splits is None:
                continue
            target = min(parent.ub, parent.scope)
            if target < parent.explored:
                parent.explored = target

    def _expand(self, problem: Problem, dive: bool = False) -> None:
        """Algorithm 1, lines 12-36: create children, bound the problem, queue dependencies.

        The pair counts (``depth_two``, ``completions``) cost a matrix product, more than
        the rest of an expansion on narrow data, so they are built only where they pay:
        where the depth-two solver closes the problem, and on dives (whose children's
        completions are what grows the incumbent).
        """
        if self._two_leaves and problem.leaf_loss - problem.eq <= 2 * self.penalty:
            self._solve_two_leaves(problem)
            return
        pairs = None
        if self._pairs is not None:
            if problem.depth_left == 1:
                if self._depth_two:
                    self._advance_run(problem, self._pairs, "depth_two", depth=1)
                    return
            elif problem.depth_left in self._loops:
                self._advance_run(problem, self._loops[problem.depth_left],
                                  "depth_four" if problem.depth_left == 4 else "depth_five_six")
                return
            elif self._three is not None and (problem.depth_left == 3 or (
                    self._wide and problem.depth_left is None and
                    problem.ub <= problem.eq + 5 * self.penalty + self.eps)):
                # At most four leaves can beat ub (Theorems B.4, B.9), and four leaves fit in depth three.
                self._advance_run(problem, self._three, "depth_three")
                return
            else:
                exact = self._depth_two and (problem.depth_left == 2 or (
                    self._wide and problem.ub <= problem.eq + 4 * self.penalty + self.eps))
                if exact:
                    # On a large support the solve takes longer than a unit: it runs in slices.
                    self._advance_run(problem, self._pairs if self._sorted is None else self._sorted, "depth_two")
                    return
                if dive and self.bounds["completions"] and self._all_pairs:
                    ready, self._ready_pairs = self._ready_pairs, None
                    pairs = ready[1] if ready is not None and ready[0] is problem else \
                        self._pairs.solve(problem.support)
        if self._similar and problem.depth_left is not None and problem.depth_left >= 4:
            # The pair counts give both the children's completions and the weights the
            # similar-support bound needs; a budgeted problem this high up is rare enough to keep them.
            with one_blas_thread():
                columns = self._pairs.columns(points_in(problem.support, self.dataset.n_points))
                if columns.X.shape[1] <= self._pairs.max_pair_columns:
                    counts = self._pairs.counts(columns)
                    problem.similar = SimilarSupport.of(counts, self.dataset.n_features)
                    if pairs is None:
                        pairs = counts.result(self.dataset.n_features)
        ds = self.dataset
        depth_left = None if problem.depth_left is None else problem.depth_left - 1
        support = problem.support
        masks = ds.feature_masks
        splits = []
        emit = self._events is not None
        completing = pairs is not None and self.bounds["completions"] and depth_left != 0
        if completing:
            left_objs, left_features = pairs.left_objective.tolist(), pairs.left_feature.tolist()
            right_objs, right_features = pairs.right_objective.tolist(), pairs.right_feature.tolist()
            completed = []
        # Theorem B.3 before the second child exists: every child's lower bound is at least λ, so a
        # split whose first child already has lb + λ >= ub (ub is still the leaf's objective) can
        # never be optimal; skip creating its other child (counted as a hierarchical prune).
        early = self.bounds["hierarchical"]
        limit = problem.ub - self.penalty - self.eps
        early_pruned = 0
        problems, create = self.problems, self._create
        shift = None if depth_left is None else depth_left << self._shift
        subtract = self._subtract
        for j in range(ds.n_features):
            right = support & masks[j]
            if not right or right == support:
                continue                                           # a split with an empty side is never useful
            left_support = support ^ right
            left_key, right_key = (left_support, right) if shift is None else (left_support | shift, right | shift)
            left = problems.get(left_key)
            right_p = problems.get(right_key)
            right_sums = None
            if left is None:
                if not subtract:
                    left = create(left_support, left_key, depth_left, (problem, j, False))
                else:                                              # parent's sums minus the right child's
                    if right_p is None:
                        right_sums = (ds.class_counts(right), self._eq_of(right))
                    else:
                        right_sums = (right_p.counts, right_p.eq)
                    left = create(left_support, left_key, depth_left, (problem, j, False),
                                  counts_minus(problem.counts, right_sums[0]), problem.eq - right_sums[1])
            if early and left.lb >= limit:
                early_pruned += 1
                continue
            if right_p is None:
                if right_sums is not None:
                    right_p = create(right, right_key, depth_left, (problem, j, True), *right_sums)
                elif subtract:                                     # parent's sums minus the left child's
                    right_p = create(right, right_key, depth_left, (problem, j, True),
                                     counts_minus(problem.counts, left.counts), problem.eq - left.eq)
                else:
                    right_p = create(right, right_key, depth_left, (problem, j, True))
            if early and right_p.lb >= limit:
                early_pruned += 1
                continue
            if completing:
                self._complete(left, left_objs[j], left_features[j], completed)
                self._complete(right_p, right_objs[j], right_features[j], completed)
            splits.append((j, left, right_p))
        self.prune_counts["hierarchical"] += early_pruned
        problem.expanded = True
        problem.splits = splits
        old_lb, old_ub = problem.lb, problem.ub
        if self.bounds["incremental_lower_bound"]:
            self._drop_b7(problem)
        self._rebound(problem)
        for _, left, right in problem.splits:
            left.parent_links += (problem, right)
            right.parent_links += (problem, left)
        if completing and completed:
            self.prune_counts["completions"] += len(completed)
            for child in completed:
                # Other parents rely on its upper bound too. Count them by identity, not by the
                # number of links: a child of a split that _rebound just dropped has no link to this
                # problem, and its one other parent must still hear of the new upper bound.
                if any(parent is not problem for parent in child.parent_links[::2]):
                    self._propagate(child)
        if emit:
            self._emit(Expanded(self.expansions, self.rule(problem), self._obj(problem.lb), self._obj(problem.ub),
                                len(problem.splits)))
        if problem.lb != old_lb or problem.ub != old_ub:
            self._propagate(problem)
        if not problem.solved:
            self._explore(problem)

    def _wants_completion_pairs(self, problem: Problem) -> bool:
        """Whether :meth:`_expand` with ``dive=True`` computes the problem's pair counts for
        ``completions`` (it is not closed by a subsolver first): the dives then count them in
        slices beforehand (:meth:`Dives._dive_steps`). Mirrors the dispatch at the top of ``_expand``."""
        if self._pairs is None or not (self.bounds["completions"] and self._all_pairs):
            return False
        if self._two_leaves and problem.leaf_loss - problem.eq <= 2 * self.penalty:
            return False
        depth_left = problem.depth_left
        if depth_left == 1 or depth_left in self._loops:
            return False
        if self._three is not None and (depth_left == 3 or (
                self._wide and depth_left is None and problem.ub <= problem.eq + 5 * self.penalty + self.eps)):
            return False
        return not (self._depth_two and (depth_left == 2 or (
            self._wide and problem.ub <= problem.eq + 4 * self.penalty + self.eps)))

    def _complete(self, child: Problem, objective: float, feature: int, completed: list) -> None:
        """``completions``: a child's best depth-one subtree becomes its upper bound if it is lower."""
        if child.solved or child.expanded or objective >= child.ub - self.eps:
            return
        child.ub = objective
        child.completion = (objective, (feature, LEAF, LEAF))
        if child.lb >= objective - self.eps:
            child.lb = objective
        completed.append(child)

    def _explore(self, problem: Problem) -> None:
        """Algorithm 1, lines 29-36: queue the children of the splits that can still matter.

        With ``scope`` (Theorem B.3 applied downwards) a split matters while its
        lower bound is below ``target = min(ub, scope)``, and each child it queues
        is offered the scope ``target - lb(sibling)``: a subtree of the child at
        least that costly cannot make this split beat ``target``. An expanded
        child whose scope grows is queued again to explore the splits now within it.
        """
        scoped = self._scoped
        target = min(problem.ub, self._fresh_scope(problem))
        problem.explored = target
        epoch = self._scope_epoch
        limit = target - self.eps
        skipped = 0
        # Most promising split last, so that its children pop first.
        for _, left, right in sorted(problem.splits, key=lambda s: -(s[1].lb + s[2].lb)):
            if scoped and left.lb + right.lb >= limit:
                skipped += 1
                continue
            for child, sibling in ((right, left), (left, right)):
                if child.solved:
                    continue
                stale = scoped and child.scope_epoch != epoch     # recomputed when popped (_fresh_scope)
                if scoped and not stale and target - sibling.lb > child.scope:
                    child.scope = target - sibling.lb
                if not child.expanded or stale or min(child.ub, child.scope) > child.explored:
                    # Unexpanded, or its splits were last explored for a smaller scope (a raise that
                    # was skipped while no parent needed it counts too): explore them again.
                    self._push(child)
        self.prune_counts["scope"] += skipped

    def _fresh_scope(self, problem: Problem) -> float:
        """``scope``: the largest objective any parent can still use from ``problem`` (see :meth:`_explore`).

        Parents raise a problem's scope as they explore it, and :meth:`_needed` recomputes it
        from its parents when it is popped. When the root's incumbent improves, every target
        below the root may shrink at once: scopes from an earlier epoch are then recomputed,
        ancestors first, as the largest ``min(ub(p), scope(p)) - lb(sibling)`` over the splits
        of the unsolved parents ``p`` (Theorem B.3 applied downwards). Without this, problems
        queued while the incumbent was poor go on being searched for subtrees that no parent
        can use any more (monk1 at λ = 0.005: 1,757 expansions instead of 113).
        """
        epoch = self._scope_epoch
        if not self._scoped or problem.scope_epoch == epoch or problem is self.root:
            return problem.scope
        root, stale, stack = self.root, [], [problem]
        while stack:                                  # the stale ancestors (the root's scope never is)
            node = stack.pop()
            if node.scope_epoch == epoch or node is root:
                continue
            node.scope_epoch = epoch
            stale.append(node)
            stack.extend(parent for parent in node.parent_links[::2] if not parent.solved and parent.splits is not None)
        stale.sort(key=lambda node: -node.support.bit_count())     # a parent's support is larger than its child's
        for node in stale:                            # its parents are done (or fresh) by now
            node.scope = self._scope_from_parents(node)
        return problem.scope

    def _scope_from_parents(self, problem: Problem) -> float:
        """The largest ``min(ub(p), scope(p)) - lb(sibling)`` over the splits of unsolved parents ``p``
        that have ``problem`` as a child (``-inf`` without any), with the parents' scopes fresh."""
        scope = -math.inf
        links = iter(problem.parent_links)
        for parent, sibling in zip(links, links):
            if parent.solved or parent.splits is None:
                continue
            offer = min(parent.ub, self._fresh_scope(parent)) - sibling.lb
            if offer > scope:
                scope = offer
        return scope

    def _eq_of(self, support: int):
        """The equivalent-points loss of a support set (0 with that bound off)."""
        return self.model.equivalent_points(support) if self.bounds["equivalent_points"] else 0

    def _drop_b7(self, problem: Problem) -> int:
        """Theorem B.7: drop splits into two forced leaves that do not reduce the loss by λ."""
        keep, dropped = [], 0
        limit = problem.leaf_loss - self.penalty - self.eps
        for split in problem.splits:
            _, left, right = split
            if left.solved and right.solved and left.ub == left.leaf_obj and right.ub == right.leaf_obj \
                    and left.leaf_loss + right.leaf_loss > limit:
                dropped += 1
            else:
                keep.append(split)
        problem.splits = keep
        self.prune_counts["incremental_lower_bound"] += dropped
        return dropped

    def _rebound(self, problem: Problem) -> int:
        """Equation 7 over the viable splits; drop splits that cannot beat the upper bound."""
        ub = lb = problem.leaf_obj
        best = None                                   # the split that attains ub: never dropped
        least = None                                  # the split that attains lb
        if problem.completion is not None and problem.completion[0] < ub:
            ub = problem.completion[0]
        for split in problem.splits:
            _, left, right = split
            if left.ub + right.ub < ub:
                ub = left.ub + right.ub
                best = split
            if left.lb + right.lb < lb:
                lb = left.lb + right.lb
                least = split
        problem.lb_split = least
        pruned = 0
        if self.bounds["hierarchical"]:
            keep = []
            lookahead = self.bounds["lookahead"]
            limit = ub - self.eps
            for split in problem.splits:
                _, left, right = split
                if left.lb + right.lb >= limit and split is not best:
                    pruned += 1
                    if lookahead and left.plain_lb + right.plain_lb < limit:
                        self.prune_counts["lookahead"] += 1     # only the lookahead bound cut it
                    else:
                        self.prune_counts["hierarchical"] += 1
                else:
                    keep.append(split)
            problem.splits = keep
        lb = max(lb, problem.lb)
        if lb >= ub - self.eps:
            lb = ub
        problem.lb, problem.ub = lb, ub
        return pruned

    def _propagate(self, problem: Problem) -> None:
        """Send a bound change up to every parent (Algorithm 1, lines 21-25), transitively.

        Equation 7 incrementally: a parent's lower bound is the least over its splits, so a
        child's change can only move it when the child is in the split of least lower bound
        (``lb_split``); then every split is summed again (:meth:`_rebound`). Otherwise the
        parent's upper bound is lowered to this split's if that is less, and nothing else moves.
        """
        root = self.root
        old_root = (root.lb, root.ub)
        stack = [problem]                                    # problems whose bounds changed
        if problem.solved and self._similar:
            for parent in problem.parent_links[::2]:
                if parent.similar is not None and not parent.solved:
                    stack.extend(self._similar_support(parent, problem))
        eps = self.eps
        while stack:
            child = stack.pop()
            links = iter(child.parent_links)
            for parent, sibling in zip(links, links):
                if parent.solved or parent.splits is None:
                    continue
                lb, ub = parent.lb, parent.ub
                least = parent.lb_split
                if least is not None and (least[1] is child or least[2] is child):
                    self._rebound(parent)                    # the least lower bound may have risen: every split
                else:
                    # Only this split changed, and not the one of least lower bound: the parent's lower
                    # bound stands, its upper bound is at most this split's (equation 7, incrementally).
                    # A split _rebound dropped has lb sum >= ub - eps, so it never passes the test below.
                    total = child.ub + sibling.ub
                    if total < ub - eps:
                        parent.ub = total
                    if parent.lb >= parent.ub - eps:
                        parent.lb = parent.ub
                if parent.lb != lb or parent.ub != ub:
                    stack.append(parent)
        if (root.lb, root.ub) != old_root:
            self._record(improved=root.ub < old_root[1], raised=root.lb > old_root[0])

    def _similar_support(self, parent: Problem, child: Problem) -> list:
        """``similar_support`` (Theorem B.10): raise the lower bounds of the other splits' children.

        For supports ``A`` and ``B`` of the same depth budget, ``R*(B) >= R*(A ∩ B) >=
        R*(A) - w(A \\ B)``: the solved ``child`` (``A``) bounds each child ``B`` of every
        other split of ``parent``, with ``w`` the scored weight of the rows ``A`` has and
        ``B`` lacks, read from the parent's pair counts. Returns the problems it raised (their
        parents must hear of it: :meth:`_propagate`).
        """
        similar = parent.similar
        for j, left, right in parent.splits:
            if left is child or right is child:
                break
        else:
            return []
        to_left, to_right = similar.bounds_from(j, left is child, child.lb)
        column = similar.column
        eps = self.eps
        raised = []
        for k, left, right in parent.splits:
            c = column[k]
            for problem, bound in ((left, to_left[c]), (right, to_right[c])):
                if bound > problem.lb + eps and not problem.solved:
                    problem.lb = problem.ub if bound >= problem.ub - eps else bound
                    raised.append(problem)
        self.prune_counts["similar_support"] += len(raised)
        return raised

    # -- reading the state -------------------------------------------------------
    def _obj(self, weight_units: float) -> float:
        return self.model.to_objective(weight_units)

    def _without_tie(self, weight_units: float, *, lower: bool) -> float:
        """A bound in weight units with the tie charge (``regularization=0``) taken off.

        Losses are whole numbers there, and every tree's charge is at most one half (:func:`tie_charge`):
        an upper bound (a tree's loss plus its charge) rounds down to its loss, and a lower bound on
        loss plus charge, less one half, rounds up to a lower bound on the loss.
        """
        if not self._tie:
            return weight_units
        slack = 1e-9 * max(1.0, abs(weight_units))
        if lower:
            return max(0.0, float(math.ceil(weight_units - 0.5 - slack)))
        return float(math.floor(weight_units + slack))

    @property
    def lower_bound(self) -> float:
        return self._obj(self._without_tie(self.root.lb, lower=True)) if self.root is not None else 0.0

    @property
    def lower_bound_guessed(self) -> bool:
        """True while ``reference_errors`` set the lower bounds (McTavish et al. 2022, section 4.3).

        The lower bound is then a guess: a search that closes the gap returns a
        tree with Theorem 4.3's guarantee, not a certified optimum.
        """
        return self._reference is not None and self.bounds["reference_lower_bound"]

    @property
    def upper_bound(self) -> float:
        if self.root is None:                       # before the first step: the single leaf
            counts = self.dataset.class_counts(self.dataset.all_points)
            return self._obj(self._without_tie(self.model.leaf(counts)[0] + self.penalty, lower=False))
        return self._obj(self._without_tie(self.root.ub, lower=False))

    @property
    def queue_size(self) -> int:
        return len(self._queue)

    @property
    def cache_size(self) -> int:
        """Problems in the memo (one per support set, and remaining depth, ever reached).

        The queue only refers to memo problems, so it adds nothing. Problems
        are never freed, so this never decreases during a search.
        """
        return len(self.problems)

    def _incumbent(self) -> Tree:
        if self.root is None:
            counts = self.dataset.class_counts(self.dataset.all_points)
            loss, pred = self.model.leaf(counts)
            return Tree(Leaf(pred, counts, self._obj(loss)), self.dataset.features, self.dataset.classes,
                        binarizer=self.dataset.binarizer)
        return Tree(self._extract(self.root), self.dataset.features, self.dataset.classes,
                    binarizer=self.dataset.binarizer)

    def _extract(self, problem: Problem):
        """Algorithm 6: follow the split of least upper bound; a leaf when that is no better."""
        best = self._best_split(problem)
        others = math.inf if best is None else best[0]
        completion = problem.completion
        if completion is not None:
            others = min(others, completion[0])
        if problem.leaf_obj <= others + self.eps:
            return Leaf(problem.prediction, problem.counts, self._obj(problem.leaf_loss))
        if completion is not None and (best is None or completion[0] <= best[0] + self.eps):
            if isinstance(completion[1], (tuple, int)):           # a small tree's spec
                return self._small_tree(problem.support, completion[1])
            return completion[1]                                  # a ready tree (cart_start)
        _, (j, left, right) = best
        return Split(j, self._extract(left), self._extract(right))

    @staticmethod
    def _best_split(problem: Problem):
        """``(left.ub + right.ub, split)`` of the viable split of least upper bound, or None."""
        best = None
        for split in problem.splits or ():
            total = split[1].ub + split[2].ub
            if best is None or total < best[0]:
                best = (total, split)
        return best

    def _small_tree(self, support: int, spec):
        """The tree of a nested spec over ``support``.

        A spec is ``LEAF``, a feature (a split into two leaves), or ``(feature, left
        spec, right spec)``; the depth-two and depth-three solvers describe their trees
        this way, and each leaf predicts its support's best class.
        """
        if spec == LEAF:
            counts = self.dataset.class_counts(support)
            loss, prediction = self.model.leaf(counts)
            return Leaf(prediction, counts, self._obj(loss))
        feature, left, right = (spec, LEAF, LEAF) if isinstance(spec, (int, np.integer)) else spec
        true_rows = support & self.dataset.feature_mask(feature)
        return Split(int(feature), self._small_tree(support ^ true_rows, left), self._small_tree(true_rows, right))

    def rule(self, problem: Problem) -> str:
        """The conjunction of tests on the first path that reached ``problem``."""
        parts = []
        node = problem
        while node.origin is not None:
            parent, j, side = node.origin
            feature = self.dataset.features[j]
            parts.append(feature.name if side else feature.negated_name)
            node = parent
        return " and ".join(reversed(parts)) or "(all rows)"

    def _queue_entries(self, k: int) -> list:
        entries = []
        for priority, problem in heapq.nsmallest(k, self._queue):
            entries.append(QueueEntry(
                priority=(priority,), rule=self.rule(problem),
                support=float(sum(problem.counts)), lower_bound=self._obj(problem.lb),
                upper_bound=self._obj(problem.ub), payload=problem))
        return entries

    def _snapshot_extra(self) -> dict:
        return {"problems": len(self.problems), "trimmed_problems": self.trimmed_problems} | (
            {"plugins": [plugin.name for plugin in self.plugins]} if self.plugins else {})

    def _drop_search(self) -> None:
        # Problems point at their parents and children, so the memo is one large reference cycle
        # that only the cyclic garbage collector could free (seconds on millions of problems).
        # Cutting the links lets reference counting free each problem at once.
        # (Solver._release_search then drops the memo, the queue and the rest.)
        for problem in self.problems.values():
            problem.parent_links = problem.splits = problem.origin = None

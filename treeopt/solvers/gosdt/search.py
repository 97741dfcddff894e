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

Bounds, each a switch in ``bounds=`` and a counter in ``prune_counts``:

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
    slack. Measured on breast cancer with every threshold at depth three
    (``benchmarks/results_contree.md``): λ = 0.02 in 3.8 s instead of 25.7 s (736 depth-two
    solves instead of 9,640), λ = 0.01 in 16.8 s instead of 44.5 s, λ = 0.005 in 31.8 s
    instead of 51.4 s, with a slack of λ; 2λ tries fewer root splits again (386 / 605 / 995
    instead of 666 / 730 / 1,477 at λ = 0.02 / 0.01 / 0.005) in equal or less time. Counts the
    depth-two solves run with the raised target.
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
``dives``
    A search order, not a bound (the idea of LicketySPLIT/SPLIT, Babbar, McTavish,
    Rudin, Seltzer, *Near-Optimal Decision Trees in a SPLIT Second*, ICML 2025:
    optimise a little depth, then follow the best completion). Before each queue
    pop, the unexpanded problems at the leaves of the incumbent tree are expanded
    first, so with ``completions`` the incumbent grows as a depth-two-lookahead
    greedy tree within the first expansions, and is refined again whenever the
    exact search changes it. Counts dive expansions.
``bound_dives``
    A search order too. The queue is depth-first (subtrees close early and their
    bounds propagate), which certifies small problems fastest but can leave the
    root's lower bound flat for minutes on wide data: one unexplored split keeps it
    low. So once the incumbent has no unexpanded leaf, and after
    :attr:`GOSDT.bound_dives_after` expansions, dives also follow from the root, at
    every problem, the open split of least lower bound, and expand the unexpanded
    problems they reach: best-first on the lower bound along one path, alternating
    with the depth-first pops. Measured at 10 s on one-hot data: the root's lower
    bound 0.18-0.23 instead of 0.04 (tic-tac-toe, car and balance-scale one-hot at
    λ = 0.01), and those three rows are certified within 40 s, which no peer does
    within 120 s (``benchmarks/results_wide.md``). Counts its expansions.
``completion_dives``
    A search order too, for incumbents the dives cannot reach: a problem's *completion*
    may be a whole tree that is not made of problems (CART's pruned tree from
    ``cart_start``, a tree offered by another search through :meth:`GOSDT.offer_incumbent`,
    such as iterative deepening's best tree of the previous depth budget). Where such a
    tree is a problem's incumbent, its root split's two children get its two subtrees as
    completions (each is a tree over exactly that child's rows, so an upper bound there), and
    the dive goes on into them, so that tree too is refined from the top down: each of its
    nodes is expanded with completions and, within a depth budget, its bottom subtrees are
    solved again exactly by the depth-two and depth-three solvers. The dives then follow
    both the splits of least upper bound and the completion's. Measured on the wide suite
    (``benchmarks/results_wide.md``): iterative deepening's depth-6 search on tic-tac-toe
    one-hot at λ = 0.005 improves the depth-5 tree to the best known 0.1543 in 0.3 s
    instead of 5 s. Counts children whose upper bound it lowered.
``cart_start``
    A first incumbent, not a bound: CART pruned at λ (cost-complexity pruning,
    ``treeopt/solvers/gosdt/cart_start.py``) becomes the root's upper bound before the
    first expansion, so the incumbent is never worse than CART's tree. Counts 1
    when it was better than the single leaf.
``depth_two_start``
    A first incumbent too, on wide data (:attr:`GOSDT.wide_features` columns or more): one
    exact depth-two solve over all rows, against CART's tree, before the first expansion.
    On thousands of threshold columns a budgeted search can hold CART's tree for minutes
    while its first depth-three subproblems are solved one after the other; the best tree of
    depth two costs a fraction of a second there and is often better (breast cancer with
    every threshold at depth budget 4, λ = 0.02: 0.1075, the optimum, within a second,
    where the search had held CART's 0.1092 for 120 s). Skipped when another search offered
    a tree before the start (iterative deepening offers a better one). Counts 1 when it
    beat CART's tree.
``depth_three_start``
    On wide data too, with a depth budget above three or none (and not solved at the root by the
    loops of ``depth_four`` or ``depth_five_six``, whose seeds give the trees): once the search has run
    :attr:`GOSDT.depth_three_start_after` seconds without certifying, an exact depth-three
    solve over all rows advances beside it, in slices taking at most
    :attr:`GOSDT.depth_three_start_share` of the time, and each better tree it finds becomes
    the incumbent. Breast cancer with every threshold at depth budget 4 held 0.0751 (λ = 0.01)
    for 120 s, above the depth-three optimum 0.0734. The solve serves trees, not a proof, so
    it tries root splits in the anytime order of ``treeopt/solvers/gosdt/depth_three.py`` (there the
    optimum 0.0734 comes at 2 s of the solve instead of 11 s). Skipped when another search
    offers trees (iterative deepening solves depth three itself), unless
    :attr:`GOSDT.keep_start_when_offered` (the portfolio, whose deepening proves depth three
    least bound first while this solve looks for its trees). Counts the incumbents it gave.
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
from typing import NamedTuple

import numpy as np

from ...data import Dataset, points_in
from ...events import Expanded, Pruned, Started
from ...tree import Leaf, Split, Tree
from ..base import EPS, QueueEntry, Solver
from ..capabilities import Capabilities
from .cart_start import cart_incumbent
from .depth_four import DepthFourSolver
from .depth_three import DepthThreeSolver
from .depth_two import LEAF, DepthTwoSolver, one_blas_thread
from .sorted_depth_two import SortedDepthTwo, nested_chains
from .similar_support import SimilarSupport
from .gc_pause import HeapFreeze

__all__ = ["GOSDT"]


def _minus(total: tuple, part: tuple) -> tuple:
    """Class counts of a support set minus those of a subset of it."""
    if len(total) == 2:
        return (total[0] - part[0], total[1] - part[1])
    return tuple([a - b for a, b in zip(total, part)])


class Subsolvers(NamedTuple):
    """A GOSDT search's exact small-tree solvers (``GOSDT.subsolvers``), and what they were built for."""

    pairs: DepthTwoSolver | None
    sorted: SortedDepthTwo | None
    three: DepthThreeSolver | None
    loops: dict
    dataset: Dataset
    question: tuple


class Problem:
    """A subproblem: the rows in ``support``, with bounds on its optimal objective (weight units)."""

    __slots__ = ("support", "depth_left", "lb", "ub", "leaf_obj", "leaf_loss", "prediction", "counts",
                 "eq", "plain_lb", "splits", "parent_links", "expanded", "origin", "queued", "scope", "scope_epoch",
                 "explored", "completion", "similar", "lb_split")

    def __init__(self, support, depth_left, counts, leaf_loss, prediction, leaf_obj, lb, eq, plain_lb, origin):
        self.support = support
        self.depth_left = depth_left
        self.counts = counts
        self.eq = eq                  # equivalent-points loss (0 with that bound off), equation 9
        self.leaf_loss = leaf_loss
        self.prediction = prediction
        self.leaf_obj = leaf_obj
        self.lb = lb
        self.ub = leaf_obj
        self.plain_lb = plain_lb      # eq + λ: what the bound would be without lookahead
        self.splits = None            # list of (feature, left, right) still viable, once expanded
        # For each split that has this problem as a child, its parent and the other child, flat:
        # [parent, sibling, parent, sibling, ...] (two references per split, no tuple each).
        self.parent_links = []
        self.expanded = False
        self.origin = origin          # (parent problem, feature, side) of the first path that reached it
        self.queued = False
        self.scope = -math.inf        # the largest objective a parent can still use (see GOSDT._explore)
        self.scope_epoch = 0          # the root incumbent's epoch that scope was computed in (GOSDT._fresh_scope)
        self.explored = -math.inf     # the target of the last _explore of this problem's splits
        self.completion = None        # (objective, spec of a small tree, or a ready tree) of a known subtree
        self.similar = None           # SimilarSupport of its splits (``similar_support``), or None
        self.lb_split = None          # the split of least lower bound at the last GOSDT._rebound, if below the leaf

    @property
    def solved(self) -> bool:
        return self.lb >= self.ub


class GOSDT(Solver):
    """Optimal sparse decision trees by dynamic programming with bounds (GOSDT).

    Minimises ``loss + λ × leaves`` for additive objectives (accuracy,
    balanced and weighted accuracy) over binary features.

    Parameters
    ----------
    dataset : Dataset
    regularization : float
        λ, the cost of one leaf in objective units.
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
    """

    name = "gosdt"
    CAPABILITIES = Capabilities(guesses_lower_bounds=True)
    #: Freeze the heap for the garbage collector during each unit of work (speed only; see gc_pause).
    freeze_heap = True
    BOUNDS = {
        "hierarchical": "GOSDT Theorems B.1, B.3 (hierarchical objective lower bound)",
        "equivalent_points": "GOSDT Theorem B.9, equation 9 (equivalent points bound)",
        "lookahead": "GOSDT Theorem B.2 (one-step lookahead)",
        "leaf_bound": "GOSDT Theorems B.4, B.5 / Algorithm 4 (upper bound on the number of leaves)",
        "incremental_progress": "GOSDT Theorem B.6 / Algorithm 4 (incremental progress to determine splitting)",
        "incremental_lower_bound": "GOSDT Theorem B.7 (lower bound on incremental progress)",
        "two_leaves": "GOSDT Theorems B.4, B.9 (at most two leaves when the leaf costs at most eq + 3λ)",
        "scope": "GOSDT Theorem B.3 applied downwards (a child's subtree must beat its parent's target minus "
                 "its sibling's lower bound)",
        "depth": "depth_budget (not a theorem: the user's constraint)",
        "depth_two": "MurTree section 4.3 (exact depth-two solver from pair counts) where at most three leaves "
                     "can be optimal (GOSDT Theorems B.4, B.9) or two levels of depth budget remain",
        "depth_three": "GOSDT Theorem B.10 (similar support) between the root splits of an exact depth-three "
                       "solver, where three levels of depth budget remain or at most four leaves can be optimal",
        "depth_four": "GOSDT Theorem B.10 (similar support) between the root splits of an exact depth-four solver "
                      "with depth-three children (ConTree's search one level up), where four levels of depth budget "
                      "remain",
        "depth_five_six": "the depth_four loop with exact children of depth four and five (ConTree's recursion), "
                          "where five or six levels of depth budget remain",
        "sorted_depth_two": "ConTree (Brita et al., AAAI 2025) depth-two solver over sorted values: the splits of "
                            "a chain of nested threshold features from one cumulative sum (exact)",
        "child_slack": "ConTree (Brita et al., AAAI 2025) raised upper bounds: depth_three solves each child against "
                       "its target plus 2λ, so a failed solve's bound closes neighbouring thresholds (similar support)",
        "similar_support": "GOSDT Theorem B.10 (similar support): a solved child bounds the children of every "
                           "other split of its parent by its optimum minus the weight of the rows they lack",
        "completions": "MurTree section 4.3 pair counts as upper bounds: each child's best depth-one subtree",
        "dives": "search order (SPLIT/LicketySPLIT's idea): expand the incumbent's unexpanded leaves first",
        "bound_dives": "search order (best-first on the lower bound along one path): when the incumbent has no "
                       "unexpanded leaf, expand those reached from the root by the splits of least lower bound",
        "completion_dives": "search order (a known tree refined from the top down): dives go on into a completion tree "
                            "(CART's, another search's), its subtrees becoming the children's upper bounds",
        "cart_start": "first incumbent (not a bound): CART pruned at λ (Breiman et al. 1984, cost-complexity)",
        "depth_two_start": "first incumbent (not a bound), on wide data: the best tree of depth at most two "
                           "(MurTree section 4.3 depth-two solver) when it beats CART's",
        "depth_three_start": "anytime start (not a bound), on wide data: the best tree of depth at most three, "
                             "solved beside a search still open after a few seconds",
        "reference_lower_bound": "McTavish et al. 2022, section 4.3 (lower-bound guess from a reference model)",
    }
    #: Above this many features ``completions`` are off: they need a full pair matrix (features²
    #: numbers per class) on every dive. The exact depth-two and depth-three solvers work at any width.
    max_pair_features = 2000
    #: From this many features on, ``depth_two`` also closes unbudgeted problems with room for at
    #: most three leaves. On fewer, creating the children in Python is cheaper than the numpy call
    #: (measured on the narrow suite: 1.5x slower overall with it at 11-18 features).
    wide_features = 32
    #: ``sorted_depth_two`` is used when the features form chains of at least this many on average
    #: (threshold encodings of numeric columns); on one-hot data the pair counts are faster.
    min_chain_length = 4
    #: ... and only above this many features: below it a support's exact pair matrix is cheaper,
    #: and its exact children bound the depth-three solver's other splits better (measured on
    #: spiral and compas with all thresholds at depth budgets 3 and 4: 2-5x slower with chains).
    min_sorted_features = DepthTwoSolver.max_pair_columns
    #: ``bound_dives`` start after this many expansions. Problems that close within them are certified
    #: fastest by the depth-first order alone (the narrow suite: 1.6x slower in geometric mean with
    #: bound dives from the start, 1.05x after 10,000 expansions, unchanged after 50,000), while on
    #: wide one-hot data 50,000 expansions are 3-5 s and the bound still rises in time (car one-hot
    #: at λ = 0.01 certified in 9 s).
    bound_dives_after = 50_000
    #: A depth-three solve advances by slices of about this many seconds (one unit of work each),
    #: so a time limit or a Pause waits at most about one slice.
    three_slice_seconds = 0.1
    #: ``depth_four`` is used on data of at most this many points × features (spiral with every threshold
    #: has 18,000, compas 309,272). Above, on breast cancer's 8.7 million at depth budget 4, the loop waits
    #: for its seed and children while GOSDT's own search meets good trees sooner (λ = 0.005: 0.0496 at
    #: 32 s against 120 s; the same trees and lower bounds at 120 s for λ = 0.01, a better bound for 0.02).
    depth_four_max_cells = 1_000_000
    #: ``depth_five_six``: the deepest remaining budget solved by a loop over root splits. Measured at five
    #: and six (spiral, compas, three one-hot datasets); deeper loops wait for ever longer seeds.
    max_loop_depth = 6
    #: ``child_slack``: each child of a depth-three root split is solved against its target plus this
    #: many λ. Exact for any value; on breast cancer with every threshold at depth three 2 tries a
    #: sixth to two fifths fewer root splits than 1 (and 3 about as many as 2).
    child_slack_lambdas = 2.0
    #: ``depth_three_start`` begins once the search has run this many seconds without certifying
    #: (searches that certify sooner never pay for it: compas with all thresholds at depth budget 4
    #: certifies in 2-8 s) ...
    depth_three_start_after = 5.0
    #: ... and then takes at most this share of the search's time, one slice at a time.
    depth_three_start_share = 1 / 3
    #: ``depth_three_start`` goes on when another search offers trees (set by the portfolio).
    keep_start_when_offered = False

    def __init__(self, dataset: Dataset, *, regularization: float, objective="accuracy",
                 bounds: dict | None = None, depth_budget: int | None = None,
                 reference_errors=None):
        super().__init__(dataset, regularization=regularization, objective=objective, bounds=bounds,
                         depth_budget=depth_budget)
        if not self.objective.additive:
            raise ValueError(f"GOSDT needs an additive objective; {self.objective.name!r} is not. "
                             "Use solver='osdt' for F-score and AUC objectives.")
        self.model = self.objective.loss_model(dataset)
        # Lower-bound guessing (McTavish et al. 2022, section 4.3): the reference model's loss on a
        # subproblem, as per-class popcount sums weighted by the objective's class costs.
        self._reference = None if reference_errors is None else self._reference_sums(reference_errors)
        self.reference_errors = reference_errors     # kept so a player can rebuild the same search
        self.penalty = self.regularization * dataset.total_weight  # λ in weight units
        self.eps = EPS * dataset.total_weight   # relative: tiny weights keep their ties
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
        wanted = self._depth_two or self.bounds["completions"]
        self._pairs = DepthTwoSolver(dataset.points, dataset.counts * self.model.costs, self.penalty, self.eps,
                                     column_words=dataset.column_words) if wanted and dataset.n_features > 0 else None
        # Completions need a full pair matrix at once; the exact solvers bound their way through any width.
        self._all_pairs = dataset.n_features <= self.max_pair_features
        self._similar = self._pairs is not None and self.bounds["similar_support"] and not self.lower_bound_guessed
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
        self._three_runs = {}            # id(problem) -> RootSplitRun of a depth-three or depth-four solve under way
        self._subsolve_marks = (0, 0)    # the subsolvers' counters when this search last counted (_count_subsolves)
        self.root: Problem | None = None
        self._dive_targets: list = []          # unexpanded problems on the incumbent, to expand first
        self._diving_weakest = False           # ... or on the path of least lower bound (bound_dives)
        self._dived_at = None                  # the root's upper bound when the incumbent was last scanned
        self._dove_last = False                # the last unit was a dive (dives alternate with pops)
        self._queue: list = []
        self._scoped = self.bounds["scope"]
        self._scope_epoch = 0                  # bumped when the root's upper bound drops (see _fresh_scope)
        self._epoch_ub = math.inf              # the root's upper bound when the epoch began
        self._sequence = count()
        self._shift = dataset.n_points
        self._offered = None                   # (objective in weight units, root node) offered before the start
        self._start_run = None                 # depth_three_start: the root's depth-three solve, when eligible
        self._start_clock = None               # (search start, seconds spent in its slices)

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
            start = cart_incumbent(ds, self.model, self.penalty, ds.all_points, self.depth_budget)
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
            if root.ub < self._epoch_ub:
                self._epoch_ub = root.ub
                self._scope_epoch += 1                            # every scope is now stale (_fresh_scope)
            with pause:
                # Dives alternate with queue pops (at most every other unit), so the exact search
                # keeps at least half of the work even while the incumbent keeps changing.
                if self._start_run is not None and self._start_turn():
                    self._advance_start()
                elif dives and not self._dove_last and self._dive():
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

    def _start_from_depth_two(self) -> None:
        """``depth_two_start``: the best tree of depth at most two becomes the root's incumbent if better.

        One exact depth-two solve over all rows (``treeopt/solvers/gosdt/depth_two.py``, or
        ``sorted_depth_two.py`` on threshold chains), a fraction of a second even on 15,000
        columns, against the incumbent so far (CART's tree).
        """
        root = self.root
        with one_blas_thread():
            objective, spec = (self._pairs if self._sorted is None else self._sorted).best(
                points_in(root.support, self.dataset.n_points), root.ub)
        self._count_subsolves()
        if spec is not None and spec != LEAF and self._take_offer(objective, spec, record=False):
            self.prune_counts["depth_two_start"] += 1

    @property
    def start_due(self) -> bool:
        """Whether a ``depth_three_start`` solve is under way, or due (the search has run
        :attr:`depth_three_start_after` seconds) and not built yet."""
        return self._start_run is not None and not self.root.solved and self._seconds_past_start_delay() >= 0

    def end_depth_three_start(self) -> None:
        """Stop ``depth_three_start``: another search has proved depth three, so its trees cannot help."""
        self._start_run = None

    def _seconds_past_start_delay(self) -> float:
        """``depth_three_start``: seconds of search since :attr:`depth_three_start_after` (negative before)."""
        return time.perf_counter() - self._start_clock[0] - self.depth_three_start_after

    def _start_turn(self) -> bool:
        """``depth_three_start``: whether the next unit of work is a slice of the root's depth-three solve."""
        elapsed = self._seconds_past_start_delay()
        return elapsed >= 0 and self._start_clock[1] <= self.depth_three_start_share * elapsed

    def _advance_start(self) -> None:
        """``depth_three_start``: one slice of the exact depth-three solve over all rows.

        On wide data a search with a larger depth budget (or none) can hold a tree worse than the
        best tree of depth three for minutes: its first problems of depth three are solved one
        after the other, each against a tight target. This solve runs beside it, against the
        incumbent (``treeopt/solvers/gosdt/depth_three.py``), and each better tree it finds becomes the
        incumbent, as an offered tree would. An anytime start, not a bound: the depth-three
        optimum says nothing about deeper trees.
        """
        root = self.root
        begun = time.perf_counter()
        run = self._start_run
        if run is True:
            with one_blas_thread():
                run = self._start_run = self._three.start(points_in(root.support, self.dataset.n_points), root.ub,
                                                          anytime=True)
        else:
            run.lower_target(root.ub)                             # the search may have found better
        run.advance(self.three_slice_seconds)
        self._count_subsolves()
        if run.spec is not None and run.spec != LEAF and run.best < root.ub - self.eps:
            self._take_offer(run.best, run.spec)
            self.prune_counts["depth_three_start"] += 1
        if run.done:
            self._start_run = None
        self._start_clock[1] += time.perf_counter() - begun

    def offer_incumbent(self, tree: Tree, objective: float) -> bool:
        """Take a tree found by another search over the same dataset as the incumbent, if it is better.

        The tree's objective becomes the root's upper bound, so every subtree that cannot beat it
        is pruned from then on (Theorem B.3), while the lower bound stays a bound on this search's
        own optimum. The combined searches (``treeopt/solvers/gosdt/deepening.py``,
        ``treeopt/solvers/gosdt/portfolio.py``) share their incumbents this way. The tree may be deeper
        than ``depth_budget``: the search then proves that no tree within the budget beats it.

        Parameters
        ----------
        tree : Tree
            A tree over this search's dataset (the same features).
        objective : float
            Its objective, in objective units (what :attr:`upper_bound` reports).

        Returns
        -------
        bool
            Whether the tree became the incumbent.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
        >>> ds = Dataset.from_binary(X, X[:, 0] ^ X[:, 1])
        >>> found = GOSDT(ds, regularization=0.05).run()
        >>> search = GOSDT(ds, regularization=0.05, depth_budget=1)
        >>> search.offer_incumbent(found.tree, found.objective)
        True
        >>> result = search.run()                 # depth one cannot beat the offered depth-two tree
        >>> round(result.objective, 4), result.tree.depth
        (0.2, 2)
        """
        weight = objective / self.model.scale
        if self.root is None:                                     # taken when the search starts
            current = self.upper_bound / self.model.scale if self._offered is None else self._offered[0]
            if weight >= current - self.eps:
                return False
            self._offered = (weight, tree.root)
            return True
        taken = self._take_offer(weight, tree.root)
        if taken and not self.keep_start_when_offered:
            self._start_run = None            # another search shares its trees: no depth_three_start of our own
        return taken

    def _take_offer(self, weight: float, node, record: bool = True) -> bool:
        """Make a whole tree (a ready tree or a small-tree spec, of objective ``weight``) the root's
        incumbent if it is better: offered trees, and the ``cart_start`` and ``*_start`` trees."""
        root = self.root
        if weight >= root.ub - self.eps:
            return False
        before = root.lb
        root.completion = (weight, node)                          # a ready tree, as cart_start's
        if root.splits is None:
            root.ub = weight
        else:
            self._rebound(root)
        if root.lb >= root.ub - self.eps:                         # the lower bound is now on min(R*, weight)
            root.lb = root.ub
        if record:
            self._record(improved=True, raised=root.lb > before)
        return True

    def _emit_prunes(self, before: dict) -> None:
        """One ``Pruned`` event per bound whose counter moved during this unit of work."""
        for bound, n in self.prune_counts.items():
            if n > before[bound] and bound not in ("dives", "bound_dives", "completion_dives", "cart_start",
                                                   "depth_two_start", "depth_three_start"):  # orders and starts: no pruning
                self._emit(Pruned(self.expansions, bound, n - before[bound]))

    def _dive(self) -> bool:
        """``dives`` (and ``bound_dives``): expand one problem off the exact search's order; False if there is none.

        First the unexpanded problems of the incumbent tree (with completions, so the incumbent
        grows). When there are none, and after :attr:`bound_dives_after` expansions, the
        unexpanded problems reached from the root by the splits of least lower bound.
        """
        if not self._dive_targets and self._dived_at != self.root.ub:
            self._dived_at = self.root.ub
            self._dive_targets = self._incumbent_frontier()
            self._diving_weakest = False
        if not self._dive_targets and self.bounds["bound_dives"] and self.expansions >= self.bound_dives_after:
            self._dive_targets = self._weakest_frontier()
            self._diving_weakest = True
        weakest = self._diving_weakest
        while self._dive_targets:
            problem = self._dive_targets.pop()
            if not problem.expanded and not problem.solved:
                self._expand(problem, dive=not weakest)       # completions only on the incumbent's path
                self.prune_counts["bound_dives" if weakest else "dives"] += 1
                if not weakest:
                    self._dived_at = None              # its new subtree may hold more targets
                return True
        return False

    def _weakest_frontier(self) -> list:
        """``bound_dives``: the unexpanded problems reached from the root by following, at each
        problem, the open split of least lower bound (where the root's lower bound is weakest)."""
        def weakest_split(problem):
            if problem.solved:
                return None
            open_splits = [s for s in problem.splits or () if not (s[1].solved and s[2].solved)]
            return min(open_splits, key=lambda s: s[1].lb + s[2].lb, default=None)
        return self._frontier(weakest_split)

    def _incumbent_frontier(self) -> list:
        """The unexpanded, unsolved problems reached by following the incumbent from the root."""
        def best_split(problem):
            best = self._best_split(problem)
            return best[1] if best is not None and best[0] < problem.leaf_obj - self.eps else None

        targets = self._frontier(best_split)
        if self.bounds["completion_dives"]:
            # The targets are popped from the end: the best splits' path first, then the completion's.
            seen = {id(problem) for problem in targets}
            targets = [p for p in self._frontier(self._completion_split) if id(p) not in seen] + targets
        return targets

    def _completion_split(self, problem: Problem):
        """``completion_dives``: the split to follow from an expanded problem on the incumbent's path.

        Where the problem's incumbent is its completion, a whole tree over its rows that its
        splits do not hold (CART's pruned tree, a tree offered by another search, such as the best
        tree of the previous depth budget), the dives could not refine it: its nodes are not
        problems. Its root split's children then get its two subtrees as their completions, and
        the dive goes on into them, so the incumbent is refined from the top down like the trees
        the dives grow. Elsewhere, the split of least upper bound.
        """
        best = self._best_split(problem)
        completion = problem.completion
        if completion is not None and completion[0] < problem.leaf_obj - self.eps and \
                (best is None or completion[0] < best[0] - self.eps):
            return self._hand_down(problem)
        return best[1] if best is not None and best[0] < problem.leaf_obj - self.eps else None

    def _hand_down(self, problem: Problem):
        """The split at the root of a problem's completion tree, with its subtrees passed to the children.

        Each subtree is a tree over exactly that child's rows, so its objective is an upper bound
        on the child's optimum (the premise of Theorem B.3) and becomes the child's completion if
        it is lower than what the child has. Returns the split, or None when the completion is a
        leaf or its root split is no longer viable (pruned: no tree through it beats the problem's
        upper bound).
        """
        node = problem.completion[1]
        if not isinstance(node, (Split, tuple, int, np.integer)) or node == LEAF:
            return None
        if not isinstance(node, Split):
            node = self._small_tree(problem.support, node)
            if not isinstance(node, Split):
                return None
        for split in problem.splits:
            if split[0] == node.feature:
                break
        else:
            return None
        changed = []
        for child, subtree in ((split[1], node.left), (split[2], node.right)):
            if child.solved:
                continue
            objective = self._tree_objective(subtree, child.support)
            if objective < child.ub - self.eps:
                child.ub = objective
                child.completion = (objective, subtree)
                if child.lb >= objective - self.eps:
                    child.lb = objective
                changed.append(child)
        self.prune_counts["completion_dives"] += len(changed)
        for child in changed:
            self._propagate(child)
        return split

    def _tree_objective(self, node, support: int) -> float:
        """A tree's objective over a support set (weight units): each leaf's loss there plus λ."""
        if isinstance(node, Split):
            true_rows = support & self.dataset.feature_mask(node.feature)
            return self._tree_objective(node.left, support ^ true_rows) + self._tree_objective(node.right, true_rows)
        return self.model.leaf(self.dataset.class_counts(support))[0] + self.penalty

    def _frontier(self, follow) -> list:
        """The unexpanded, unsolved problems reached from the root by following, at each expanded
        problem, the split ``(feature, left, right)`` that ``follow`` picks (None: stop there)."""
        targets, stack = [], [self.root]
        while stack:
            problem = stack.pop()
            if not problem.expanded:
                if not problem.solved:
                    targets.append(problem)
                continue
            split = follow(problem)
            if split is not None:
                stack.append(split[1])
                stack.append(split[2])
        return targets

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
        return problem.lb < scope - self.eps

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
                    self._solve_small(problem, *self._pairs.depth_one(problem.support))
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
                    with one_blas_thread():
                        objective, spec = (self._pairs if self._sorted is None else self._sorted).best(
                            points_in(problem.support, self.dataset.n_points), problem.ub)
                    self._count_subsolves()
                    self._solve_small(problem, objective, spec)
                    return
                if dive and self.bounds["completions"] and self._all_pairs:
                    pairs = self._pairs.solve(problem.support)
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
                                  _minus(problem.counts, right_sums[0]), problem.eq - right_sums[1])
            if early and left.lb >= limit:
                early_pruned += 1
                continue
            if right_p is None:
                if right_sums is not None:
                    right_p = create(right, right_key, depth_left, (problem, j, True), *right_sums)
                elif subtract:                                     # parent's sums minus the left child's
                    right_p = create(right, right_key, depth_left, (problem, j, True),
                                     _minus(problem.counts, left.counts), problem.eq - left.eq)
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
        b7 = self._drop_b7(problem) if self.bounds["incremental_lower_bound"] else 0
        pruned = self._rebound(problem)
        for _, left, right in problem.splits:
            left.parent_links += (problem, right)
            right.parent_links += (problem, left)
        if completing and completed:
            self.prune_counts["completions"] += len(completed)
            for child in completed:
                if len(child.parent_links) > 2:                # other parents rely on its upper bound too
                    self._propagate(child)
        if emit:
            self._emit(Expanded(self.expansions, self.rule(problem), self._obj(problem.lb), self._obj(problem.ub),
                                len(problem.splits)))
        if problem.lb != old_lb or problem.ub != old_ub:
            self._propagate(problem)
        if not problem.solved:
            self._explore(problem)

    def _complete(self, child: Problem, objective: float, feature: int, completed: list) -> None:
        """``completions``: a child's best depth-one subtree becomes its upper bound if it is lower."""
        if child.solved or child.expanded or objective >= child.ub - self.eps:
            return
        child.ub = objective
        child.completion = (objective, (feature, LEAF, LEAF))
        if child.lb >= objective - self.eps:
            child.lb = objective
        completed.append(child)

    def _advance_run(self, problem: Problem, solver, counter: str) -> None:
        """``depth_three`` or ``depth_four``: one slice of the problem's exact solve by ``solver``.

        A solve on thousands of columns can take minutes, so it advances by slices of
        :attr:`three_slice_seconds` (``treeopt/solvers/gosdt/depth_three.py``, ``RootSplitRun``).
        Between slices the problem stays open, with its lower bound raised to the run's
        and its upper bound lowered to the best tree found so far, and goes back on the queue.
        """
        run = self._three_runs.get(id(problem))
        if run is None:
            run = self._three_runs[id(problem)] = solver.start(
                points_in(problem.support, self.dataset.n_points), problem.ub)
        run.advance(self.three_slice_seconds)
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
        >>> X = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)] * 2)
        >>> ds = Dataset.from_binary(X, X.sum(axis=1) % 2)
        >>> shallow = GOSDT(ds, regularization=0.01, depth_budget=3)
        >>> deep = GOSDT(ds, regularization=0.01, depth_budget=4)
        >>> deep.adopt_subsolvers(shallow.subsolvers)
        >>> round(shallow.run().objective, 4), round(deep.run().objective, 4)   # parity: 8 leaves at depth 3
        (0.08, 0.08)
        """
        if subsolvers.dataset is not self.dataset or subsolvers.question != self._question() \
                or self.lower_bound_guessed:
            raise ValueError("adopt_subsolvers needs the subsolvers of a search over the same dataset with the same "
                             "regularization, objective and bounds, without lower-bound guessing.")
        if self._generator is not None:
            raise ValueError("adopt_subsolvers must be called before the search starts.")
        self._pairs, self._sorted, self._three, self._loops = subsolvers[:4]

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
                left_counts = _minus(counts, right_counts) if self._subtract else ds.class_counts(support ^ right)
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

    @property
    def lower_bound(self) -> float:
        return self._obj(self.root.lb) if self.root is not None else 0.0

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
            return self._obj(self.model.leaf(counts)[0] + self.penalty)
        return self._obj(self.root.ub)

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
        return {"problems": len(self.problems)}

    def _drop_search(self) -> None:
        # Problems point at their parents and children, so the memo is one large reference cycle
        # that only the cyclic garbage collector could free (seconds on millions of problems).
        # Cutting the links lets reference counting free each problem at once.
        # (Solver._release_search then drops the memo, the queue and the rest.)
        for problem in self.problems.values():
            problem.parent_links = problem.splits = problem.origin = None

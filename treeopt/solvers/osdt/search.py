"""OSDT: branch-and-bound over leaf sets (Hu, *Optimal Sparse Decision Trees*, thesis 2019).

Read it beside chapters 3-5 of the thesis; names follow Algorithm 2.

A *partial tree* ``d = (d_un, d_split)`` is a set of leaves, each a
conjunction of clauses ``feature = 0/1``. The ``d_un`` ("unchanged", fixed)
leaves stay leaves in every descendant; every ``d_split`` leaf is split in
every child. Popping ``d`` from the queue generates, for every combination of
one feature per split leaf, the tree of new leaves ``d_new``, and for every
subset of ``d_new`` a child whose split leaves are that subset (Algorithm 2).
Every child's objective is computed and may become the incumbent; a child
goes into the queue only if its lower bound can still beat the incumbent.
The queue is empty exactly when the incumbent is proved optimal.

Incremental computation (chapter 4)
    Leaves live in a *leaf cache* keyed canonically by their clause set
    (section 5.3; a bitmask with one bit per (feature, value), so any order
    of the same clauses is one key), with their support (a bitset over the
    data set's equivalence classes), class counts, loss and bounds computed
    once. For additive objectives a child's lower bound is its parent's
    fixed loss plus the new fixed leaves' losses (equation 4.1) and its
    objective adds the new split leaves' losses (equation 4.2).

Bounds, each a switch in ``bounds=`` and a counter in ``prune_counts``:

``hierarchical``
    Theorem 1: ``b(d_un) = loss(d_un) + λH`` bounds every descendant; a
    child with ``b >= R^c`` is not queued, and a queued tree whose bound
    no longer beats the (since improved) incumbent is dropped when popped.
    For F1 / AUC / partial AUC the loss of the fixed leaves is taken with
    the split rows sorted into pure leaves (GOSDT Theorems B.1, 2.1, 2.2;
    :mod:`treeopt.solvers.osdt.leafset_bounds`).
``lookahead``
    Lemma 2, in Algorithm 2's form: every split leaf becomes at least two
    leaves in any descendant, so the bound of the descendants is
    ``b + λ × |d_split|``. Counts children pruned only thanks to it.
``leaf_support``
    Theorem 3 as Algorithm 3 applies it: a leaf whose loss is at most λ is
    never split (any subtree under it costs at least λ more than the loss
    it can remove; this implies the 2λ support condition). For F1 / AUC /
    partial AUC the same reasoning with the split gain bound of GOSDT
    Theorems B.6 / C.2 is the ``incremental_progress`` switch instead.
    Counts leaves declared dead.
``incremental_accuracy``
    Theorem 4: when splitting leaf ``p_j`` into ``p_k, p_k+1`` removes at
    most λ of loss, the two new leaves cannot both stay leaves; children in
    which both are fixed are not generated. Counts such children.
``leaf_accuracy``
    Theorem 5 with the dead-feature vector of section 5.1: a leaf that
    classifies at most λ correctly (class-cost weighted) is in no optimal
    tree (removing its parent's split and sending its rows to the sibling's
    subtree costs at most that much and saves λ), and neither is any
    subset of it; so a feature that produces such a child is dead for the
    leaf and all leaves below it. Counts features killed.
``permutation``
    Corollary 6 with the *tree cache* of section 5.3: a child whose leaves
    and split marks are a permutation of a tree already queued is not
    queued again. Counts duplicates dropped.
``equivalent_points``
    Theorem 9: rows with identical features under a split leaf cannot be
    separated, so the split leaves add at least their equivalence classes'
    minority loss to the bound. For F1 / AUC / partial AUC: GOSDT Theorem
    C.3 (see :mod:`treeopt.solvers.osdt.leafset_bounds`). Counts children pruned
    only thanks to it.
``similar_support`` (opt-in, default off)
    Theorem 7: two children ``d``, ``D`` of one tree that differ only in the
    feature ``f`` / ``g`` of one new split of leaf ``p`` have best
    descendants within ``ω`` = the class-cost weight of ``p ∧ (f xor g)``.
    The bound it needs is over ``D``'s *descendants* (``D``'s own bound is
    within ``ω`` of ``d``'s, so it would prune nothing new), known once
    ``D``'s sub-search has finished: ``L(D)``, the minimum over the places
    where it stopped (complete trees, bound-pruned children, permutation
    duplicates). Used where the theorem's condition (the same subtrees can
    grow under ``p ∧ f`` and ``p ∧ g``) holds by construction, both new
    leaves of ``p`` fixed; there every descendant's objective shifts by
    exactly ``Δ = loss(p∧f) + loss(p∧¬f) − loss(p∧g) − loss(p∧¬g)``
    (``|Δ| <= ω``), and a popped ``d`` is pruned when ``L(D) + Δ >= R^c``
    (:mod:`treeopt.solvers.osdt.similar_support` keeps parent links and
    open counts for this). The thesis found its cost higher than its gain
    in best-first order (chapter 7: twins leave the queue together); it
    pays most with ``schedule="dfs"``, where a twin's sub-search finishes
    first. Additive objectives only. Counts popped trees pruned by it.
``incremental_progress`` (F1 / AUC / partial AUC only)
    GOSDT Theorems B.6 / C.2: a leaf whose best possible gain from any
    subtree is at most λ is never split. Counts leaves declared dead.
``one_split_left`` (F1 / AUC / partial AUC only)
    A split leaf one level above ``depth_budget`` is split exactly once in
    every descendant: instead of pure leaves, the hierarchical bound gives
    its rows the best its splits can reach (for F1 the fewest false
    positives, negatives and errors of its options; for the hull a virtual
    split that dominates every option on the ROC plane; the argument of
    GOSDT Lemma C.1 and Theorems 2.1, B.1, see "One split left" in
    :mod:`treeopt.solvers.osdt.leafset_bounds`). Counts children pruned
    only thanks to it.

Complete trees of the last level (F1 / AUC / partial AUC)
    When every split leaf of a popped tree has one split left, its
    children are complete trees only; they are searched depth first, one
    split leaf at a time, abandoning a prefix whose bound reaches ``R^c``
    (:mod:`treeopt.solvers.osdt.last_level`), instead of scoring every
    combination.

The incumbent starts as the single leaf (always a candidate;
the original OSDT lost single-leaf optima by letting a CART warm
start displace it) and is replaced by a warm start only when the warm start
is strictly better (section 6: ``warm_start="cart"`` or any tree).

The k best trees (``top_k=k``, a view of the Rashomon set)
    A *tree* is its leaf set: the set of its leaves' clause conjunctions,
    i.e. the partition of the feature space ``{0, 1}^p`` it induces, each
    leaf predicting its best label (as for the optimum; ties broken the same
    way). Trees that differ only in the order of their leaves or in the
    order their splits were made (``a`` then ``b`` on both sides, or ``b``
    then ``a``) are the same tree; two trees that split on different
    features are different even when those features agree on every training
    row (they predict differently elsewhere). Like the search for the
    optimum, only trees whose every leaf holds training rows are considered
    (a split with an empty side is never generated). The search keeps the
    ``k`` best distinct trees it has evaluated (``top_trees``) and prunes
    against the *k-th best objective* ``R_k`` found so far (infinite while
    fewer than ``k`` trees are known) instead of the best one.

    Every complete tree ``T`` is evaluated when the partial tree made of its
    leaves above its deepest level (split marks on ``T``'s internal nodes at
    that level) is expanded, and that partial tree is reached from the root
    through the partial trees of ``T`` cut at each depth. A pruning rule is
    sound for the k best trees only if it shows that *every* descendant of
    what it removes has objective ``>= R_k``. These do, and stay on:

    * ``hierarchical`` (Theorem 1): ``b(d_un)`` lower-bounds the objective
      of every descendant, so ``b >= R_k`` means none enters the k best.
    * ``lookahead`` (Lemma 2): the same with ``λ`` per split leaf, which
      every descendant splits.
    * ``equivalent_points`` (Theorem 9): a lower bound on every descendant.
    * ``permutation`` (Corollary 6): a permuted partial tree has the same
      descendants, so dropping the copy loses no tree.

    These only show that a *better* tree exists (their proofs compare a
    tree with the optimum ``R*`` and exhibit a tree with a smaller
    objective), so they would wrongly discard the second, third, ... best
    trees and are switched off (asking for them raises ``ValueError``):
    ``leaf_support`` (Theorem 3), ``incremental_accuracy`` (Theorem 4),
    ``leaf_accuracy`` (Theorem 5) and ``incremental_progress`` (GOSDT B.6 /
    C.2). ``similar_support`` (Theorem 7) is off too: its argument (see
    :mod:`treeopt.solvers.osdt.similar_support`) is written and tested for
    the optimum only. With ``top_k=1`` nothing changes: the threshold is the
    incumbent's objective and every bound is as above.
"""

from __future__ import annotations

import heapq
import itertools
from itertools import count

import numpy as np

from ...data import Dataset, bits_of
from ...events import Expanded, Pruned, Started
from ...objectives import AUC, FScore, get_objective
from ...roc import hull_area
from ...tree import Leaf, Split, Tree
from ..base import EPS, QueueEntry, Solver
from ..capabilities import Capabilities
from ..cart_start import cart_incumbent_steps
from ..gosdt.gc_pause import HeapFreeze
from ..plugins import PluginBound, QueuePolicy, declare_plugins, try_plugins
from ..slices import SliceClock
from ..subproblem import Subproblem
from .last_level import complete_last_level, is_last_level
from .leafset_bounds import NON_ADDITIVE, dominating_split, f1_errors_bound, split_gain_bound
from .schedules import SCHEDULES, label_entropy, priority_key
from .similar_support import SimilarSupport
from .warm_start import tree_leaf_keys

__all__ = ["OSDT"]


class LeafInfo:
    """A cached leaf: its clauses, rows, counts and bounds (weight units). See section 5.1."""

    __slots__ = ("key", "uid", "support", "counts", "weight", "loss", "prediction", "eq", "correct", "depth",
                 "dead", "dead_features", "options", "eq_parts", "fp", "fn", "forced", "one_split")

    def __init__(self, key, uid, support, counts, loss, prediction, eq, correct, depth, dead_features):
        self.key = key                  # clause bitmask: bit 2f = "f is false", bit 2f+1 = "f is true"
        self.uid = uid
        self.support = support
        self.counts = counts
        self.weight = sum(counts)
        self.loss = loss
        self.prediction = prediction
        self.eq = eq                    # equivalent points loss (Theorem 9), weight units
        self.correct = correct          # class-cost weight classified correctly (Theorem 5)
        self.depth = depth
        self.dead = False               # never split (Theorem 3 / C.2)
        self.dead_features = dead_features
        self.options = None             # [(feature, left, right, both_fixed_allowed)], once computed
        self.eq_parts = None            # non-additive objectives: (pure neg, pure pos, impure classes)
        self.fp = self.fn = 0.0         # F1: the leaf's false positives / negatives under the ω labelling
        self.forced = None              # F1: errors its equivalence classes force (Theorem 9's analogue)
        self.one_split = False          # ``one_split_left``: what its best single split can reach, once computed


class PartialTree:
    """A queue entry: fixed leaves, split leaves and their numbers (weight units)."""

    __slots__ = ("fixed", "split", "fixed_loss", "n_leaves", "bound", "objective", "sequence", "key", "alive",
                 "record")

    def __init__(self, fixed, split, fixed_loss, bound, objective, sequence):
        self.fixed = fixed
        self.split = split
        self.fixed_loss = fixed_loss
        self.n_leaves = len(fixed) + len(split)
        self.bound = bound
        self.objective = objective
        self.sequence = sequence
        self.key = 0.0
        self.alive = True
        self.record = None              # its sub-search's SubsearchRecord (``similar_support`` only)


class OSDT(Solver):
    """Optimal sparse decision trees by branch-and-bound over leaf sets (OSDT).

    Minimises ``loss + λ × leaves`` for every objective of
    :mod:`treeopt.objectives`, additive (accuracy, balanced and weighted
    accuracy) or not (F1, AUC and partial AUC of the ROC convex hull),
    over binary features.

    Parameters
    ----------
    dataset : Dataset
    regularization : float
        λ, the cost of one leaf in objective units.
    objective : str or Objective, default="accuracy"
    bounds : dict of str to bool, optional
        Switch bounds on or off by name (see the module docstring), e.g.
        ``{"lookahead": False}`` or ``{"similar_support": True}``.
    depth_budget : int, optional
        Maximum depth (a single leaf has depth 0).
    schedule : str, default="curiosity"
        The queue's policy: ``"curiosity"``, ``"lower_bound"``,
        ``"objective"``, ``"entropy"``, ``"bfs"`` or ``"dfs"``
        (:mod:`treeopt.solvers.osdt.schedules`).
    warm_start : None, "cart" or Tree, default=None
        An initial incumbent: a greedy CART tree pruned by the objective, or
        any tree over the dataset's binary features. It is used only when it
        beats the single leaf.
    top_k : int, default=1
        Certify the ``top_k`` best distinct trees, not only the best (see
        "The k best trees" in the module docstring: the bounds that only
        prove a tree is not *the* optimum are switched off).
    plugins : list, optional
        Plug-in lower bounds and at most one queue policy built with
        :func:`treeopt.lower_bound` and :func:`treeopt.queue_policy`
        (``treeopt.bounds_lab``). Each is a switch beside the built-in
        bounds: a counter in ``prune_counts``, ``Pruned`` events, and
        ``bounds={name: False}`` switches it off. A plug-in bound prunes a
        child when it reaches the incumbent (whether or not
        ``hierarchical`` is on) and raises the child's bound otherwise;
        plug-in bounds need an additive objective.
    strategies : dict of str to bool, optional
        Switch a plug-in queue policy off (``{name: False}``): the
        ``schedule`` orders the queue again.

    Attributes
    ----------
    trees_evaluated : int
        Child trees whose objective and bound were computed (Table 6.2's
        "#trees evaluated").
    trees_to_optimum, time_to_optimum : int, float
        ``trees_evaluated`` and seconds when the final incumbent was found.
    top_trees : list of (float, Tree)
        The ``top_k`` best distinct trees found so far with their objectives,
        best first (certified when the search finished).

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]] * 5)
    >>> y = np.array([1, 1, 0, 0] * 5)
    >>> result = OSDT(Dataset.from_binary(X, y, feature_names=["a", "b"]), regularization=0.1).run()
    >>> print(result.tree.rules(show_counts=False))
    if a:
        predict 1
    else:  # not (a)
        predict 0
    >>> result.optimal, result.objective
    (True, 0.2)

    The whole event transcript of a tiny search (XOR needs two levels):

    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    >>> solver = OSDT(Dataset.from_binary(X, [0, 1, 1, 0] * 3), regularization=0.05, schedule="bfs")
    >>> for event in solver.steps():
    ...     print(type(event).__name__, getattr(event, "rule", getattr(event, "bound", "")))
    Started 
    Improved 
    Expanded [split] (all rows)
    Pruned incremental_accuracy
    LowerBoundRaised 
    Expanded [fixed] not (x0) | [split] x0
    Improved 
    Expanded [split] not (x0) | [split] x0
    Improved 
    Finished 
    >>> round(solver.result().objective, 12), solver.result().tree.n_leaves
    (0.2, 4)

    The three best trees of the first example: the split on ``a``, then the
    two trees that add a useless split under it (one more leaf, same errors):

    >>> X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]] * 5)
    >>> solver = OSDT(Dataset.from_binary(X, y, feature_names=["a", "b"]), regularization=0.1, top_k=3)
    >>> result = solver.run()
    >>> [(round(objective, 12), tree.n_leaves) for objective, tree in result.top_trees]
    [(0.2, 2), (0.3, 3), (0.3, 3)]
    """

    name = "osdt"
    #: Keep the garbage collector's full scans off the search's caches during each unit of work
    #: (``treeopt.solvers.gosdt.gc_pause``); the search itself is unchanged.
    freeze_heap = True
    CAPABILITIES = Capabilities(objectives="any", options=("schedule", "warm_start", "top_k", "plugins"))
    BOUNDS = {
        "hierarchical": "OSDT Theorem 1 (hierarchical objective lower bound); GOSDT Theorems B.1, 2.1, 2.2",
        "lookahead": "OSDT Lemma 2 (objective lower bound with one-step lookahead), Algorithm 2",
        "leaf_support": "OSDT Theorem 3 (lower bound on leaf support), as applied in Algorithm 3",
        "incremental_accuracy": "OSDT Theorem 4 (lower bound on incremental classification accuracy)",
        "leaf_accuracy": "OSDT Theorem 5 (lower bound on classification accuracy; dead features)",
        "permutation": "OSDT Corollary 6 (leaf permutation bound; the tree cache of section 5.3)",
        "equivalent_points": "OSDT Theorem 9 (equivalent points bound); GOSDT Theorem C.3",
        "similar_support": "OSDT Theorem 7 (similar support bound) with the twin's finished sub-search; opt-in",
        "incremental_progress": "GOSDT Theorems B.6, C.2 (incremental progress, F1 / AUC / partial AUC)",
        "one_split_left": "GOSDT Lemma C.1, Theorems 2.1, B.1 with the last level's splits (F1 / AUC / partial AUC)",
    }
    #: Bounds that are off unless asked for.
    OPT_IN = ("similar_support",)
    #: Bounds that only prove a tree is not *the* optimum: off when ``top_k > 1`` (module docstring).
    NOT_FOR_TOP_K = ("leaf_support", "incremental_accuracy", "leaf_accuracy", "incremental_progress",
                     "similar_support")

    def __init__(self, dataset: Dataset, *, regularization: float, objective="accuracy",
                 bounds: dict | None = None, depth_budget: int | None = None, schedule: str = "curiosity",
                 warm_start=None, top_k: int = 1, plugins=None, strategies: dict | None = None):
        self._plugins = declare_plugins(self, plugins)
        if isinstance(top_k, bool) or not isinstance(top_k, (int, np.integer)) or top_k < 1:
            raise ValueError(f"top_k must be a positive integer (how many best trees to certify), got {top_k!r}.")
        top_k = int(top_k)
        opt_in = {name: False for name in self.OPT_IN}
        if top_k > 1:
            unsound = sorted(name for name, on in (bounds or {}).items() if on and name in self.NOT_FOR_TOP_K)
            if unsound:
                raise ValueError(f"bound(s) {unsound} only prove that a tree is not the optimum, so they would "
                                 f"discard some of the top_k={top_k} best trees; drop them from bounds= or use "
                                 "top_k=1.")
            opt_in.update({name: False for name in self.NOT_FOR_TOP_K})
        opt_in.update(bounds or {})
        super().__init__(dataset, regularization=regularization, objective=objective, bounds=opt_in,
                         depth_budget=depth_budget, strategies=strategies)
        if schedule not in SCHEDULES:
            raise ValueError(f"unknown schedule {schedule!r}; choose one of {sorted(SCHEDULES)}.")
        if not (warm_start is None or warm_start == "cart" or isinstance(warm_start, Tree)):
            raise TypeError(f"warm_start must be None, 'cart' or a treeopt Tree, got {type(warm_start).__name__}.")
        self.schedule = schedule
        self.warm_start = warm_start
        self.top_k = top_k
        self.additive = bool(self.objective.additive)
        W = dataset.total_weight
        self.penalty = self.regularization * W             # λ in weight units
        self.eps = EPS * W   # relative: tiny weights keep their ties
        if self.additive:
            self.model = self.objective.loss_model(dataset)
            self.costs = [float(c) for c in self.model.costs]
        else:
            if self.objective.name not in NON_ADDITIVE:
                raise ValueError(f"OSDT has no bounds for the non-additive objective {self.objective.name!r}; "
                                 f"it handles {list(NON_ADDITIVE)} and every additive objective.")
            self.objective.validate(dataset)
            self.model = None
            self.costs = None
            totals = dataset.counts.sum(axis=0)
            self._negatives, self._positives = float(totals[0]), float(totals[1])
        if isinstance(warm_start, Tree) and len(warm_start.features) != dataset.n_features:
            raise ValueError(f"warm_start tree has {len(warm_start.features)} features but the dataset has "
                             f"{dataset.n_features}; pass a tree fitted on the same binary features.")
        self._W = W
        self._hull_objective = isinstance(self.objective, AUC)
        self._theta = float(getattr(self.objective, "theta", 1.0)) if self._hull_objective else 1.0
        self._f1 = isinstance(self.objective, FScore)
        self._bound_plugins = [p for p in self._plugins if isinstance(p, PluginBound)]
        self._policy = next((p for p in self._plugins if isinstance(p, QueuePolicy)), None)
        if self._bound_plugins and not self.additive:
            raise ValueError(f"plug-in bounds see each leaf's own loss, which objective={self.objective.name!r} "
                             "does not have (it is not a sum over leaves); use an additive objective such as "
                             "'accuracy', or a queue policy.")
        self._check_plugins_on_root()
        self._masks = dataset.feature_masks
        self._leaves: dict[int, LeafInfo] = {}
        self._tree_cache: set = set()
        self._queue: list = []            # (priority key, sequence, tree)
        self._bound_heap: list = []       # (bound, sequence, tree): the global lower bound, lazily cleaned
        self._sequence = count()
        self._current: PartialTree | None = None
        self._best_leaves: list = []
        self._best = 0.0
        self._cutoff = 0.0                # pruning threshold R_k: the k-th best objective (weight units)
        self._top: list = []              # top_k > 1: [(objective, leaf-set key, leaves)], best first
        self._started = False
        self._last_lb = None
        # Theorem 7 needs the bound over a twin's finished sub-search (similar_support.py).
        self._similar = SimilarSupport() if self.additive and self.bounds["similar_support"] else None
        self._pruned_bound = 0.0          # the bound with which _child_bound last pruned a child
        self.trees_evaluated = 0
        self.trees_to_optimum = 0
        self.time_to_optimum = 0.0

    # -- plug-ins (treeopt.bounds_lab) ------------------------------------------------
    def _subproblem(self, fixed, split):
        """The read-only record a plug-in receives for the partial tree ``(fixed, split)``."""
        W = self._W
        return Subproblem(
            fixed_counts=tuple(tuple(float(n) for n in leaf.counts) for leaf in fixed),
            split_counts=tuple(tuple(float(n) for n in leaf.counts) for leaf in split),
            fixed_losses=tuple(leaf.loss / W for leaf in fixed) if self.additive else (),
            split_losses=tuple(leaf.loss / W for leaf in split) if self.additive else (),
            regularization=self.regularization, incumbent=self._cutoff / W,
            depth=max((leaf.depth for group in (fixed, split) for leaf in group), default=0), total=W,
            split_equivalent_losses=tuple(leaf.eq / W for leaf in split) if self.additive else ())

    def _check_plugins_on_root(self) -> None:
        """Call every plug-in once on the single-leaf tree, so a broken one fails before the search."""
        if not self._plugins:
            return
        counts = self.dataset.class_counts(self.dataset.all_points)
        loss = self.model.leaf(counts)[0] / self._W if self.additive else 0.0
        eq = self.model.equivalent_points(self.dataset.all_points) / self._W if self.additive else 0.0
        root = Subproblem.of_support(counts, loss, eq, regularization=self.regularization,
                                     incumbent=loss + self.regularization, depth=0, total=self._W)
        try_plugins(self._plugins, root, "the single-leaf tree")

    def _plugin_bound(self, fixed, split, bound, best):
        """``bound`` raised by the plug-in bounds that are on, or None when one of them prunes."""
        node = None
        for plugin in self._bound_plugins:
            if not self.bounds[plugin.name]:
                continue
            if node is None:
                node = self._subproblem(fixed, split)
            value = plugin(node)
            if value is True or (value is not False and value * self._W >= best):
                self.prune_counts[plugin.name] += 1
                self._pruned_bound = bound if isinstance(value, bool) else max(bound, value * self._W)
                return None
            if value is not False:
                bound = max(bound, value * self._W)
        return bound

    # -- leaves (the leaf cache, section 5.3) ----------------------------------------
    def _leaf(self, key: int, support: int, depth: int, dead_features: int) -> LeafInfo:
        leaf = self._leaves.get(key)
        if leaf is not None:
            if leaf.options is None:
                leaf.dead_features |= dead_features
            return leaf
        ds = self.dataset
        counts = ds.class_counts(support)
        if self.additive:
            loss, prediction = self.model.leaf(counts)
            weighted = [n * c for n, c in zip(counts, self.costs)]
            correct = sum(weighted) - loss
            eq = self.model.equivalent_points(support)
        elif self._f1:
            prediction, false_pos, false_neg = self.objective.leaf_errors(counts[0], counts[1])
            loss = correct = eq = 0.0
        else:
            table = np.asarray([counts], dtype=float)
            prediction = int(self.objective.leaf_predictions(table)[0]) if sum(counts) > 0 else 0
            loss = 0.0
            correct = 0.0
            eq = 0.0
        leaf = LeafInfo(key, len(self._leaves), support, counts, loss, prediction, eq, correct, depth,
                        dead_features)
        if self._f1:
            leaf.fp, leaf.fn = false_pos, false_neg
        bounds = self.bounds
        if self.additive:
            if bounds["leaf_support"] and loss <= self.penalty + self.eps:
                leaf.dead = True                                   # Theorem 3
                self.prune_counts["leaf_support"] += 1
        elif bounds["incremental_progress"] and sum(counts) > 0:
            gain = split_gain_bound(self.objective, counts, self._negatives, self._positives) * self._W
            if gain <= self.penalty + self.eps:
                leaf.dead = True                                   # GOSDT Theorems B.6 / C.2
                self.prune_counts["incremental_progress"] += 1
        self._leaves[key] = leaf
        return leaf

    def _leaf_from_clauses(self, key: int) -> LeafInfo:
        """The leaf with a given clause bitmask (for warm starts)."""
        support = self.dataset.all_points
        depth = 0
        for bit in bits_of(key):
            feature, value = divmod(bit, 2)
            support &= self._masks[feature] if value else ~self._masks[feature]
            depth += 1
        return self._leaf(key, support, depth, 0)

    def _splittable(self, leaf: LeafInfo) -> bool:
        return not leaf.dead and (self.depth_budget is None or leaf.depth < self.depth_budget)

    def _options(self, leaf: LeafInfo) -> list:
        """Every useful split of ``leaf``: both sides non-empty, feature not dead (Theorem 5)."""
        if leaf.options is not None:
            return leaf.options
        support, masks = leaf.support, self._masks
        lam = self.penalty + self.eps
        check_accuracy = self.additive and self.bounds["leaf_accuracy"]
        ds = self.dataset
        live = []
        dead = leaf.dead_features
        for f in range(len(masks)):
            if dead >> f & 1:
                continue
            right = support & masks[f]
            if not right or right == support:
                continue
            left = support ^ right
            if check_accuracy:
                # Theorem 5: a child classifying at most λ correctly is in no optimal tree.
                dead_child = False
                for side in (left, right):
                    counts = ds.class_counts(side)
                    weighted = [n * c for n, c in zip(counts, self.costs)]
                    if max(weighted) <= lam:
                        dead_child = True
                        break
                if dead_child:
                    dead |= 1 << f
                    self.prune_counts["leaf_accuracy"] += 1
                    continue
            live.append((f, left, right))
        leaf.dead_features = dead
        options = []
        check_increment = self.additive and self.bounds["incremental_accuracy"]
        for f, left, right in live:
            l_leaf = self._leaf(leaf.key | 1 << 2 * f, left, leaf.depth + 1, dead)
            r_leaf = self._leaf(leaf.key | 1 << 2 * f + 1, right, leaf.depth + 1, dead)
            both_fixed = True
            if check_increment and leaf.loss - l_leaf.loss - r_leaf.loss <= self.penalty + self.eps:
                both_fixed = False                                 # Theorem 4
            options.append((f, l_leaf, r_leaf, both_fixed))
        leaf.options = options
        return options

    # -- objective and bounds of a leaf set -------------------------------------------
    def _objective_of(self, leaves) -> float:
        """Objective (weight units) of the tree made of ``leaves``."""
        if self.additive:
            return sum(leaf.loss for leaf in leaves) + self.penalty * len(leaves)
        if self._hull_objective:                     # AUC / partial AUC: counts known valid, no array
            loss = 1.0 - hull_area([leaf.counts for leaf in leaves], self._theta)
            return loss * self._W + self.penalty * len(leaves)
        if self._f1:                                 # F1: from the leaves' summed errors
            loss = FScore.loss_of_errors(sum(leaf.fp for leaf in leaves), sum(leaf.fn for leaf in leaves),
                                         self._positives)
            return loss * self._W + self.penalty * len(leaves)
        table = np.asarray([leaf.counts for leaf in leaves if leaf.weight > 0], dtype=float)
        return self.objective.tree_loss(table) * self._W + self.penalty * len(leaves)

    def _eq_parts(self, leaf: LeafInfo):
        if leaf.eq_parts is None:
            rows = self.dataset.counts[bits_of(leaf.support)]
            negatives, positives = rows[:, 0], rows[:, 1]
            impure = (negatives > 0) & (positives > 0)
            leaf.eq_parts = (float(negatives[~impure].sum()), float(positives[~impure].sum()),
                             [tuple(r) for r in rows[impure].tolist()])
        return leaf.eq_parts

    def _hull_loss(self, rows) -> float:
        """1 − (partial) AUC of the ROC hull of ``rows`` ((negatives, positives) pairs), weight units."""
        return (1.0 - hull_area(rows, self._theta)) * self._W

    def _forced_errors(self, leaf: LeafInfo) -> float:
        """F1: errors the leaf's equivalence classes force on every descendant (each impure class's minority)."""
        if leaf.forced is None:
            leaf.forced = sum(min(n, p) for n, p in self._eq_parts(leaf)[2])
        return leaf.forced

    def _has_one_split_left(self, leaf: LeafInfo) -> bool:
        """Whether every descendant splits ``leaf`` exactly once (its children reach the depth budget)."""
        return self.depth_budget is not None and leaf.depth + 1 >= self.depth_budget

    def _one_split(self, leaf: LeafInfo):
        """What the best single split of ``leaf`` can reach (``one_split_left``); None without a split.

        F1: the smallest false positives, false negatives and errors over its options. AUC / partial
        AUC: the virtual pair of :func:`~treeopt.solvers.osdt.leafset_bounds.dominating_split`.
        """
        if leaf.one_split is False:
            options = self._options(leaf)
            if not options:
                leaf.one_split = None
            elif self._f1:
                leaf.one_split = (min(left.fp + right.fp for _, left, right, _ in options),
                                  min(left.fn + right.fn for _, left, right, _ in options),
                                  min(left.fp + right.fp + left.fn + right.fn for _, left, right, _ in options))
            else:
                leaf.one_split = dominating_split(leaf.counts, [(left.counts, right.counts)
                                                                for _, left, right, _ in options])
        return leaf.one_split

    def _nonadditive_bound(self, fixed, split, best):
        """Objective lower bound (weight units) of every descendant, F1 / AUC / partial AUC, or None when pruned.

        The bounds are tried from the plainest to the tightest; a prune counts for the first bound that
        reaches ``best`` (only with ``hierarchical`` on, as for the additive objectives).
        """
        bounds = self.bounds
        prune = bounds["hierarchical"]
        penalty = self.penalty * (len(fixed) + len(split))
        use_eq = bounds["equivalent_points"]
        last = [leaf for leaf in split if self._has_one_split_left(leaf)] if bounds["one_split_left"] else []
        if self._f1:
            false_pos = sum(leaf.fp for leaf in fixed)
            false_neg = sum(leaf.fn for leaf in fixed)
            positives = self._positives
            bound = penalty
            if prune:                                   # GOSDT Theorem B.1: the split rows add no error
                bound += FScore.loss_of_errors(false_pos, false_neg, positives) * self._W
                if bound >= best:
                    self.prune_counts["hierarchical"] += 1
                    return None
            forced = sum(self._forced_errors(leaf) for leaf in split) if use_eq else 0.0
            if forced > 0:
                tight = f1_errors_bound(false_pos, false_neg, positives, more_errors=forced) * self._W + penalty
                if prune and tight >= best:
                    self.prune_counts["equivalent_points"] += 1
                    return None
                bound = max(bound, tight)
            if last:
                more_fp = more_fn = more_errors = 0.0
                for leaf in split:
                    if leaf in last:
                        reach = self._one_split(leaf)
                        if reach is None:
                            more_errors = float("inf")      # no split, hence no descendant
                            break
                        more_fp += reach[0]
                        more_fn += reach[1]
                        more_errors += reach[2]
                    elif use_eq:
                        more_errors += self._forced_errors(leaf)
                sharp = f1_errors_bound(false_pos, false_neg, positives, more_fp, more_fn, more_errors) * self._W \
                    + penalty if more_errors < float("inf") else float("inf")
                if prune and sharp >= best:
                    self.prune_counts["one_split_left"] += 1
                    return None
                bound = max(bound, sharp)
            return bound
        # AUC / partial AUC: GOSDT Theorems 2.1, 2.2 (hierarchical), C.3 (equivalent points).
        fixed_counts = [leaf.counts for leaf in fixed]
        bound = penalty
        if prune:
            negatives = sum(leaf.counts[0] for leaf in split)
            positives = sum(leaf.counts[1] for leaf in split)
            bound += self._hull_loss(fixed_counts + [(0.0, positives), (negatives, 0.0)])
            if bound >= best:
                self.prune_counts["hierarchical"] += 1
                return None
        if use_eq:
            pure_neg = pure_pos = 0.0
            impure = []
            for leaf in split:
                n, p, classes = self._eq_parts(leaf)
                pure_neg += n
                pure_pos += p
                impure.extend(classes)
            if impure:
                tight = self._hull_loss(fixed_counts + impure + [(0.0, pure_pos), (pure_neg, 0.0)]) + penalty
                if prune and tight >= best:
                    self.prune_counts["equivalent_points"] += 1
                    return None
                bound = max(bound, tight)
        if last:
            rows = list(fixed_counts)
            pure_neg = pure_pos = 0.0
            for leaf in split:
                if leaf in last:
                    pair = self._one_split(leaf)
                    if pair is None:
                        rows = None                         # no split, hence no descendant
                        break
                    rows.extend(pair)
                elif use_eq:
                    n, p, classes = self._eq_parts(leaf)
                    pure_neg += n
                    pure_pos += p
                    rows.extend(classes)
                else:
                    pure_neg += leaf.counts[0]
                    pure_pos += leaf.counts[1]
            sharp = float("inf") if rows is None else \
                self._hull_loss(rows + [(0.0, pure_pos), (pure_neg, 0.0)]) + penalty
            if prune and sharp >= best:
                self.prune_counts["one_split_left"] += 1
                return None
            bound = max(bound, sharp)
        return bound

    # -- the queue ----------------------------------------------------------------------
    def _push(self, tree: PartialTree) -> None:
        W = self._W
        policy = self._policy
        if policy is not None and self.bounds[policy.name]:
            tree.key = policy(self._subproblem(tree.fixed, tree.split))
        else:
            fixed_weight = sum(leaf.weight for leaf in tree.fixed)
            entropy = 0.0
            if self.schedule == "entropy":
                entropy = label_entropy([leaf.counts for leaf in tree.fixed + tree.split], W)
            tree.key = priority_key(self.schedule, lower_bound=tree.bound / W, objective=tree.objective / W,
                                    fixed_support=fixed_weight / W, entropy=entropy, sequence=tree.sequence)
        heapq.heappush(self._queue, (tree.key, tree.sequence, tree))
        heapq.heappush(self._bound_heap, (tree.bound, tree.sequence, tree))

    def _improve(self, objective: float, leaves) -> bool:
        if self.top_k > 1 and objective < self._cutoff - self.eps:
            self._offer(objective, leaves)
        if objective < self._best - self.eps:
            self._best = objective
            if self.top_k == 1:
                self._cutoff = objective
            self._best_leaves = list(leaves)
            self.trees_to_optimum = self.trees_evaluated
            self.time_to_optimum = self.elapsed
            return True
        return False

    def _offer(self, objective: float, leaves) -> None:
        """Keep a complete tree among the ``top_k`` best distinct leaf sets; update ``R_k``.

        Called only when ``objective`` beats ``R_k``. A tree dropped from the
        list never comes back: ``R_k`` only decreases. Ties keep the order of
        discovery, so the first entry is the incumbent.
        """
        if any(not leaf.support for leaf in leaves):
            return                                          # an empty leaf: outside the searched space
        key = frozenset(leaf.key for leaf in leaves)
        top = self._top
        if any(entry[1] == key for entry in top):
            return
        position = len(top)
        while position > 0 and top[position - 1][0] > objective + self.eps:
            position -= 1
        top.insert(position, (objective, key, tuple(leaves)))
        if len(top) > self.top_k:
            top.pop()
        if len(top) == self.top_k:
            self._cutoff = top[-1][0]

    def _initial_incumbent(self):
        """The single leaf as the incumbent, then the warm start's tree if better (a generator: CART
        may take several units of work); returns the root leaf."""
        ds = self.dataset
        root = self._leaf(0, ds.all_points, 0, 0)
        self._best = self._objective_of([root])
        self._best_leaves = [root]
        if self.top_k == 1:
            self._cutoff = self._best
        else:
            self._cutoff = float("inf")
            self._offer(self._best, [root])
        warm = None
        if self.warm_start == "cart":
            # CART grows in slices of the unit budget: on large tables it is many units of work. Objectives
            # that are not a sum over leaves prune it by accuracy; _improve then scores the true objective.
            model = self.model if self.model is not None else get_objective("accuracy").loss_model(ds)
            start = yield from cart_incumbent_steps(ds, model, self.penalty, ds.all_points, self.depth_budget,
                                                    slice_seconds=self.unit_budget)
            if start is not None:
                warm = tree_leaf_keys(Tree(start[1], ds.features, ds.classes))
        elif isinstance(self.warm_start, Tree):
            warm = tree_leaf_keys(self.warm_start, self.depth_budget)
        if warm:
            leaves = [self._leaf_from_clauses(key) for key in warm]
            self._improve(self._objective_of(leaves), leaves)   # never displaces a better incumbent
        return root

    # -- the search (Algorithm 2) ----------------------------------------------------
    def _search(self):
        root = yield from self._initial_incumbent()
        self._started = True
        if self._splittable(root):
            bound = self._child_bound([], [root], 0.0)
            if bound is not None:
                tree = PartialTree((), (root,), 0.0, bound, self._objective_of([root]), next(self._sequence))
                if self._similar is not None:
                    tree.record = self._similar.root()
                self._push(tree)
                if self.bounds["permutation"]:
                    self._tree_cache.add((2 * root.uid + 1,))
        self._emit(Started(0, self.lower_bound, self.upper_bound))
        self._record(improved=True)
        queue = self._queue
        similar = self._similar
        pause = HeapFreeze(self.freeze_heap)
        while queue:
            _, _, tree = heapq.heappop(queue)
            tree.alive = False
            if self.bounds["hierarchical"] and tree.bound >= self._cutoff - self.eps:
                self.prune_counts["hierarchical"] += 1               # Theorem 1 with the improved R^c (R_k)
                if similar is not None:
                    similar.dropped(tree.record, tree.bound)
                continue
            if similar is not None:
                twin_bound = similar.lower_bound(tree.record)
                if twin_bound is not None and twin_bound >= self._cutoff - self.eps:
                    self.prune_counts["similar_support"] += 1        # Theorem 7 with a finished twin
                    similar.dropped(tree.record, twin_bound)
                    if self._events is not None:
                        self._emit(Pruned(self.expansions, "similar_support", 1))
                    continue
            self._current = tree
            self.expansions += 1
            yield from self._frozen_units(self._expand(tree), pause)
            self._current = None
            if similar is not None:
                similar.expanded(tree.record)
            lb = self.lower_bound
            if self._last_lb is None or lb - self._last_lb >= 1e-4 or not queue:
                self._last_lb = lb
                self._record(raised=True)
            yield
        self._current = None

    @staticmethod
    def _frozen_units(units, pause):
        """Drive a generator of units of work with the heap frozen during each unit, not between them.

        The leaf cache and the queue hold many long-lived objects; a full collection triggered
        inside a unit would rescan them all and find nothing to free, so one unit would take far
        longer than the unit budget.
        """
        while True:
            with pause:
                try:
                    next(units)
                except StopIteration:
                    return
            yield

    def _child_bound(self, fixed, split, fixed_loss):
        """Bound of the descendants of a child (weight units), or None when a bound prunes it."""
        best = self._cutoff - self.eps                      # R^c, or R_k with top_k > 1
        bounds = self.bounds
        n_leaves = len(fixed) + len(split)
        if self.additive:
            plain = fixed_loss + self.penalty * n_leaves
            if bounds["hierarchical"] and plain >= best:
                self.prune_counts["hierarchical"] += 1
                self._pruned_bound = plain
                return None
            tight = plain + sum(leaf.eq for leaf in split) if bounds["equivalent_points"] else plain
        else:
            tight = self._nonadditive_bound(fixed, split, best)
            if tight is None:
                self._pruned_bound = best
                return None
        if bounds["hierarchical"] and tight >= best:
            self.prune_counts["equivalent_points"] += 1
            self._pruned_bound = tight
            return None
        ahead = tight + self.penalty * len(split) if bounds["lookahead"] else tight
        if bounds["hierarchical"] and ahead >= best:
            self.prune_counts["lookahead"] += 1
            self._pruned_bound = ahead
            return None
        if self._bound_plugins:
            return self._plugin_bound(fixed, split, ahead, best)
        return ahead

    def _expand(self, tree: PartialTree):
        """Generate every child of ``tree`` (Algorithm 2's two inner loops)."""
        emit = self._events is not None
        if emit:
            self._emit(Expanded(self.expansions, self.describe(tree), self._obj(tree.bound),
                                self._obj(tree.objective), len(tree.split)))
        per_leaf = [self._options(leaf) for leaf in tree.split]
        if not all(per_leaf):
            return
        pruned_before = dict(self.prune_counts) if emit else None
        clock = SliceClock(self.unit_budget)                        # a unit of work ends when it is spent
        if not self.additive and is_last_level(self, tree.split):
            yield from complete_last_level(self, tree, per_leaf, clock)  # complete trees only, depth first
            self._emit_pruned(pruned_before)
            return
        similar = self._similar
        record = tree.record
        fixed, fixed_loss = tree.fixed, tree.fixed_loss
        # AUC and partial AUC: a complete tree's objective costs a whole ROC hull, so it is
        # computed only when it can beat R^c (R_k). Every complete tree that shares the first j
        # splits (a prefix of the combination) has the other split leaves' rows in two leaves each,
        # so its loss is at least the hierarchical bound with those rows sorted into pure leaves
        # (GOSDT Theorems B.1, 2.1, 2.2), and it has exactly len(fixed) + n_new leaves.
        hopeless = self._hopeless_prefixes(tree) if self._hull_objective and self.bounds["hierarchical"] \
            and len(tree.split) > 1 else None
        for combo in itertools.product(*per_leaf):
            new_leaves = []
            for _, left, right, _ in combo:
                new_leaves.append(left)
                new_leaves.append(right)
            all_leaves = fixed + tuple(new_leaves)
            if self.additive:
                objective = fixed_loss + sum(leaf.loss for leaf in new_leaves) + self.penalty * len(all_leaves)
            elif hopeless is not None and hopeless(combo):
                objective = None                                    # cannot improve: not evaluated
            else:
                objective = self._objective_of(all_leaves)
            if objective is not None and self._improve(objective, all_leaves):
                self._record(improved=True)
            if similar is not None:
                similar.stop(record, objective)                     # a complete descendant
            # Every marking of the new leaves as fixed / split (Theorems 3 and 4 restrict it).
            choices = []
            for _, left, right, both_fixed in combo:
                states = []
                l_ok, r_ok = self._splittable(left), self._splittable(right)
                if both_fixed:
                    states.append(0)
                if r_ok:
                    states.append(1)
                if l_ok:
                    states.append(2)
                if l_ok and r_ok:
                    states.append(3)
                if not both_fixed:
                    self.prune_counts["incremental_accuracy"] += 1       # Theorem 4 removed a marking
                choices.append(states)
            for marks in itertools.product(*choices):
                self.trees_evaluated += 1
                new_fixed, new_split = [], []
                for (_, left, right, _), mark in zip(combo, marks):
                    (new_split if mark & 2 else new_fixed).append(left)
                    (new_split if mark & 1 else new_fixed).append(right)
                if not new_split:
                    continue                                        # a complete tree: evaluated above
                child_fixed = fixed + tuple(new_fixed)
                child_loss = fixed_loss + sum(leaf.loss for leaf in new_fixed) if self.additive else 0.0
                bound = self._child_bound(child_fixed, new_split, child_loss)
                if bound is None:
                    if similar is not None:
                        similar.stop(record, self._pruned_bound)    # bounds all its descendants
                    continue
                if self.bounds["permutation"]:
                    key = tuple(sorted([2 * leaf.uid for leaf in child_fixed]
                                       + [2 * leaf.uid + 1 for leaf in new_split]))
                    if key in self._tree_cache:
                        self.prune_counts["permutation"] += 1       # Corollary 6
                        if similar is not None:
                            similar.stop(record, bound)             # the queued copy has its descendants
                        continue
                    self._tree_cache.add(key)
                if objective is None:
                    objective = self._objective_of(all_leaves)
                child = PartialTree(child_fixed, tuple(new_split), child_loss, bound, objective,
                                    next(self._sequence))
                if similar is not None:
                    child.record = similar.child(
                        record, tuple(option[0] for option in combo), marks,
                        tuple(left.loss + right.loss for _, left, right, _ in combo))
                self._push(child)
            if clock.due():
                yield
        self._emit_pruned(pruned_before)

    def _emit_pruned(self, pruned_before) -> None:
        """One ``Pruned`` event per bound that pruned during an expansion (with events on)."""
        if pruned_before is not None:
            for bound, before in pruned_before.items():
                if self.prune_counts[bound] > before:
                    self._emit(Pruned(self.expansions, bound, self.prune_counts[bound] - before))

    def _hopeless_prefixes(self, tree: PartialTree):
        """``hopeless(combo)``: whether no complete tree with ``combo``'s first splits can beat ``R^c``.

        The complete trees of an expansion split every split leaf once; those after the prefix are
        bounded as pure leaves (GOSDT Theorems 2.1, 2.2) or, with ``one_split_left``, by the virtual
        pair of their options (:func:`~treeopt.solvers.osdt.leafset_bounds.dominating_split`).
        Bounds are cached per prefix (one hull per prefix, shared by all its completions). A prefix
        found hopeless stays so (``R^c`` only decreases); one found hopeful is not re-checked.
        """
        fixed_counts = [leaf.counts for leaf in tree.fixed]
        split = tree.split
        n_leaves = len(tree.fixed) + 2 * len(split)
        if self.bounds["one_split_left"]:
            rest = [[row for leaf in split[j:] for row in self._one_split(leaf)] for j in range(len(split) + 1)]
        else:
            rest = [[(0.0, sum(leaf.counts[1] for leaf in split[j:])), (sum(leaf.counts[0] for leaf in split[j:]), 0.0)]
                    for j in range(len(split) + 1)]
        cache: dict = {}

        def hopeless(combo) -> bool:
            for j in range(1, len(combo)):
                key = combo[:j]
                verdict = cache.get(key)
                if verdict is None:
                    rows = fixed_counts + [leaf.counts for option in key for leaf in option[1:3]] + rest[j]
                    bound = self._hull_loss(rows) + self.penalty * n_leaves
                    verdict = cache[key] = bound >= self._cutoff - self.eps
                if verdict:
                    return True
            return False

        return hopeless

        # -- reading the state -------------------------------------------------------------
    def _obj(self, weight_units: float) -> float:
        return weight_units / self._W

    @property
    def lower_bound(self) -> float:
        if not self._started:
            return 0.0
        return self._obj(self._min_open_bound(self._best))

    def _min_open_bound(self, value: float) -> float:
        """``value``, or the smallest lower bound of a tree still open (queued or being expanded) if smaller."""
        heap = self._bound_heap
        while heap and not heap[0][2].alive:
            heapq.heappop(heap)
        if heap and heap[0][0] < value:
            value = heap[0][0]
        if self._current is not None and self._current.bound < value:
            value = self._current.bound
        return value

    @property
    def upper_bound(self) -> float:
        self._ensure_started()
        if not self._started:
            counts = self.dataset.class_counts(self.dataset.all_points)
            table = np.asarray([counts], dtype=float)
            if self.additive:
                return self._obj(self.model.leaf(counts)[0] + self.penalty)
            return float(self.objective.tree_loss(table)) + self.regularization
        return self._obj(self._best)

    @property
    def queue_size(self) -> int:
        return len(self._queue)

    @property
    def cache_size(self) -> int:
        """Leaf cache + tree cache (section 5.3) + partial trees held.

        Partial trees are counted by the lower-bound heap, which holds every
        queued tree and the popped ones it has not yet dropped (lazily, in
        :attr:`lower_bound`). The caches never shrink but popping trees frees
        them, so this can decrease.
        """
        return len(self._leaves) + len(self._tree_cache) + len(self._bound_heap)

    def _incumbent_leaves(self) -> int:
        return max(1, len(self._best_leaves))

    def _incumbent(self) -> Tree:
        ds = self.dataset
        leaves = self._best_leaves
        if not leaves:
            leaves = [self._leaf(0, ds.all_points, 0, 0)]
        return self._tree_of(leaves)

    @property
    def top_trees(self) -> list:
        """The ``top_k`` best distinct trees found so far, best first, as ``(objective, Tree)``.

        Certified (the k best of all trees with non-empty leaves, as a
        multiset of objectives) once the search has finished; a stopped
        search's list holds the best trees it found. With ``top_k=1``: the
        incumbent alone.
        """
        self._ensure_started()
        if self.top_k == 1 or not self._started:
            return [(self.upper_bound, self.best_tree)]
        return [(self._obj(objective), self._tree_of(leaves)) for objective, _, leaves in self._top]

    @property
    def top_k_lower_bound(self) -> float:
        """A lower bound on the k-th best objective (objective units; ``inf`` when fewer than k trees exist).

        The smallest bound of the unexplored partial trees, or ``R_k`` when
        that is smaller: the gap of the k-th tree is ``R_k`` minus this.
        """
        if not self._started or self.top_k == 1:
            return self.lower_bound
        return self._obj(self._min_open_bound(self._cutoff))

    def _top_trees(self) -> list:
        return self.top_trees if self.top_k > 1 else []

    def _tree_of(self, leaves) -> Tree:
        """The :class:`Tree` whose leaves are ``leaves`` (cached leaf records)."""
        ds = self.dataset
        if self.additive:
            labels = [leaf.prediction for leaf in leaves]
            losses = [self._obj(leaf.loss) for leaf in leaves]
        else:
            table = np.asarray([leaf.counts for leaf in leaves], dtype=float)
            labels = [int(v) for v in self.objective.leaf_predictions(table)]
            losses = [0.0] * len(leaves)                 # not defined leaf by leaf
        nodes = {leaf.key: Leaf(int(label), tuple(leaf.counts), float(loss))
                 for leaf, label, loss in zip(leaves, labels, losses)}
        return Tree(_assemble(nodes), ds.features, ds.classes, binarizer=ds.binarizer)

    def describe(self, tree: PartialTree) -> str:
        """The partial tree's leaves as rules with their fixed / split marks."""
        parts = [f"[fixed] {self.rule(leaf)}" for leaf in tree.fixed]
        parts += [f"[split] {self.rule(leaf)}" for leaf in tree.split]
        return " | ".join(parts)

    def rule(self, leaf: LeafInfo) -> str:
        """The conjunction of a leaf's clauses (in feature order)."""
        features = self.dataset.features
        parts = []
        for bit in bits_of(leaf.key):
            f, value = divmod(bit, 2)
            parts.append(features[f].name if value else features[f].negated_name)
        return " and ".join(parts) or "(all rows)"

    def _queue_entries(self, k: int) -> list:
        entries = []
        for key, sequence, tree in heapq.nsmallest(k, self._queue):
            leaves = [{"rule": self.rule(leaf), "mark": mark, "support": float(leaf.weight),
                       "counts": tuple(leaf.counts)}
                      for mark, group in (("fixed", tree.fixed), ("split", tree.split)) for leaf in group]
            entries.append(QueueEntry(
                priority=(key, sequence), rule=self.describe(tree),
                support=float(sum(leaf.weight for leaf in tree.fixed)),
                lower_bound=self._obj(tree.bound), upper_bound=self._obj(tree.objective),
                payload={"schedule": self.schedule, "priority": key, "leaves": leaves,
                         "n_leaves": tree.n_leaves}))
        return entries

    def _snapshot_extra(self) -> dict:
        return {"schedule": self.schedule, "priority": SCHEDULES[self.schedule],
                "trees_evaluated": self.trees_evaluated, "trees_to_optimum": self.trees_to_optimum,
                "time_to_optimum": self.time_to_optimum, "leaf_cache": len(self._leaves),
                "tree_cache": len(self._tree_cache)} | (
            {"plugins": [plugin.name for plugin in self._plugins]} if self._plugins else {}) | (
            {"top_k": self.top_k, "top_k_lower_bound": self.top_k_lower_bound} if self.top_k > 1 else {})


def _assemble(nodes: dict):
    """Rebuild a tree from its leaves' clause sets (a dict clause bitmask → Leaf).

    A feature tested on every root-to-leaf path can be moved to the root:
    restricting the tree to ``f = v`` drops the other branch of every
    ``f`` node and leaves exactly the leaves whose clauses hold ``f = v``.
    """
    if len(nodes) == 1:
        return next(iter(nodes.values()))
    for f in range(max(nodes).bit_length() // 2 + 1):
        false_bit, true_bit = 1 << 2 * f, 1 << 2 * f + 1
        if all(key & (false_bit | true_bit) for key in nodes):
            left = {key & ~false_bit: leaf for key, leaf in nodes.items() if key & false_bit}
            right = {key & ~true_bit: leaf for key, leaf in nodes.items() if key & true_bit}
            return Split(f, _assemble(left), _assemble(right))
    raise ValueError("the leaves do not form a decision tree (no feature is tested on every path).")

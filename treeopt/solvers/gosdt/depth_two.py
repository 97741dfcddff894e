"""The depth-two solver: every tree of depth at most two over a support set, from pair counts.

Demirović, Lukina, Hebrard, Chan, Bailey, Leckie, Ramamohanarao, Stuckey,
*MurTree: Optimal Decision Trees via Dynamic Programming and Search* (JMLR 2022),
section 4.3: the class counts of all four cells ``f_i ∧ f_k``, ``f_i ∧ ¬f_k``,
``¬f_i ∧ f_k``, ``¬f_i ∧ ¬f_k`` follow from the pair counts ``|S ∩ f_i ∩ f_k|``
of each class, the single counts ``|S ∩ f_i|`` and the total ``|S|``. MurTree
updates the pair counts row by row; here they are one matrix product per class
(``Xᵀ diag(w_c) X`` over the rows of ``S``), which numpy runs in compiled code, so
the whole depth-two search over ``F`` features costs ``O(|S| F²)`` arithmetic and no
Python loop over features.

From the four cells we read, for every feature ``i``:

* the best subtree of depth at most one of the *right* child ``S ∩ f_i`` (a leaf,
  or a split on some ``k`` into two leaves) and of the *left* child ``S ∖ f_i``;
* hence the best tree of depth at most two rooted at a split on ``i`` (their sum),
  and the best tree of depth at most two over ``S`` (the least of these and the leaf).

With two classes, :meth:`DepthTwoSolver.best` reads the same optimum from one pair matrix of
class-weight differences (``treeopt/solvers/gosdt/two_class_depth_two.py``).

Objectives are in weight units (scored loss + λ per leaf), like the solvers'.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from threadpoolctl import ThreadpoolController

from ...data import points_in
from ..slices import SliceClock, drain
from .bit_columns import WeightPlanes, by_word, nested_neighbours, pack_columns, pack_mask, unique_columns
from .two_class_depth_two import two_class_children, two_class_depth_two

__all__ = ["DepthTwoSolver", "DepthTwoResult", "PairCounts", "Leaves", "leaf_loss", "split_or_leaf",
           "similar_bounds", "search_root_splits", "search_root_splits_steps", "achievable_at_least", "achievable_values", "achievable_from",
           "round_up_near", "whole_weights", "one_blas_thread"]

LEAF = -1   # "no split": the subtree is a single leaf

# Finding the loaded BLAS libraries scans every shared library of the process, so it is done
# once, when the solvers are imported, not inside the first fit.
_blas = ThreadpoolController()


_inside = threading.local()         # how deep this thread is in one_blas_thread contexts
# The BLAS libraries' own controllers (threadpoolctl's ``lib_controllers``): reading and setting their
# thread counts directly costs a third of ``_blas.limit``, which builds a limiter object each time.
_blas_libraries = _blas.select(user_api="blas").lib_controllers


class one_blas_thread:
    """A context that runs BLAS on one thread.

    The products here are small (at most points × features × features) and come
    thousands of times per second; a multi-threaded BLAS spends more time waking
    its threads than multiplying. Entering and leaving reads and sets the libraries' thread
    counts directly (cheaper than threadpoolctl's ``limit``), once per depth-two solve of a
    search, and a context opened inside another (a depth-three solve
    started within a depth-four one) only counts its depth. Each library's thread count is
    read on entry and restored on exit, so a limit the caller set stays.

    Examples
    --------
    >>> from threadpoolctl import threadpool_info
    >>> with one_blas_thread():
    ...     inside = [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
    >>> set(inside) <= {1}
    True
    """

    __slots__ = ("_restore",)

    def __enter__(self) -> "one_blas_thread":
        depth = getattr(_inside, "depth", 0)
        _inside.depth = depth + 1
        self._restore = []
        if depth == 0:
            for library in _blas_libraries:
                threads = library.get_num_threads()
                if threads is not None and threads > 1:
                    library.set_num_threads(1)
                    self._restore.append((library, threads))
        return self

    def __exit__(self, *exception) -> bool:
        _inside.depth -= 1
        for library, threads in self._restore:
            library.set_num_threads(threads)
        return False


@dataclass
class DepthTwoResult:
    """Best subtrees of depth at most one and two over one support set (weight units).

    Attributes
    ----------
    leaf_objective : float
        The support set as a single leaf: its loss + λ.
    right_objective, left_objective : ndarray of shape (n_features,)
        For each feature ``i``: the best objective of a subtree of depth at most one
        over the rows with ``f_i`` true (right) or false (left).
    right_feature, left_feature : ndarray of int, shape (n_features,)
        The feature that subtree splits on, or ``-1`` when it is a leaf.
    objective : float
        The best objective of a tree of depth at most two over the support set.
    root_feature : int
        Its root split, or ``-1`` when the best tree is the single leaf.
    """

    leaf_objective: float
    right_objective: np.ndarray
    right_feature: np.ndarray
    left_objective: np.ndarray
    left_feature: np.ndarray
    objective: float
    root_feature: int

    def tree(self) -> tuple:
        """The best depth-two tree as ``(root, left, right)`` feature indices (``-1`` for a leaf)."""
        i = self.root_feature
        if i == LEAF:
            return (LEAF, LEAF, LEAF)
        return (i, int(self.left_feature[i]), int(self.right_feature[i]))


def leaf_loss(cells: np.ndarray) -> np.ndarray:
    """Leaf loss of class weights along axis 0: everything but the best class.

    Examples
    --------
    >>> leaf_loss(np.array([[3.0, 1.0], [2.0, 5.0]])).tolist()      # two supports, two classes
    [2.0, 1.0]
    """
    if cells.shape[0] == 2:
        return np.minimum(cells[0], cells[1])
    return cells.sum(axis=0) - cells.max(axis=0)


def split_or_leaf(split_objectives: np.ndarray, leaf_objective: float, eps: float) -> tuple:
    """A child's best subtree of depth at most one: ``(objective, k)`` of its best split ``k``
    when that beats the leaf by more than ``eps``, else ``(leaf_objective, LEAF)``.

    Examples
    --------
    >>> split_or_leaf(np.array([4.0, 2.5]), 3.0, 1e-9), split_or_leaf(np.array([4.0]), 3.0, 1e-9)
    ((2.5, 1), (3.0, -1))
    """
    if len(split_objectives) == 0:
        return float(leaf_objective), LEAF
    k = int(np.argmin(split_objectives))
    if split_objectives[k] < leaf_objective - eps:
        return float(split_objectives[k]), k
    return float(leaf_objective), LEAF


def achievable_at_least(low: np.ndarray, penalty: float, max_leaves: int) -> np.ndarray:
    """Raise lower bounds to the least objective a subtree can have, when losses are whole numbers.

    With whole weights (unit class costs and integer counts: plain accuracy without fractional
    sample weights) a subtree with ``k`` leaves costs ``ℓ + k·λ`` with a whole loss ``ℓ >= 0``.
    So a subtree of at most ``max_leaves`` leaves whose objective is at least ``low`` costs at
    least ``min over k of ceil(low - k·λ) + k·λ`` (``ℓ`` at least 0): a lower bound between two
    achievable values rises to the next one. Near a depth-three optimum most root splits' bounds
    fall short of the best tree by less than one row (breast cancer with every threshold, at depth
    three: the median gap is one row), and this closes them without solving their children.

    Parameters
    ----------
    low : ndarray of float
        Lower bounds, in weight units (any shape).
    penalty : float
        λ in weight units.
    max_leaves : int
        The most leaves the subtrees can have (two for depth one, four for depth two).

    Returns
    -------
    ndarray
        Bounds at least ``low``, each an achievable objective or the least one above ``low``.

    Examples
    --------
    With λ = 0.3 a depth-one subtree costs 0.3, 0.6, 1.3, 1.6, 2.3, ...: a bound of 0.7 rises to 1.3,
    and a bound already achievable stays.

    >>> achievable_at_least(np.array([0.7, 1.6, 0.1]), penalty=0.3, max_leaves=2).round(6).tolist()
    [1.3, 1.6, 0.3]
    """
    low = np.asarray(low, dtype=np.float64)
    # fixed[k - 1] = k·λ, on a first axis of its own: the least over k then reduces along the first
    # axis (elementwise, fast), and one pass serves any shape of ``low``.
    fixed = (penalty * np.arange(1, max_leaves + 1)).reshape((-1,) + (1,) * low.ndim)
    value = low - fixed
    value -= 1e-7
    np.ceil(value, out=value)                                       # the least whole loss with k leaves
    np.maximum(value, 0.0, out=value)
    value += fixed
    best = value.min(axis=0)
    return np.maximum(best, low, out=best)


def whole_weights(scored: np.ndarray) -> bool:
    """Every scored weight is a whole number, so every objective is a whole loss plus λ per leaf.

    Examples
    --------
    >>> whole_weights(np.array([[2.0, 0.0], [1.0, 3.0]])), whole_weights(np.array([[0.5, 1.0]]))
    (True, False)
    """
    return bool(np.all(scored == np.round(scored)))


def achievable_values(penalty: float, max_leaves: int, total: float) -> np.ndarray | None:
    """Every objective ``ℓ + k·λ`` of a subtree with ``k <= max_leaves`` leaves and a whole loss
    ``ℓ <= total``, sorted: :func:`round_up_near` reads the next achievable value from it by one
    binary search. None when that list would be long (more than a million values).

    Examples
    --------
    >>> achievable_values(0.3, 2, 2.0).round(6).tolist()
    [0.3, 0.6, 1.3, 1.6, 2.3, 2.6]
    """
    whole_losses = int(np.ceil(total)) + 1
    if whole_losses * max_leaves > 1 << 20:
        return None
    fixed = penalty * np.arange(1, max_leaves + 1)                 # as achievable_at_least adds them
    return np.unique((np.arange(whole_losses, dtype=np.float64)[:, None] + fixed[None, :]).ravel())


def round_up_near(low_left: np.ndarray, low_right: np.ndarray, best: float, penalty: float, max_leaves: int,
                  values: np.ndarray | None = None) -> None:
    """:func:`achievable_at_least` on both children's bounds of the splits it can close (in place).

    Every child pays for at least one leaf, so its bound is at least λ, and rounding then raises
    it by less than one whole unit of loss: only splits whose two bounds add up to within two
    units of ``best`` can reach it. The others are left as they are (rounding fewer bounds is
    always sound, only weaker), which keeps the cost to the few splits near the best tree
    instead of every split of a wide support. With ``values`` (:func:`achievable_values` of the
    same λ and leaves) each bound rises to the first value at least itself, found by a binary
    search: the same numbers in a third of the time on a depth-four solve's small supports.

    Examples
    --------
    >>> low_left, low_right = np.array([0.7, 0.3]), np.array([0.7, 0.3])
    >>> round_up_near(low_left, low_right, best=2.5, penalty=0.3, max_leaves=2)
    >>> low_left.round(6).tolist(), low_right.round(6).tolist()   # the first split now reaches 2.5
    ([1.3, 0.3], [1.3, 0.3])
    >>> low_left, low_right = np.array([0.7, 0.3]), np.array([0.7, 0.3])
    >>> round_up_near(low_left, low_right, 2.5, 0.3, 2, values=achievable_values(0.3, 2, 2.0))
    >>> low_left.round(6).tolist(), low_right.round(6).tolist()
    ([1.3, 0.3], [1.3, 0.3])
    """
    both = low_left + low_right
    near = ((both >= best - 2.0) & (both < best)).nonzero()[0]         # closed ones need nothing
    if not len(near):
        return
    for low in (low_left, low_right):
        low[near] = achievable_from(low[near], penalty, max_leaves, values)


def achievable_from(bounds, penalty: float, max_leaves: int, values: np.ndarray | None = None):
    """Each bound raised to the least objective at least as large that a subtree of at most
    ``max_leaves`` leaves can have (:func:`achievable_at_least`), read from ``values``
    (:func:`achievable_values`) by a binary search when given; an array, or one number.

    Examples
    --------
    >>> achievable_from(np.array([0.7, 1.6]), 0.3, 2, achievable_values(0.3, 2, 2.0)).round(6).tolist()
    [1.3, 1.6]
    >>> round(float(achievable_from(0.7, 0.3, 2)), 6)
    1.3
    """
    if values is None:
        return achievable_at_least(np.atleast_1d(np.asarray(bounds, dtype=np.float64)), penalty,
                                   max_leaves).reshape(np.shape(bounds))
    found = values.take(values.searchsorted(bounds - 1e-7), mode="clip")
    return np.maximum(found, bounds)


def similar_bounds(low_left, low_right, j, left_obj, right_obj, both, single, total) -> None:
    """Raise every split's child lower bounds from the solved children of split ``j`` (in place).

    GOSDT Theorem B.10 (similar support): ``R*(B) >= R*(A ∩ B) >= R*(A) - w(A \\ B)``.
    With ``A`` the left child ``S ∖ f_j`` or the right child ``S ∩ f_j`` and ``B`` a child
    of split ``k``, ``w(A \\ B)`` is the weight of ``¬f_j ∧ f_k``, ``¬f_j ∧ ¬f_k``,
    ``f_j ∧ f_k`` or ``f_j ∧ ¬f_k``; ``both[k] = w(f_j ∧ f_k)``, ``single[k] = w(f_k)``
    and ``total = w(S)`` give all four. ``left_obj`` or ``right_obj`` may be None (not solved).

    Examples
    --------
    >>> low_left, low_right = np.zeros(2), np.zeros(2)
    >>> similar_bounds(low_left, low_right, 0, 5.0, None, np.array([3.0, 1.0]), np.array([3.0, 2.0]), 6.0)
    >>> low_left.tolist(), low_right.tolist()     # ¬f_0 has weight 3: it lacks 1 and 2 of ¬f_1, f_1
    ([5.0, 4.0], [2.0, 3.0])
    """
    lacks = single - both                                      # w(¬f_j ∧ f_k)
    if left_obj is not None:
        low_left[j] = left_obj
        np.maximum(low_left, left_obj - lacks, out=low_left)                                # ¬f_j ∧ f_k
        np.maximum(low_right, lacks + (left_obj - total + single[j]), out=low_right)        # ¬f_j ∧ ¬f_k
    if right_obj is not None:
        low_right[j] = right_obj
        np.maximum(low_right, both + (right_obj - single[j]), out=low_right)                # f_j ∧ ¬f_k
        np.maximum(low_left, right_obj - both, out=low_left)                                # f_j ∧ f_k


def search_root_splits(total, single, left_leaf, right_leaf, low_left, low_right, pair_with, penalty: float,
                       eps: float, best: float, children: np.ndarray | None = None) -> tuple[float, tuple | None]:
    """The best depth-two tree over one support, one root split at a time, if it beats ``best``.

    The search loop of both depth-two solvers that cannot afford a pair matrix
    (:meth:`DepthTwoSolver.bounded` and ``treeopt/solvers/gosdt/sorted_depth_two.py``). Trying root
    split ``j`` costs one call ``pair_with(j, alive)``, the class weights of ``f_j ∧ f_k`` for every
    candidate ``k``, which gives both children's best subtrees of depth at most one and the
    weights of the similar-support bound (GOSDT Theorem B.10, :func:`similar_bounds`), so one
    solved split raises the children's bounds of all others. A split whose bound reaches the
    best tree found is out for good (bounds only rise, the best only falls) and the arrays are
    compacted. Among the splits still in, the one whose bracket has the least midpoint is tried
    first: the bracket runs from the split's lower bound to its two children as leaves (a tree it
    has), so this weighs finding good trees early (they close more splits) against raising the
    bounds where they are lowest. On breast cancer with every threshold at depth three it tries
    a quarter fewer splits at λ = 0.005 and 0.01 (11 % at 0.02) than the children as leaves
    alone, which try a tenth fewer there than least bound first (and half as many on the whole
    support's 15,310 thresholds).

    A split is out once its bound is within ``eps`` of the best: it cannot beat the best by more
    than the solvers' tolerance. With whole weights its bound is often *equal* to the best, a
    whole loss plus λ per leaf on both sides, summed in another order, so only float error
    decides; without the tolerance such ties stay in and are tried (about one split in nine on
    breast cancer with every threshold at depth three).

    Parameters
    ----------
    total : ndarray of shape (K,)
        The support's class weights (scored).
    single : ndarray of shape (K, n)
        Each candidate root split's true side.
    left_leaf, right_leaf : ndarray of shape (n,)
        Each child as a leaf (loss + λ).
    low_left, low_right : ndarray of shape (n,)
        Lower bounds on each child's best subtree of depth at most one (not changed).
    pair_with : callable
        ``pair_with(j, alive)``: ``(pair, both)``, the class weights of ``f_j ∧ f_k`` for every candidate
        ``k`` of ``children`` (ndarray of shape (K, len(children))) and their total over the
        classes for every candidate ``k`` in ``alive`` (the candidates still open, ndarray of int;
        ``both`` has its length: closed candidates need no bound). With two classes ``pair`` may
        instead be the differences ``w₁ − w₀`` (shape (len(children),)): the children are then
        solved in the two-class form (``treeopt/solvers/gosdt/two_class_depth_two.py``).
    penalty, eps : float
        λ in weight units, and the tolerance a split must beat the leaf, or the best, by.
    best : float
        The objective to beat (the support as a leaf, or a target).
    children : ndarray of int, optional
        The candidates that may split a child (default: all). A child's best split into two
        leaves is among them when they hold, for every other candidate, one at least as good
        on every subset of the support (the class-boundary thresholds of
        ``treeopt/solvers/gosdt/sorted_depth_two.py``).

    Returns
    -------
    best : float
        The optimum if below the given ``best``, else the given ``best``.
    split : tuple or None
        ``(j, left_k, right_k)`` candidate indices of the optimal tree (``LEAF`` for a leaf
        child), or None when nothing beat the given ``best``.

    Examples
    --------
    Two features, XOR labels, five rows per cell; λ = 1:

    >>> total, single = np.array([10.0, 10.0]), np.array([[5.0, 5.0], [5.0, 5.0]])
    >>> pairs = {0: np.array([[5.0, 5.0], [5.0, 0.0]]), 1: np.array([[5.0, 5.0], [0.0, 5.0]])}
    >>> leaves, low = np.full(2, 6.0), np.full(2, 2.0)
    >>> with_totals = lambda j, alive: (pairs[j], pairs[j].sum(axis=0)[alive])
    >>> search_root_splits(total, single, leaves, leaves, low, low, with_totals, 1.0, 1e-9, best=11.0)
    (4.0, (0, 1, 1))
    """
    return drain(search_root_splits_steps(total, single, left_leaf, right_leaf, low_left, low_right, pair_with,
                                          penalty, eps, best, children))


def search_root_splits_steps(total, single, left_leaf, right_leaf, low_left, low_right, pair_with, penalty: float,
                             eps: float, best: float, children: np.ndarray | None = None,
                             slice_seconds: float | None = None):
    """:func:`search_root_splits` in slices: a generator that yields, between two tried root splits,
    when ``slice_seconds`` are spent (never, with None), and returns the same ``(best, split)``."""
    loss, two = leaf_loss, 2 * penalty
    clock = SliceClock(slice_seconds)
    total = np.asarray(total, dtype=np.float64).reshape(-1, 1)
    single_w, total_w = single.sum(axis=0), float(total.sum())
    n = single.shape[1]
    if children is None:
        children, single_children = np.arange(n), single
    else:
        single_children = single[:, children]
    # Where each candidate sits among the children's candidates (-1: not one of them).
    position = np.full(n, -1)
    position[children] = np.arange(len(children))
    if single.shape[0] == 2:          # for pair_with's class-weight differences (two_class_depth_two.py)
        difference, weight = single[1] - single[0], single_w.copy()
        children_difference = difference[children]
        total_difference = difference.dtype.type(total[1, 0] - total[0, 0])      # whole weights stay whole
    found = None
    # The splits still in (``alive``: candidate indices) and their arrays, compacted once a quarter of
    # them has dropped out (compacting after every tried split cost as much as the bounds' update).
    alive = np.arange(single.shape[1])
    stump = left_leaf + right_leaf
    low_left, low_right = low_left.copy(), low_right.copy()
    while True:
        bound = low_left + low_right
        closed = bound >= best - eps
        n_closed = int(np.count_nonzero(closed))
        if n_closed == len(alive):
            return best, found
        key = stump + bound                         # the least midpoint of [bound, children as leaves], doubled
        if 4 * n_closed >= len(alive):
            keep = ~closed
            alive, low_left, low_right, single_w, stump, key = (alive[keep], low_left[keep], low_right[keep],
                                                                single_w[keep], stump[keep], key[keep])
        elif n_closed:
            key[closed] = np.inf
        i = int(np.argmin(key))
        j = int(alive[i])
        pair, both = pair_with(j, alive)         # (K, children): class weights of f_j ∧ f_k; (alive,): their totals
        if both.ndim != 1:
            raise TypeError("pair_with(j, alive) must return (pair weights per class, their totals over the classes)")
        if pair.ndim == 1:                       # two classes, pair = w₁ − w₀ over f_j ∧ f_k
            right_obj, right_k, left_obj, left_k = two_class_children(
                pair, children_difference, difference[j], total_difference - difference[j], weight[j],
                total_w - weight[j], right_leaf[j], left_leaf[j], penalty, eps)
        else:
            right = single[:, j:j + 1]
            right_split = loss(pair) + loss(right - pair) + two
            left_split = loss(single_children - pair) + loss(total - right - single_children + pair) + two
            if position[j] >= 0:
                right_split[position[j]] = left_split[position[j]] = np.inf      # splitting on j again splits nothing
            right_obj, right_k = split_or_leaf(right_split, right_leaf[j], eps)
            left_obj, left_k = split_or_leaf(left_split, left_leaf[j], eps)
        if left_obj + right_obj < best:
            best = float(left_obj + right_obj)
            found = (j, LEAF if left_k == LEAF else int(children[left_k]), LEAF if right_k == LEAF else int(children[right_k]))
        similar_bounds(low_left, low_right, i, left_obj, right_obj, both, single_w, total_w)
        low_right[i] = np.inf                                    # tried
        if clock.due():
            yield


class DepthTwoSolver:
    """Solve depth-two (and depth-one) subproblems of one dataset exactly.

    Parameters
    ----------
    points : ndarray of bool, shape (n_points, n_features)
        The distinct binary feature vectors (``Dataset.points``).
    scored_counts : ndarray of float, shape (n_points, n_classes)
        Per point and class, the weight of its rows times that class's cost of a
        mistake, so a leaf predicting ``c`` loses ``sum(scored) - scored[c]``.
    penalty : float
        λ in weight units (the cost of one leaf).
    eps : float
        Tolerance for ties: a split must beat the leaf by more than ``eps``.
    column_words : ndarray of uint64, shape (n_features, words), optional
        ``pack_columns(points)`` (:func:`treeopt.data.pack_columns`), when the caller has it
        (``Dataset.column_words``); packed here otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=bool)
    >>> counts = np.array([[5, 0], [0, 5], [0, 5], [5, 0]], dtype=float)   # XOR
    >>> solver = DepthTwoSolver(X, counts, penalty=1.0, eps=1e-9)
    >>> result = solver.solve((1 << 4) - 1)
    >>> result.leaf_objective, result.objective, result.tree()
    (11.0, 4.0, (0, 1, 1))
    >>> solver.depth_one((1 << 4) - 1)
    (11.0, -1)
    """

    #: Above this many kept columns a support's pair matrix (columns² numbers per class) is not
    #: built; :meth:`best` then solves root splits one by one (:meth:`bounded`).
    max_pair_columns = 1500
    #: Up to this many features :meth:`columns` keeps equal columns (no bit packing or hashing).
    few_features = 64
    #: On threshold-like data, a support of at most this many rows × features is read from its rows'
    #: booleans rather than the packed columns (:meth:`_small_support_columns`): there the cost is
    #: the count of numpy calls, not the bytes (on compas, 2,308 points, the packed path wins from
    #: about 400 rows).
    small_support_cells = 32768
    #: :meth:`columns` merges equal columns by their counts when at least this share of the features
    #: nests with the one before it (threshold encodings), and by their bits otherwise.
    min_nested_share = 0.5

    def __init__(self, points: np.ndarray, scored_counts: np.ndarray, penalty: float, eps: float,
                 column_words: np.ndarray | None = None):
        self.points = np.asarray(points, dtype=bool)      # float copies are made per support (wide data: 15,000+ columns)
        self.scored = np.asarray(scored_counts, dtype=np.float64)
        self.penalty = float(penalty)
        self.eps = float(eps)
        self.n_points, self.n_features = self.points.shape
        # The columns as bits, for finding equal columns and counting rows by popcount
        # (treeopt/solvers/gosdt/bit_columns.py); the class weights as bit planes when read (:attr:`planes`).
        if column_words is None:
            column_words = pack_columns(self.points)
        self.packed_by_word = by_word(column_words)                  # (words, features)
        # Features nested with the one before them (``f_{i-1} ⊆ f_i`` or the reverse), as consecutive
        # thresholds of one numeric column are: on any support two nested columns are equal exactly
        # when they have as many rows, so equal neighbours are found by counting (:meth:`columns`).
        rising, falling = nested_neighbours(column_words)
        self.nested_with_previous = np.zeros(self.n_features, dtype=bool)
        self.nested_with_previous[1:] = rising | falling
        #: Mostly nested neighbours (threshold columns): :meth:`columns` merges equal columns by counts.
        self.by_counts = self.n_features > self.few_features and \
            self.nested_with_previous.mean() >= self.min_nested_share
        # Whole weights (unit costs, no fractional sample weights) below 2**24 are exact in single
        # precision, and so is every sum of them up to the total: the pair product then runs in
        # float32, about twice as fast as in float64 (``counts``), with the same numbers.
        #: Whole weights: every objective is a whole loss plus λ per leaf (:func:`achievable_at_least`).
        self.whole = whole_weights(self.scored)
        self.single_precision = self.whole and float(self.scored.sum()) < 2.0 ** 24
        # Two classes: :meth:`best` reads the optimum from one matrix of class-weight differences
        # (``treeopt/solvers/gosdt/two_class_depth_two.py``), from these per-point sums and differences.
        self.two_classes = self.scored.shape[1] == 2
        if self.two_classes:
            dtype = np.float32 if self.single_precision else np.float64
            self._weight = self.scored.sum(axis=1).astype(dtype)
            self._difference = (self.scored[:, 1] - self.scored[:, 0]).astype(dtype)
        self._achievable: dict = {}            # max_leaves -> achievable_values (achievable)

    @cached_property
    def planes(self) -> WeightPlanes:
        """The class weights as bit planes (``treeopt/solvers/gosdt/bit_columns.py``), for :meth:`pair_weights`
        by popcount; made when first read (only supports too wide for a pair matrix read it)."""
        return WeightPlanes(self.scored)

    def achievable(self, max_leaves: int) -> np.ndarray | None:
        """:func:`achievable_values` of subtrees of at most ``max_leaves`` leaves over these points
        (made once per count of leaves; whole weights only)."""
        if max_leaves not in self._achievable:
            self._achievable[max_leaves] = achievable_values(self.penalty, max_leaves, float(self.scored.sum()))
        return self._achievable[max_leaves]

    # -- the rows of a support set ------------------------------------------------
    def rows(self, support: int) -> np.ndarray:
        """Boolean mask of the points in a support set (bit ``u`` set = point ``u`` in it)."""
        return points_in(support, self.n_points)

    # -- solving -----------------------------------------------------------------------
    def depth_one(self, support: int) -> tuple[float, int]:
        """(objective, feature) of the best tree of depth at most one (feature -1: the leaf)."""
        with one_blas_thread():
            return self._depth_one(support)

    def _depth_one(self, support: int) -> tuple[float, int]:
        return drain(self.depth_one_steps(self.rows(support)))

    def depth_one_steps(self, mask: np.ndarray, slice_seconds: float | None = None):
        """:meth:`depth_one` of the points in ``mask``, in slices: the class weights of every feature
        are summed over blocks of rows, yielding when a slice is spent; returns ``(objective, feature)``.
        Call inside :func:`one_blas_thread`."""
        rows = np.asarray(mask).nonzero()[0]
        W = self.scored[rows]
        total = W.sum(axis=0)                                   # (K,)
        # (K, F): weight with f true, summed over blocks of rows so that no float copy of the
        # support's whole table is made (on a large support that copy was most of the call).
        single = np.zeros((W.shape[1], self.n_features))
        step = max(1, self.block_cells // max(self.n_features, 1))
        clock = SliceClock(slice_seconds)
        for start in range(0, len(rows), step):
            block = self.points[rows[start:start + step]]
            single += W[start:start + step].T @ block.astype(np.float64)
            if clock.due():
                yield
        leaf_obj = float(leaf_loss(total[:, None])[0]) + self.penalty
        objective = leaf_loss(single) + leaf_loss(total[:, None] - single) + 2 * self.penalty
        k = int(np.argmin(objective))
        if objective[k] < leaf_obj - self.eps:
            return float(objective[k]), k
        return leaf_obj, LEAF

    def best(self, mask: np.ndarray, target: float = np.inf) -> tuple[float, object]:
        """``(objective, spec)`` of the best tree of depth at most two over a mask's points.

        With at most :attr:`max_pair_columns` kept columns the pair matrix gives the exact
        optimum whatever the target (an exact value is the strongest bound for the
        similar-support bound of ``treeopt/solvers/gosdt/depth_three.py``). With more, root
        splits are solved one by one (:meth:`bounded`) and the answer is exact only when
        it is below ``target - eps``; otherwise it is ``(target - eps, None)``, a lower
        bound (nothing beats the target). The spec is ``LEAF`` or ``(root, left, right)``
        features (``LEAF`` for a leaf child). Call inside :func:`one_blas_thread`.
        """
        return drain(self.best_steps(mask, target))

    def best_steps(self, mask: np.ndarray, target: float = np.inf, slice_seconds: float | None = None):
        """:meth:`best` in slices: the support's columns and its pair products over blocks of rows,
        yielding when a slice is spent; returns the same ``(objective, spec)``. Call inside
        :func:`one_blas_thread`."""
        dtype = self._difference.dtype if self.two_classes else np.float64
        columns = yield from self.columns_steps(mask, dtype, slice_seconds)
        if columns.X.shape[1] > self.max_pair_columns:
            return (yield from self.bounded_steps(columns, target, slice_seconds))
        if self.two_classes:
            X = columns.X
            m, f = X.shape
            step = max(1, self.block_products // max(f * f, 1))
            if step >= m:
                return self._two_class_best(X, columns)
            clock = SliceClock(slice_seconds)
            difference = self._difference[columns.rows]
            pair_difference = np.zeros((f, f), dtype=X.dtype)
            for start in range(0, m, step):
                rows = X[start:start + step]
                with one_blas_thread():
                    pair_difference += rows.T @ (rows * difference[start:start + step, None])
                if clock.due():
                    yield
            with one_blas_thread():
                return self._two_class_best(X, columns, pair_difference)
        counts = yield from self.counts_steps(columns, slice_seconds)
        return counts.objective, counts.spec()

    def start(self, mask: np.ndarray, target: float, slice_seconds: float | None = None,
              depth: int = 2) -> "SlicedRun":
        """:meth:`best` (or with ``depth=1`` :meth:`depth_one`) as a run that advances one slice at a
        time (for a stepwise search)."""
        if depth == 1:
            return SlicedRun(self.depth_one_steps(mask, slice_seconds))
        return SlicedRun(self.best_steps(mask, float(target), slice_seconds))

    def best_with_pair_weights(self, columns: "Columns") -> tuple[float, object, np.ndarray]:
        """:meth:`best` of a support's kept columns (at most :attr:`max_pair_columns`), with the
        weight of ``f_j ∧ f_k`` over all classes for every pair of them (the similar-support bound's
        weights, ``treeopt/solvers/gosdt/depth_three.py``). Call inside :func:`one_blas_thread`."""
        if self.two_classes:
            X = columns.X.astype(self._difference.dtype, copy=False)
            both = (X.T @ (X * self._weight[columns.rows][:, None])).astype(np.float64)
            return (*self._two_class_best(X, columns), both)
        counts = self.counts(columns)
        return counts.objective, counts.spec(), counts.pair.sum(axis=0)

    def best_with_pair_weights_steps(self, columns: "Columns", slice_seconds: float | None = None):
        """:meth:`best_with_pair_weights` in slices: with two classes both pair products are summed
        over blocks of rows (:attr:`block_products`), yielding when a slice is spent; returns the
        same triple. Call inside :func:`one_blas_thread`."""
        if not self.two_classes:
            counts = yield from self.counts_steps(columns, slice_seconds)
            return counts.objective, counts.spec(), counts.pair.sum(axis=0)
        X = columns.X.astype(self._difference.dtype, copy=False)
        weight, difference = self._weight[columns.rows], self._difference[columns.rows]
        m, f = X.shape
        step = max(1, self.block_products // max(2 * f * f, 1))
        if step >= m:
            return self.best_with_pair_weights(columns)
        clock = SliceClock(slice_seconds)
        both = np.zeros((f, f), dtype=X.dtype)
        pair_difference = np.zeros((f, f), dtype=X.dtype)
        for start in range(0, m, step):
            rows = X[start:start + step]
            both += rows.T @ (rows * weight[start:start + step, None])
            pair_difference += rows.T @ (rows * difference[start:start + step, None])
            if clock.due():
                yield
        return (*self._two_class_best(X, columns, pair_difference), both.astype(np.float64))

    def _two_class_best(self, X: np.ndarray, columns: "Columns",
                        pair_difference: np.ndarray | None = None) -> tuple[float, object]:
        """``(objective, spec)`` from the two-class form (``X``: the kept columns in the solve dtype)."""
        objective, split = two_class_depth_two(X, self._weight[columns.rows], self._difference[columns.rows],
                                               self.penalty, self.eps, pair_difference)
        if split == LEAF:
            return objective, LEAF
        return objective, tuple(LEAF if k == LEAF else int(columns.features[k]) for k in split)

    def bounded(self, columns: "Columns", target: float = np.inf) -> tuple[float, object]:
        """:meth:`best` one root split at a time, for supports with many columns.

        Each tried root split ``j`` costs one product over the rows with ``f_j`` (the
        pair counts of ``j`` with every column), which gives both children's best
        depth-one subtrees and the weights of the similar-support bound (GOSDT Theorem
        B.10, as in ``treeopt/solvers/gosdt/depth_three.py``): ``R*(B) >= R*(A) - w(A \\ B)``
        bounds the children of every other split, so on threshold columns one solved
        split closes its neighbours (:func:`search_root_splits`).
        """
        return drain(self.bounded_steps(columns, target))

    def bounded_steps(self, columns: "Columns", target: float = np.inf, slice_seconds: float | None = None):
        """:meth:`bounded` in slices: yields between two tried root splits when a slice is spent."""
        leaves = Leaves.of(self, columns)
        best, spec = target - self.eps, None
        if leaves.leaf_objective < best:
            best, spec = leaves.leaf_objective, LEAF
        if columns.X.shape[1] == 0:
            return best, spec
        low_left, low_right = leaves.lower_bounds()

        def pair_with(j: int, alive: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
            pair = self.pair_weights(columns, j)
            return pair, pair.sum(axis=0).take(alive)

        best, split = yield from search_root_splits_steps(
            leaves.total, leaves.single, leaves.left_leaf, leaves.right_leaf, low_left, low_right, pair_with,
            self.penalty, self.eps, best, slice_seconds=slice_seconds)
        if split is not None:
            spec = tuple(LEAF if c == LEAF else int(columns.features[c]) for c in split)
        return best, spec

    def pair_weights(self, columns: "Columns", j: int) -> np.ndarray:
        """Class weights of the support's rows with both kept columns ``j`` and ``k``, for every ``k``.

        By popcount over the packed columns when the weights have bit planes (a fraction
        of a millisecond on 15,000 columns), else one float product over the rows with ``f_j``.
        """
        if self.planes.planes is not None and columns.bits_by_word is not None:
            return self.planes.counts(columns.bits_by_word, columns.bits_by_word[:, j])
        rows = columns.X[:, j] > 0
        return columns.W[rows].T @ columns.X[rows]

    def solve(self, support: int) -> DepthTwoResult:
        """The best subtrees of depth at most one below every split, and of depth at most two."""
        with one_blas_thread():                 # without it BLAS threads spin (CPU > wall)
            return self.solve_rows(self.rows(support))

    def solve_rows(self, mask: np.ndarray) -> DepthTwoResult:
        """:meth:`solve` for the points selected by a boolean mask (call inside :func:`one_blas_thread`)."""
        columns = self.columns(mask)
        counts = self.counts(columns)
        return counts.result(self.n_features)

    # -- the columns that matter on a support set ----------------------------------------
    def columns(self, mask: np.ndarray, dtype=np.float64) -> "Columns":
        """The support's rows and its *distinct, non-constant* feature columns (``X`` in ``dtype``).

        A feature true (or false) on every row of the support splits nothing there,
        and two features equal on every row give the same subtrees, so only one
        column per class of equal columns is kept. On threshold features this is
        most of them: below a split on ``x <= t`` every threshold of ``x`` above
        ``t`` is constant, and thresholds with no row of the support between them
        are equal. The products below then shrink with the square of the kept count.
        """
        return drain(self.columns_steps(mask, dtype))

    #: Cells (rows × kept columns) of one block of :meth:`columns_steps`' copy of the support's rows:
    #: between two blocks a sliced solve may yield. Blocks depend on the sizes only.
    block_cells = 1 << 22

    def columns_steps(self, mask: np.ndarray, dtype=np.float64, slice_seconds: float | None = None):
        """:meth:`columns` in slices: on a large support the kept columns are copied by blocks of rows
        (:attr:`block_cells`), yielding when a slice is spent; returns the :class:`Columns`."""
        rows = np.asarray(mask).nonzero()[0]      # (the method: np.flatnonzero's wrappers cost more here)
        if self.n_features <= self.few_features:
            # Few columns: the products below are small whatever the duplicates, and finding equal
            # columns by their bits would cost more than it saves (about half of a call on 27 columns).
            points = self.points[rows]
            ones = points.sum(axis=0)
            kept = ((ones > 0) & (ones < len(rows))).nonzero()[0]
            return Columns(points[:, kept].astype(dtype), self.scored[rows], kept,
                           (kept, np.arange(len(kept))), None, rows)
        if self.by_counts and len(rows) * self.n_features <= self.small_support_cells:
            columns = self._small_support_columns(rows, dtype)
            if columns is not None:
                return columns
        by_word = self.packed_by_word & pack_mask(mask)[:, None]    # each column on the support's points
        ones = np.bitwise_count(by_word).sum(axis=0, dtype=np.int64)
        varying = ((ones > 0) & (ones < len(rows))).nonzero()[0]     # every column that splits the support
        if self.by_counts:
            kept, members = self._merge_by_counts(ones, varying)
            bits = np.ascontiguousarray(by_word[:, kept]) if len(kept) > self.max_pair_columns else None
        else:
            kept, members, bits = self._merge_by_bits(by_word, varying)
        del by_word
        step = max(1, self.block_cells // max(len(kept), 1))
        if step >= len(rows):
            X = self.points[rows][:, kept].astype(dtype)        # two takes: twice as fast as np.ix_
        else:
            clock = SliceClock(slice_seconds)
            X = np.empty((len(rows), len(kept)), dtype=dtype)
            for start in range(0, len(rows), step):
                X[start:start + step] = self.points[rows[start:start + step]][:, kept]
                if clock.due():
                    yield
        return Columns(X, self.scored[rows], kept, members, bits, rows)

    def _small_support_columns(self, rows: np.ndarray, dtype) -> "Columns | None":
        """:meth:`columns` of a small support on threshold-like data, from its rows' booleans.

        The same columns as the packed path (each column's count of the support's rows; equal
        nested neighbours merged by :meth:`_merge_by_counts`' rule), with fewer numpy calls, which
        is what small supports on threshold columns pay for. None when the pair matrix would not be built
        (more than :attr:`max_pair_columns` kept: the packed path keeps their bits).
        """
        points = self.points[rows]
        ones = np.add.reduce(points.view(np.uint8), axis=0, dtype=np.int32)     # (bytes sum faster than booleans)
        varying = ((ones > 0) & (ones < len(rows))).nonzero()[0]
        kept, members = self._merge_by_counts(ones, varying)
        if len(kept) > self.max_pair_columns:
            return None
        return Columns(points[:, kept].astype(dtype), self.scored[rows], kept, members, None, rows)

    @staticmethod
    def _merge_by_bits(by_word: np.ndarray, varying: np.ndarray) -> tuple:
        """Equal columns have equal bits on the support; keep the first of each, in dataset order."""
        by_word = by_word[:, varying]
        first, inverse = unique_columns(by_word)
        return varying[first], (varying, inverse), np.ascontiguousarray(by_word[:, first])

    def _merge_by_counts(self, ones: np.ndarray, varying: np.ndarray) -> tuple:
        """On threshold-like data: a column equal to its nested neighbour joins the neighbour's.

        Two nested columns are equal on the support exactly when they have as many of its rows
        (``ones``, each column's count). Columns equal but not neighbours (two numeric columns
        cutting the support alike) are both kept: still exact, only a little more work. Of each run
        of equal neighbours the first is kept, the column :meth:`_merge_by_bits` keeps too (the
        first in dataset order). Returns ``(kept, members)``; the caller makes the kept columns'
        bits where a search reads them (no pair matrix).
        """
        repeats = np.zeros(self.n_features, dtype=bool)
        repeats[1:] = (ones[1:] == ones[:-1]) & self.nested_with_previous[1:]
        first = ~repeats[varying]
        return varying[first], RunMembers(varying, first)

    def counts(self, columns: "Columns") -> "PairCounts":
        """Single and pair counts of a support's kept columns, with every depth-two quantity."""
        return drain(self.counts_steps(columns))

    def solve_steps(self, support: int, slice_seconds: float | None = None):
        """:meth:`solve` in slices (a generator: yields after about ``slice_seconds`` of work, returns
        the result); the pair counts are summed over blocks of rows (:meth:`counts_steps`)."""
        columns = yield from self.columns_steps(self.rows(support), slice_seconds=slice_seconds)   # (no BLAS)
        counts = yield from self.counts_steps(columns, slice_seconds)
        return counts.result(self.n_features)

    #: Multiply-adds of one block of the pair product (rows × classes × kept columns²): between two
    #: blocks a sliced count may yield. The blocks depend on the sizes only, so the sums do not
    #: depend on where slices fall.
    block_products = 1 << 26

    def counts_steps(self, columns: "Columns", slice_seconds: float | None = None):
        """:meth:`counts` in slices: the products summed over blocks of rows, yielding when a slice
        is spent (never, with None). Returns the :class:`PairCounts`."""
        X, W = columns.X, columns.W
        n_classes = W.shape[1]
        total = W.sum(axis=0)                                   # (K,)
        single = W.T @ X                                        # (K, F)
        # pair[c, i, k]: weight of class c with f_i and f_k both true (one product for all classes).
        m, f = X.shape
        if self.single_precision:
            X, W = X.astype(np.float32), W.astype(np.float32)
        step = max(1, self.block_products // max(n_classes * f * f, 1))
        if step >= m:
            weighted = (W[:, :, None] * X[:, None, :]).reshape(m, n_classes * f)
            pair = (weighted.T @ X).astype(np.float64, copy=False)
        elif m * n_classes * f <= self.block_products:
            # The weighted rows fit in one block: slice the product by output columns instead, each
            # slice a full product over every row (no partial sums to add up between slices).
            clock = SliceClock(slice_seconds)
            weighted = (W[:, :, None] * X[:, None, :]).reshape(m, n_classes * f)
            pair = np.empty((n_classes * f, f))
            width = max(1, self.block_products // max(n_classes * f * m, 1))
            for start in range(0, f, width):
                with one_blas_thread():
                    pair[:, start:start + width] = weighted.T @ X[:, start:start + width]
                if clock.due():
                    yield
        else:
            clock = SliceClock(slice_seconds)
            pair = np.zeros((n_classes * f, f))
            for start in range(0, m, step):
                rows_X, rows_W = X[start:start + step], W[start:start + step]
                weighted = (rows_W[:, :, None] * rows_X[:, None, :]).reshape(len(rows_X), n_classes * f)
                with one_blas_thread():
                    pair += weighted.T @ rows_X
                if clock.due():
                    yield
        return PairCounts(self, columns, total, single, pair.reshape(n_classes, f, f))


class SlicedRun:
    """A sliced solve (a generator returning ``(objective, spec)``) as a run a search advances by slices.

    The interface of ``treeopt/solvers/gosdt/depth_three.py``'s runs: :meth:`advance`, :attr:`done`,
    and once done :attr:`objective` and :attr:`spec`; until then :attr:`best` is infinite, :attr:`spec`
    None and :attr:`lower_bound` minus infinity (a solve from pair counts proves nothing half way).
    """

    __slots__ = ("_steps", "done", "objective", "spec")

    def __init__(self, steps):
        self._steps = steps
        self.done = False
        self.objective, self.spec = np.inf, None

    @property
    def best(self) -> float:
        return self.objective

    @property
    def lower_bound(self) -> float:
        return self.objective if self.done else -np.inf

    def advance(self, seconds: float | None = None) -> None:
        """One slice of the solve (all of it with ``seconds=None``)."""
        if self.done:
            return
        try:
            with one_blas_thread():             # entered and left around each slice, never across a pause
                if seconds is None:
                    while True:
                        next(self._steps)
                next(self._steps)
        except StopIteration as finished:
            self.objective, self.spec = finished.value
            self.done = True


class RunMembers:
    """``Columns.members`` of columns merged by runs of equal neighbours, made when unpacked.

    ``features, column = members`` gives every non-constant feature (``varying``) and the kept
    column it joins: a repeat joins its neighbour's, so the column is the count of run starts up to
    it, less one. Only the depth-two results over every feature read it (``PairCounts.result``);
    the solves that want one optimum, most of them, never pay for it.
    """

    def __init__(self, varying: np.ndarray, first: np.ndarray):
        self.varying, self.first = varying, first

    def __iter__(self):
        return iter((self.varying, np.cumsum(self.first) - 1))


@dataclass
class Columns:
    """A support's rows (``X``: kept feature columns, ``W``: scored class weights).

    ``features[i]`` is the dataset feature of kept column ``i``; ``members`` is
    ``(features, column)``: every non-constant dataset feature and the kept column
    equal to it on the support; ``bits_by_word`` holds the kept columns as packed bits over
    all points, zero outside the support, word-major (``treeopt/solvers/gosdt/bit_columns.py``), or is
    None on data with few features (equal columns are then kept, each its own class) and, on
    threshold data merged by counts, wherever the pair matrix is built (nothing reads the bits then).
    ``rows`` lists the support's points.
    """

    X: np.ndarray
    W: np.ndarray
    features: np.ndarray
    members: tuple | RunMembers      # unpacks as (features, column)
    bits_by_word: np.ndarray | None  # (words, kept): each kept column as packed bits (None: few features)
    rows: np.ndarray                 # the support's points (indices into the dataset's points)


class PairCounts:
    """Depth-one and depth-two optima below every split of one support (kept columns)."""

    def __init__(self, solver: DepthTwoSolver, columns: Columns, total, single, pair):
        lam, eps = solver.penalty, solver.eps
        loss = leaf_loss
        self.columns, self.total, self.single, self.pair = columns, total, single, pair
        n = single.shape[1]
        right = single[:, :, None]                              # (K, F, 1): f_i true
        left = (total[:, None] - single)[:, :, None]            # (K, F, 1): f_i false
        # Children of root split i, each either a leaf or split on k into two leaves.
        right_split = loss(pair) + loss(right - pair) + 2 * lam                     # (F, F)
        left_split = loss(single[:, None, :] - pair) + loss(left - single[:, None, :] + pair) + 2 * lam
        self.right_leaf = loss(right[:, :, 0]) + lam                                # (F,)
        self.left_leaf = loss(left[:, :, 0]) + lam
        right_k = np.argmin(right_split, axis=1) if n else np.zeros(0, int)
        left_k = np.argmin(left_split, axis=1) if n else np.zeros(0, int)
        columns_ = np.arange(n)
        right_best = right_split[columns_, right_k]
        left_best = left_split[columns_, left_k]
        right_is_split = right_best < self.right_leaf - eps
        left_is_split = left_best < self.left_leaf - eps
        self.right_objective = np.where(right_is_split, right_best, self.right_leaf)
        self.left_objective = np.where(left_is_split, left_best, self.left_leaf)
        self.right_k = np.where(right_is_split, right_k, LEAF)          # kept-column indices
        self.left_k = np.where(left_is_split, left_k, LEAF)
        self.leaf_objective = float(loss(total[:, None])[0]) + lam
        both = self.left_objective + self.right_objective
        i = int(np.argmin(both)) if n else 0
        if n and both[i] < self.leaf_objective - eps:
            self.objective, self.root = float(both[i]), i
        else:
            self.objective, self.root = self.leaf_objective, LEAF

    def feature(self, column: int) -> int:
        """The dataset feature of a kept column (``LEAF`` stays ``LEAF``)."""
        return LEAF if column == LEAF else int(self.columns.features[column])

    def spec(self) -> tuple | int:
        """The best depth-two tree as a nested spec (see :func:`treeopt.solvers.gosdt.depth_two.spec_tree`)."""
        i = self.root
        if i == LEAF:
            return LEAF
        return (self.feature(i), self.feature(int(self.left_k[i])), self.feature(int(self.right_k[i])))

    def result(self, n_features: int) -> DepthTwoResult:
        """The result over every dataset feature (constant features: ``inf``, a leaf)."""
        features, column = self.columns.members
        right_obj = np.full(n_features, np.inf)
        left_obj = np.full(n_features, np.inf)
        right_feature = np.full(n_features, LEAF)
        left_feature = np.full(n_features, LEAF)
        kept = self.columns.features
        to_feature = np.append(kept, LEAF)                       # column LEAF (-1) maps to LEAF
        right_obj[features] = self.right_objective[column]
        left_obj[features] = self.left_objective[column]
        right_feature[features] = to_feature[self.right_k[column]]
        left_feature[features] = to_feature[self.left_k[column]]
        return DepthTwoResult(self.leaf_objective, right_obj, right_feature, left_obj, left_feature,
                              self.objective, self.feature(self.root))


@dataclass
class Leaves:
    """Leaf objectives of a support and of both children of every kept column (weight units)."""

    total: np.ndarray            # (K,) scored weight per class
    single: np.ndarray           # (K, F) with the column true
    leaf_objective: float
    right_leaf: np.ndarray       # (F,)
    left_leaf: np.ndarray
    eq_right: np.ndarray         # equivalent-points loss of each child (GOSDT equation 9)
    eq_left: np.ndarray
    penalty: float

    @classmethod
    def of(cls, solver: DepthTwoSolver, columns: Columns) -> "Leaves":
        lam, loss = solver.penalty, leaf_loss
        X, W = columns.X, columns.W
        total = W.sum(axis=0)
        single = W.T @ X
        point_eq = W.sum(axis=1) - W.max(axis=1)                 # what even one leaf per point loses
        eq_right = point_eq @ X
        return cls(total, single, float(loss(total[:, None])[0]) + lam, loss(single) + lam,
                   loss(total[:, None] - single) + lam, eq_right, float(point_eq.sum()) - eq_right, lam)

    def lower_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Each child's least objective: its leaf, or its equivalent-points loss + 2λ (GOSDT B.2, B.9)."""
        two = 2 * self.penalty
        return np.minimum(self.left_leaf, self.eq_left + two), np.minimum(self.right_leaf, self.eq_right + two)

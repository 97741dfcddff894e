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

Objectives are in weight units (scored loss + λ per leaf), like the solvers'.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data import points_in

__all__ = ["DepthTwoSolver", "DepthTwoResult"]

LEAF = -1   # "no split": the subtree is a single leaf

_blas = None


def _one_blas_thread():
    """A context that runs BLAS on one thread.

    The products here are small (at most points × features × features) and come
    thousands of times per second; a multi-threaded BLAS spends more time waking
    its threads than multiplying (measured 25-40 times slower on two busy cores).
    """
    global _blas
    if _blas is None:
        from threadpoolctl import ThreadpoolController
        _blas = ThreadpoolController()
    return _blas.limit(limits=1, user_api="blas")


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

    def __init__(self, points: np.ndarray, scored_counts: np.ndarray, penalty: float, eps: float):
        self.points = np.asarray(points, dtype=np.float64)
        self.scored = np.asarray(scored_counts, dtype=np.float64)
        self.penalty = float(penalty)
        self.eps = float(eps)
        self.n_points, self.n_features = self.points.shape

    # -- the rows of a support set ------------------------------------------------
    def rows(self, support: int) -> np.ndarray:
        """Boolean mask of the points in a support set (bit ``u`` set = point ``u`` in it)."""
        return points_in(support, self.n_points)

    @staticmethod
    def _loss(cells: np.ndarray) -> np.ndarray:
        """Leaf loss of class-count vectors along axis 0: everything but the best class."""
        if cells.shape[0] == 2:
            return np.minimum(cells[0], cells[1])
        return cells.sum(axis=0) - cells.max(axis=0)

    # -- solving -----------------------------------------------------------------------
    def depth_one(self, support: int) -> tuple[float, int]:
        """(objective, feature) of the best tree of depth at most one (feature -1: the leaf)."""
        with _one_blas_thread():
            return self._depth_one(support)

    def _depth_one(self, support: int) -> tuple[float, int]:
        mask = self.rows(support)
        X, W = self.points[mask], self.scored[mask]
        total = W.sum(axis=0)                                   # (K,)
        single = W.T @ X                                        # (K, F): weight with f true
        leaf_obj = float(self._loss(total[:, None])[0]) + self.penalty
        objective = self._loss(single) + self._loss(total[:, None] - single) + 2 * self.penalty
        k = int(np.argmin(objective))
        if objective[k] < leaf_obj - self.eps:
            return float(objective[k]), k
        return leaf_obj, LEAF

    def solve(self, support: int) -> DepthTwoResult:
        """The best subtrees of depth at most one below every split, and of depth at most two."""
        with _one_blas_thread():                 # about 20 µs; without it BLAS threads spin (CPU > wall)
            return self._solve(support)

    def _solve(self, support: int) -> DepthTwoResult:
        lam, eps = self.penalty, self.eps
        mask = self.rows(support)
        X, W = self.points[mask], self.scored[mask]
        total = W.sum(axis=0)                                   # (K,)
        single = W.T @ X                                        # (K, F)
        # pair[c, i, k]: weight of class c with f_i and f_k both true (one product per class).
        pair = np.stack([(X * W[:, c, None]).T @ X for c in range(W.shape[1])])
        right = single[:, :, None]                              # (K, F, 1): f_i true
        left = (total[:, None] - single)[:, :, None]            # (K, F, 1): f_i false
        # Children of root split i, each either a leaf or split on k into two leaves.
        right_split = self._loss(pair) + self._loss(right - pair) + 2 * lam                     # (F, F)
        left_split = self._loss(single[:, None, :] - pair) + \
            self._loss(left - single[:, None, :] + pair) + 2 * lam
        right_leaf = self._loss(right[:, :, 0]) + lam                                          # (F,)
        left_leaf = self._loss(left[:, :, 0]) + lam
        right_k = np.argmin(right_split, axis=1)
        left_k = np.argmin(left_split, axis=1)
        columns = np.arange(self.n_features)
        right_best = right_split[columns, right_k]
        left_best = left_split[columns, left_k]
        right_is_split = right_best < right_leaf - eps
        left_is_split = left_best < left_leaf - eps
        right_obj = np.where(right_is_split, right_best, right_leaf)
        left_obj = np.where(left_is_split, left_best, left_leaf)
        right_feature = np.where(right_is_split, right_k, LEAF)
        left_feature = np.where(left_is_split, left_k, LEAF)
        leaf_obj = float(self._loss(total[:, None])[0]) + lam
        both = left_obj + right_obj
        i = int(np.argmin(both)) if self.n_features else 0
        if self.n_features and both[i] < leaf_obj - eps:
            objective, root = float(both[i]), i
        else:
            objective, root = leaf_obj, LEAF
        return DepthTwoResult(leaf_obj, right_obj, right_feature, left_obj, left_feature, objective, root)

"""The best depth-two tree for two classes, from one matrix of class-weight differences.

With two classes a leaf loses the lighter class: ``min(w₀, w₁) = (u − |v|) / 2`` with
``u = w₀ + w₁`` its weight and ``v = w₁ − w₀`` the difference. A split into two leaves
loses ``(u − |v_a| − |v − v_a|) / 2``, where ``v_a`` is one side's difference, so the
best split of a child is the one with the largest ``|v_a| + |v − v_a|``, and every
quantity of the depth-two search (MurTree section 4.3, ``treeopt/solvers/gosdt/depth_two.py``)
follows from the differences alone: one pair matrix ``G = Xᵀ diag(v) X``, whose entry
``G[i, k]`` is the difference over the rows with ``f_i`` and ``f_k`` and whose diagonal
holds each feature's own. The general solver builds a pair matrix per class and takes
two minimums over classes per cell; this is half the product and about half the
passes over the ``F × F`` cells, the same optimum (in whole weights, the same numbers).

Cells, for a root split on ``f_i`` with the support's difference ``v_S``:

* the right child ``S ∩ f_i`` (difference ``G[i, i]``) split on ``f_k``: parts ``G[i, k]``
  and ``G[i, i] − G[i, k]``;
* the left child ``S ∖ f_i`` (difference ``v_S − G[i, i]``) split on ``f_k``: parts
  ``G[k, k] − G[i, k]`` and ``v_S − G[i, i] − G[k, k] + G[i, k]``.

Objectives are in weight units (scored loss + λ per leaf), like the solvers'.
"""

from __future__ import annotations

import numpy as np

__all__ = ["two_class_depth_two", "two_class_children"]

LEAF = -1   # "no split", as in treeopt/solvers/gosdt/depth_two.py


def two_class_depth_two(X: np.ndarray, weight: np.ndarray, difference: np.ndarray, penalty: float,
                        eps: float, pair_difference: np.ndarray | None = None) -> tuple[float, tuple | int]:
    """The best tree of depth at most two over some rows, for two classes.

    Parameters
    ----------
    X : ndarray of shape (n_rows, n_columns)
        The rows' binary columns as 0/1 numbers (float32 when every sum is exact in it).
    weight, difference : ndarray of shape (n_rows,)
        Each row's scored weights ``w₀ + w₁`` and ``w₁ − w₀``, in ``X``'s dtype.
    penalty : float
        λ in weight units.
    eps : float
        Tolerance for ties: a split must beat a leaf by more than ``eps``.
    pair_difference : ndarray of shape (n_columns, n_columns), optional
        ``G = Xᵀ diag(difference) X`` when the caller summed it already (in slices of rows).

    Returns
    -------
    objective : float
        The optimum in weight units.
    spec : int or tuple
        ``LEAF`` (-1), or ``(root, left, right)`` column indices, ``LEAF`` for a leaf child
        (the first optimal split at each place, up to rounding among exact ties).

    Examples
    --------
    XOR of two columns, five rows per cell, λ = 1: two splits into four pure leaves.

    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=float)
    >>> weight = np.full(4, 5.0)
    >>> difference = np.array([-5.0, 5.0, 5.0, -5.0])          # classes 0, 1, 1, 0
    >>> two_class_depth_two(X, weight, difference, penalty=1.0, eps=1e-9)
    (4.0, (0, 1, 1))
    """
    lam = float(penalty)
    # (np.add.reduce and the methods below skip numpy's Python wrappers: a third of a small solve's time.)
    total_weight, total_difference = float(np.add.reduce(weight)), float(np.add.reduce(difference))
    leaf = (total_weight - abs(total_difference)) / 2 + lam
    n = X.shape[1]
    if n == 0:
        return leaf, LEAF
    # parts[0] = G, G[i, k]: the difference over f_i ∧ f_k; parts[1][k, i] = G[i, k] − G[k, k] (below).
    parts = np.empty((2, n, n), dtype=np.result_type(X, difference))
    if pair_difference is None:
        np.matmul(X.T, X * difference[:, None], out=parts[0])
    else:
        parts[0] = pair_difference
    diagonal = parts[0].diagonal()
    # The right child of root i (difference o = G[i, i]) split on f_k has parts a = G[i, k] and o − a;
    # the left child (o = G[i, i] − v_S, both signs flipped) has a = G[i, k] − G[k, k]. The split is worth
    # |a| + |o − a| = max(|o|, |2a − o|), so a child's best split needs only the least and the greatest a
    # of its row: max over k of |2a − o| = max(2 max a − o, o − 2 min a). Two reductions over both
    # children's parts instead of building |a| + |o − a| for every cell: the same numbers. G is
    # symmetric, so row i's values are column i's, and the reductions run down the columns (numpy's
    # fast axis).
    np.subtract(parts[0], diagonal[:, None], out=parts[1])
    high = np.maximum.reduce(parts, axis=1).astype(np.float64)     # (2, n): right and left child of each root
    low = np.minimum.reduce(parts, axis=1).astype(np.float64)
    others = np.empty((2, n))                              # o of each child: right, left (signs flipped)
    others[0] = diagonal
    np.subtract(others[0], total_difference, out=others[1])
    best_worth = np.maximum(2 * high - others, others - 2 * low)
    as_leaf = np.abs(others)
    # Each child's objective is half its weight minus half its *score*: |v| − 2λ as a leaf, its best
    # split's worth − 4λ as two leaves (taken when that beats the leaf by more than eps). The halves
    # of the weights add up to the support's for every root split, so the best root has the most score.
    splits = best_worth - as_leaf > 2 * (lam + eps)
    score = np.where(splits, best_worth - 4 * lam, as_leaf - 2 * lam)
    both = score[0] + score[1]
    i = int(both.argmax())
    objective = (total_weight - float(both[i])) / 2
    if objective < leaf - eps:
        # The first best split of each child, as a scan of |a| + |o − a| along its row finds it.
        right = _best_part(parts[0, :, i], others[0, i])[1] if splits[0, i] else LEAF
        left = _best_part(parts[1, :, i], others[1, i])[1] if splits[1, i] else LEAF
        return objective, (i, left, right)
    return leaf, LEAF


def _best_part(parts: np.ndarray, other: float) -> tuple[float, int]:
    """``(worth, k)``: the most a split of a child whose difference is ``o`` can be worth, ``max_k |2a_k − o|``
    over its parts ``a_k``, and the first ``k`` reaching it (the first greatest or least part).

    A split is worth ``|a| + |o − a| = max(|o|, |2a − o|)``; a worth of ``|o|`` is the leaf's, which no
    split beats, so only ``|2a − o|`` matters, and it is greatest at the greatest or the least part.
    Two reductions instead of the worth of every part; the first ``k`` is the one a scan of
    ``|a| + |o − a|`` finds (whole weights: the same numbers, in double precision).
    """
    high, low = int(parts.argmax()), int(parts.argmin())
    up, down = 2.0 * float(parts[high]) - other, other - 2.0 * float(parts[low])
    if up != down:
        return (up, high) if up > down else (down, low)
    return up, min(high, low)


def two_class_children(pair_difference: np.ndarray, children_difference: np.ndarray, right_difference: float,
                       left_difference: float, right_weight: float, left_weight: float, right_leaf: float,
                       left_leaf: float, penalty: float, eps: float) -> tuple[float, int, float, int]:
    """Both children's best subtrees of depth at most one below one root split ``f_j``, for two classes.

    The two-class form of one step of :func:`~treeopt.solvers.gosdt.depth_two.search_root_splits`:
    a child of weight ``u`` and difference ``v`` split on ``f_k`` into parts with differences
    ``v_a`` and ``v − v_a`` costs ``(u − |v_a| − |v − v_a|) / 2 + 2λ``.

    Parameters
    ----------
    pair_difference : ndarray of shape (n,)
        ``w₁ − w₀`` over the rows with ``f_j`` and ``f_k``, for each candidate ``k``.
    children_difference : ndarray of shape (n,)
        ``w₁ − w₀`` over the rows with ``f_k``.
    right_difference, left_difference : float
        ``w₁ − w₀`` over the right child (``f_j``) and the left child (``¬f_j``).
    right_weight, left_weight : float
        ``w₀ + w₁`` over each child.
    right_leaf, left_leaf : float
        Each child as a leaf (loss + λ).
    penalty, eps : float
        λ in weight units, and the tolerance a split must beat the leaf by.

    Returns
    -------
    right_objective, right_k, left_objective, left_k
        Each child's best subtree of depth at most one: a split on candidate ``k`` or the leaf
        (``k = LEAF``). Splitting a child on ``f_j`` again is worth no more than the leaf, so it is
        never chosen and needs no exclusion.

    Examples
    --------
    XOR of two columns, five rows per cell, λ = 1, root split on column 0:

    >>> pair = np.array([0.0, -5.0])          # f_0 ∧ f_0: both classes; f_0 ∧ f_1: five rows of class 0
    >>> two_class_children(pair, np.zeros(2), 0.0, 0.0, 10.0, 10.0, 6.0, 6.0, 1.0, 1e-9)
    (2.0, 1, 2.0, 1)
    """
    right = _child_best(pair_difference, right_difference, right_weight, right_leaf, penalty, eps)
    left = _child_best(children_difference - pair_difference, left_difference, left_weight, left_leaf, penalty, eps)
    return right[0], right[1], left[0], left[1]


def _child_best(parts: np.ndarray, difference: float, weight: float, leaf: float, penalty: float,
                eps: float) -> tuple[float, int]:
    """One child's best subtree of depth at most one: ``(objective, k)`` of its best split, whose
    ``f_k`` side has difference ``parts[k]``, when that beats the leaf by more than ``eps``, else
    ``(leaf, LEAF)``."""
    worth, k = _best_part(parts, difference)
    split = (weight - worth) / 2 + 2 * penalty
    return (split, k) if split < leaf - eps else (leaf, LEAF)

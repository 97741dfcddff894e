"""Lower bounds on a support's optimum from the leaves that a tree without errors needs.

A tree's cost is its loss plus λ per leaf (at ``regularization=0`` λ is the search's infinitesimal
tie charge, so the cost orders trees by errors, then leaves). Every tree of a support either has
errors or has none:

* a tree with errors misclassifies at least one row, so its loss is at least the least positive
  cost-weighted weight of a row (``least_error``); if it is not a single leaf it has at least two
  leaves;
* a tree without errors gives each class present in the support (positive cost-weighted weight)
  a leaf of its own, so it has at least ``k`` leaves for ``k`` classes (a pure leaf holds one
  class); a tree of depth at most ``d`` has at most ``2**d`` leaves, so with ``k > 2**d`` classes
  no such tree exists;
* if no tree of depth ``d - 1`` is without errors, a tree of depth ``d`` without errors has depth
  exactly ``d`` and so at least ``d + 1`` leaves (a binary tree of depth ``d`` has a path of ``d``
  splits, each with a leaf or a subtree off the path).

So the optimum of a support is at least the least of a leaf's cost, ``least_error + 2λ`` and
``max(k, d + 1) λ`` (the last when such a tree can exist). At ``regularization=0`` the tie charge
is far below one error, and the bound is ``max(k, d + 1)`` tie charges whenever a search looks for
a tree below one error: a tree without errors that reaches it is optimal at once (a perfect tree
with ``k`` leaves on ``k`` classes), and a budget below it closes the subproblem unsearched.
:func:`split_floors` applies the same count to both children of every threshold of a column at once,
so that below one error a threshold whose sides' classes need too many leaves is not evaluated.
These are the counting arguments behind GOSDT's leaf bounds (Lin et al., *Generalized and
Scalable Optimal Sparse Decision Trees*, ICML 2020, Theorem B.4: a lower bound on a tree's leaves
bounds its cost), applied to the trees without errors.

Examples
--------
Three classes in a support, one error at least costs 1, the tie charge is ``1e-6``:

>>> import numpy as np
>>> least_cost(np.array([4.0, 2.0, 1.0]), depth=3, penalty=1e-6, least_error=1.0) / 1e-6   # three leaves
3.0
>>> least_cost(np.array([4.0, 2.0, 1.0]), depth=3, penalty=1e-6, least_error=1.0, fewest_leaves=4) / 1e-6
4.0
>>> least_cost(np.array([4.0, 2.0, 1.0]), depth=1, penalty=1e-6, least_error=1.0)   # depth one: errors
1.000002
"""

from __future__ import annotations

import numpy as np

__all__ = ["least_error", "least_cost", "split_floors", "pure_runs"]


def least_error(row_costs: np.ndarray) -> float:
    """The least loss of a tree with errors: the least positive cost-weighted weight of a row.

    Examples
    --------
    >>> least_error(np.array([0.0, 2.5, 1.5, 3.0]))
    1.5
    """
    positive = row_costs[row_costs > 0]
    return float(positive.min()) if len(positive) else float("inf")


def least_cost(totals: np.ndarray, *, depth: int, penalty: float, least_error: float,
               fewest_leaves: int = 0, count_classes: bool = True) -> float:
    """A lower bound on the cost of any tree of depth at most ``depth`` on a support.

    Parameters
    ----------
    totals : ndarray of float, shape (n_classes,)
        The support's cost-weighted weight of each class.
    depth : int
        The depth budget of the trees.
    penalty : float
        The cost of one leaf (λ, or the tie charge at ``regularization=0``), weight units.
    least_error : float
        The least loss of a tree with errors (:func:`least_error`).
    fewest_leaves : int, default=0
        A known lower bound on the leaves of a tree without errors (``depth + 1`` when no tree one
        level shallower is without errors).
    count_classes : bool, default=True
        Count the classes present (a leaf each); otherwise a split tree without errors is only known
        to have two leaves.

    Returns
    -------
    float
        The least of a leaf's cost, a split tree with errors, and a tree without errors (module
        docstring).
    """
    leaf = float(totals.sum() - totals.max()) + penalty
    classes = int(np.count_nonzero(totals > 0)) if count_classes else 2
    with_errors = least_error + 2 * penalty
    leaves = max(classes, fewest_leaves)
    without_errors = leaves * penalty if leaves <= 2 ** depth else float("inf")
    return min(leaf, with_errors, without_errors)


def split_floors(present: np.ndarray, positions: np.ndarray, *, depth: int, penalty: float,
                 least_error: float) -> np.ndarray:
    """Lower bounds on the splits at the thresholds of one column, from the classes on each side.

    Parameters
    ----------
    present : ndarray of int, shape (n_support, n_classes)
        Running counts, in the column's sorted order, of the support's rows of each class (rows of
        positive cost-weighted weight only).
    positions : ndarray of int
        The thresholds: a threshold lies after row ``p`` of the sorted order.
    depth : int
        The children's depth budget.
    penalty, least_error : float
        As in :func:`least_cost`.

    Returns
    -------
    ndarray of float, one per threshold
        The sum of both children's bounds: a child with ``k`` classes costs at least
        ``max(k, 1)`` leaves if a tree of ``depth`` can have ``k`` leaves, and otherwise has errors.
        (The bound of a child with errors is taken as ``least_error + penalty``: this is meant for
        budgets below one error, where only trees without errors are left.)

    Examples
    --------
    Two classes along a column; the first threshold leaves one class on the left:

    >>> present = np.cumsum([[1, 0], [0, 1], [1, 0], [0, 1]], axis=0)
    >>> (split_floors(present, np.array([0, 1, 2]), depth=1, penalty=0.01, least_error=1.0) / 0.01).round(6).tolist()
    [3.0, 4.0, 3.0]
    """
    below = present[positions]
    above = present[-1] - below

    def side(counts: np.ndarray) -> np.ndarray:
        classes = np.maximum(np.count_nonzero(counts > 0, axis=1), 1)
        return np.where(classes <= 2 ** depth, classes * penalty, least_error + penalty)

    return side(below) + side(above)


def pure_runs(labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each column's sorted rows stop holding one class, from either end.

    Parameters
    ----------
    labels : ndarray of int, shape (n_columns, n_support)
        The class of each row of a support in each column's sorted order, -1 for rows of no
        cost-weighted weight (they hold no class). The support holds at least two classes.

    Returns
    -------
    first_other : ndarray of int, shape (n_columns,)
        The first position whose class differs from the first row's: a threshold before it leaves
        one class on the left.
    other_last : ndarray of int, shape (n_columns,)
        The last position whose class differs from the last row's: a threshold at or after it leaves
        one class on the right. A column splits the support into two pure sides when
        ``other_last < first_other`` and the values at these two positions differ.

    Examples
    --------
    >>> first_other, other_last = pure_runs(np.array([[0, 0, 1, 1], [0, 1, 0, 1]]))
    >>> first_other.tolist(), other_last.tolist()
    ([2, 1], [1, 2])
    """
    n_columns, n = labels.shape
    rows = np.arange(n_columns)
    weighted = labels >= 0
    first = labels[rows, np.argmax(weighted, axis=1)]
    last = labels[rows, n - 1 - np.argmax(weighted[:, ::-1], axis=1)]
    differs_first = weighted & (labels != first[:, None])
    differs_last = weighted & (labels != last[:, None])
    return np.argmax(differs_first, axis=1), n - 1 - np.argmax(differs_last[:, ::-1], axis=1)

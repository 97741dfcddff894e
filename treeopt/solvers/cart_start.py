"""A first incumbent from CART, pruned at the search's own λ.

Breiman, Friedman, Olshen, Stone, *Classification and Regression Trees* (1984), chapter 3:
cost-complexity pruning keeps, for a cost ``α`` per leaf, the subtree of a grown tree that
minimises ``loss + α × leaves``, found bottom-up in one pass. With ``α = λ`` that is exactly
our objective, so the pruned CART tree is a valid tree of the search space (at most the depth
budget deep) and its objective is an upper bound on the optimum. Starting the exact search from
it means its incumbent is never worse than CART's at any moment, and the bounds that compare
with the incumbent (hierarchical, scope) cut from the first expansion on.

CART is scikit-learn's ``DecisionTreeClassifier`` (Gini) grown on the distinct binary points
with their class weights; the pruning decisions use its node counts, and the returned objective
is recomputed exactly from the dataset's bitsets.
"""

from __future__ import annotations

import numpy as np
from sklearn.tree import DecisionTreeClassifier   # imported with the solvers, not inside a fit

from ..data import points_in
from ..nodes import Leaf, Split

__all__ = ["cart_incumbent"]


def cart_incumbent(dataset, model, penalty: float, support: int, depth_budget: int | None = None):
    """``(objective in weight units, root node)`` of CART pruned at ``penalty``, or None.

    Parameters
    ----------
    dataset : Dataset
    model : LossModel
        The objective's loss model (its class costs score the leaves).
    penalty : float
        λ in weight units.
    support : int
        The rows to fit (a bitset of points; the whole dataset for a root).
    depth_budget : int, optional

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.objectives import get_objective
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> ds = Dataset.from_binary(X, X[:, 0] & X[:, 1])
    >>> model = get_objective("accuracy").loss_model(ds)
    >>> objective, root = cart_incumbent(ds, model, 0.05 * ds.total_weight, ds.all_points)
    >>> round(model.to_objective(objective), 4), type(root).__name__
    (0.15, 'Split')
    """
    rows = points_in(support, dataset.n_points)
    points, counts = dataset.points[rows], dataset.counts[rows]
    point_index, label = np.nonzero(counts > 0)
    if len(np.unique(label)) < 2 or depth_budget == 0:
        return None
    # OSDT's leaf-count bound: a tree better than the single leaf has fewer than leaf loss / λ + 1
    # leaves, so CART need not grow more (growing is most of the cost on thousands of points).
    root_loss, _ = model.leaf(dataset.class_counts(support))
    max_leaves = max(2, int(root_loss / penalty) + 1)
    cart = DecisionTreeClassifier(max_depth=depth_budget, max_leaf_nodes=max_leaves, random_state=0)
    cart.fit(points[point_index].astype(float), label, sample_weight=counts[point_index, label])
    t = cart.tree_
    masks = dataset.feature_masks

    def leaf(rows_bits: int):
        class_counts = dataset.class_counts(rows_bits)
        loss, prediction = model.leaf(class_counts)
        return loss + penalty, Leaf(prediction, class_counts, model.to_objective(loss))

    def best(node: int, rows_bits: int):
        """(objective, node) of the best pruning of CART's subtree at ``node`` over ``rows_bits``."""
        as_leaf = leaf(rows_bits)
        if t.children_left[node] < 0:
            return as_leaf
        feature = int(t.feature[node])                      # x <= 0.5 (feature false) goes left
        true_rows = rows_bits & masks[feature]
        left = best(t.children_left[node], rows_bits ^ true_rows)
        right = best(t.children_right[node], true_rows)
        if left[0] + right[0] < as_leaf[0]:
            return left[0] + right[0], Split(feature, left[1], right[1])
        return as_leaf

    return best(0, support)

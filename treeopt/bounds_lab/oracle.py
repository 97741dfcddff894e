"""The optimal tree by exhaustive recursion, for checking bounds on tiny binary problems.

Written to be obviously correct rather than fast: no bounds, no queue. The best tree for the
rows reaching a node is either a leaf or, for *every* feature that sends rows both ways, the
best tree on each side; memoised on the rows reaching the node. This is the definition of the
optimum of ``loss + λ × leaves`` for an additive objective unrolled (OSDT thesis, chapter 3),
over the trees whose every leaf holds training rows, the space OSDT searches.

Examples
--------
>>> import numpy as np
>>> from treeopt.data import Dataset
>>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
>>> objective, tree = optimal_tree(Dataset.from_binary(X, [0, 1, 1, 0] * 3), regularization=0.05)
>>> round(objective, 12), tree.n_leaves
(0.2, 4)
"""

from __future__ import annotations

from functools import lru_cache

from ..data import Dataset
from ..nodes import Leaf, Split
from ..objectives import get_objective
from ..tree import Tree

__all__ = ["optimal_tree"]


def optimal_tree(dataset: Dataset, *, regularization: float, objective="accuracy",
                 depth_budget: int | None = None) -> tuple:
    """The optimal objective (objective units) and one optimal :class:`~treeopt.tree.Tree`.

    Parameters
    ----------
    dataset : Dataset
        Binary features; keep it tiny (the recursion tries every feature at every node).
    regularization : float
        λ, the cost of one leaf.
    objective : str or Objective, default="accuracy"
        An additive objective.
    depth_budget : int, optional

    Returns
    -------
    (float, Tree)
    """
    objective = get_objective(objective)
    if not objective.additive:
        raise ValueError(f"the bounds lab's oracle handles additive objectives; {objective.name!r} is not one.")
    model = objective.loss_model(dataset)
    masks = dataset.feature_masks
    W = dataset.total_weight
    penalty = regularization * W

    @lru_cache(maxsize=None)
    def best(support: int, depth: int):
        counts = dataset.class_counts(support)
        loss, label = model.leaf(counts)
        value, node = loss + penalty, Leaf(int(label), tuple(float(n) for n in counts), float(loss / W))
        if depth_budget is not None and depth >= depth_budget:
            return value, node
        for f, mask in enumerate(masks):
            right = support & mask
            if not right or right == support:
                continue
            left_value, left_node = best(support ^ right, depth + 1)
            right_value, right_node = best(right, depth + 1)
            if left_value + right_value < value - 1e-12 * W:
                value, node = left_value + right_value, Split(f, left_node, right_node)
        return value, node

    value, root = best(dataset.all_points, 0)
    return value / W, Tree(root, dataset.features, dataset.classes)

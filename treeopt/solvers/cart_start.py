"""A first incumbent from CART, pruned at the search's own λ: the one CART start of every exact solver.

Breiman, Friedman, Olshen, Stone, *Classification and Regression Trees* (1984), chapter 3:
cost-complexity pruning keeps, for a cost ``α`` per leaf, the subtree of a grown tree that
minimises ``loss + α × leaves``, found bottom-up in one pass. With ``α = λ`` that is exactly
our objective, so the pruned CART tree is a valid tree of the search space (at most the depth
budget deep) and its objective is an upper bound on the optimum. Starting the exact search from
it means its incumbent is never worse than CART's at any moment, and the bounds that compare
with the incumbent (hierarchical, scope) cut from the first expansion on. GOSDT's ``cart_start``
and OSDT's ``warm_start="cart"`` (the OSDT thesis, chapter 6, seeds the incumbent with CART) both
start from this tree.

CART is grown here (:func:`grow_gini_tree`: Gini impurity, best-first up to a number of leaves,
like scikit-learn's ``DecisionTreeClassifier(max_leaf_nodes=...)``) on the distinct binary points
with their class weights, one matrix product per node; the pruning decisions and the returned
objective are computed exactly from the dataset's bitsets.

On hundreds of thousands of points and thousands of threshold columns growing takes longer than
a search's unit of work may (``Solver.unit_budget``). :func:`cart_incumbent_steps` therefore
grows in slices: a generator that yields whenever its slice's seconds are spent (between blocks
of rows of a node's product, and between nodes) and returns the tree. The tree does not depend
on where the slices fall.
"""

from __future__ import annotations

import numpy as np

from ..data import points_in
from ..nodes import Leaf, Split
from .slices import SliceClock, drain

__all__ = ["cart_incumbent", "cart_incumbent_steps", "grow_gini_tree", "grow_gini_tree_steps"]

#: Rows × features of one block of a node's class-count product: between two blocks a sliced
#: growth may yield (a block is a small share of any unit budget).
BLOCK_CELLS = 1 << 22


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
    return drain(cart_incumbent_steps(dataset, model, penalty, support, depth_budget))


def cart_incumbent_steps(dataset, model, penalty: float, support: int, depth_budget: int | None = None,
                         slice_seconds: float | None = None):
    """:func:`cart_incumbent` in slices: a generator that yields after about ``slice_seconds`` of work
    (never, with None) and returns ``(objective in weight units, root node)`` or None.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.objectives import get_objective
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> ds = Dataset.from_binary(X, X[:, 0] & X[:, 1])
    >>> model = get_objective("accuracy").loss_model(ds)
    >>> steps = cart_incumbent_steps(ds, model, 0.05 * ds.total_weight, ds.all_points, slice_seconds=0.0)
    >>> slices = 0
    >>> while True:
    ...     try:
    ...         next(steps)
    ...         slices += 1
    ...     except StopIteration as done:
    ...         objective, root = done.value
    ...         break
    >>> slices > 1, round(model.to_objective(objective), 4)
    (True, 0.15)
    """
    rows = points_in(support, dataset.n_points)
    if len(rows) == dataset.n_points:           # the root: no copy of the whole table (gigabytes when wide)
        points, counts = dataset.points, dataset.counts
    else:
        points, counts = dataset.points[rows], dataset.counts[rows]
    if np.count_nonzero(counts.sum(axis=0)) < 2 or depth_budget == 0:
        return None
    # OSDT's leaf-count bound: a tree better than the single leaf has fewer than leaf loss / λ + 1
    # leaves, so CART need not grow more (growing is most of the cost on thousands of points).
    root_loss, _ = model.leaf(dataset.class_counts(support))
    max_leaves = max(2, int(root_loss / penalty) + 1)
    grown = yield from grow_gini_tree_steps(points, counts, max_leaves, depth_budget, slice_seconds)
    masks = dataset.feature_masks

    def leaf(rows_bits: int):
        class_counts = dataset.class_counts(rows_bits)
        loss, prediction = model.leaf(class_counts)
        return loss + penalty, Leaf(prediction, class_counts, model.to_objective(loss))

    def best(node, rows_bits: int):
        """(objective, node) of the best pruning of the grown subtree ``node`` over ``rows_bits``."""
        as_leaf = leaf(rows_bits)
        if node is None:
            return as_leaf
        feature, left_node, right_node = node               # feature false goes left
        true_rows = rows_bits & masks[feature]
        left = best(left_node, rows_bits ^ true_rows)
        right = best(right_node, true_rows)
        if left[0] + right[0] < as_leaf[0]:
            return left[0] + right[0], Split(feature, left[1], right[1])
        return as_leaf

    return best(grown, support)


def grow_gini_tree(points: np.ndarray, counts: np.ndarray, max_leaves: int, max_depth: int | None = None):
    """CART's greedy growth: split the node with the largest Gini decrease until ``max_leaves`` leaves.

    Breiman et al. (1984), chapter 4: a node's impurity is ``N (1 - Σ_c p_c²)`` (``N`` its weight,
    ``p_c`` its class shares); a split's decrease is the node's impurity minus its children's.
    Growth is best-first: the leaf whose best split decreases impurity most is split next, so a
    cap on leaves keeps the most useful splits. Ties go to the first feature.

    Parameters
    ----------
    points : ndarray of bool, shape (n_points, n_features)
        Distinct binary feature vectors.
    counts : ndarray of shape (n_points, n_classes)
        Each point's weight per class.
    max_leaves : int
        Stop at this many leaves.
    max_depth : int, optional
        No split below this depth.

    Returns
    -------
    None or tuple
        None for a leaf, else ``(feature, left, right)``: rows with the feature false go left.

    Examples
    --------
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=bool)
    >>> counts = np.array([[4, 0], [4, 0], [1, 3], [0, 4]])
    >>> grow_gini_tree(X, counts, max_leaves=3)
    (0, None, (1, None, None))
    """
    return drain(grow_gini_tree_steps(points, counts, max_leaves, max_depth))


def grow_gini_tree_steps(points: np.ndarray, counts: np.ndarray, max_leaves: int, max_depth: int | None = None,
                         slice_seconds: float | None = None):
    """:func:`grow_gini_tree` in slices: yields after about ``slice_seconds`` of work, returns the tree.

    A node's class counts per feature are summed over blocks of :data:`BLOCK_CELLS` cells (rows
    converted to float32 one block at a time, so no float copy of the whole table is made), and
    the generator may yield between two blocks and between two nodes.

    Examples
    --------
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=bool)
    >>> counts = np.array([[4, 0], [4, 0], [1, 3], [0, 4]])
    >>> steps = grow_gini_tree_steps(X, counts, max_leaves=3, slice_seconds=0.05)
    >>> drain(steps)                         # run every slice; the generator returns the tree
    (0, None, (1, None, None))
    """
    import heapq

    X = np.asarray(points)
    W = np.asarray(counts, dtype=np.float64)
    clock = SliceClock(slice_seconds)
    block_rows = max(1, BLOCK_CELLS // max(X.shape[1], 1))

    def gini(class_weights: np.ndarray) -> np.ndarray:          # classes along axis 0
        total = class_weights.sum(axis=0)
        return total - (class_weights ** 2).sum(axis=0) / np.where(total > 0, total, 1.0)

    def best_split(index: np.ndarray):
        """(decrease, feature) of the node's best split, or None when nothing decreases impurity (a
        generator: it may yield between blocks of rows)."""
        weights = W[index]
        total = weights.sum(axis=0)
        right = np.zeros((W.shape[1], X.shape[1]))                 # (classes, features): feature true
        for start in range(0, len(index), block_rows):
            block = index[start:start + block_rows]
            right += weights[start:start + block_rows].T.astype(np.float32) @ X[block].astype(np.float32)
            if clock.due():
                yield
        left = total[:, None] - right
        decrease = gini(total[:, None])[0] - gini(left) - gini(right)
        both_sides = (right.sum(axis=0) > 0) & (left.sum(axis=0) > 0)
        decrease = np.where(both_sides, decrease, -np.inf)
        feature = int(np.argmax(decrease)) if decrease.size else -1
        if feature < 0 or decrease[feature] <= 1e-12 * max(float(total.sum()), 1.0):
            return None
        return float(decrease[feature]), feature

    nodes: dict[int, list] = {0: [None, None, None]}            # id -> [feature, left id, right id]
    heap: list = []
    order = 0

    def consider(node_id: int, index: np.ndarray, depth: int):
        nonlocal order
        if max_depth is not None and depth >= max_depth:
            return
        found = yield from best_split(index)
        if found is not None:
            heapq.heappush(heap, (-found[0], order, node_id, found[1], index, depth))
            order += 1

    yield from consider(0, np.arange(len(X)), 0)
    leaves = 1
    while heap and leaves < max_leaves:
        _, _, node_id, feature, index, depth = heapq.heappop(heap)
        goes_right = X[index, feature] > 0
        left_id, right_id = len(nodes), len(nodes) + 1
        nodes[left_id], nodes[right_id] = [None, None, None], [None, None, None]
        nodes[node_id] = [feature, left_id, right_id]
        leaves += 1
        yield from consider(left_id, index[~goes_right], depth + 1)
        yield from consider(right_id, index[goes_right], depth + 1)
        if clock.due():
            yield

    def build(node_id: int):
        feature, left_id, right_id = nodes[node_id]
        return None if feature is None else (feature, build(left_id), build(right_id))

    return build(0)

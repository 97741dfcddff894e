"""Warm starts for the leaf-set search: a tree's leaves as clause sets, and a greedy CART tree.

The OSDT thesis (chapter 6) seeds the incumbent with CART's objective so that
the search never returns anything worse than CART. A warm start only ever
*offers* a tree: the solver keeps it only when it beats the single leaf
(tests/osdt/test_osdt.py checks it).

A leaf is a clause bitmask over the binary features: bit ``2f`` means
"feature f is false" and bit ``2f + 1`` "feature f is true".

Examples
--------
>>> from treeopt.tree import Tree, Split, Leaf
>>> from treeopt.binarize import BinaryFeature
>>> features = [BinaryFeature(n, j, "binary", 1, n) for j, n in enumerate("ab")]
>>> tree = Tree(Split(0, Leaf(0), Split(1, Leaf(0), Leaf(1))), features, [0, 1])
>>> [bin(k) for k in tree_leaf_keys(tree)]
['0b1', '0b110', '0b1010']
"""

from __future__ import annotations

import numpy as np

from ...tree import Leaf, Tree

__all__ = ["tree_leaf_keys", "cart_leaf_keys"]


def tree_leaf_keys(tree: Tree, depth_budget: int | None = None) -> list[int]:
    """Clause bitmasks of a tree's leaves.

    Raises
    ------
    ValueError
        If the tree has multiway splits (not binary features) or is deeper
        than ``depth_budget``.
    """
    if depth_budget is not None and tree.depth > depth_budget:
        raise ValueError(f"the warm-start tree has depth {tree.depth}, more than depth_budget={depth_budget}.")
    keys = []
    for path, node in tree.leaves():
        if not isinstance(node, Leaf):  # pragma: no cover - leaves() yields leaves
            continue
        key = 0
        for feature, value in path:
            if not isinstance(feature, (int, np.integer)):
                raise ValueError("the warm-start tree must split on binary features only (no multiway splits).")
            key |= 1 << (2 * int(feature) + int(bool(value)))
        keys.append(key)
    return keys


def cart_leaf_keys(solver) -> list[int]:
    """Leaves of a greedy CART tree on the solver's data, pruned bottom-up by the solver's objective.

    CART (scikit-learn, Gini) is grown on the distinct feature vectors with
    their class weights, limited to the solver's depth budget; then every
    subtree whose leaves do not beat a single leaf by at least λ per extra
    leaf is collapsed (cost-complexity pruning with the true objective for
    additive objectives, with accuracy otherwise).
    """
    from sklearn.tree import DecisionTreeClassifier

    ds = solver.dataset
    rows, labels, weights = [], [], []
    for point, counts in zip(ds.points, ds.counts):
        for k, w in enumerate(counts):
            if w > 0:
                rows.append(point)
                labels.append(k)
                weights.append(w)
    if len(set(labels)) < 2 or solver.depth_budget == 0:
        return [0]
    cart = DecisionTreeClassifier(max_depth=solver.depth_budget, random_state=0)
    cart.fit(np.asarray(rows, dtype=float), np.asarray(labels), sample_weight=np.asarray(weights))
    t = cart.tree_
    costs = np.asarray(solver.costs if solver.costs is not None else np.ones(ds.n_classes), dtype=float)
    penalty = solver.regularization * ds.total_weight              # λ in weight units

    def best(node: int, key: int):
        """(objective in weight units, leaf keys) of the best pruning of the subtree at ``node``."""
        fractions = t.value[node][0] / t.value[node][0].sum()          # counts or fractions, by version
        values = fractions * t.weighted_n_node_samples[node]
        scored = values * costs
        leaf_obj = float(scored.sum() - scored.max()) + penalty
        if t.children_left[node] < 0:
            return leaf_obj, [key]
        f = int(cart.tree_.feature[node])
        left_obj, left_keys = best(t.children_left[node], key | 1 << 2 * f)        # feature <= 0.5: false
        right_obj, right_keys = best(t.children_right[node], key | 1 << 2 * f + 1)
        if left_obj + right_obj < leaf_obj:
            return left_obj + right_obj, left_keys + right_keys
        return leaf_obj, [key]

    return best(0, 0)[1]

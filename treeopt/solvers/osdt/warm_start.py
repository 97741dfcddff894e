"""Warm starts for the leaf-set search: a tree's leaves as clause sets.

The OSDT thesis (chapter 6) seeds the incumbent with CART's objective so that
the search never returns anything worse than CART. The CART tree is the one
every exact solver starts from (``treeopt.solvers.cart_start``, pruned at λ and
grown in slices of the unit budget); a user may offer any other tree. A warm
start only ever *offers* a tree: the solver keeps it only when it beats the
single leaf (tests/osdt/test_osdt.py checks it).

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

__all__ = ["tree_leaf_keys"]


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

"""Every walk over a tree works on a valid tree deeper than the interpreter's recursion limit.

A chain of splits (each true branch a leaf, each false branch the next split) is what a depth-
unbounded search may return on a table with many thresholds; printing, drawing, comparing,
exporting and routing it must not raise ``RecursionError``.
"""

import sys

import numpy as np

from treeopt.binarize import BinaryFeature
from treeopt.fitted_tree import impurity_importances, leaf_paths
from treeopt.nodes import Leaf, MultiwaySplit, Split
from treeopt.render import layout_tree, tree_svg
from treeopt.tree import Tree

DEPTH = max(900, sys.getrecursionlimit() + 100)


def _chain(depth: int = DEPTH, last_prediction: int = 0) -> Tree:
    """``x <= 0``? b : (``x <= 1``? b : (...)): split ``i`` tests ``x <= i``, false goes deeper."""
    features = [BinaryFeature("x", 0, "threshold", float(-i), f"x <= {-i}") for i in range(depth)]
    node = Leaf(last_prediction, (2, 0) if last_prediction == 0 else (0, 2))
    for i in reversed(range(depth)):
        node = Split(i, node, Leaf(1, (0, 1)))
    return Tree(node, features, ["a", "b"])


def test_the_chain_is_as_deep_as_asked():
    assert _chain().depth == DEPTH


def test_equality_compares_deep_trees_to_the_bottom():
    assert _chain() == _chain()
    assert _chain() != _chain(last_prediction=1)          # differs only at the deepest leaf
    assert Split(0, Leaf(0), Leaf(1)) != Leaf(0)


def test_repr_of_a_deep_tree_names_every_split():
    text = repr(_chain().root)
    assert text.count("Split(feature=") == DEPTH
    assert text.startswith("Split(feature=0, left=Split(feature=1, left=")
    small = MultiwaySplit("c", 0, ["u", "v"], [Leaf(0), Split(3, Leaf(1), Leaf(0))])
    assert repr(small) == ("MultiwaySplit(column='c', column_index=0, values=['u', 'v'], children=["
                           "Leaf(prediction=0, counts=(), loss=0.0), Split(feature=3, "
                           "left=Leaf(prediction=1, counts=(), loss=0.0), right=Leaf(prediction=0, counts=(), "
                           "loss=0.0))])")


def test_rules_print_every_level():
    lines = _chain().rules().splitlines()
    assert sum(line.lstrip().startswith("if ") for line in lines) == DEPTH
    assert lines[-1] == "    " * DEPTH + "predict a  (counts: a=2, b=0)"


def test_to_dot_numbers_every_node_in_pre_order():
    tree = _chain()
    dot = tree.to_dot()
    n_nodes = 2 * DEPTH + 1
    assert dot.count("[label=\"yes\"]") == DEPTH and dot.count("[label=\"no\"]") == DEPTH
    assert f"  n{n_nodes - 1} [label=" in dot
    assert "  n0 -> n1 [label=\"yes\"];" in dot and "  n0 -> n2 [label=\"no\"];" in dot
    collapsed = tree.to_dot(max_depth=3)
    assert f"… {DEPTH - 2} leaves" in collapsed


def test_decision_path_and_routing_reach_the_deepest_leaf():
    tree = _chain()
    row = np.array([float(DEPTH)])                       # fails every test: all the way down
    path = tree.decision_path(row, binarized=False)
    assert path == list(range(0, 2 * DEPTH + 1, 2))
    assert tree.apply(row[None, :], binarized=False).tolist() == [0]      # leftmost: false branches all the way
    assert leaf_paths(tree)[0] == path


def test_svg_layout_draws_every_box():
    tree = _chain()
    root = layout_tree(tree)
    assert [child.node_id for _, child in root.children] == [1, 2]
    assert tree_svg(tree).count("<rect") == 2 * DEPTH + 1


def test_code_exports_write_every_level():
    tree = _chain()
    python = tree.to_python()
    assert python.count("if row['x'] <=") == DEPTH
    assert tree.to_latex().count(r"\textbf{if}") == DEPTH


def test_importances_add_up_over_a_deep_tree():
    importances = impurity_importances(_chain(), 1, "gini", lambda leaf: np.asarray(leaf.counts, float))
    assert importances.tolist() == [1.0]

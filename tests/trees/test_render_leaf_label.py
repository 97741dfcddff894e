"""The core's ``leaf_label`` option of ``Tree.to_dot`` and ``treeopt.render.tree_svg``."""

from __future__ import annotations

import re

import pytest

from treeopt.binarize import BinaryFeature
from treeopt.render import leaf_title, tree_svg
from treeopt.tree import Leaf, Split, Tree


def _tree():
    features = [BinaryFeature("age <= 30", 0, "threshold", 30.0, "age <= 30"),
                BinaryFeature("smoker", 1, "binary", 1, "smoker")]
    # Every leaf predicts "no" (a rare positive class), but their positive rates differ.
    return Tree(Split(0, Split(1, Leaf(0, (3, 1)), Leaf(0, (6, 3))), Leaf(0, (9, 1))), features, ["no", "yes"])


def _dot_leaf_titles(dot: str) -> list:
    return re.findall(r'label="([^"\\]*)\\n\[', dot)


def test_default_dot_labels_leaves_with_their_class():
    assert _dot_leaf_titles(_tree().to_dot()) == ["no", "no", "no"]


def test_positive_rate_labels_every_leaf_in_dot_and_svg():
    tree = _tree()
    expected = []
    for _, leaf in tree.leaves():
        expected.append(f"P(yes) = {leaf.counts[1] / sum(leaf.counts):.2g}")
    titles = _dot_leaf_titles(tree.to_dot(leaf_label="positive_rate"))
    assert sorted(titles) == sorted(expected) and len(set(titles)) == 3
    svg = tree_svg(tree, leaf_label="positive_rate")
    for text in expected:
        assert f">{text}</text>" in svg
    assert not re.search(r"<rect[^>]*/>\s*<text[^>]*>no</text>", svg)   # no box's first line is the class
    assert re.search(r"<rect[^>]*/>\s*<text[^>]*>no</text>", tree_svg(tree))
    assert "age &lt;= 30" in svg and "smoker" in svg      # splits keep their labels


def test_a_callable_leaf_label_gets_the_tree_and_the_leaf():
    tree = _tree()
    dot = tree.to_dot(leaf_label=lambda t, leaf: f"{int(sum(leaf.counts))} rows of {len(t.classes)}")
    assert sorted(_dot_leaf_titles(dot)) == ["10 rows of 2", "4 rows of 2", "9 rows of 2"]
    assert ">4 rows of 2</text>" in tree_svg(tree, leaf_label=lambda t, leaf: f"{int(sum(leaf.counts))} rows of 2")


def test_highlight_and_collapse_keep_working_with_a_leaf_label():
    tree = _tree()
    dot = tree.to_dot(leaf_label="positive_rate", max_depth=1, highlight_path=[0, 1])
    assert "… 2 leaves" in dot and "P(yes) = 0.1" in dot and dot.count("penwidth=3") == 2


@pytest.mark.parametrize("bad", ["rate", None, 3])
def test_a_bad_leaf_label_is_refused_with_the_choices(bad):
    tree = _tree()
    for draw in (lambda: tree.to_dot(leaf_label=bad), lambda: tree_svg(tree, leaf_label=bad),
                 lambda: leaf_title(tree, tree.root.right, bad)):
        with pytest.raises(ValueError, match="'class', 'positive_rate' or a callable"):
            draw()

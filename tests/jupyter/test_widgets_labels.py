"""What the views say before Play, on AUC leaves, and about a finished search's queue."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")
pytest.importorskip("anywidget")

from treeopt.binarize import BinaryFeature  # noqa: E402
from treeopt.datasets import load_monk  # noqa: E402
from treeopt.tree import Leaf, Split, Tree  # noqa: E402
from treeopt.widgets import BoundsView, QueueView, RocView, TraceView, TreeView, explore  # noqa: E402
from treeopt.widgets.tree_view import render_tree_svg  # noqa: E402


def annotations(view) -> str:
    return " ".join(a.text for a in view.figure.layout.annotations)


def test_before_play_the_plots_show_the_root_and_say_press_play():
    X, y = load_monk(1)
    player = explore(X, y, regularization=0.05, views=[TraceView, BoundsView, RocView])
    trace, bounds, roc = player.views
    root = player.frame.snapshot
    assert "press Play" in annotations(trace) and "press Play" in annotations(bounds)
    # The root's bounds are drawn (as markers) on a 0..1 axis, not an empty -1..1 plot.
    assert list(trace.figure.data[0].y) == [root.lower_bound] and list(trace.figure.data[1].y) == [root.upper_bound]
    assert "markers" in trace.figure.data[0].mode and tuple(trace.figure.layout.xaxis.range) == (-0.05, 1)
    assert tuple(bounds.figure.layout.xaxis.range) == (0, 1)
    assert len(roc.figure.data[2].x) >= 2                 # the root leaf's hull: the diagonal
    player.step(200)
    assert annotations(trace) == "" and trace.figure.layout.xaxis.autorange is True
    assert trace.figure.data[0].mode == "lines"
    assert annotations(bounds) == "" or annotations(bounds) == "no prunes yet"


@pytest.fixture(scope="module")
def auc_player():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(60, 4))
    y = (X[:, 0] ^ (rng.random(60) < 0.2)).astype(int)
    player = explore(X, y, regularization=0.02, objective="auc", solver="osdt", views=[TreeView])
    while player.step(10**5):
        pass
    return player


@pytest.mark.parametrize("backend", ["python", "auto"])
def test_auc_leaves_show_their_positive_rate_and_the_counts_have_a_legend(auc_player, backend):
    view = TreeView(auc_player, backend=backend)
    tree = view.tree
    assert view.ranking and tree.n_leaves >= 2
    rates = [leaf.counts[1] / sum(leaf.counts) for _, leaf in tree.leaves()]
    for rate in rates:
        assert f"P(1) = {rate:.2g}" in view.svg
    assert "training rows of each class" in view._caption.value and "P(1) = share of class 1" in view._caption.value


@pytest.mark.parametrize("backend", ["python", "graphviz"])
def test_positive_rate_leaf_labels_replace_only_the_class_line_of_leaves(backend):
    if backend == "graphviz":
        graphviz = pytest.importorskip("graphviz")
        try:
            graphviz.Source("digraph { a }").pipe(format="svg")
        except (graphviz.ExecutableNotFound, graphviz.CalledProcessError):
            pytest.skip("graphviz's dot binary is not installed")
    features = [BinaryFeature("age <= 30", 0, "threshold", 30.0, "age <= 30")]
    tree = Tree(Split(0, Leaf(0, (4, 1)), Leaf(0, (1, 3))), features, ["no", "yes"])
    svg, used = render_tree_svg(tree, backend=backend, leaf_label="positive_rate")
    assert used == backend
    assert "P(yes) = 0.75" in svg and "P(yes) = 0.2" in svg and "age &lt;= 30" in svg
    assert ("no: 4 / yes: 1" if backend == "python" else "[4 / 1]") in svg   # the counts line stays
    plain, _ = render_tree_svg(tree, backend=backend)
    assert "P(yes)" not in plain


def test_a_finished_search_says_why_its_queue_is_not_empty():
    X, y = load_monk(1)
    player = explore(X, y, regularization=0.05, solver="branches", views=[QueueView])
    player.step(3)
    assert "left unexpanded" not in player.controls.status_label.value
    while player.step(10**5):
        pass
    size = player.solver.queue_size
    assert player.status == "optimal" and size > 0       # branches stops with entries left
    assert f"queue {size} (left unexpanded: lower bound = objective" in player.controls.status_label.value
    assert "none can give a better tree" in player.views[0]._summary.value


def test_large_mode_for_projectors_toggles_a_class_on_the_player():
    X, y = load_monk(1)
    player = explore(X, y, regularization=0.05, views=None)
    assert "treeopt-large" not in player._dom_classes
    player.controls.large.value = True
    assert "treeopt-large" in player._dom_classes
    player.controls.large.value = False
    assert "treeopt-large" not in player._dom_classes

"""TreeView flips through the k best trees of OSDT(top_k=k), headless (no browser)."""

from __future__ import annotations

import html

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from treeopt.data import Dataset  # noqa: E402
from treeopt.datasets import load_monk  # noqa: E402
from treeopt.solvers.osdt import OSDT  # noqa: E402
from treeopt.widgets import BoundsView, SolverPlayer, TreeView, explore  # noqa: E402

from conftest import split_names  # noqa: E402


@pytest.fixture(scope="module")
def monk1():
    return load_monk(1)


def test_tree_view_flips_through_the_k_best_trees(monk1):
    player = explore(*monk1, regularization=0.1, solver="osdt", top_k=3, views=[TreeView])
    view = player.views[0]
    player.step(10**6)
    assert player.status == "optimal"
    top = player.frame.snapshot.top_trees
    assert len(top) == 3 and view.trees == top
    choice = view._tree_choice
    assert choice.layout.display != "none"
    assert [label for label, _ in choice.options] == [f"tree {i + 1} of 3: objective {v:.6g}"
                                                      for i, (v, _) in enumerate(top)]
    assert view.tree is top[0][1] and "tree 1 of 3" in view._caption.value and "certified" in view._caption.value
    for index in (2, 1):
        choice.value = index                              # the dropdown, as a person would
        value, tree = top[index]
        assert view.tree_index == index and view.tree is tree
        assert f"tree {index + 1} of 3" in view._caption.value and f"{value:.6g}" in view._caption.value
        for name in split_names(tree):
            assert html.escape(name) in view.svg
    svg_1 = view.svg
    assert view.show_tree(0) is top[0][1] and choice.value == 0
    assert view.show_tree(1) is top[1][1] and view.svg == svg_1
    with pytest.raises(IndexError, match="keeps 3 tree"):
        view.show_tree(3)
    path = view.highlight(5)                              # a row's path in the shown tree
    assert path and view.tree is top[1][1]


def test_choice_survives_steps_and_is_hidden_with_one_tree(monk1):
    X, y = monk1
    ds = Dataset.from_arrays(X, y)
    player = SolverPlayer(OSDT(ds, regularization=0.1, top_k=2), views=[TreeView, BoundsView])
    view = player.views[0]
    player.step(2)
    player._refresh(force=True)
    assert 1 <= len(view.trees) <= 2
    if len(view.trees) == 2:
        view.show_tree(1)
    player.step(10**6)
    player._refresh(force=True)
    assert len(view.trees) == 2 and view.tree is view.trees[view.tree_index][1]
    assert "not certified" not in view._caption.value
    player.reset()                                        # the rebuilt search keeps top_k
    assert player.solver.top_k == 2
    single = explore(X, y, regularization=0.1, solver="osdt", views=[TreeView])
    single.step(10**6)
    one = single.views[0]
    assert one.trees == [] and one._tree_choice.layout.display == "none"
    assert "incumbent" in one._caption.value and one.tree is single.frame.snapshot.best_tree


def test_bounds_view_locks_the_bounds_unsound_for_top_k(monk1):
    X, y = monk1
    player = explore(X, y, regularization=0.1, solver="osdt", top_k=2, views=[BoundsView])
    view = player.views[0]
    for name in OSDT.NOT_FOR_TOP_K:
        assert view.switches[name].disabled and view.switches[name].value is False
    assert not view.switches["hierarchical"].disabled
    view.switches["equivalent_points"].value = False
    view.rerun(play=False)                                # the rebuilt search is valid and keeps top_k
    player.step(10**6)
    assert player.solver.top_k == 2 and player.solver.bounds["equivalent_points"] is False
    assert player.status == "optimal" and len(player.frame.snapshot.top_trees) == 2
    plain = explore(X, y, regularization=0.1, solver="osdt", views=[BoundsView]).views[0]
    assert not any(box.disabled for box in plain.switches.values())

"""RashomonExplorer, headless: filters, figures updated in place, clicks on groups, the static fallback."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from treeopt import rashomon_set  # noqa: E402
from treeopt.datasets import load_monk  # noqa: E402
from treeopt.widgets import RashomonExplorer  # noqa: E402


@pytest.fixture(scope="module")
def monk_set():
    X, y = load_monk(3)
    return rashomon_set(X, y, regularization=0.02, epsilon=0.5)


def _icicle_counts(explorer):
    trace = explorer.icicle.data[0]
    return dict(zip(trace.ids, trace.values))


def test_figures_show_the_sets_groups_objectives_and_importance(monk_set):
    explorer = RashomonExplorer(monk_set, backend="python")
    assert explorer.count == len(monk_set) > 10
    counts = _icicle_counts(explorer)
    assert counts["all trees"] == len(monk_set)
    groups = monk_set.split_groups()
    for root, left, right, count in zip(groups["root"], groups["left"], groups["right"], groups["count"]):
        if root != "leaf":
            assert counts[f"{root}/{left}|{right}"] == count
    roots = [i for i, parent in zip(explorer.icicle.data[0].ids, explorer.icicle.data[0].parents)
             if parent == "all trees"]
    assert sum(counts[r] for r in roots) == len(monk_set)                 # branchvalues="total" is consistent
    assert sum(explorer.histogram.data[0].y) == len(monk_set)
    assert min(explorer.histogram.data[0].x) == pytest.approx(monk_set.optimum)
    importance = monk_set.variable_importance()
    span, mean, share = explorer.importance.data
    assert list(share.y) == list(importance.index) and list(share.x) == pytest.approx(importance["share"].tolist())
    assert list(span.base) == pytest.approx(importance["reach_min"].tolist())
    assert explorer.svg.startswith("<svg") and "best tree of the set" in explorer.tree_caption.value


def test_filters_make_a_new_exact_set_and_update_the_same_figures(monk_set):
    explorer = RashomonExplorer(monk_set, backend="python")
    figures = (explorer.icicle, explorer.histogram, explorer.importance)
    name = monk_set.variable_importance().index[0]              # used by the most trees
    explorer.avoid.value = (name,)
    assert explorer.count == len(monk_set.filter(avoid=name)) < len(monk_set)
    explorer.avoid.value = ()
    explorer.max_depth.value = 2
    assert explorer.count == len(monk_set.filter(max_depth=2))
    explorer.must_use.value = (name,)
    assert explorer.count == len(monk_set.filter(max_depth=2, must_use=name))
    assert _icicle_counts(explorer)["all trees"] == explorer.count
    explorer.epsilon.value = 0.0
    assert explorer.count == len(monk_set.filter(max_depth=2, must_use=name, epsilon=0.0))
    explorer.avoid.value = (name,)                               # contradicts must_use: refused, reported
    assert "both required and avoided" in explorer.caption.value
    assert (explorer.icicle, explorer.histogram, explorer.importance) == figures   # created once


def test_clicking_a_group_draws_its_best_tree(monk_set):
    explorer = RashomonExplorer(monk_set, backend="python")
    trace = explorer.icicle.data[0]
    index = next(i for i, node in enumerate(trace.ids) if "|" in node)
    explorer._on_click(trace, SimpleNamespace(point_inds=[index]))
    node = trace.ids[index]
    assert explorer.selected_group == node
    root, rest = node.split("/")
    left, right = rest.split("|")
    tree = monk_set.representative(root, left, right)
    assert explorer.svg.startswith("<svg") and f"{tree.n_leaves} leaves" in explorer.tree_caption.value
    assert tree.features[tree.root.feature].name == root
    explorer.select_group("all trees")
    assert explorer.selected_group == "" and "best tree of the set" in explorer.tree_caption.value
    with pytest.raises(ValueError, match="unknown group"):
        explorer.select_group("nope")
    explorer.max_leaves.value = 1                                # nothing left: empty plots, a message
    assert explorer.count == 0 and "no tree" in explorer.tree_caption.value
    assert list(explorer.histogram.data[0].x) == []
    bundle = explorer._repr_mimebundle_()
    assert "RashomonExplorer(0 trees" in bundle["text/plain"] and "0 trees" in bundle["text/html"]


def test_a_click_message_from_the_page_and_the_group_control_select_the_same_group(monk_set):
    """The frontend's click message (plotly's ``_js2py_pointsCallback``) reaches the handler, and the
    group control is the same choice."""
    explorer = RashomonExplorer(monk_set, backend="python")
    trace = explorer.icicle.data[0]
    index = next(i for i, node in enumerate(trace.ids) if "|" in node)
    explorer.icicle._js2py_pointsCallback = {
        "event_type": "plotly_click", "device_state": None, "selector": None,
        "points": {"trace_indexes": [0], "point_indexes": [index], "xs": [None], "ys": [None]}}
    assert explorer.selected_group == trace.ids[index] and explorer.group.value == trace.ids[index]
    other = next(value for label, value in explorer.group.options if value not in ("", trace.ids[index]))
    explorer.group.value = other
    assert explorer.selected_group == other and "best tree of group" in explorer.tree_caption.value
    explorer.group.value = ""
    assert "best tree of the set" in explorer.tree_caption.value
    explorer.max_leaves.value = 2                                # the groups follow the filters
    assert [value for _, value in explorer.group.options][1:] == list(explorer._groups)


def test_it_refuses_what_is_not_a_rashomon_set():
    with pytest.raises(TypeError, match="RashomonSet"):
        RashomonExplorer([1, 2, 3])

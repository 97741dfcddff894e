"""Headless tests of treeopt.widgets: drive a player with step(n), check traits and each view's data."""

from __future__ import annotations

import asyncio
import html
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")
pytest.importorskip("anywidget")

from treeopt import OptimalTreeClassifier, make_solver  # noqa: E402
from treeopt.binarize import BinaryFeature  # noqa: E402
from treeopt.datasets import load_monk  # noqa: E402
from treeopt.render import layout_tree, tree_svg  # noqa: E402
from treeopt.roc import hull_auc, partial_hull_auc  # noqa: E402
from treeopt.registry import SOLVERS  # noqa: E402
from treeopt.tree import Leaf, Split, Tree  # noqa: E402
from treeopt.widgets import (BoundsView, QueueView, RocView, SolverPlayer, TraceView, TreeView,  # noqa: E402
                             explore)

from conftest import split_names  # noqa: E402


@pytest.fixture(scope="module")
def monk1():
    return load_monk(1)


@pytest.fixture(scope="module")
def monk2():
    return load_monk(2)


# -- the player ---------------------------------------------------------------------
def test_player_traits_follow_the_solver_and_end_at_run_optimum(monk1):
    X, y = monk1
    player = explore(X, y, regularization=0.02, views=None)
    assert (player.status, player.n_steps, player.running) == ("not_started", 0, False)
    assert player.step(7) is True
    assert player.n_steps == player.solver.expansions == 7
    assert player.status == "paused"
    assert player.lower_bound <= player.upper_bound
    assert player.gap == pytest.approx(player.upper_bound - player.lower_bound)
    while player.step(500):
        assert player.lower_bound <= player.upper_bound + 1e-12
    assert player.status == "optimal" and player.gap == 0.0
    # The same problem solved by run() on a fresh solver reaches the same certified optimum.
    reference = OptimalTreeClassifier(regularization=0.02).fit(X, y)
    assert player.upper_bound == pytest.approx(reference.objective_, abs=1e-12)
    assert player.n_steps == reference.n_steps_
    assert player.step(1) is False


def test_player_rejects_bad_input(monk1):
    X, y = monk1
    with pytest.raises(TypeError, match="stepwise solver"):
        SolverPlayer("not a solver")
    solver = make_solver(X, y, regularization=0.05)
    with pytest.raises(ValueError, match="speed"):
        SolverPlayer(solver, speed=0, views=None)
    with pytest.raises(ValueError, match="time_limit"):
        SolverPlayer(solver, time_limit=-1, views=None)
    with pytest.raises(ValueError, match="views"):
        SolverPlayer(solver, views="everything")
    with pytest.raises(TypeError, match="unknown parameter"):
        explore(X, y, regularisation=0.1)
    player = SolverPlayer(solver, views=None)
    with pytest.raises(ValueError, match="positive integer"):
        player.step(0)
    with pytest.raises(RuntimeError, match="event loop"):
        player.play()


def test_hooks_fire_on_step_improve_and_finish(monk1):
    X, y = monk1
    player = explore(X, y, regularization=0.02, views=None)
    seen = {"step": 0, "improve": [], "finish": []}
    player.on_step(lambda p: seen.__setitem__("step", seen["step"] + 1))
    player.on_improve(lambda p: seen["improve"].append(p.upper_bound))
    player.on_finish(lambda p: seen["finish"].append(p.status))
    uppers = [player.upper_bound]
    while player.step(3):
        uppers.append(player.upper_bound)
    uppers.append(player.upper_bound)
    expected = [b for a, b in zip(uppers, uppers[1:]) if b < a]
    assert seen["step"] == len(uppers) - 1
    assert seen["improve"] == expected and len(expected) >= 1
    assert seen["finish"] == ["optimal"]


def test_hook_can_be_removed(monk1):
    X, y = monk1
    player = explore(X, y, regularization=0.05, views=None)
    calls = []

    def hook(p):
        calls.append(p.n_steps)

    player.on_step(hook)
    player.step(1)
    player.on_step(hook, remove=True)
    player.step(1)
    assert calls == [1]


def test_play_runs_in_slices_and_pause_stops_at_once(monk2):
    X, y = monk2
    # A generous time budget per slice, so that slices end on their count (`speed`) here.
    player = explore(X, y, regularization=0.001, views=None, speed=5, delay=0.001, slice_seconds=10.0)

    async def scenario():
        task = player.play()
        assert player.running and player.status == "running"
        for _ in range(200):                       # the kernel (loop) stays responsive meanwhile
            await asyncio.sleep(0.005)
            if player.n_steps >= 50:
                break
        player.pause()
        frozen = player.n_steps
        await asyncio.sleep(0.2)
        await task
        return frozen

    frozen = asyncio.run(scenario())
    assert frozen >= 50
    assert player.n_steps == frozen and player.status == "paused" and not player.running
    assert player.n_steps % 5 == 0                 # whole slices of `speed` units


def test_time_limit_stops_playing_with_an_honest_gap(monk2):
    X, y = monk2
    player = explore(X, y, regularization=0.001, views=None, speed=20, time_limit=0.15)
    finished = []
    player.on_finish(lambda p: finished.append(p.status))
    status = asyncio.run(player.play_until_done())
    assert status == "time_limit" and finished == ["time_limit"]
    assert player.solver.elapsed >= 0.15
    assert player.gap == pytest.approx(player.upper_bound - player.lower_bound) and player.gap > 0
    tree = player.frame.snapshot.best_tree
    assert tree.objective(X, y, 0.001) == pytest.approx(player.upper_bound, abs=1e-9)


# -- the views -----------------------------------------------------------------------
def test_queue_view_rows_have_lb_le_ub_and_detail_on_click(monk1):
    X, y = monk1
    player = explore(X, y, regularization=0.02, views=[QueueView])
    view = player.views[0]
    player.step(20)
    rows = view.rows
    snapshot = player.frame.snapshot
    assert 0 < len(rows) <= player.top_k and snapshot.queue_size >= len(rows)
    assert [r["rule"] for r in rows] == [e.rule for e in snapshot.queue]
    assert all(r["lower_bound"] <= r["upper_bound"] + 1e-12 for r in rows)
    assert [r["priority"] for r in rows] == sorted(r["priority"] for r in rows)
    view._select.value = 1                          # what a click on the second row does
    assert view.selected == rows[1]
    assert html.escape(rows[1]["rule"]) in view._detail.value
    assert "<table" in view.to_html() and html.escape(rows[0]["rule"]) in view.to_html()


def test_trace_view_is_monotone_and_ends_at_the_current_bounds(monk2):
    X, y = monk2
    # Without the CART start, whose tree this search does not beat within 3000 steps (no improvement to draw).
    player = explore(X, y, regularization=0.005, views=[TraceView], bounds={"cart_start": False})
    view = player.views[0]
    for _ in range(30):
        player.step(100)
    d = view.data
    assert len(d["x"]) >= 2
    assert all(a <= b for a, b in zip(d["x"], d["x"][1:]))
    assert all(a <= b + 1e-12 for a, b in zip(d["lower_bound"], d["lower_bound"][1:]))
    assert all(a >= b - 1e-12 for a, b in zip(d["upper_bound"], d["upper_bound"][1:]))
    assert all(lo <= hi + 1e-12 for lo, hi in zip(d["lower_bound"], d["upper_bound"]))
    assert d["x"][-1] == player.n_steps
    assert d["upper_bound"][-1] == pytest.approx(player.upper_bound)
    assert d["lower_bound"][-1] == pytest.approx(player.lower_bound)
    assert len(d["improvements"]) >= 1
    # The plotly figure holds the same arrays.
    assert list(view.figure.data[0].y) == d["lower_bound"] and list(view.figure.data[1].y) == d["upper_bound"]
    view._axis.value = "time"
    assert view.data["x"] == sorted(view.data["x"]) and view.data["x"][-1] <= player.solver.elapsed


def test_tree_view_svg_names_the_incumbents_features(monk1):
    X, y = monk1
    player = explore(X, y, regularization=0.02, views=[TreeView])
    view = player.views[0]
    player.step(10**6)
    tree = player.frame.snapshot.best_tree
    names = split_names(tree)
    assert len(names) >= 2
    for name in names:
        assert html.escape(name) in view.svg
    assert view.tree is tree
    expected = "graphviz" if shutil.which("dot") else "python"
    assert view.backend_used == expected
    ET.fromstring(view.svg)                          # well-formed SVG


def test_tree_view_falls_back_to_python_svg_without_dot(monk1, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))        # no `dot` anywhere on PATH
    assert shutil.which("dot") is None
    X, y = monk1
    player = explore(X, y, regularization=0.02, views=[TreeView])
    view = player.views[0]
    player.step(10**6)
    assert view.backend_used == "python"
    root = ET.fromstring(view.svg)
    tree = player.frame.snapshot.best_tree
    for name in split_names(tree):
        assert html.escape(name) in view.svg
    groups = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "node"]
    assert len(groups) == tree.n_leaves + tree.n_splits
    # Leaves show their class counts.
    _, first_leaf = next(iter(tree.leaves()))
    assert " / ".join(f"{c}: {int(n)}" for c, n in zip(tree.classes, first_leaf.counts)) in view.svg


def test_tree_view_highlights_a_rows_path_and_collapses(monk1, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    X, y = monk1
    player = explore(X, y, regularization=0.02, views=[TreeView])
    view = player.views[0]
    player.step(10**6)
    tree = view.tree
    row = 5
    path = view.highlight(row)
    boxes = {}
    stack = [layout_tree(tree)]
    while stack:
        box = stack.pop()
        boxes[box.node_id] = box
        stack += [child for _, child in box.children]
    reached = boxes[path[-1]]
    assert reached.kind == "leaf"
    predicted = OptimalTreeClassifier(regularization=0.02).fit(X, y).predict(X.iloc[[row]])[0]
    assert reached.lines[0] == str(predicted)
    assert view.svg.count('stroke="#d62728"') == len(path) + len(path) - 1   # boxes and edges on the path
    view._depth_box.value = 1
    assert "leaves" in view.svg and view.svg.count("<rect") < tree.n_leaves + tree.n_splits
    with pytest.raises(IndexError):
        view.highlight(10**6)


def test_bounds_view_counts_and_live_ablation(monk1):
    X, y = monk1
    player = explore(X, y, regularization=0.1, views=[BoundsView])
    view = player.views[0]
    player.step(10**6)
    assert view.counts == {k: player.solver.prune_counts[k] for k in player.solver.BOUNDS}
    assert sum(view.counts.values()) > 0
    assert list(view.figure.data[0].x) == list(view.counts.values())
    view.switches["lookahead"].value = False
    view.rerun(play=False)
    assert player.solver.bounds["lookahead"] is False and player.n_steps == 0 and len(player.recording) == 1
    player.step(10**6)
    assert view.counts["lookahead"] == 0
    assert [r["bounds_off"] for r in view.runs] == [[], ["lookahead"]]
    assert view.runs[0]["objective"] == pytest.approx(view.runs[1]["objective"])
    assert "lookahead" in view._table.value


def test_roc_view_draws_the_incumbents_hull(monk1):
    X, y = monk1
    player = explore(X, y, regularization=0.02, views=[lambda p: RocView(p, compare="cart")])
    view = player.views[0]
    player.step(300)
    tree = player.frame.snapshot.best_tree
    counts = [leaf.counts for _, leaf in tree.leaves()]
    assert tree.n_leaves >= 2
    assert view.hull[0] == (0.0, 0.0) and view.hull[-1] == (1.0, 1.0)
    assert all(a[0] <= b[0] and a[1] <= b[1] for a, b in zip(view.hull, view.hull[1:]))
    assert view.auc == pytest.approx(hull_auc(counts))
    assert list(view.figure.data[2].x) == [p[0] for p in view.hull]
    assert view.compare_hull[0] == (0.0, 0.0) and view.compare_hull[-1] == (1.0, 1.0)
    assert len(view.figure.layout.shapes) == 0
    shaded = RocView(player, max_fpr=0.3)
    assert shaded.auc == pytest.approx(partial_hull_auc(counts, 0.3))
    assert len(shaded.figure.layout.shapes) == 1 and shaded.figure.layout.shapes[0].x1 == 0.3


def test_auc_objectives_get_a_roc_view_with_their_region(monk1):
    # Only built, not stepped: OSDT's first units of work on AUC take seconds (see the report).
    X, y = monk1
    player = explore(X, y, regularization=0.05, objective="auc", solver="osdt")
    assert [type(v).__name__ for v in player.views][-1] == "RocView"
    assert not any(isinstance(v, RocView) for v in explore(X, y, regularization=0.05).views)
    partial = explore(X, y, regularization=0.05, objective="partial_auc", theta=0.3, solver="osdt",
                      views=[RocView])
    shapes = partial.views[0].figure.layout.shapes
    assert len(shapes) == 1 and shapes[0].x1 == 0.3


def test_record_and_replay_scrubs_every_view_back(monk2):
    X, y = monk2
    player = explore(X, y, regularization=0.005)
    trace, tree_view, queue, bounds = player.views[:4]
    for _ in range(6):
        player.step(300)
    assert len(player.recording) == 7 and player.live
    first = player.show(1)
    assert not player.live and player.frame is first
    assert first.snapshot.expansions == 300
    assert trace.data["x"][-1] == 300
    assert queue.rows == [dict(rank=i + 1, rule=e.rule, support=float(e.support), lower_bound=e.lower_bound,
                               upper_bound=e.upper_bound, priority=tuple(e.priority))
                          for i, e in enumerate(first.snapshot.queue)]
    assert tree_view.tree is first.snapshot.best_tree
    assert bounds.counts == {k: first.snapshot.prune_counts[k] for k in bounds.counts}
    player.step(300)                                  # new frames do not move a replaying view
    assert player.frame is first and trace.data["x"][-1] == 300
    player.controls.live_button.click()
    assert player.live and player.frame is player.recording[-1] and trace.data["x"][-1] == 2100
    player.controls.replay.value = 0                          # the slider scrubs too
    assert player.frame is player.recording[0] and trace.data["x"][-1] == 0


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_every_registered_solver_plays_in_the_default_views(name, monk1):
    X, y = monk1
    player = explore(X, y, regularization=0.05, solver=name)
    player.step(30)
    queue = next(v for v in player.views if isinstance(v, QueueView))
    trace = next(v for v in player.views if isinstance(v, TraceView))
    tree_view = next(v for v in player.views if isinstance(v, TreeView))
    assert player.n_steps == player.solver.expansions
    assert player.lower_bound <= player.upper_bound + 1e-12
    assert all(r["lower_bound"] <= r["upper_bound"] + 1e-12 for r in queue.rows)
    assert all(a >= b - 1e-12 for a, b in zip(trace.data["upper_bound"], trace.data["upper_bound"][1:]))
    for feature in split_names(player.frame.snapshot.best_tree):
        assert html.escape(feature) in tree_view.svg
    # Every solver's queue entries describe their payload the same way, and the view shows it.
    entries = player.frame.snapshot.queue
    assert bool(entries) == (player.frame.snapshot.queue_size > 0), name
    for index, entry in enumerate(entries[:3]):
        details = entry.details()
        assert entry.payload is None or details, (name, type(entry.payload))
        queue.select(index)
        for key, value in details:
            assert html.escape(key) in queue._detail.value and html.escape(value) in queue._detail.value


# -- static output -------------------------------------------------------------------------
def test_every_view_has_a_static_picture_and_saves(monk1, tmp_path):
    X, y = monk1
    player = explore(X, y, regularization=0.05, views=[TraceView, TreeView, QueueView, BoundsView, RocView])
    player.step(50)
    for view in player.views:
        bundle = view._repr_mimebundle_()
        assert "application/vnd.jupyter.widget-view+json" in bundle and "text/html" in bundle
        name = type(view).__name__
        if view.to_svg() is not None:
            ET.fromstring(bundle["image/svg+xml"])
            path = view.save(tmp_path / f"{name}.svg")
            assert ET.parse(path).getroot().tag.endswith("svg")
        page = view.save(tmp_path / f"{name}.html").read_text()
        assert page.startswith("<!DOCTYPE html>") and "<script" not in page
        with pytest.raises(ValueError, match="cannot save"):
            view.save(tmp_path / f"{name}.docx")
    assert html.escape(next(iter(split_names(player.frame.snapshot.best_tree)), "")) in player.to_html()
    player.save(tmp_path / "player.html")
    assert "objective" in (tmp_path / "player.html").read_text()


def test_python_renderer_draws_multiway_splits():
    from treeopt.tree import MultiwaySplit
    tree = Tree(Split(0, MultiwaySplit("color", 1, ["red", "blue", "green"],
                                       [Leaf(0, (3, 1)), Leaf(1, (0, 5)), Leaf(0, (2, 0))]),
                      Leaf(1, (1, 4))),
                [BinaryFeature("age", 0, "threshold", 30.0, "age <= 30")], ["no", "yes"])
    svg = tree_svg(tree, highlight_path=[0, 2, 4])
    root = ET.fromstring(svg)
    assert all(text in svg for text in ("age &lt;= 30", "color", "red", "blue", "green"))
    groups = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "node"]
    assert sorted(int(g.get("id")[4:]) for g in groups) == list(range(6))
    # Ids follow Tree.to_dot's pre-order (the true branch first).
    assert tree.to_dot().count("[label=") - tree.to_dot().count("->") == 6
    assert svg.count('stroke="#d62728"') == 3 + 2
    collapsed = tree_svg(tree, max_depth=1)
    assert "… 3 leaves" in collapsed and "green" not in collapsed


def test_importing_treeopt_does_not_import_jupyter():
    code = ("import sys, treeopt, treeopt.widgets; "
            "bad = [m for m in ('ipywidgets', 'plotly', 'graphviz') if m in sys.modules]; "
            "assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_explore_refuses_a_node_limit_it_cannot_honour():
    with pytest.raises(TypeError, match="no node_limit"):
        explore(*load_monk(1), regularization=0.05, views=None, node_limit=10)

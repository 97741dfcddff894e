"""A plug-in bound has its bar and switch in the bounds view, and "Rerun" keeps it (headless)."""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

import treeopt  # noqa: E402
from treeopt.data import Dataset  # noqa: E402
from treeopt.datasets import load_monk  # noqa: E402
from treeopt.solvers import GOSDT, OSDT  # noqa: E402
from treeopt.widgets import BoundsView, SolverPlayer  # noqa: E402

from hand_bounds import MY_LOOKAHEAD


@pytest.mark.parametrize("search, regularization", [(OSDT, 0.1), (GOSDT, 0.01)], ids=["osdt", "gosdt"])
def test_plugin_bound_in_the_view_and_kept_by_rerun(search, regularization):
    X, y = load_monk(1)
    solver = search(Dataset.from_arrays(X, y), regularization=regularization, bounds={"lookahead": False},
                    plugins=[MY_LOOKAHEAD])
    player = SolverPlayer(solver, views=[BoundsView])
    view = player.views[0]
    assert "my_lookahead" in view.switches and "Lemma 2, by hand" in view.switches["my_lookahead"].tooltip
    player.step(10**6)
    assert view.counts["my_lookahead"] == solver.prune_counts["my_lookahead"] > 0
    bar = view.figure.data[0]
    assert bar.x[list(bar.y).index("my_lookahead")] == view.counts["my_lookahead"]

    view.switches["my_lookahead"].value = False
    view.rerun(play=False)
    player.step(10**6)
    assert isinstance(player.solver, search) and "my_lookahead" in player.solver.switches
    assert player.solver.bounds["my_lookahead"] is False and player.solver.prune_counts["my_lookahead"] == 0
    assert "my_lookahead" in view.runs[1]["bounds_off"] and "my_lookahead" not in view.runs[0]["bounds_off"]
    assert view.runs[0]["objective"] == pytest.approx(view.runs[1]["objective"])


def test_plugin_queue_policy_switch_is_kept_by_rerun():
    X, y = load_monk(1)
    fewest = treeopt.queue_policy("fewest_leaves", lambda node: node.n_leaves, citation="breadth first")
    player = SolverPlayer(OSDT(Dataset.from_arrays(X, y), regularization=0.1, plugins=[fewest]),
                          views=[BoundsView])
    view = player.views[0]
    assert "search order" in view.switches["fewest_leaves"].tooltip
    view.switches["fewest_leaves"].value = False
    view.rerun(play=False)
    assert player.solver.bounds["fewest_leaves"] is False and "fewest_leaves" in player.solver.switches

"""The widgets label a guessed lower bound (McTavish et al. 2022, section 4.3) as guessed, without a browser."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from treeopt.data import Dataset  # noqa: E402
from treeopt.datasets import load_monk  # noqa: E402
from treeopt.guessing import reference_errors  # noqa: E402
from treeopt.solvers import GOSDT  # noqa: E402
from treeopt.widgets import BoundsView, QueueView, SolverPlayer, TraceView  # noqa: E402


@pytest.fixture(scope="module")
def monk2():
    X, y = load_monk(2)
    y = np.asarray(y)
    flip = np.random.default_rng(0).random(len(y)) < 0.2
    return Dataset.from_arrays(X, y), y, np.where(flip, 1 - y, y)


def make_player(monk2, guessed: bool) -> SolverPlayer:
    ds, y, y_ref = monk2
    guess = {"reference_errors": reference_errors(ds, y, y_ref)} if guessed else {}
    solver = GOSDT(ds, regularization=0.01, **guess)
    return SolverPlayer(solver, views=[TraceView, BoundsView, QueueView])


def test_guessed_search_is_labelled_guessed_everywhere(monk2):
    player = make_player(monk2, guessed=True)
    trace, bounds, queue = player.views
    player.step(3)
    player._refresh(force=True)
    assert player.lower_bound_guessed
    status = player.controls.status_label.value
    assert "lower bound (guessed)" in status and "gap vs guessed bound" in status
    assert trace.lower_bound_name == "lower bound (guessed)"
    assert trace.figure.data[0].name == "lower bound (guessed)"
    assert "lower bound (guessed)" in trace.figure.layout.title.text
    assert "lower bound (guessed)" in trace.to_svg()
    assert queue.rows
    queue.select(0)
    assert "lower bound (guessed)" in queue._detail.value and "gap vs guessed bound" in queue._detail.value
    assert "guessed" in queue._summary.value
    while player.step(1000):
        pass
    # The solver ran to its end against its guess: status "guessed", and the views say not certified.
    assert player.status == "guessed"
    assert "not certified" in player.controls.status_label.value and "not certified" in player.to_html()
    assert bounds.runs[-1]["lower_bound_guessed"] is True
    assert "not certified" in bounds._table.value


def test_certified_search_keeps_the_plain_labels(monk2):
    player = make_player(monk2, guessed=False)
    trace, bounds, queue = player.views
    player.step(3)
    player._refresh(force=True)
    assert not player.lower_bound_guessed
    assert "guess" not in player.controls.status_label.value and "lower bound" in player.controls.status_label.value
    assert trace.figure.data[0].name == "lower bound" and "guess" not in trace.to_svg()
    assert "guess" not in queue._summary.value
    while player.step(1000):
        pass
    assert player.status == "optimal" and "<b>optimal</b>" in player.controls.status_label.value
    assert bounds.runs[-1]["lower_bound_guessed"] is False and "not certified" not in bounds._table.value


def test_rerun_keeps_the_guesses(monk2):
    """BoundsView's rerun rebuilds the solver with the same reference errors (and the same label)."""
    player = make_player(monk2, guessed=True)
    bounds = player.views[1]
    bounds.switches["lookahead"].value = False
    bounds.rerun(play=False)
    assert player.solver.lower_bound_guessed and player.lower_bound_guessed
    assert player.solver.bounds["lookahead"] is False
    bounds.switches["reference_lower_bound"].value = False
    bounds.rerun(play=False)
    assert not player.solver.lower_bound_guessed and not player.lower_bound_guessed

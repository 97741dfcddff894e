"""The plug-in contract every search that takes plug-in bounds keeps (OSDT and GOSDT alike): a plug-in
bound prunes, is counted, is emitted as ``Pruned`` events and shown in the snapshot, can be switched
off (then it is never called), and survives ``rebuild`` with its switch."""

from __future__ import annotations

import pytest

import treeopt
from treeopt.events import Pruned
from treeopt.solvers import GOSDT, OSDT

from hand_bounds import MY_LOOKAHEAD

#: Each search with a regularization at which its own lookahead bound prunes on monk 1.
SEARCHES = [pytest.param(OSDT, 0.1, id="osdt"), pytest.param(GOSDT, 0.01, id="gosdt")]


@pytest.mark.parametrize("search, regularization", SEARCHES)
def test_plugin_bound_prunes_counts_and_keeps_the_optimum(monk, search, regularization):
    built_in = search(monk, regularization=regularization).run()
    solver = search(monk, regularization=regularization, bounds={"lookahead": False}, plugins=[MY_LOOKAHEAD])
    result = solver.run()
    assert result.optimal and result.objective == pytest.approx(built_in.objective)
    assert solver.prune_counts["my_lookahead"] > 0 and solver.prune_counts["lookahead"] == 0


@pytest.mark.parametrize("search, regularization", SEARCHES)
def test_plugin_prunes_are_pruned_events_and_in_the_snapshot(monk, search, regularization):
    solver = search(monk, regularization=regularization, bounds={"lookahead": False}, plugins=[MY_LOOKAHEAD])
    emitted = sum(event.count for event in solver.steps()
                  if isinstance(event, Pruned) and event.bound == "my_lookahead")
    snapshot = solver.snapshot()
    assert emitted > 0
    assert snapshot.prune_counts["my_lookahead"] == solver.prune_counts["my_lookahead"] >= emitted
    assert snapshot.extra["plugins"] == ["my_lookahead"]
    assert solver.switches["my_lookahead"].kind == "bound"
    assert solver.switches["my_lookahead"].citation == "OSDT Lemma 2, by hand"
    assert "my_lookahead" not in search.SWITCHES                 # the class is untouched


@pytest.mark.parametrize("search, regularization", SEARCHES)
def test_switched_off_plugin_is_never_called(monk, search, regularization):
    calls = []
    spy = treeopt.lower_bound("spy", lambda node: calls.append(node) or 0.0)
    solver = search(monk, regularization=regularization, bounds={"spy": False}, plugins=[spy])
    calls.clear()                                           # the construction-time check calls it once
    solver.run()
    assert calls == [] and solver.prune_counts["spy"] == 0 and solver.bounds["spy"] is False


@pytest.mark.parametrize("search, regularization", SEARCHES)
def test_rebuild_keeps_the_plugin_and_its_switch(monk, search, regularization):
    solver = search(monk, regularization=regularization, plugins=[MY_LOOKAHEAD], bounds={"my_lookahead": False})
    again = solver.rebuild()
    assert "my_lookahead" in again.switches and again.bounds["my_lookahead"] is False
    on = solver.rebuild(bounds={"lookahead": False, "my_lookahead": True})
    on.run()
    assert on.prune_counts["my_lookahead"] > 0

"""Every registered solver keeps the stepwise protocol's promises.

Parametrised over ``treeopt.solvers.SOLVERS``: a newly registered solver is checked here
without new tests. Tiny data (MONK-2 with a large λ) keeps each case to a fraction of a second.
"""

import math

import pytest

from treeopt import make_solver
from treeopt.datasets import load_monk
from treeopt.events import Finished, Started
from treeopt.registry import SOLVERS

LAMBDA = 0.05


@pytest.fixture(scope="module")
def monk2():
    return load_monk(2)


def _build(name, data):
    X, y = data
    return make_solver(X, y, solver=name, regularization=LAMBDA)


@pytest.fixture(scope="module")
def finished(monk2):
    """``finished(name)``: a solver of that name run to the end with ``run()``, built once for the
    module (the tests that use it only read its result and counters)."""
    solvers = {}

    def get(name):
        if name not in solvers:
            solvers[name] = _build(name, monk2)
            solvers[name].run()
        return solvers[name]

    return get


@pytest.fixture(scope="module")
def stepped(monk2):
    """``stepped(name)``: ``(solver, events)`` of a search of that name driven to the end through
    ``steps()``, built once for the module (the tests that use it only read them)."""
    runs = {}

    def get(name):
        if name not in runs:
            solver = _build(name, monk2)
            runs[name] = solver, list(solver.steps())
        return runs[name]

    return get


#: Known drift, kept visible: the greedy builder reports the tree it is growing as its
#: incumbent, so its upper bound rises while it grows (not the best tree seen so far).
MONOTONE_INCUMBENT = [pytest.param(name, marks=pytest.mark.xfail(strict=True, reason="greedy's incumbent is the growing tree"))
                      if name == "greedy" else name for name in sorted(SOLVERS)]


@pytest.mark.parametrize("name", MONOTONE_INCUMBENT)
def test_snapshots_keep_their_invariants_step_by_step(name, monk2):
    solver = _build(name, monk2)
    best_lb, best_ub = -math.inf, math.inf
    for _ in range(10_000):
        more = solver.step(5)
        snap = solver.snapshot()
        assert snap.lower_bound <= snap.upper_bound + 1e-9
        assert snap.lower_bound >= best_lb - 1e-9, "the global lower bound decreased"
        assert snap.upper_bound <= best_ub + 1e-9, "the incumbent got worse"
        best_lb, best_ub = snap.lower_bound, snap.upper_bound
        if not more:
            break
    assert not solver.step(1)
    assert solver.snapshot().status in ("optimal", "finished", "guessed")


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_pause_and_resume_equals_an_uninterrupted_run(name, monk2, finished):
    whole = finished(name)
    paused = _build(name, monk2)
    while paused.step(3):
        pass
    assert paused.result().objective == pytest.approx(whole.result().objective)
    assert paused.result().tree.n_leaves == whole.result().tree.n_leaves


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_node_limit_stops_honestly(name, monk2):
    solver = _build(name, monk2)
    solver.run(node_limit=1)
    snap = solver.snapshot()
    assert snap.lower_bound <= snap.upper_bound + 1e-9
    if snap.status == "node_limit":
        assert snap.gap >= 0
        assert snap.best_tree is not None


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_events_start_and_finish(name, stepped):
    _, events = stepped(name)
    assert isinstance(events[0], Started)
    assert isinstance(events[-1], Finished)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_pruned_events_name_declared_bounds_and_match_their_counters(name, stepped):
    """A ``Pruned(bound, n)`` event names a switch of ``BOUNDS`` and never claims more than its counter."""
    from treeopt.events import Pruned
    solver, events = stepped(name)
    emitted = {}
    for event in events:
        if isinstance(event, Pruned):
            assert event.bound in solver.BOUNDS, event
            emitted[event.bound] = emitted.get(event.bound, 0) + event.count
    for bound, total in emitted.items():
        assert 0 < total <= solver.prune_counts[bound], (bound, total, solver.prune_counts[bound])
    if name == "gosdt":      # every GOSDT bound that acts on this search says so in the event stream
        emitting = {"hierarchical", "incremental_lower_bound", "scope", "two_leaves", "depth_two", "completions"}
        assert {b for b in emitting if solver.prune_counts[b]} <= set(emitted)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_rebuild_keeps_every_setting(name, monk2):
    """``rebuild()`` gives a fresh solver of the same class whose ``params`` equal the original's."""
    solver = _build(name, monk2)
    solver.step(3)
    again = solver.rebuild()
    assert type(again) is type(solver)
    assert again.status == "not_started"
    assert again.params == solver.params
    if solver.BOUNDS:               # a change touches only the named setting
        bound = sorted(solver.BOUNDS)[0]
        changed = solver.rebuild(bounds={bound: False})
        assert changed.bounds[bound] is False
        rest = {k: v for k, v in changed.params.items() if k != "bounds"}
        assert rest == {k: v for k, v in solver.params.items() if k != "bounds"}


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_every_bound_has_a_prune_counter(name, finished):
    solver = finished(name)
    missing = set(solver.BOUNDS) - set(solver.prune_counts)
    assert not missing, f"{name}: bounds without a prune counter: {sorted(missing)}"
    assert all(isinstance(solver.prune_counts[b], int) and solver.prune_counts[b] >= 0 for b in solver.BOUNDS)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_switching_a_bound_off_keeps_the_optimum(name):
    """Bounds only prune what cannot be better: each one off gives the same objective (small data:
    OSDT with some bounds off takes minutes on all of MONK-2, so MONK-1's first 124 rows and the
    three features its concept uses, a1, a2 and a5, whose optimum is a 3-leaf tree)."""
    X, y = load_monk(1)
    solver = _build(name, (X.iloc[:124, [0, 1, 4]], y.iloc[:124]))
    solver.run()
    if solver.snapshot().status != "optimal":
        pytest.skip(f"{name} does not prove optimality on this data, so there is no optimum to keep")
    best = solver.result().objective
    for bound in solver.BOUNDS:
        without = solver.rebuild(bounds={bound: False})
        without.run()
        assert without.result().objective == pytest.approx(best), (name, bound)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_queue_entries_render_in_the_queue_view(name, monk2):
    """Every solver's queue holds ``QueueEntry`` values that the queue view shows row by row."""
    pytest.importorskip("ipywidgets")
    from treeopt.solvers import QueueEntry
    from treeopt.widgets import QueueView, SolverPlayer
    player = SolverPlayer(_build(name, monk2), views=[QueueView])
    player.step(5)
    entries = player.frame.snapshot.queue
    assert all(isinstance(e, QueueEntry) for e in entries), {type(e).__name__ for e in entries}
    view = player.views[0]
    assert len(view.rows) == len(entries)
    html = view.to_html()
    for index, entry in enumerate(entries):
        row = view.select(index)
        assert row["rule"] == entry.rule and row["lower_bound"] == pytest.approx(entry.lower_bound)
        assert f"subproblem #{index + 1}" in view._detail.value
        assert entry.rule.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") in html

"""The stepwise protocol (treeopt.solvers.base) as GOSDT speaks it.

Pausing must not change the search: a search paused half way, inspected and
resumed ends with the same tree and the same counters as one uninterrupted
``run()``. A stopped search (node limit, time limit, Ctrl-C) returns a valid
tree whose objective is the upper bound, and a lower bound that is still a
lower bound on the true optimum (checked against a full run).
"""

import types

import numpy as np
import pytest

from treeopt.events import Expanded, Finished, Improved, LowerBoundRaised, Progress, Started
from treeopt.data import Dataset
from treeopt.solvers import GOSDT

LAM = 0.01


def planted(seed=0, n_rows=300, n_features=10):
    """Noisy (x0 xor x1) or (x2 and x3): a few thousand expansions, well under a second."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, (n_rows, n_features))
    y = (X[:, 0] ^ X[:, 1]) | (X[:, 2] & X[:, 3])
    y = np.where(rng.random(n_rows) < 0.1, 1 - y, y)
    return X, y


@pytest.fixture(scope="module")
def data():
    X, y = planted()
    return X, y, Dataset.from_binary(X, y)


@pytest.fixture(scope="module")
def reference(data):
    """The uninterrupted run everything is compared with."""
    _, _, ds = data
    result = GOSDT(ds, regularization=LAM).run()
    assert result.optimal and result.expansions > 100
    return result


def recomputed(tree, data):
    X, y, _ = data
    return tree.objective(X, y, LAM, binarized=True)


def assert_same_search(result, reference):
    assert result.optimal and result.status == "optimal"
    assert result.tree.to_dict() == reference.tree.to_dict()
    assert result.expansions == reference.expansions
    assert result.prune_counts == reference.prune_counts
    assert result.objective == reference.objective
    assert result.lower_bound == reference.lower_bound


def assert_monotone_trace(trace):
    lower = [p.lower_bound for p in trace]
    upper = [p.upper_bound for p in trace]
    assert all(b >= a - 1e-12 for a, b in zip(lower, lower[1:])), "the global lower bound decreased"
    assert all(b <= a + 1e-12 for a, b in zip(upper, upper[1:])), "the incumbent objective increased"
    assert all(lo <= up + 1e-12 for lo, up in zip(lower, upper))


def test_pause_inspect_resume_equals_uninterrupted_run(data, reference):
    _, _, ds = data
    solver = GOSDT(ds, regularization=LAM)
    events = solver.steps()
    seen = []
    for event in events:
        seen.append(event)
        if solver.expansions >= reference.expansions // 2:
            break                                          # pause half way
    assert solver.status == "paused"
    snap = solver.snapshot(top_k=50)
    assert snap.expansions == reference.expansions // 2
    assert snap.queue_size > 0 and 0 < len(snap.queue) <= 50
    for entry in snap.queue:
        assert entry.lower_bound <= entry.upper_bound + 1e-12
        assert entry.support > 0
    priorities = [entry.priority for entry in snap.queue]
    assert priorities == sorted(priorities)
    # Certified bounds: they bracket the true optimum, and the incumbent really has that objective.
    assert snap.lower_bound <= reference.objective + 1e-12 <= snap.upper_bound + 2e-12
    assert recomputed(snap.best_tree, data) == pytest.approx(snap.upper_bound, abs=1e-9)
    assert snap.gap == pytest.approx(snap.upper_bound - snap.lower_bound)
    assert_monotone_trace(solver.trace)
    # Keep going with the same event stream for a while, then drain on the fast path.
    for _, event in zip(range(200), events):
        seen.append(event)
    result = solver.run()
    assert_same_search(result, reference)
    assert_monotone_trace(result.trace)
    assert recomputed(result.tree, data) == pytest.approx(reference.objective, abs=1e-9)
    # The events tell the same story as the trace.
    assert isinstance(seen[0], Started)
    expanded = [e for e in seen if isinstance(e, Expanded)]
    assert [e.step for e in expanded] == list(range(len(expanded)))
    raised = [e.lower_bound for e in seen if isinstance(e, LowerBoundRaised)]
    improved = [e.objective for e in seen if isinstance(e, Improved)]
    assert raised == sorted(raised)
    assert improved == sorted(improved, reverse=True)


def test_steps_to_the_end_equals_run(data, reference):
    _, _, ds = data
    solver = GOSDT(ds, regularization=LAM)
    events = list(solver.steps())
    assert isinstance(events[-1], Finished) and events[-1].optimal and events[-1].status == "optimal"
    assert_same_search(solver.result(), reference)
    assert list(solver.steps()) == [Finished(reference.expansions, True, 0.0, "optimal")]  # nothing left


def test_step_n_then_run_equals_run(data, reference):
    _, _, ds = data
    solver = GOSDT(ds, regularization=LAM)
    assert solver.step(37) is True
    assert solver.expansions == 37
    for _ in range(5):
        solver.step(11)
    assert_same_search(solver.run(), reference)
    assert solver.step() is False


@pytest.mark.parametrize("every", [7, 100])
def test_steps_every_k_yields_progress(data, reference, every):
    _, _, ds = data
    solver = GOSDT(ds, regularization=LAM)
    events = list(solver.steps(every=every))
    progress, last = events[:-1], events[-1]
    assert all(isinstance(e, Progress) for e in progress)
    assert [e.step for e in progress] == [every * (i + 1) for i in range(len(progress))]
    assert len(progress) == (reference.expansions - 1) // every
    for e in progress:
        assert e.lower_bound <= e.upper_bound and e.queue_size >= 0 and e.elapsed >= 0
    assert [e.lower_bound for e in progress] == sorted(e.lower_bound for e in progress)
    assert isinstance(last, Finished) and last.optimal
    assert_same_search(solver.result(), reference)
    with pytest.raises(ValueError, match="every"):
        next(GOSDT(ds, regularization=LAM).steps(every=0))


def test_node_limit_returns_valid_tree_and_honest_gap(data, reference):
    _, _, ds = data
    solver = GOSDT(ds, regularization=LAM)
    stopped = solver.run(node_limit=reference.expansions // 3)
    assert stopped.status == "node_limit" and not stopped.optimal
    assert stopped.expansions == reference.expansions // 3
    assert recomputed(stopped.tree, data) == pytest.approx(stopped.objective, abs=1e-9)
    assert stopped.lower_bound <= reference.objective + 1e-12 <= stopped.upper_bound + 2e-12
    assert stopped.gap == pytest.approx(stopped.upper_bound - stopped.lower_bound) and stopped.gap > 0
    # A second limit counts total expansions; then resuming finishes the same search.
    again = solver.run(node_limit=reference.expansions // 2)
    assert again.status == "node_limit" and again.expansions == reference.expansions // 2
    assert again.lower_bound >= stopped.lower_bound and again.upper_bound <= stopped.upper_bound
    assert_same_search(solver.run(), reference)


def test_result_asked_again_is_the_same_and_follows_an_offered_tree(data, reference):
    """``result()`` of an unchanged search is answered from the one ``run`` returned (the estimator's
    ``release`` asks at once), in fresh lists; a tree offered from outside changes the answer."""
    X, _, ds = data
    solver = GOSDT(ds, regularization=LAM)
    stopped = solver.run(node_limit=1)                  # the root made (an offer before it waits for it)
    assert stopped.upper_bound > reference.objective + 1e-9
    again = solver.result()
    assert (again.upper_bound, again.lower_bound, again.expansions) == \
        (stopped.upper_bound, stopped.lower_bound, stopped.expansions)
    assert again.tree is stopped.tree
    again.trace.append("changed by the caller")
    again.prune_counts["changed"] = 1
    third = solver.result()
    assert len(third.trace) == len(stopped.trace) and "changed" not in third.prune_counts
    # Offered the optimum, the paused search's result is that tree at once.
    assert solver.offer_incumbent(reference.tree, reference.objective)
    offered = solver.result()
    assert offered.upper_bound == pytest.approx(reference.objective)
    assert np.array_equal(offered.tree.predict(X), reference.tree.predict(X))
    assert recomputed(offered.tree, data) == pytest.approx(reference.objective, abs=1e-9)


def test_node_limit_zero_gives_the_root_leaf(data):
    X, y, ds = data
    result = GOSDT(ds, regularization=LAM).run(node_limit=0)
    assert result.status == "node_limit" and result.expansions == 0
    assert result.tree.n_leaves == 1
    majority = max(np.mean(y == 0), np.mean(y == 1))
    assert result.objective == pytest.approx(1 - majority + LAM)


def test_time_limit_status(data, reference, monkeypatch):
    """A fake clock that advances 1 s per reading: the limit hits at the first check, deterministically."""
    _, _, ds = data
    ticks = iter(range(10**9))
    import treeopt.solvers.base as base
    monkeypatch.setattr(base, "time", types.SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    solver = GOSDT(ds, regularization=LAM)
    result = solver.run(time_limit=5)
    assert result.status == "time_limit" and not result.optimal
    assert 0 < result.expansions < reference.expansions
    assert result.lower_bound <= reference.objective + 1e-12 <= result.upper_bound + 2e-12
    assert recomputed(result.tree, data) == pytest.approx(result.objective, abs=1e-9)
    monkeypatch.undo()
    assert_same_search(solver.run(), reference)


def test_interrupt_from_progress_callback_keeps_incumbent_and_resumes(data, reference, monkeypatch):
    """Ctrl-C between steps (here: from the progress callback) leaves a resumable search."""
    _, _, ds = data
    ticks = iter(range(10**9))
    import treeopt.solvers.base as base
    monkeypatch.setattr(base, "time", types.SimpleNamespace(perf_counter=lambda: float(next(ticks))))
    calls = []

    def progress(solver):
        calls.append(solver.expansions)
        if solver.expansions >= reference.expansions // 4:
            raise KeyboardInterrupt

    solver = GOSDT(ds, regularization=LAM)
    result = solver.run(progress=progress)
    assert calls and result.status == "interrupted" and not result.optimal
    assert result.expansions == calls[-1] < reference.expansions
    assert recomputed(result.tree, data) == pytest.approx(result.objective, abs=1e-9)
    assert result.lower_bound <= reference.objective + 1e-12 <= result.upper_bound + 2e-12
    monkeypatch.undo()
    assert_same_search(solver.run(), reference)


class InterruptedGOSDT(GOSDT):
    """GOSDT whose n-th expansion is hit by a KeyboardInterrupt (Ctrl-C inside a step)."""

    def __init__(self, *args, interrupt_at, **kwargs):
        super().__init__(*args, **kwargs)
        self.interrupt_at = interrupt_at

    def _expand(self, problem, dive=False):
        if self.expansions == self.interrupt_at:
            raise KeyboardInterrupt
        super()._expand(problem, dive)


def test_interrupt_inside_a_step_keeps_incumbent_and_never_claims_optimality(data, reference):
    _, _, ds = data
    solver = InterruptedGOSDT(ds, regularization=LAM, interrupt_at=reference.expansions // 2)
    result = solver.run()
    assert result.status == "interrupted" and not result.optimal
    assert result.expansions == reference.expansions // 2
    assert recomputed(result.tree, data) == pytest.approx(result.objective, abs=1e-9)
    assert result.lower_bound <= reference.objective + 1e-12 <= result.upper_bound + 2e-12
    # The generator was closed by the exception: resuming returns the same honest result.
    again = solver.run()
    assert again.status == "interrupted" and not again.optimal and again.gap == pytest.approx(result.gap)
    assert solver.step() is False
    assert list(solver.steps())[-1] == Finished(result.expansions, False, result.gap, "interrupted")


def test_interrupt_inside_steps_propagates_to_the_consumer(data, reference):
    _, _, ds = data
    solver = InterruptedGOSDT(ds, regularization=LAM, interrupt_at=10)
    with pytest.raises(KeyboardInterrupt):
        for _ in solver.steps():
            pass
    assert solver.status == "interrupted"
    assert solver.result().optimal is False
    assert solver.snapshot().lower_bound <= reference.objective + 1e-12


def test_bad_limits_are_rejected(data):
    _, _, ds = data
    solver = GOSDT(ds, regularization=LAM)
    with pytest.raises(ValueError, match="time_limit"):
        solver.run(time_limit=0)
    with pytest.raises(ValueError, match="node_limit"):
        solver.run(node_limit=-1)
    assert solver.expansions == 0

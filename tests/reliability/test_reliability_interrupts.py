"""Ctrl-C loses nothing.

A real SIGINT that lands inside a unit of work used to close the solver's generator for good:
``run()`` then returned the same uncertified tree forever. The driver now holds the signal until
the unit ends (``treeopt/solvers/interrupts.py``), so the search stops between two units and a
later ``run()`` or ``steps()`` continues it to the optimum. ``fit`` stores the best tree, warns,
and re-raises, so Ctrl-C also stops a loop of fits.

The signals here are real: ``signal.raise_signal`` from inside a unit of work (deterministic), and
``_thread.interrupt_main`` from a ``threading.Timer`` (as a person pressing Ctrl-C).
"""

import _thread
import dis
import os
import signal
import sys
import threading
import time
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import cross_val_score

from treeopt import OptimalTreeClassifier, make_solver
from treeopt.datasets import load_monk
from treeopt.events import Expanded, Pruned
from treeopt.solvers import GOSDT, OSDT, Branches
from treeopt.solvers.base import Solver
from treeopt.registry import SOLVERS

LAMBDA = 0.01


def _ctrl_c_inside(cls, method):
    """A subclass of ``cls`` that sends itself SIGINT inside ``method`` at expansion ``ctrl_c_at``."""

    def wrapped(self, *args, **kwargs):
        if self.expansions == type(self).ctrl_c_at and not self.__dict__.get("_sent"):
            self._sent = True
            signal.raise_signal(signal.SIGINT)       # delivered to Python's handler: KeyboardInterrupt
        return getattr(super(subclass, self), method)(*args, **kwargs)

    def wrapped_generator(self, *args, **kwargs):
        if self.expansions == type(self).ctrl_c_at and not self.__dict__.get("_sent"):
            self._sent = True
            signal.raise_signal(signal.SIGINT)
        yield from getattr(super(subclass, self), method)(*args, **kwargs)

    generator = method == "_expand" and cls is OSDT          # OSDT's expansion is itself a generator
    subclass = type(f"CtrlC{cls.__name__}", (cls,), {method: wrapped_generator if generator else wrapped,
                                                     "ctrl_c_at": 5})
    return subclass


CASES = {"gosdt": (GOSDT, "_expand", 0.01), "osdt": (OSDT, "_expand", 0.06), "branches": (Branches, "_expand", 0.01)}


@pytest.fixture(scope="module")
def monk2():
    return load_monk(2)


def _solver(name, data, cls=None):
    X, y = data
    base, _, lam = CASES[name]
    solver = make_solver(X, y, solver=name, regularization=lam)
    if cls is not None:
        solver = cls(solver.dataset, **solver.settings)
    return solver


@pytest.fixture(autouse=True)
def python_sigint_handler():
    """Every test starts with Python's own SIGINT handler (raises KeyboardInterrupt)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("name", sorted(CASES))
def test_ctrl_c_inside_a_unit_of_work_leaves_run_resumable(name, monk2):
    whole = _solver(name, monk2).run()
    assert whole.optimal
    cls, method, _ = CASES[name]
    solver = _solver(name, monk2, _ctrl_c_inside(cls, method))
    stopped = solver.run()
    assert stopped.status == "interrupted" and not stopped.optimal
    assert stopped.lower_bound <= whole.objective + 1e-12 <= stopped.upper_bound + 1e-12
    again = solver.run()                      # used to return the same interrupted result forever
    assert again.optimal and again.status == "optimal"
    assert again.objective == pytest.approx(whole.objective)
    assert again.tree.n_leaves == whole.tree.n_leaves
    assert again.expansions == whole.expansions         # the interrupted unit was finished, not redone


@pytest.mark.parametrize("name", sorted(CASES))
def test_ctrl_c_inside_steps_loses_no_event(name, monk2):
    reference = list(_solver(name, monk2).steps())
    cls, method, _ = CASES[name]
    solver = _solver(name, monk2, _ctrl_c_inside(cls, method))
    before = []
    with pytest.raises(KeyboardInterrupt):
        for event in solver.steps():
            before.append(event)
    assert solver.status == "interrupted"
    after = list(solver.steps())              # a new steps() continues the same search
    assert after[-1] == reference[-1] and after[-1].optimal
    assert before + after == reference


def test_ctrl_c_inside_step_n_then_step_resumes(monk2):
    cls, method, _ = CASES["gosdt"]
    solver = _solver("gosdt", monk2, _ctrl_c_inside(cls, method))
    with pytest.raises(KeyboardInterrupt):
        solver.step(10_000)
    assert solver.status == "interrupted"
    while solver.step(50):
        pass
    assert solver.result().optimal and solver.status == "optimal"


def _run_with_a_timer_interrupt(solver, delay):
    """``solver.run()`` with Ctrl-C pressed after ``delay`` seconds (from another thread)."""
    timer = threading.Timer(delay, _thread.interrupt_main)
    timer.start()
    try:
        result = solver.run()
        timer.join()                          # if the search beat the timer, Ctrl-C lands here
    except KeyboardInterrupt:
        pytest.skip("the search finished before the timer fired")
    return result


#: (solver, dataset, λ): searches of a fraction of a second to a second, Ctrl-C'd a fifth of the way in.
TIMED = [("gosdt", "tic-tac-toe", 0.02), ("osdt", "monk3", 0.05), ("branches", "monk2", 0.01)]


@pytest.mark.parametrize("name,dataset,lam", TIMED)
def test_timer_driven_ctrl_c_then_run_reaches_the_optimum(name, dataset, lam):
    from conftest import read_binary, require_datasets
    require_datasets()
    X, y = read_binary(dataset)
    whole = make_solver(X, y, solver=name, regularization=lam).run()
    solver = make_solver(X, y, solver=name, regularization=lam)
    # Ctrl-C a fifth of the way into the search (as long as the whole one took): it lands inside
    # the search however fast the machine or the solver has become.
    stopped = _run_with_a_timer_interrupt(solver, max(0.01, min(0.1, whole.elapsed / 5)))
    assert stopped.status == "interrupted" and not stopped.optimal
    again = solver.run()
    assert again.optimal, "resuming after a Ctrl-C did not reach the optimum"
    assert again.objective == pytest.approx(whole.objective)


class _Counting(GOSDT):
    """GOSDT that counts its searches and sends SIGINT inside the 5th expansion of the first."""

    built = 0
    ctrl_c_at = 5

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        type(self).built += 1

    def _expand(self, problem, **kwargs):
        if type(self).built == 1 and self.expansions == self.ctrl_c_at and not self.__dict__.get("_sent"):
            self._sent = True
            signal.raise_signal(signal.SIGINT)
        return super()._expand(problem, **kwargs)


def test_fit_stores_the_incumbent_warns_and_reraises(monkeypatch, monk2):
    monkeypatch.setitem(SOLVERS, "gosdt", _Counting)
    monkeypatch.setattr(_Counting, "built", 0)
    X, y = monk2
    clf = OptimalTreeClassifier(regularization=LAMBDA)
    with pytest.warns(ConvergenceWarning, match="interrupted"), pytest.raises(KeyboardInterrupt, match="resumes"):
        clf.fit(X, y)
    assert clf.status_ == "interrupted" and not clf.optimal_
    assert clf.predict(X).shape == (len(y),)          # the stored tree is usable
    assert clf.solver_.run().optimal                  # and the search resumes


def test_ctrl_c_stops_a_loop_of_fits(monkeypatch, monk2):
    monkeypatch.setitem(SOLVERS, "gosdt", _Counting)
    monkeypatch.setattr(_Counting, "built", 0)
    X, y = monk2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        with pytest.raises(KeyboardInterrupt):
            cross_val_score(OptimalTreeClassifier(regularization=LAMBDA), X, y, cv=5)
    assert _Counting.built == 1, "the other folds ran after Ctrl-C"


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_a_real_sigint_stops_cross_val_score_within_a_few_seconds():
    """A SIGINT sent to the process (as Ctrl-C in a terminal) from a timer, while one fold's search
    runs: cross_val_score ends with KeyboardInterrupt soon after, instead of finishing its folds.

    The bound is a generous hard limit on how long Ctrl-C may be ignored, not a speed measurement:
    each fold alone would run for its whole time_limit.
    """
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(400, 20)).astype(float)
    y = (X[:, 0] + X[:, 1] + rng.random(400) > 1.5).astype(int)
    fold_seconds = 20.0
    clf = OptimalTreeClassifier(regularization=0.001, time_limit=fold_seconds)   # not certified in the time
    sent: list = []

    def press_ctrl_c():
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.5, press_ctrl_c)
    timer.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            with pytest.raises(KeyboardInterrupt):
                cross_val_score(clf, X, y, cv=3)
        stopped = time.perf_counter()
    finally:
        timer.cancel()
    assert sent, "the timer did not fire: the folds finished before Ctrl-C"
    assert stopped - sent[0] < 3.0, f"Ctrl-C took {stopped - sent[0]:.1f} s to stop cross_val_score"


def test_cli_prints_the_interrupted_tree(monkeypatch, tmp_path, capsys):
    from treeopt.cli import main
    monkeypatch.setitem(SOLVERS, "gosdt", _Counting)
    monkeypatch.setattr(_Counting, "built", 0)
    X, y = load_monk(2)
    path = tmp_path / "monk2.csv"
    X.assign(label=y).to_csv(path, index=False)
    code = main(["fit", str(path), "--target", "label", "--regularization", str(LAMBDA)])
    out = capsys.readouterr().out
    assert "NOT certified (interrupted" in out and "predict" in out
    assert code == 130                         # 128 + SIGINT, as shells report a Ctrl-C


def test_worker_thread_search_is_not_touched():
    """Signals reach only the main thread: a search run elsewhere installs no handler."""
    X, y = load_monk(2)
    seen = {}

    def work():
        solver = make_solver(X, y, regularization=0.05)
        seen["optimal"] = solver.run().optimal
        seen["handler"] = signal.getsignal(signal.SIGINT)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen["optimal"] and seen["handler"] is signal.default_int_handler


def test_ctrl_c_stops_a_frontier_keeps_it_on_the_exception_and_resumes(monk2, monkeypatch):
    """``treeopt.frontier`` used to swallow Ctrl-C and return as if nothing happened."""
    import treeopt
    from treeopt.frontier import search as frontier_search

    X, y = monk2
    expected = treeopt.frontier(X, y, max_leaves=6).table
    original = frontier_search.FrontierSearch._solve
    calls = {"n": 0}

    def solve_with_ctrl_c(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 40:
            signal.raise_signal(signal.SIGINT)
        return (yield from original(self, *args, **kwargs))

    monkeypatch.setattr(frontier_search.FrontierSearch, "_solve", solve_with_ctrl_c)
    with pytest.raises(KeyboardInterrupt, match="frontier interrupted") as caught:
        treeopt.frontier(X, y, max_leaves=6)
    front = caught.value.frontier
    assert front.search.status == "interrupted" and front.search.certified_leaves < 6
    front.search.run()                                        # resumes to the same frontier
    resumed = type(front)(front.search).table
    assert resumed["certified"].all()
    assert resumed[["leaves", "accuracy"]].equals(expected[["leaves", "accuracy"]])


def test_ctrl_c_in_the_callers_code_between_two_events_of_a_unit_loses_none(monk2):
    """The events of one unit are yielded one by one; a Ctrl-C between two of them (in the loop's
    own code, where it is delivered at once) must leave the rest to the next ``steps()``."""
    reference = list(_solver("gosdt", monk2).steps())
    # A unit's events: its expansion, then the prunes counted during it.
    middle = next(i for i in range(3, len(reference) - 1)
                  if isinstance(reference[i], Expanded) and isinstance(reference[i + 1], Pruned))
    solver = _solver("gosdt", monk2)
    before = []
    events = solver.steps()
    with pytest.raises(KeyboardInterrupt):
        for event in events:
            before.append(event)
            if len(before) == middle + 1:
                signal.raise_signal(signal.SIGINT)      # in the caller's code: raised here at once
    after = list(solver.steps())
    assert before + after == reference


def _signal_points(code):
    """The offsets in ``code`` where CPython may run a signal handler: after each call returns, and
    where a generator resumes after a yield."""
    instructions = list(dis.get_instructions(code))
    return sorted({after.offset for before, after in zip(instructions, instructions[1:])
                   if before.opname.startswith("CALL") or before.opname == "YIELD_VALUE"})


def test_ctrl_c_wherever_delivery_can_see_it_loses_and_repeats_no_event():
    """A ``KeyboardInterrupt`` raised at every point of event delivery where Python checks for signals
    (after a call returns, as the generator resumes), on the third pass there: the events of the
    interrupted ``steps()`` and of the next one are exactly the uninterrupted search's."""
    X, y = load_monk(1)
    reference = list(make_solver(X, y, solver="gosdt", regularization=0.05).steps())
    codes = [Solver.steps.__code__] + ([Solver._deliver.__code__] if hasattr(Solver, "_deliver") else [])
    checked = 0
    for code in codes:
        for offset in _signal_points(code):
            solver = make_solver(X, y, solver="gosdt", regularization=0.05)
            passes = [0]

            def tracer(frame, event, arg, code=code, offset=offset):
                if frame.f_code is not code:
                    return None
                frame.f_trace_opcodes = True
                if event == "opcode" and frame.f_lasti == offset:
                    passes[0] += 1
                    if passes[0] == 3:
                        raise KeyboardInterrupt(f"at offset {offset}")
                return tracer

            before = []
            sys.settrace(tracer)
            try:
                for event in solver.steps():
                    before.append(event)
            except KeyboardInterrupt:
                pass
            finally:
                sys.settrace(None)
            if passes[0] < 3:
                continue                                # this point is not reached three times
            checked += 1
            after = list(solver.steps())
            assert before + after == reference, f"{code.co_name} at offset {offset}"
    assert checked >= 2

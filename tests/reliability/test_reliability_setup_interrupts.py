"""Ctrl-C during a fit's setup, and signals that must not be lost on the way.

Before a search exists (binarizing, guessing thresholds, building the dataset), ``fit`` answers a
Ctrl-C at once and keeps the single leaf with status ``interrupted``, as it keeps the best tree of
an interrupted search. A signal handler that runs inside a finalizer (a ``__del__`` the garbage
collector calls at that moment) raises where Python ignores the exception: the setup notes it and
raises it again at its next checkpoint (``treeopt/setup_signals.py``). A signal held during a unit
of work is delivered even when the block ends with an exception or a closed generator
(``treeopt/solvers/interrupts.py``).
"""

import gc
import signal
import threading
import time
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import ConvergenceWarning

import treeopt
import treeopt.binarize as binarize
from treeopt import OptimalTreeClassifier
from treeopt.datasets import load_monk
from treeopt.guessing.thresholds import ThresholdGuessBinarizer
from treeopt.setup_signals import SetupSignals
from treeopt.solvers.interrupts import DeferredSignals

from sigint_timer import answers_sigint

#: Seconds from the SIGINT to the end of fit, far above the unit budget (shared test machines).
HARD_LIMIT = 3.0

pytestmark = [pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs POSIX signals"),
              # The KeyboardInterrupt a finalizer swallows on purpose here is reported as unraisable.
              pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")]


@pytest.fixture(autouse=True)
def python_sigint_handler():
    """Every test starts with Python's own SIGINT handler (raises KeyboardInterrupt)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


class CtrlCInAFinalizer:
    """Garbage in a reference cycle whose finalizer receives a SIGINT: Python ignores what it raises."""

    def __init__(self):
        self.cycle = self                       # freed only by the cyclic collector

    def __del__(self):
        signal.raise_signal(signal.SIGINT)     # the handler runs inside __del__


def _lost_ctrl_c():
    """A Ctrl-C whose KeyboardInterrupt Python swallows ("Exception ignored in ... __del__")."""
    CtrlCInAFinalizer()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # pytest's note of the unraisable exception
        gc.collect()


def _wide_table(rows=400, columns=6, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.random((rows, columns)), columns=[f"c{i}" for i in range(columns)])
    return X, ((X.c0 > 0.5) ^ (X.c1 > 0.7)).astype(int).to_numpy()


def _ctrl_c_while_binarizing(monkeypatch, lost: bool):
    """Send SIGINT while the first block of thresholds is evaluated (swallowed by a finalizer if ``lost``)."""
    block = binarize._threshold_block
    sent = []

    def block_with_ctrl_c(*args, **kwargs):
        if not sent:
            sent.append(1)
            _lost_ctrl_c() if lost else signal.raise_signal(signal.SIGINT)
        return block(*args, **kwargs)

    monkeypatch.setattr(binarize, "_threshold_block", block_with_ctrl_c)
    return sent


def _check_single_leaf_interrupted(clf, X, y):
    assert clf.status_ == "interrupted" and not clf.optimal_ and clf.tree_.n_leaves == 1
    assert clf.gap_ > 0 and clf.lower_bound_ <= clf.upper_bound_
    assert (clf.predict(X) == np.bincount(y).argmax()).all()
    assert "setting up" in clf.setup_stopped_
    with pytest.raises(RuntimeError, match="keep_search=True"):
        clf.solver_.run()                  # nothing to resume: it was stopped before any search


@pytest.mark.parametrize("lost", [False, True], ids=["raised", "swallowed_by_a_finalizer"])
def test_ctrl_c_while_binarizing_keeps_the_single_leaf_and_reraises(monkeypatch, lost):
    X, y = _wide_table()
    sent = _ctrl_c_while_binarizing(monkeypatch, lost)
    clf = OptimalTreeClassifier(regularization=0.01)
    with pytest.warns(ConvergenceWarning, match="setting up"):
        with pytest.raises(KeyboardInterrupt, match="single leaf is stored"):
            clf.fit(X, y)
    assert sent
    _check_single_leaf_interrupted(clf, X, y)
    monkeypatch.undo()
    again = OptimalTreeClassifier(regularization=0.01).fit(X, y)              # fit again: it searches
    assert again.status_ != "interrupted" and again.tree_.n_leaves > 1


def test_a_swallowed_ctrl_c_is_answered_at_the_next_checkpoint_of_threshold_guessing(monkeypatch):
    """Lost during the reference booster's first fit, raised between the elimination's refits (it does
    not wait for the whole guessing to end)."""
    refit = ThresholdGuessBinarizer._refit
    refits = []

    def refit_after_a_lost_ctrl_c(self, *args):
        if not refits:
            _lost_ctrl_c()
        refits.append(1)
        return refit(self, *args)

    monkeypatch.setattr(ThresholdGuessBinarizer, "_refit", refit_after_a_lost_ctrl_c)
    X, y = _wide_table(rows=300)
    with pytest.raises(KeyboardInterrupt):
        with SetupSignals():
            ThresholdGuessBinarizer(random_state=0).fit(X, y)
    assert len(refits) == 1                # the first check after the lost signal raised it
    monkeypatch.undo()
    assert len(ThresholdGuessBinarizer(random_state=0).fit(X, y).elimination_path_) > 1   # guessing went on


def test_a_handler_that_does_not_raise_is_called_once():
    seen = []
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: seen.append(signum))
    try:
        with SetupSignals():
            signal.raise_signal(signal.SIGUSR1)
            binarize.check_deadline("a checkpoint")
        assert seen == [signal.SIGUSR1]       # once, not again at the checkpoint or the block's end
    finally:
        signal.signal(signal.SIGUSR1, previous)


@pytest.mark.filterwarnings("ignore:the binarization gives")          # every threshold on purpose: a long setup
def test_a_real_sigint_at_random_moments_of_a_slow_binarization_stops_fit_with_the_leaf(monkeypatch):
    """A real SIGINT from another thread while the table is binarized (each threshold block made slow
    on purpose): fit answers within the hard limit with the single leaf."""
    X, y = _wide_table(rows=2000, columns=4)
    monkeypatch.setattr(binarize, "_BLOCK", 1999 * 8)                      # blocks of eight rows
    less_equal = binarize.less_equal

    def slow_less_equal(*args, **kwargs):
        time.sleep(0.002)
        return less_equal(*args, **kwargs)

    monkeypatch.setattr(binarize, "less_equal", slow_less_equal)
    for moment in np.random.default_rng(3).uniform(0.05, 0.4, size=3):
        clf = OptimalTreeClassifier(regularization=0.01, thresholds="all")
        assert answers_sigint(lambda: clf.fit(X, y), moment) < HARD_LIMIT
        assert clf.status_ == "interrupted" and clf.tree_.n_leaves == 1


def _usr1_recorder():
    seen = []
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: seen.append(signum))
    return seen, previous


def test_a_signal_held_when_a_steps_generator_is_closed_is_delivered():
    """A consumer that stops iterating (``break``) closes the generator while a signal is held."""
    seen, previous = _usr1_recorder()
    try:
        def units():
            with DeferredSignals():
                signal.raise_signal(signal.SIGUSR1)    # held: a unit of work is under way
                yield

        events = units()
        next(events)
        assert seen == []
        events.close()
        assert seen == [signal.SIGUSR1]
    finally:
        signal.signal(signal.SIGUSR1, previous)


def test_a_signal_held_when_an_exception_leaves_the_block_reaches_its_handler():
    seen, previous = _usr1_recorder()
    try:
        with pytest.raises(ValueError):
            with DeferredSignals():
                signal.raise_signal(signal.SIGUSR1)
                raise ValueError("a unit of work failed")
        assert seen == [signal.SIGUSR1]
    finally:
        signal.signal(signal.SIGUSR1, previous)


def test_a_ctrl_c_held_when_keyboard_interrupt_leaves_is_not_raised_twice():
    with pytest.raises(KeyboardInterrupt):
        with DeferredSignals() as held:
            signal.raise_signal(signal.SIGINT)         # held
            assert held.pending
            raise KeyboardInterrupt                    # the answer is already on its way
    x = [1] * 3                                         # no second KeyboardInterrupt arrives here
    assert len(x) == 3


def test_a_ctrl_c_in_the_last_unit_of_a_search_is_not_lost_when_the_caller_stops_iterating(monkeypatch):
    """The last unit of work ends the search; a Ctrl-C held during it still stops the caller's loop,
    even when the caller breaks out on the unit's last event (closing the ``steps()`` generator)."""
    from treeopt import make_solver
    from treeopt.events import Progress
    X, y = load_monk(1)
    solver = make_solver(X, y, solver="gosdt", regularization=0.1)
    search = type(solver)._search

    def search_with_ctrl_c_at_its_end(self):
        yield from search(self)
        signal.raise_signal(signal.SIGINT)             # inside the last unit, then StopIteration
        self._emit(Progress(self.expansions, self.lower_bound, self.upper_bound, 0, self.elapsed))

    monkeypatch.setattr(type(solver), "_search", search_with_ctrl_c_at_its_end)
    with pytest.raises(KeyboardInterrupt):
        for event in solver.steps():
            if isinstance(event, Progress):
                break                                  # the caller is done: it closes the generator
        time.sleep(0.01)                               # where a re-sent signal is answered at the latest


def test_a_lost_ctrl_c_is_answered_in_the_main_thread_only():
    """A setup running in a worker thread (a thread pool of fits) never raises the main thread's signal."""
    raised = []

    def worker_checkpoint():
        try:
            binarize.check_deadline("a checkpoint in a worker thread")
        except KeyboardInterrupt:
            raised.append("worker")

    with pytest.raises(KeyboardInterrupt):
        with SetupSignals():
            _lost_ctrl_c()
            worker = threading.Thread(target=worker_checkpoint)
            worker.start()
            worker.join()
            assert raised == []
            binarize.check_deadline("a checkpoint in the main thread")      # raises here


def test_a_ctrl_c_between_the_setup_and_the_first_unit_keeps_a_resumable_search(monkeypatch):
    """A Ctrl-C that lands after the setup, before ``run()`` holds signals, stops fit like one inside
    the search: status ``interrupted``, a tree, and ``solver_.run()`` resumes to the optimum."""
    from treeopt.solvers.base import Solver
    X, y = load_monk(2)
    run = Solver.run

    def ctrl_c_on_entry(self, *args, **kwargs):
        raise KeyboardInterrupt                    # as Python's handler raises it at a bytecode boundary

    monkeypatch.setattr(Solver, "run", ctrl_c_on_entry)
    clf = OptimalTreeClassifier(regularization=0.01)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        with pytest.raises(KeyboardInterrupt, match="solver_.run\\(\\) resumes"):
            clf.fit(X, y)
    monkeypatch.setattr(Solver, "run", run)
    assert clf.status_ == "interrupted" and clf.tree_.n_leaves >= 1 and clf.setup_stopped_ is None
    resumed = clf.solver_.run()
    assert resumed.optimal
    assert resumed.objective == pytest.approx(OptimalTreeClassifier(regularization=0.01).fit(X, y).objective_)


@pytest.mark.parametrize("lost", [False, True], ids=["raised", "swallowed_by_a_finalizer"])
def test_ctrl_c_while_a_frontier_binarizes_stops_it(monkeypatch, lost):
    """The frontier's setup answers a Ctrl-C as the fit's does, also one a finalizer swallowed."""
    X, y = _wide_table(rows=80, columns=3)
    sent = _ctrl_c_while_binarizing(monkeypatch, lost)
    with pytest.raises(KeyboardInterrupt):
        treeopt.frontier(X, y, max_leaves=3, thresholds="all")
    assert sent
    monkeypatch.undo()
    assert treeopt.frontier(X, y, max_leaves=3, thresholds="all").table["certified"].all()

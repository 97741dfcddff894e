"""A unit of work interrupted by an exception leaves the search resumable, or the search says why not.

A ``KeyboardInterrupt`` raised by a signal handler other than SIGINT's (here a timer's SIGALRM)
is held until the unit ends, like Ctrl-C, so the search stops between two units and resumes to
the optimum. Any other exception that leaves a unit closes the solver's generator (Python closes
a generator an exception passes through); the search then says so in ``cannot_resume`` and
never calls its incumbent optimal.
"""

import signal

import pytest

from treeopt.datasets import load_monk
from treeopt import make_solver
from treeopt.solvers import GOSDT

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGALRM"), reason="needs SIGALRM")


class _AlarmInside(GOSDT):
    """GOSDT that raises SIGALRM inside its fifth expansion (once)."""

    def _expand(self, problem, **kwargs):
        if self.expansions == 5 and not self.__dict__.get("_sent"):
            self._sent = True
            signal.raise_signal(signal.SIGALRM)
        return super()._expand(problem, **kwargs)


class _FailsInside(GOSDT):
    """GOSDT whose fifth expansion raises an error (once)."""

    def _expand(self, problem, **kwargs):
        if self.expansions == 5 and not self.__dict__.get("_failed"):
            self._failed = True
            raise ValueError("a bug in an expansion")
        return super()._expand(problem, **kwargs)


@pytest.fixture
def monk2_solver_settings():
    X, y = load_monk(2)
    solver = make_solver(X, y, solver="gosdt", regularization=0.01)
    return solver.dataset, solver.settings


def test_keyboard_interrupt_from_another_signal_handler_leaves_the_search_resumable(monk2_solver_settings):
    dataset, settings = monk2_solver_settings
    whole = GOSDT(dataset, **settings).run()

    def timeout(signum, frame):
        raise KeyboardInterrupt("the alarm went off")

    previous = signal.signal(signal.SIGALRM, timeout)
    try:
        solver = _AlarmInside(dataset, **settings)
        stopped = solver.run()
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert stopped.status == "interrupted" and solver.cannot_resume is None
    again = solver.run()
    assert again.optimal and again.objective == pytest.approx(whole.objective)


def test_an_error_inside_a_unit_says_why_the_search_cannot_resume(monk2_solver_settings):
    dataset, settings = monk2_solver_settings
    solver = _FailsInside(dataset, **settings)
    with pytest.raises(ValueError, match="a bug in an expansion"):
        solver.run()
    assert "ValueError raised inside a unit of work" in solver.cannot_resume
    assert "a bug in an expansion" in solver.cannot_resume
    after = solver.run()
    assert not after.optimal and after.lower_bound <= after.upper_bound
    assert solver.step() is False

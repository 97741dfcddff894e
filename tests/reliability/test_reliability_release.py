"""A released search (``Solver.release()``, which the estimator calls after ``fit``) never claims
optimality it did not prove: ``run()`` after ``release()`` used to meet the closed generator's
StopIteration, mark the search finished, and report status ``optimal`` with gap 0. It cannot
resume either: ``run()`` on a released search that had not finished raises instead of returning.
"""

import pytest

from treeopt import make_solver
from treeopt.datasets import load_monk


def test_run_after_release_of_a_stopped_search_stays_uncertified():
    X, y = load_monk(2)
    solver = make_solver(X, y, regularization=0.01)
    stopped = solver.run(node_limit=10)
    assert not stopped.optimal
    solver.release()
    with pytest.raises(RuntimeError, match="keep_search=True"):
        solver.run()
    again = solver.result()
    assert not again.optimal and again.status != "optimal"
    assert again.gap == pytest.approx(stopped.gap) and again.gap > 0
    assert solver.step() is False and list(solver.steps())[-1].optimal is False


def test_run_after_release_of_a_finished_search_stays_optimal():
    X, y = load_monk(2)
    solver = make_solver(X, y, regularization=0.05)
    assert solver.run().optimal
    solver.release()
    assert solver.run().optimal and solver.result().gap == 0

"""The root's search for a tree without errors (``error_free_first``) when it gives way unanswered.

At λ = 0 the continuous solver first asks the root below one error, for at most
``ContinuousSearch.error_free_seconds``. A question left unanswered is closed and the search goes on
under the incumbent with the memo it left: the optimum (errors, then fewest leaves) must be the same
as with the question answered, or not asked, and no lower bound shown on the way may pass it.
"""

import numpy as np
import pytest
from test_continuous_leaf_counts import _expected, planted

from treeopt import make_solver
from treeopt.solvers.continuous.search import ContinuousSearch


def _fit(X, y, depth, seconds, monkeypatch):
    monkeypatch.setattr(ContinuousSearch, "error_free_seconds", seconds)
    solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=depth,
                         strategies={"cart_start": False, "discrepancy_search": False})
    highest_lower = max(solver.lower_bound for _ in solver.steps())
    result = solver.run()
    return solver, result, highest_lower


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("depth", [2, 3])
@pytest.mark.parametrize("noise", [0.0, 0.1])
def test_a_question_closed_at_once_leaves_the_optimum_and_bounds_exact(seed, depth, noise, monkeypatch):
    X, y = planted(seed, 60, depth, 2 + seed % 2, noise)
    errors, leaves = _expected(X, y, depth, None)
    for seconds in (0.0, 60.0):                     # closed after its first unit of work; answered
        solver, result, highest_lower = _fit(X, y, depth, seconds, monkeypatch)
        assert result.optimal
        assert round(result.objective * len(y), 6) == round(errors, 6) and result.tree.n_leaves == leaves
        assert highest_lower <= result.objective + 1e-9, "a lower bound passed the optimum"


@pytest.mark.parametrize("seconds, asked", [(0.0, False), (60.0, True)])
def test_the_question_runs_only_within_its_share(seconds, asked, monkeypatch):
    X, y = planted(3, 200, 3, 2, 0.1)                # noisy: no tree without errors, so never answered at once
    monkeypatch.setattr(ContinuousSearch, "error_free_seconds", seconds)
    solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3,
                         strategies={"cart_start": False, "discrepancy_search": False})
    # While the root is asked below one error, its bounds are capped there (``_pass_cap``).
    below_one_error = sum(np.isfinite(solver._pass_cap) for _ in solver.steps())
    assert solver.prune_counts["error_free_first"] == 1
    assert (below_one_error > 0) == asked
    assert solver.result().optimal


def test_the_share_is_a_tenth_of_a_short_runs_time_limit(monkeypatch):
    X, y = planted(3, 200, 3, 2, 0.1)
    shares = []
    asked = ContinuousSearch._error_free_first

    def spy(self, root, depth):
        shares.append(self.error_free_budget())
        return (yield from asked(self, root, depth))

    monkeypatch.setattr(ContinuousSearch, "_error_free_first", spy)

    def solver():
        return make_solver(X, y, solver="continuous", regularization=0, depth_budget=3,
                           strategies={"cart_start": False, "discrepancy_search": False})

    solver().run(time_limit=2.0)
    solver().run(time_limit=600.0)
    stepped = solver()
    for _ in stepped.steps():
        pass
    assert shares == [pytest.approx(0.2), ContinuousSearch.error_free_seconds, ContinuousSearch.error_free_seconds]
    assert stepped.run_time_limit is None

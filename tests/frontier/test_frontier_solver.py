"""The frontier search as a registered solver: optimal at λ, with the front for every λ' >= λ."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force, to_treeopt_tuple, tree_objective
from strategies import lambdas, problems
from treeopt import OptimalTreeClassifier, make_solver
from treeopt.data import Dataset
from treeopt.datasets import load_monk
from treeopt.frontier.search import FrontierSearch


@settings(max_examples=40, deadline=None)
@given(data=problems() | problems(weights="float") | problems(n_classes=3), lam=lambdas,
       objective=st.sampled_from(["accuracy", "balanced_accuracy"]))
def test_the_frontier_solver_at_lambda_matches_the_oracle(data, lam, objective):
    X, y, w = data
    expected = brute_force(X, y, lam, sample_weight=w, objective=objective).objective
    search = FrontierSearch(Dataset.from_binary(X, y, sample_weight=w), regularization=lam, objective=objective)
    result = search.run()
    assert result.optimal
    assert result.objective == pytest.approx(expected, abs=1e-9)
    got = tree_objective(to_treeopt_tuple(result.tree), X, y, lam, sample_weight=w, objective=objective)
    assert got == pytest.approx(expected, abs=1e-9)
    # Every reported lower bound was a true bound on the regularized optimum, and never fell.
    lows = [point.lower_bound for point in search.trace]
    assert max(lows) <= expected + 1e-9
    assert all(b >= a - 1e-12 for a, b in zip(lows, lows[1:]))
    # The front it keeps gives the optimum of every larger λ too.
    larger = 2 * lam
    best = min(row["loss"] + larger * row["leaves"] for row in search.front())
    assert best == pytest.approx(brute_force(X, y, larger, sample_weight=w, objective=objective).objective, abs=1e-9)


def test_the_estimator_cli_settings_and_rebuild_reach_the_frontier_solver():
    X, y = load_monk(2)
    for lam in (0.05, 0.02):
        by_frontier = OptimalTreeClassifier(solver="frontier", regularization=lam).fit(X, y)
        by_gosdt = OptimalTreeClassifier(solver="gosdt", regularization=lam).fit(X, y)
        assert by_frontier.status_ == "optimal"
        assert by_frontier.objective_ == pytest.approx(by_gosdt.objective_)
    solver = make_solver(X, y, solver="frontier", regularization=0.05, max_leaves=3)
    assert solver.max_leaves == 3 and solver.rebuild().params["max_leaves"] == 3
    # With a depth budget the frontier solver keeps only trees of that depth, as GOSDT does.
    shallow = make_solver(X, y, solver="frontier", regularization=0.02, depth_budget=2).run()
    assert shallow.optimal and shallow.tree.depth <= 2
    assert shallow.objective == pytest.approx(
        OptimalTreeClassifier(solver="gosdt", regularization=0.02, depth_budget=2).fit(X, y).objective_)
    with pytest.raises(ValueError, match="min_regularization"):
        make_solver(X, y, solver="frontier", regularization=0.05, min_regularization=0.1)
    with pytest.raises(TypeError, match="max_leaves"):
        FrontierSearch(solver.dataset)

"""Solver-specific options reach every front end through one generic path, checked against each
solver's declared capabilities."""

import pytest

from treeopt import OptimalTreeClassifier, make_solver
from treeopt.datasets import load_monk


@pytest.fixture(scope="module")
def monk():
    return load_monk(1)


def test_the_estimator_passes_a_rashomon_epsilon(monk):
    clf = OptimalTreeClassifier(solver="rashomon", regularization=0.05, solver_options={"epsilon": 0.05},
                                keep_search=True).fit(*monk)
    assert clf.solver_.epsilon == 0.05
    assert clf.optimal_


def test_the_estimator_passes_the_frontier_its_leaf_cap(monk):
    capped = OptimalTreeClassifier(solver="frontier", regularization=0.01, solver_options={"max_leaves": 3},
                                   keep_search=True).fit(*monk)
    assert capped.solver_.max_leaves == 3
    assert capped.tree_.n_leaves <= 3


def test_make_solver_takes_solver_options_like_keywords(monk):
    built = make_solver(*monk, solver="osdt", regularization=0.1, solver_options={"schedule": "dfs"})
    assert built.params["schedule"] == "dfs"


@pytest.mark.parametrize("solver, options, accepted", [
    ("gosdt", {"epsilon": 0.05}, "plugins"),
    ("branches", {"epsilon": 0.05}, "none"),
    ("rashomon", {"max_leaves": 3}, "epsilon"),
    ("frontier", {"epsilon": 0.05}, "max_leaves"),
])
def test_an_option_the_solver_does_not_take_names_those_it_does(monk, solver, options, accepted):
    with pytest.raises(ValueError, match=f"takes no option.*its options are .*{accepted}"):
        OptimalTreeClassifier(solver=solver, regularization=0.05, solver_options=options).fit(*monk)


def test_shared_settings_are_not_solver_options(monk):
    with pytest.raises(ValueError, match="shared settings"):
        make_solver(*monk, solver="gosdt", solver_options={"regularization": 0.1})
    with pytest.raises(TypeError, match="must be a dict"):
        make_solver(*monk, solver="gosdt", solver_options=[("epsilon", 1)])

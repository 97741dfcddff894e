"""How a GOSDT search hands subproblems to its exact subsolvers (``subsolver_calls.py``).

Without pair matrices every support is solved root split by root split; subsolvers adopted from
another search must answer the same question.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import lambdas, problems
from treeopt.solvers import GOSDT
from treeopt.solvers.gosdt.depth_two import DepthTwoSolver

from engine_checks import WideGOSDT, _checkerboard, check


@settings(max_examples=40, deadline=None)
@given(data=problems() | problems(weights="float") | problems(n_classes=3), lam=lambdas,
       depth=st.sampled_from([None, 2, 3, 4]))
def test_gosdt_without_pair_matrices_matches_the_oracle(data, lam, depth):
    """Wide supports (here: every support) solve their depth-two and depth-three problems root split by root split."""
    X, y, w = data
    saved = DepthTwoSolver.max_pair_columns
    DepthTwoSolver.max_pair_columns = 0
    try:
        check(WideGOSDT, X, y, w, lam, depth=depth)
    finally:
        DepthTwoSolver.max_pair_columns = saved


def test_adopted_subsolvers_must_answer_the_same_question():
    dataset = _checkerboard()
    search = GOSDT(dataset, regularization=0.01, depth_budget=4)
    with pytest.raises(ValueError, match="same dataset with the same regularization"):
        search.adopt_subsolvers(GOSDT(dataset, regularization=0.02, depth_budget=4).subsolvers)
    with pytest.raises(ValueError, match="same dataset with the same regularization"):
        search.adopt_subsolvers(GOSDT(dataset, regularization=0.01, bounds={"child_slack": False}).subsolvers)
    search.step(1)
    with pytest.raises(ValueError, match="before the search starts"):
        search.adopt_subsolvers(GOSDT(dataset, regularization=0.01).subsolvers)

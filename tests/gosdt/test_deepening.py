"""Iterative deepening on depth (``deepening.py``): leaf-count certificates, exact solvers shared across depths."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import lambdas, problems
from treeopt.data import Dataset
from treeopt.solvers import GOSDT, DepthDeepening

from engine_checks import _checkerboard, check


@pytest.mark.parametrize("switch", [None, "dives", "depth_two", "completion_dives"])
@settings(max_examples=25, deadline=None)
@given(data=problems() | problems(weights="float"), lam=lambdas, depth=st.sampled_from([None, None, 2, 3]))
def test_deepening_matches_the_oracle(switch, data, lam, depth):
    X, y, w = data
    solver = check(DepthDeepening, X, y, w, lam, bounds=None if switch is None else {switch: False}, depth=depth)
    depths = [r["depth"] for r in solver.depth_results]
    assert depths == list(range(1, len(depths) + 1))
    assert depth is None or not depths or depths[-1] <= depth


def test_deepening_certifies_by_leaf_count_before_the_tree_depth_needs_it():
    """XOR of two features at λ = 0.05: depth 2 is optimal, and eq + 4λ certifies it at d = 2."""
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    y = np.array([0, 1, 1, 0] * 5)
    solver = DepthDeepening(Dataset.from_binary(X, y), regularization=0.05)
    result = solver.run()
    assert result.optimal and [r["depth"] for r in solver.depth_results] == [1, 2]
    snapshot = solver.snapshot()
    assert snapshot.extra["depth"] == 2


def test_deepening_and_portfolio_share_an_offered_tree():
    """An offered tree becomes the incumbent of both combined searches, and the optimum stays."""
    from treeopt.solvers import Portfolio
    X = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)] * 3)
    y = X[:, 0] ^ X[:, 1] ^ X[:, 2]
    dataset = Dataset.from_binary(X, y)
    best = GOSDT(dataset, regularization=0.01).run()
    for cls in (DepthDeepening, Portfolio):
        solver = cls(dataset, regularization=0.01)
        if cls is DepthDeepening:
            assert solver.offer_incumbent(best.tree, best.objective)
            assert solver.upper_bound == pytest.approx(best.objective)
            assert not solver.offer_incumbent(best.tree, best.objective)      # not better: refused
        result = solver.run()
        assert result.optimal and result.objective == pytest.approx(best.objective)


def test_deepening_shares_its_exact_solvers_across_depths(monkeypatch):
    """Iterative deepening's depth searches share one set of small-tree solvers: the depth-five
    search's first step (the best tree of depth four over all rows) is the depth-four search's
    answer. Fewer depth-two solves than with a fresh set per depth, the same optimum."""
    dataset = _checkerboard()
    expected = GOSDT(dataset, regularization=0.01, depth_budget=5).run().objective

    def depth_two_solves(share: bool) -> tuple:
        if not share:
            # every depth's search builds its own solvers instead of sharing the first one's
            monkeypatch.setattr(GOSDT, "sharing", classmethod(lambda cls, subsolvers, data, **settings:
                                                              cls(data, **settings)))
        solver = DepthDeepening(dataset, regularization=0.01, depth_budget=5)
        result = solver.run()
        monkeypatch.undo()
        assert [r["depth"] for r in solver.depth_results][-1] == 5
        return result.objective, solver.prune_counts["child_slack"], solver.prune_counts["depth_five_six"]

    shared, alone = depth_two_solves(True), depth_two_solves(False)
    assert shared[0] == pytest.approx(expected) and alone[0] == pytest.approx(expected)
    assert shared[2] >= 1 and alone[2] >= 1                    # the depth-five loop ran
    assert shared[1] < alone[1]


def _count_depth_two_builds(monkeypatch) -> list:
    """Count the exact depth-two solvers GOSDT builds from now on (one entry per build)."""
    from treeopt.solvers.gosdt import search as gosdt_search
    built = []
    original = gosdt_search.DepthTwoSolver

    class CountedDepthTwoSolver(original):
        def __init__(self, *args, **kwargs):
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(gosdt_search, "DepthTwoSolver", CountedDepthTwoSolver)
    return built


@pytest.mark.parametrize("combined", ["deepening", "portfolio"])
def test_the_exact_solvers_are_built_once_not_once_per_depth(monkeypatch, combined):
    """Each depth's search is built inside a unit of work: it is built with the shared solvers
    (``GOSDT.sharing``) instead of building its own and dropping them, which on wide tables made
    that unit the longest of the search. The portfolio's depth searches use its GOSDT member's."""
    from treeopt.solvers import Portfolio
    built = _count_depth_two_builds(monkeypatch)
    dataset = _checkerboard()
    solver = (DepthDeepening if combined == "deepening" else Portfolio)(dataset, regularization=0.01, depth_budget=4)
    assert len(built) == 1                          # the portfolio: its GOSDT member's, handed to deepening
    # The portfolio shares its time between its members by the clock; its deepening member is run
    # alone here, so that it reaches every depth whatever the machine's speed.
    deepening = solver if combined == "deepening" else solver.members["deepening"]
    result = deepening.run()
    assert len(deepening.depth_results) >= 3 and len(built) == 1
    monkeypatch.undo()
    assert result.objective == pytest.approx(GOSDT(dataset, regularization=0.01, depth_budget=4).run().objective)


def test_deepening_builds_its_exact_solvers_in_the_setup_not_in_a_unit_of_work(monkeypatch):
    """Building the shared solvers is the longest part of a search's setup on wide tables: done when
    the solver is built (where a Ctrl-C is answered at once), no unit of work builds one."""
    built = _count_depth_two_builds(monkeypatch)
    solver = DepthDeepening(_checkerboard(), regularization=0.01, depth_budget=4)
    assert len(built) == 1
    solver.step(1)                                   # the first unit: it starts the depth-one search
    assert solver.depth == 1 and len(built) == 1

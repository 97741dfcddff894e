"""The portfolio (``portfolio.py``): GOSDT and iterative deepening interleaved, sharing their bounds and solvers.

Checked against the oracle; its schedule of the members' time, and its GOSDT member's depth-three start.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import lambdas, problems
from treeopt.data import Dataset
from treeopt.solvers import GOSDT, Portfolio

from engine_checks import _checkerboard, check, noisy_parity


@pytest.mark.parametrize("switch", [None, "dives", "depth_two"])
@settings(max_examples=20, deadline=None)
@given(data=problems() | problems(weights="float") | problems(n_classes=3), lam=lambdas,
       depth=st.sampled_from([None, None, 2, 3]))
def test_portfolio_matches_the_oracle(switch, data, lam, depth):
    from treeopt.solvers import Portfolio
    X, y, w = data
    solver = check(Portfolio, X, y, w, lam, bounds=None if switch is None else {switch: False}, depth=depth)
    assert solver.closed_by in ("gosdt", "deepening", "both")
    assert solver.lower_bound == pytest.approx(solver.upper_bound, abs=1e-9)


class PortfolioStartAtOnce(Portfolio):
    """The portfolio with its GOSDT member's depth-three start due at once."""

    THREE_START_AFTER = 0.0


def test_the_portfolio_runs_the_depth_three_start_beside_deepening():
    """Wide data (40 columns): the portfolio's GOSDT member keeps its depth-three start although the
    members share trees from the first step, gives it the time it is owed, and its tree is the
    portfolio's incumbent; the certified optimum is the same as GOSDT's alone."""
    X, y = noisy_parity(300)
    portfolio = PortfolioStartAtOnce(Dataset.from_binary(X, y), regularization=0.01, depth_budget=4,
                                     bounds={"depth_four": False})    # else a depth-four loop solves the root
    gosdt = portfolio.members["gosdt"]
    assert gosdt.keep_start_when_offered and gosdt.depth_three_start_after == 0.0
    steps = iter(portfolio.steps())
    while gosdt.prune_counts["depth_three_start"] == 0 and next(steps, None) is not None:
        pass
    assert gosdt.prune_counts["depth_three_start"] >= 1
    assert portfolio.upper_bound <= gosdt.upper_bound + 1e-12
    result = portfolio.run()
    alone = GOSDT(Dataset.from_binary(X, y), regularization=0.01, depth_budget=4).run()
    assert result.optimal and result.objective == pytest.approx(alone.objective, abs=1e-9)
    assert alone.prune_counts["depth_four"] == 1 and alone.prune_counts["depth_three_start"] == 0


@pytest.mark.parametrize("gosdt_seconds, deepening_seconds, expected", [
    (0.0, 0.0, "deepening"),      # a tie goes to deepening
    (1.0, 3.0, "deepening"),      # 3 of 4 s is less than its 4/5
    (1.0, 5.0, "gosdt"),          # 5 of 6 s is more
    (3.0, 10.0, "gosdt"),         # after 10 s the rest is shared evenly: 8 + 1.5 s owed, 10 used
    (2.0, 12.0, "gosdt"),
    (20.0, 10.0, "deepening"),
])
def test_the_portfolio_gives_deepening_most_of_the_first_seconds(gosdt_seconds, deepening_seconds, expected):
    """Anytime first: iterative deepening's share is 4/5 of the first 10 s, then the two alternate evenly."""
    from types import SimpleNamespace
    from treeopt.solvers import Portfolio
    X = np.array([[0, 1], [1, 0]] * 3)
    solver = Portfolio(Dataset.from_binary(X, X[:, 0]), regularization=0.1)
    live = {"gosdt": SimpleNamespace(elapsed=gosdt_seconds, start_due=False),
            "deepening": SimpleNamespace(elapsed=deepening_seconds)}
    assert solver._next_member(live) == expected
    assert solver._next_member({"gosdt": live["gosdt"]}) == "gosdt"


def test_the_portfolio_ends_the_depth_three_start_once_deepening_has_proved_depth_three():
    """Its trees can no longer beat deepening's incumbent, so its share of the time goes back. Slices
    of one root split keep the start's solve under way for as long as deepening's first three depths
    take (it would still be due without the rule)."""
    X, y = noisy_parity(300)
    portfolio = PortfolioStartAtOnce(Dataset.from_binary(X, y), regularization=0.01, depth_budget=5)
    gosdt, deepening = portfolio.members["gosdt"], portfolio.members["deepening"]
    gosdt.three_slice_seconds = 0.0                  # one root split per slice
    steps = iter(portfolio.steps())
    while len(deepening.depth_results) < 3 and next(steps, None) is not None:
        pass
    assert len(deepening.depth_results) == 3 and portfolio.lower_bound < portfolio.upper_bound   # still open
    assert gosdt.prune_counts["depth_three_start"] >= 1                                          # it ran
    assert not gosdt.start_due


@pytest.mark.parametrize("gosdt_seconds, deepening_seconds, start_due, expected", [
    (1.0, 3.0, False, "deepening"),     # 3 of 4 s is less than deepening's 4/5
    (1.0, 3.0, True, "gosdt"),          # but more than its 0.55 while the depth-three start is owed time
    (2.0, 2.0, True, "deepening"),      # 2 of 4 s is less than 0.55
    (3.0, 10.0, True, "gosdt"),         # after 10 s the shares are even, start or not
])
def test_the_portfolio_gives_gosdt_more_while_its_depth_three_start_is_due(gosdt_seconds, deepening_seconds,
                                                                          start_due, expected):
    from types import SimpleNamespace
    from treeopt.solvers import Portfolio
    X = np.array([[0, 1], [1, 0]] * 3)
    solver = Portfolio(Dataset.from_binary(X, X[:, 0]), regularization=0.1)
    live = {"gosdt": SimpleNamespace(elapsed=gosdt_seconds, start_due=start_due),
            "deepening": SimpleNamespace(elapsed=deepening_seconds)}
    assert solver._next_member(live) == expected


def test_the_portfolio_members_share_their_solvers_and_count_their_own_solves():
    """The portfolio's GOSDT member and iterative deepening share one set of small-tree solvers
    (with a depth budget of five both solve the same supports at depth four): the same optimum, and
    the solves the shared depth-three solver ran are counted once, by the member whose unit ran them."""
    dataset = _checkerboard()
    expected = GOSDT(dataset, regularization=0.01, depth_budget=5).run().objective
    portfolio = Portfolio(dataset, regularization=0.01, depth_budget=5)
    result = portfolio.run()
    assert result.optimal and result.objective == pytest.approx(expected)
    three = portfolio.members["gosdt"].subsolvers.three
    assert three is portfolio.members["deepening"]._subsolvers.three
    assert three.slack_solves > 0
    assert portfolio.prune_counts["child_slack"] == three.slack_solves

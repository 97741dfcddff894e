"""The depth-four solver (``depth_four.py``): root splits with exact depth-three children, nested for depth five.

Checked against the brute-force oracle, one root split per step, with the best tree so far real
at every step.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force
from strategies import lambdas, problems, threshold_problems
from treeopt.data import Dataset
from treeopt.solvers.gosdt.depth_four import DepthFourSolver
from treeopt.solvers.gosdt.depth_three import DepthThreeSolver
from treeopt.solvers.gosdt.depth_two import DepthTwoSolver

from engine_checks import spec_objective


@settings(max_examples=60, deadline=None)
@given(data=problems(n_classes=2, weights="float") | problems(n_classes=3) | problems(weights="int")
       | threshold_problems(), lam=lambdas, objective=st.sampled_from(["accuracy", "balanced_accuracy"]),
       target_shift=st.sampled_from([None, 0.0, 0.05]), max_pair_columns=st.sampled_from([1500, 0]),
       target_slack=st.sampled_from([0.0, 2.0]), depth=st.sampled_from([4, 4, 5]))
def test_depth_four_solver_matches_the_oracle_at_depth_four(data, lam, objective, target_shift, max_pair_columns,
                                                            target_slack, depth):
    """Exact at depth four (and five, nested over a depth-four solver), with or without pair
    matrices (then no pair weights seed the bounds), with or without slack on the children's
    targets; with a target, it finds the optimum below it or proves there is none."""
    X, y, w = data
    expected = brute_force(X, y, lam, sample_weight=w, objective=objective, depth=depth)
    dataset = Dataset.from_binary(X, y, sample_weight=w)
    from treeopt.objectives import get_objective
    model = get_objective(objective).loss_model(dataset)
    eps = 1e-9 * dataset.total_weight
    two = DepthTwoSolver(dataset.points, dataset.counts * model.costs, lam * dataset.total_weight, eps)
    two.max_pair_columns = max_pair_columns
    four = DepthFourSolver(DepthThreeSolver(two, target_slack=target_slack))
    if depth == 5:
        four = DepthFourSolver(four)
    assert four.depth == depth and four.child_max_leaves == 2 ** (depth - 2)
    target = np.inf if target_shift is None else (expected.objective + target_shift) / model.scale
    run = four.start(np.ones(dataset.n_points, dtype=bool), target)
    while not run.done:
        run.advance(seconds=0.0)                    # a root split at a time, as a stepwise search does
        assert run.lower_bound <= run.best + 1e-12
        assert model.to_objective(run.lower_bound) <= expected.objective + 1e-9 or target_shift == 0.0
        if run.spec is not None:                    # the best tree so far (the seed's hand up theirs) is real
            assert spec_objective(X, y, w, lam, objective, run.spec) == pytest.approx(
                model.to_objective(run.best), abs=1e-9)
    objective_w, spec = run.objective, run.spec
    assert four.solved_children >= 1                # the support's own depth-three solve, at least
    if spec is None:
        assert target_shift == 0.0                  # a target above the optimum must be beaten
        assert model.to_objective(objective_w) <= expected.objective + 1e-9
    else:
        assert model.to_objective(objective_w) == pytest.approx(expected.objective, abs=1e-9)
        assert spec_objective(X, y, w, lam, objective, spec) == pytest.approx(expected.objective, abs=1e-9)


def test_depth_four_beats_depth_three_on_parity_of_four_bits():
    """Sixteen pure cells: depth three cannot separate them, depth four can (so the loop's own
    root splits, not only its depth-three seed, find the optimum). A step is one root split of a
    depth-three solve, so a stepwise search never waits for a whole child."""
    X = np.array([[a, b, c, d] for a in (0, 1) for b in (0, 1) for c in (0, 1) for d in (0, 1)] * 3)
    y = X.sum(axis=1) % 2
    dataset = Dataset.from_binary(X, y)
    two = DepthTwoSolver(dataset.points, dataset.counts, 0.01 * dataset.total_weight, 1e-9 * dataset.total_weight)
    three, four = DepthThreeSolver(two), DepthFourSolver(DepthThreeSolver(two))
    everything = np.ones(dataset.n_points, dtype=bool)
    depth_three, _ = three.solve(everything, np.inf)
    run = four.start(everything, np.inf)
    run.advance(seconds=0.0)                        # one step: a root split of the seed's depth-three solve
    assert not run.done and four.solved_children == 0
    # ... whose best tree so far (its own depth-two seed) is the run's at once, before the seed ends.
    assert run.spec is not None
    assert spec_objective(X, y, None, 0.01, "accuracy", run.spec) == pytest.approx(run.best / dataset.total_weight)
    steps = 1
    while not run.done:
        run.advance(seconds=0.0)
        steps += 1
    depth_four, spec = run.objective, run.spec
    assert steps > four.solved_children             # the children's solves were sliced too
    assert depth_four == pytest.approx(16 * 0.01 * dataset.total_weight)        # sixteen leaves, no error
    assert depth_three > depth_four + 1.0
    assert spec_objective(X, y, None, 0.01, "accuracy", spec) == pytest.approx(brute_force(X, y, 0.01, depth=4).objective)

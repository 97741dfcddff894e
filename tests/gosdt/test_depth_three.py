"""The depth-three solver (``depth_three.py``): the best tree of depth at most three, root split by root split.

Checked against the brute-force oracle with or without pair matrices, with slack on the
children's targets, with a target to beat, sliced over many units of work; and its memo of
results by support.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force
from strategies import lambdas, problems, threshold_problems
from treeopt.data import Dataset
from treeopt.solvers import GOSDT
from treeopt.solvers.gosdt.depth_three import DepthThreeSolver
from treeopt.solvers.gosdt.depth_two import DepthTwoSolver

from engine_checks import MERGES, WideGOSDT, _checkerboard, check, merge_equal_columns, spec_objective


@settings(max_examples=80, deadline=None)
@given(data=problems(n_classes=2, weights="float") | problems(n_classes=3) | problems(weights="int")
       | threshold_problems(), lam=lambdas, objective=st.sampled_from(["accuracy", "balanced_accuracy"]),
       target_shift=st.sampled_from([None, 0.0, 0.05]), max_pair_columns=st.sampled_from([1500, 0]),
       merge=st.sampled_from(sorted(MERGES)), target_slack=st.sampled_from([0.0, 1.0, 3.0]), anytime=st.booleans())
def test_depth_three_solver_matches_the_oracle_at_depth_three(data, lam, objective, target_shift, max_pair_columns,
                                                              merge, target_slack, anytime):
    """Exact at depth three, with or without pair matrices, whatever the slack on the children's
    targets, in either order of root splits; with a target, it finds the optimum below it or proves
    there is none."""
    X, y, w = data
    expected = brute_force(X, y, lam, sample_weight=w, objective=objective, depth=3)
    dataset = Dataset.from_binary(X, y, sample_weight=w)
    from treeopt.objectives import get_objective
    model = get_objective(objective).loss_model(dataset)
    eps = 1e-9 * dataset.total_weight
    two = DepthTwoSolver(dataset.points, dataset.counts * model.costs, lam * dataset.total_weight, eps)
    two.max_pair_columns = max_pair_columns            # 0: no pair matrix, root splits one by one
    merge_equal_columns(two, merge)
    three = DepthThreeSolver(two, target_slack=target_slack)
    target = np.inf if target_shift is None else (expected.objective + target_shift) / model.scale
    run = three.start(np.ones(dataset.n_points, dtype=bool), target, anytime=anytime)
    while not run.done:
        run.advance()
    objective_w, spec = run.objective, run.spec
    assert (three.slack_solves > 0) == (target_slack > 0 and three.solved_children > 0)
    if spec is None:                       # nothing beats the target: the optimum is not below it
        assert target_shift is not None
        assert target_shift == 0.0         # a target above the optimum must be beaten
        assert model.to_objective(objective_w) <= expected.objective + 1e-9
    else:
        assert model.to_objective(objective_w) == pytest.approx(expected.objective, abs=1e-9)
        assert spec_objective(X, y, w, lam, objective, spec) == pytest.approx(expected.objective, abs=1e-9)


def test_a_child_whose_bound_reaches_its_leaf_is_a_leaf_without_a_solve():
    """Rows with x0 = 1 are all of class 1: below the root split on x0 that child's bound (its leaf,
    which no deeper tree beats) is its optimum, so it is never handed to the depth-two solver."""
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, size=(120, 5))
    y = np.where(X[:, 0] == 1, 1, X[:, 1] ^ X[:, 2])
    dataset = Dataset.from_binary(X, y)
    two = DepthTwoSolver(dataset.points, dataset.counts, 0.01 * dataset.total_weight, 1e-9 * dataset.total_weight)
    three = DepthThreeSolver(two)
    solved = []
    real_best = two.best_steps          # (a child's solve, in slices)
    two.best_steps = lambda mask, target=np.inf, slice_seconds=None: \
        solved.append(mask.copy()) or real_best(mask, target, slice_seconds)
    objective, spec = three.solve(np.ones(dataset.n_points, dtype=bool), np.inf)
    pure = dataset.points[:, 0].astype(bool)                    # the points with x0 = 1
    assert not any(np.array_equal(mask, pure) for mask in solved)
    assert three.solved_children == len(solved)                 # (the seed is solved apart: best_with_pair_weights)
    assert objective / dataset.total_weight == pytest.approx(brute_force(X, y, 0.01, depth=3).objective)


def test_depth_three_with_a_large_slack_matches_the_oracle_root_split_by_root_split():
    """Children solved against targets raised by 3λ, without pair matrices (every child a bounded search):
    still exact on 80 random problems. (Lowering the children's targets instead loses optima here.)"""
    for seed in range(80):
        rng = np.random.default_rng(seed)
        n, f = int(rng.integers(10, 40)), int(rng.integers(2, 6))
        X, y = (rng.random((n, f)) < 0.5).astype(int), rng.integers(0, 2, n)
        lam = float(rng.choice([0.01, 0.02, 0.05]))
        dataset = Dataset.from_binary(X, y)
        two = DepthTwoSolver(dataset.points, dataset.counts.astype(float), lam * dataset.total_weight,
                             1e-9 * dataset.total_weight)
        two.max_pair_columns = 0
        objective, spec = DepthThreeSolver(two, target_slack=3.0).solve(np.ones(dataset.n_points, dtype=bool), np.inf)
        expected = brute_force(X, y, lam, depth=3).objective
        assert objective / dataset.total_weight == pytest.approx(expected, abs=1e-9), seed
        assert spec_objective(X, y, None, lam, "accuracy", spec) == pytest.approx(expected, abs=1e-9)


class SlicedGOSDT(WideGOSDT):
    """Every depth-three solve advances one root split per unit of work."""

    three_slice_seconds = 0.0


@settings(max_examples=40, deadline=None)
@given(data=problems() | problems(weights="float") | problems(n_classes=3), lam=lambdas,
       depth=st.sampled_from([None, 3, 4]), max_pair_columns=st.sampled_from([1500, 0]))
def test_sliced_depth_three_solves_match_the_oracle_and_report_true_bounds(data, lam, depth, max_pair_columns):
    """A depth-three solve spread over many units keeps the optimum, and the bounds the
    search shows between its slices bracket it (check() asserts every traced lower bound)."""
    X, y, w = data
    saved = DepthTwoSolver.max_pair_columns
    DepthTwoSolver.max_pair_columns = max_pair_columns
    try:
        check(SlicedGOSDT, X, y, w, lam, depth=depth)
    finally:
        DepthTwoSolver.max_pair_columns = saved


def test_a_depth_three_solve_pauses_between_slices_with_an_honest_gap():
    """Depth budget three on all thresholds of two numeric columns: one unit of work leaves the
    root open with lower bound <= optimum <= upper bound, and resuming certifies the optimum."""
    rng = np.random.default_rng(7)
    raw = rng.normal(size=(80, 2))
    y = ((np.sin(3 * raw[:, 0]) * raw[:, 1] > 0) ^ (rng.random(80) < 0.1)).astype(int)
    dataset = Dataset.from_arrays(pd.DataFrame(raw, columns=["a", "b"]), y)
    whole = GOSDT(dataset, regularization=0.005, depth_budget=3).run()
    sliced = SlicedGOSDT(dataset, regularization=0.005, depth_budget=3)
    sliced.step(1)
    assert sliced.status == "paused"
    assert sliced.lower_bound <= whole.objective + 1e-12 <= sliced.upper_bound + 2e-12
    assert sliced.lower_bound < sliced.upper_bound
    result = sliced.run()
    assert result.optimal and result.objective == pytest.approx(whole.objective, abs=1e-12)
    assert sliced.expansions > 2


def test_a_loop_solver_answers_a_support_it_solved_before_from_its_results():
    """The second solve of a support (same target or a lower one) is a SolvedRun: no root split
    is tried again, and the answer is the first one's (a bound below a target it cannot beat)."""
    from treeopt.solvers.gosdt.depth_three import SolvedRun

    dataset = _checkerboard()
    two = DepthTwoSolver(dataset.points, dataset.counts, 0.01 * dataset.total_weight, 1e-9 * dataset.total_weight)
    three = DepthThreeSolver(two)
    everything = np.ones(dataset.n_points, dtype=bool)
    first = three.solve(everything, np.inf)
    solved = three.solved_children
    run = three.start(everything, np.inf)
    assert isinstance(run, SolvedRun) and run.done and (run.objective, run.spec) == first
    assert three.solved_children == solved
    lower = three.start(everything, first[0] - 1.0)           # nothing beats a target below the optimum
    assert isinstance(lower, SolvedRun) and lower.spec is None and lower.objective < first[0]


def test_the_results_by_support_keep_the_strongest_answer():
    """An exact result outlives any bound; a higher bound replaces a lower one; a bound from an
    infinite target (which proves nothing) is not kept."""
    from treeopt.solvers.gosdt.depth_three import SupportMemo

    memo = SupportMemo(size=10, eps=1e-9)
    key = memo.key(np.array([True, False, True]))
    memo.keep(key, np.inf, None)
    assert memo.lookup(key, 5.0) is None
    memo.keep(key, 3.0, None)
    memo.keep(key, 2.5, None)                              # weaker: the 3.0 bound stays
    assert memo.lookup(key, 2.9) == (2.9 - 1e-9, None) and memo.lookup(key, 4.0) is None
    memo.keep(key, 1.0, (0, -1, -1))
    memo.keep(key, 5.0, None)                              # a bound never replaces the exact result
    assert memo.lookup(key, 2.0) == (1.0, (0, -1, -1)) and memo.lookup(key, 0.5) == (0.5 - 1e-9, None)

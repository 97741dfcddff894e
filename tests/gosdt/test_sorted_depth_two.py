"""The depth-two solver over sorted chains of threshold features, against the brute-force oracle.

``treeopt/solvers/gosdt/sorted_depth_two.py`` must give the same optimum as
``treeopt/solvers/gosdt/depth_two.py`` on any binary data (chains of one feature included), with or
without a target to beat, inside the depth-three solver and inside GOSDT with its switch on.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force
from strategies import lambdas, problems, threshold_problems
from engine_checks import spec_objective
from treeopt.data import Dataset, pack_columns
from treeopt.objectives import get_objective
from treeopt.solvers.gosdt.depth_three import DepthThreeSolver
from treeopt.solvers.gosdt.depth_two import DepthTwoSolver
from treeopt.solvers.gosdt.sorted_depth_two import SortedDepthTwo, nested_chains

any_data = threshold_problems() | threshold_problems(n_classes=3) | problems(n_classes=2, weights="float") \
    | problems(n_classes=3)


def _solvers(X, y, w, lam, objective):
    dataset = Dataset.from_binary(X, y, sample_weight=w)
    model = get_objective(objective).loss_model(dataset)
    args = (dataset.points, dataset.counts * model.costs, lam * dataset.total_weight, 1e-9 * dataset.total_weight)
    return dataset, model, SortedDepthTwo(*args), DepthTwoSolver(*args)


@settings(max_examples=80, deadline=None)
@given(data=any_data, lam=lambdas, objective=st.sampled_from(["accuracy", "balanced_accuracy"]),
       target_shift=st.sampled_from([None, 0.0, 0.03]))
def test_sorted_depth_two_matches_the_oracle(data, lam, objective, target_shift):
    X, y, w = data
    expected = brute_force(X, y, lam, sample_weight=w, objective=objective, depth=2)
    dataset, model, sorted_two, _ = _solvers(X, y, w, lam, objective)
    target = np.inf if target_shift is None else (expected.objective + target_shift) / model.scale
    objective_w, spec = sorted_two.best(np.ones(dataset.n_points, dtype=bool), target)
    if spec is None:                   # only when the target is not above the optimum
        assert target_shift == 0.0
        assert model.to_objective(objective_w) <= expected.objective + 1e-9
    else:
        assert model.to_objective(objective_w) == pytest.approx(expected.objective, abs=1e-9)
        assert spec_objective(X, y, w, lam, objective, spec) == pytest.approx(expected.objective, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(data=any_data, lam=lambdas, seed=st.integers(0, 2**16))
def test_sorted_and_pair_count_solvers_agree_on_random_supports(data, lam, seed):
    """Any support set (a child several splits down), not just the whole data."""
    X, y, w = data
    dataset, model, sorted_two, pair_two = _solvers(X, y, w, lam, "accuracy")
    rng = np.random.default_rng(seed)
    for _ in range(5):
        mask = rng.random(dataset.n_points) < rng.uniform(0.2, 1.0)
        if not mask.any():
            continue
        mine, spec = sorted_two.best(mask)
        theirs, _ = pair_two.best(mask)
        assert mine == pytest.approx(theirs, abs=1e-9 * dataset.total_weight)
        assert spec is not None
        if sorted_two._weight_difference is not None:      # two classes: also without the difference form
            differences, sorted_two._weight_difference = sorted_two._weight_difference, None
            assert sorted_two.best(mask)[0] == pytest.approx(theirs, abs=1e-9 * dataset.total_weight)
            sorted_two._weight_difference = differences


@settings(max_examples=50, deadline=None)
@given(data=threshold_problems() | problems(n_classes=3), lam=lambdas,
       target_shift=st.sampled_from([None, 0.0, 0.05]), target_slack=st.sampled_from([0.0, 1.0, 2.0]))
def test_depth_three_solver_with_sorted_children_matches_the_oracle(data, lam, target_shift, target_slack):
    X, y, w = data
    expected = brute_force(X, y, lam, sample_weight=w, depth=3)
    dataset, model, sorted_two, pair_two = _solvers(X, y, w, lam, "accuracy")
    three = DepthThreeSolver(pair_two, children=sorted_two, target_slack=target_slack)
    target = np.inf if target_shift is None else (expected.objective + target_shift) / model.scale
    objective_w, spec = three.solve(np.ones(dataset.n_points, dtype=bool), target)
    if spec is None:
        assert target_shift == 0.0
        assert model.to_objective(objective_w) <= expected.objective + 1e-9
    else:
        assert model.to_objective(objective_w) == pytest.approx(expected.objective, abs=1e-9)
        assert spec_objective(X, y, w, lam, "accuracy", spec) == pytest.approx(expected.objective, abs=1e-9)


def test_chains_recover_the_numeric_columns_of_an_all_threshold_encoding():
    from treeopt.binarize import Binarizer
    rng = np.random.default_rng(0)
    table = rng.normal(size=(60, 3))
    points = Binarizer(thresholds="all").fit_transform(table)
    chains = nested_chains(points)
    assert [len(c) for c in chains] == [59, 59, 59]
    for chain in chains:                                  # true sets grow along every chain
        block = points[:, chain]
        assert np.all(block[:, :-1] <= block[:, 1:])
    assert sorted(np.concatenate(chains).tolist()) == list(range(points.shape[1]))


@pytest.mark.parametrize("depth", [2, 3, 4])
def test_gosdt_on_threshold_features_solves_depth_two_subtrees_by_chains(depth):
    """On an all-threshold encoding the switch is used (counted), and the optimum is the same without it."""
    from treeopt.binarize import Binarizer
    from treeopt.solvers import GOSDT
    rng = np.random.default_rng(depth)
    table = rng.normal(size=(80, 3))
    y = ((table[:, 0] > 0.3) ^ (table[:, 1] < -0.2)).astype(int)
    y[rng.random(80) < 0.15] ^= 1
    dataset = Dataset.from_arrays(table, y, binarizer=Binarizer(thresholds="all"))

    class AnyWidth(GOSDT):
        min_sorted_features = 0               # as on 1500+ threshold features

    on = AnyWidth(dataset, regularization=0.02, depth_budget=depth)
    off = GOSDT(dataset, regularization=0.02, depth_budget=depth, bounds={"sorted_depth_two": False})
    with_chains, without = on.run(), off.run()
    assert with_chains.optimal and without.optimal
    assert with_chains.objective == pytest.approx(without.objective, abs=1e-12)
    assert on.prune_counts["sorted_depth_two"] > 0 and off.prune_counts["sorted_depth_two"] == 0
    predicted = with_chains.tree.predict(dataset.binarizer.transform(table), binarized=True)
    recomputed = np.mean(predicted != y) + 0.02 * with_chains.tree.n_leaves
    assert recomputed == pytest.approx(with_chains.objective, abs=1e-12)


def test_slack_on_the_children_targets_closes_neighbouring_thresholds():
    """Depth three over four numeric columns with every threshold (796 features), root splits one by
    one: with the children solved against their targets plus λ, each failed child solve closes more
    neighbouring thresholds, so far fewer depth-two solves reach the same optimum."""
    from treeopt.binarize import Binarizer
    solves = {0.0: 0, 1.0: 0}
    for seed in range(4):
        rng = np.random.default_rng(seed)
        table = rng.normal(size=(200, 4))
        y = ((table[:, 0] > 0.3) ^ (table[:, 1] < -0.2) | (table[:, 2] > 1)).astype(int)
        y[rng.random(200) < 0.1] ^= 1
        dataset = Dataset.from_arrays(table, y, binarizer=Binarizer(thresholds="all"))
        args = (dataset.points, dataset.counts.astype(float), 0.01 * dataset.total_weight, 1e-9 * dataset.total_weight)
        optima = {}
        for slack in solves:
            two = DepthTwoSolver(*args)
            two.max_pair_columns = 0                    # no pair matrix: every child solve is a bounded search
            three = DepthThreeSolver(two, children=SortedDepthTwo(*args), target_slack=slack)
            optima[slack], _ = three.solve(np.ones(dataset.n_points, dtype=bool), np.inf)
            solves[slack] += three.solved_children
        assert optima[1.0] == pytest.approx(optima[0.0], abs=1e-9)
    assert solves[1.0] < 0.75 * solves[0.0]


@settings(max_examples=40, deadline=None)
@given(data=threshold_problems(max_features=12))
def test_ranks_are_each_points_first_true_feature_of_each_chain(data):
    """SortedDepthTwo.rank, from the first true feature of rising and falling runs, and by counting otherwise."""
    X, _, _ = data
    points = np.unique(X.astype(bool), axis=0)
    counts = np.ones((len(points), 2))

    def first_true(chains, points=points):
        return np.stack([np.where(points[:, c].any(axis=1), points[:, c].argmax(axis=1), len(c)) for c in chains])

    runs = SortedDepthTwo(points, counts, 1.0, 1e-9)                      # nested_chains: runs in order
    np.testing.assert_array_equal(runs.rank, first_true(runs.chains))
    backwards = points[:, ::-1]                        # every run read the other way (rising <-> falling)
    down = SortedDepthTwo(backwards, counts, 1.0, 1e-9)
    np.testing.assert_array_equal(down.rank, first_true(down.chains, backwards))
    shuffled = runs.chains[::-1]                                          # the same chains, not in order
    np.testing.assert_array_equal(SortedDepthTwo(points, counts, 1.0, 1e-9, chains=shuffled).rank,
                                  first_true(shuffled))
    assert [c.tolist() for c in nested_chains(points, pack_columns(points))] == \
        [c.tolist() for c in runs.chains]


def chains_one_pair_at_a_time(points: np.ndarray) -> list[list[int]]:
    """The reference for nested_chains: walk the neighbouring pairs in order. A chain takes equal
    pairs and pairs of its direction (set by its first pair that is not equal); another pair ends it."""
    n = points.shape[1]
    chains, start, direction = [], 0, 0
    for i in range(n - 1):
        a, b = points[:, i], points[:, i + 1]
        up, down = bool(np.all(b[a])), bool(np.all(a[b]))          # f_i ⊆ f_{i+1}, f_{i+1} ⊆ f_i
        if direction == 0 and (up or down):
            direction = 0 if up and down else (1 if up else -1)
        elif not ((direction == 1 and up) or (direction == -1 and down)):
            chains.append((start, i + 1, direction))
            start, direction = i + 1, 0
    chains.append((start, n, direction))
    return [list(range(first, stop))[::-1 if direction == -1 else 1] for first, stop, direction in chains]


@settings(max_examples=60, deadline=None)
@given(data=threshold_problems(max_features=12) | problems(n_classes=2), backwards=st.booleans())
def test_nested_chains_match_a_walk_over_the_pairs(data, backwards):
    X, _, _ = data
    points = np.unique(X.astype(bool), axis=0)
    if backwards:
        points = points[:, ::-1]
    assert [c.tolist() for c in nested_chains(points)] == chains_one_pair_at_a_time(points)

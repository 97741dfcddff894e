"""The depth-two solver (``depth_two.py``, ``two_class_depth_two.py``): every tree of depth at most two, exactly.

Checked against the brute-force oracle (``tests/oracle.py``) on small random problems, with pair
matrices or root split by root split, with equal columns kept, grouped by bits or merged by counts;
plus its arithmetic (single or double precision) and its BLAS thread guard.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import _inputs, _label_leaves, brute_force, class_costs, tree_objective
from strategies import lambdas, problems, threshold_problems
from treeopt.data import Dataset
from treeopt.solvers.gosdt.depth_two import LEAF, DepthTwoSolver

from engine_checks import MERGES, merge_equal_columns, spec_objective


def small_tree_objective(X, y, w, lam, objective, result) -> float:
    """The oracle's objective of the depth-two solver's tree, rebuilt as an oracle tuple."""
    X, y, w = _inputs(X, y, w)
    classes, costs = class_costs(X, y, w, objective)
    index = {c: k for k, c in enumerate(classes.tolist())}

    def leaf():
        return ("leaf", None)                     # labelled below by each leaf's best class

    def depth_one(feature):
        return leaf() if feature == LEAF else ("split", feature, leaf(), leaf())

    root, left, right = result.tree()
    tree = leaf() if root == LEAF else ("split", root, depth_one(left), depth_one(right))
    tree = _label_leaves(tree, X, [index[v] for v in y.tolist()], w, costs, classes)
    return tree_objective(tree, X, y, lam, sample_weight=w, objective=objective)


@settings(max_examples=60, deadline=None)
@given(data=problems(n_classes=2, weights="float") | problems(n_classes=3) | threshold_problems(), lam=lambdas,
       objective=st.sampled_from(["accuracy", "balanced_accuracy"]))
def test_depth_two_solver_matches_the_oracle_at_depth_two(data, lam, objective):
    X, y, w = data
    expected = brute_force(X, y, lam, sample_weight=w, objective=objective, depth=2)
    dataset = Dataset.from_binary(X, y, sample_weight=w)
    from treeopt.objectives import get_objective
    model = get_objective(objective).loss_model(dataset)
    solver = DepthTwoSolver(dataset.points, dataset.counts * model.costs, lam * dataset.total_weight,
                            1e-9 * dataset.total_weight)
    result = solver.solve(dataset.all_points)
    assert model.to_objective(result.objective) == pytest.approx(expected.objective, abs=1e-9)
    assert small_tree_objective(X, y, w, lam, objective, result) == pytest.approx(expected.objective, abs=1e-9)
    # best(): the same optimum from the pair matrix and, without it, one root split at a time; with
    # equal columns kept, grouped by their bits or merged by counts (MERGES). solve(): the same
    # children's subtrees for every feature, whichever kept column stands for it.
    # A random half of the points too: there, unlike on all of them, neighbouring thresholds can be equal.
    half = np.random.default_rng(len(y)).random(dataset.n_points) < 0.5
    merge_equal_columns(solver, "keep")
    on_half = solver.solve_rows(half)
    for merge in MERGES:
        merge_equal_columns(solver, merge)
        for solved, reference in ((solver.solve(dataset.all_points), result), (solver.solve_rows(half), on_half)):
            for side in ("left", "right"):
                np.testing.assert_allclose(getattr(solved, f"{side}_objective"),
                                           getattr(reference, f"{side}_objective"), atol=1e-9 * dataset.total_weight)
        # Two classes: best() from the class-weight differences (two_class_depth_two.py), and without.
        two_classes = solver.two_classes
        for max_pair_columns, difference_form in itertools.product((1500, 0), {two_classes, False}):
            solver.max_pair_columns, solver.two_classes = max_pair_columns, difference_form
            objective_w, spec = solver.best(np.ones(dataset.n_points, dtype=bool))
            assert model.to_objective(objective_w) == pytest.approx(expected.objective, abs=1e-9)
            assert spec_objective(X, y, w, lam, objective, spec) == pytest.approx(expected.objective, abs=1e-9)
            assert solver.best(half)[0] == pytest.approx(on_half.objective, abs=1e-9 * dataset.total_weight)
            if max_pair_columns:             # ... and with the pair weights a depth-three solve reads
                columns = solver.columns(np.ones(dataset.n_points, dtype=bool))
                objective_w, _, both = solver.best_with_pair_weights(columns)
                assert model.to_objective(objective_w) == pytest.approx(expected.objective, abs=1e-9)
                np.testing.assert_allclose(both, solver.counts(columns).pair.sum(axis=0), atol=1e-9)
        solver.max_pair_columns, solver.two_classes = DepthTwoSolver.max_pair_columns, two_classes
    one, _ = solver.depth_one(dataset.all_points)
    assert model.to_objective(one) == pytest.approx(
        brute_force(X, y, lam, sample_weight=w, objective=objective, depth=1).objective, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(data=problems(n_classes=2) | problems(n_classes=3), seed=st.integers(0, 2**16))
def test_pair_counts_in_single_precision_equal_double_precision_on_whole_weights(data, seed):
    X, y, w = data
    dataset = Dataset.from_binary(X, y, sample_weight=w)
    whole = np.round(dataset.counts * np.random.default_rng(seed).integers(1, 1000, dataset.counts.shape[1]))
    fast = DepthTwoSolver(dataset.points, whole, 1.0, 1e-9)
    assert fast.single_precision == (whole.sum() < 2 ** 24)
    exact = DepthTwoSolver(dataset.points, whole, 1.0, 1e-9)
    exact.single_precision = False
    mask = np.ones(dataset.n_points, dtype=bool)
    single, double = fast.counts(fast.columns(mask)), exact.counts(exact.columns(mask))
    assert single.pair.dtype == np.float64
    np.testing.assert_array_equal(single.pair, double.pair)
    assert single.objective == double.objective


def test_fractional_or_huge_weights_keep_double_precision():
    points = np.array([[0, 1], [1, 0], [1, 1]], dtype=bool)
    assert not DepthTwoSolver(points, np.array([[1.5, 0], [0, 2], [1, 1]]), 1.0, 1e-9).single_precision
    assert not DepthTwoSolver(points, np.array([[2.0 ** 24, 0], [0, 2], [1, 1]]), 1.0, 1e-9).single_precision
    assert DepthTwoSolver(points, np.array([[3.0, 0], [0, 2], [1, 1]]), 1.0, 1e-9).single_precision


def test_threshold_columns_are_merged_by_counts_and_other_wide_columns_by_bits():
    """The rule of DepthTwoSolver.by_counts: more than few_features columns, most nested with the one before."""
    rng = np.random.default_rng(0)
    values = rng.integers(0, 200, size=(300, 2))
    thresholds = np.concatenate([values[:, [c]] <= np.arange(100)[None, :] for c in range(2)], axis=1)
    counts = np.stack([np.ones(300), np.zeros(300)], axis=1)
    assert DepthTwoSolver(thresholds, counts, 1.0, 1e-9).by_counts                       # 200 nested columns
    assert not DepthTwoSolver(thresholds[:, :60], counts, 1.0, 1e-9).by_counts           # few columns: kept
    assert not DepthTwoSolver(rng.random((300, 200)) < 0.5, counts, 1.0, 1e-9).by_counts  # random: by bits


@pytest.mark.parametrize("seed", range(4))
def test_small_supports_read_from_rows_keep_the_packed_paths_columns(seed):
    """DepthTwoSolver.columns of a small support on threshold data (its rows' booleans, up to
    small_support_cells rows × features) equals the packed path's: the same kept columns, rows,
    weights and merged members, with equal neighbours and constant columns among them."""
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 30, size=(120, 3))                       # repeats: equal neighbours on supports
    values[:, 1] = rng.permutation(values[:, 0])
    # Column 1's thresholds falling: "x0 <= 28" and "x1 <= 28" are neighbours with as many rows on the
    # whole support, and not nested (equal counts alone must not merge them).
    steps = [np.arange(29), np.arange(29)[::-1], np.arange(29)]
    thresholds = np.concatenate([values[:, [c]] <= steps[c][None, :] for c in range(3)], axis=1)
    counts = np.stack([rng.integers(0, 3, 120), rng.integers(0, 3, 120)], axis=1).astype(float)
    solver = DepthTwoSolver(thresholds, counts, 1.0, 1e-9)
    assert solver.by_counts
    for size in (2, 7, 40, 120):
        mask = np.zeros(120, dtype=bool)
        mask[rng.choice(120, size, replace=False)] = True
        assert size * solver.n_features <= solver.small_support_cells
        small = solver.columns(mask, np.float32)
        solver.small_support_cells = 0                                 # the packed path
        packed = solver.columns(mask, np.float32)
        solver.small_support_cells = DepthTwoSolver.small_support_cells
        assert np.array_equal(small.features, packed.features) and np.array_equal(small.X, packed.X)
        assert small.X.dtype == packed.X.dtype == np.float32
        assert np.array_equal(small.rows, packed.rows) and np.array_equal(small.W, packed.W)
        for mine, theirs in zip(small.members, packed.members):
            assert np.array_equal(mine, theirs)


def test_one_blas_thread_nests_and_restores_the_limit():
    """A context inside another keeps BLAS on one thread and sets nothing; the outer one restores it."""
    from threadpoolctl import threadpool_info
    from treeopt.solvers.gosdt.depth_two import one_blas_thread

    def blas_threads():
        return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]
    before = blas_threads()
    with one_blas_thread():
        assert all(n == 1 for n in blas_threads())
        with one_blas_thread():
            assert all(n == 1 for n in blas_threads())
        assert all(n == 1 for n in blas_threads())      # the inner exit did not restore it
    assert blas_threads() == before

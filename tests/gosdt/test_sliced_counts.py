"""Counting in slices gives the same numbers: the pair counts of a depth-two solve and CART's growth.

Long computations run in slices of the unit budget (``treeopt/solvers/slices.py``); where the
slices fall depends on the clock, so the results must not. Blocks of rows are fixed by the sizes,
and a slice of zero seconds yields after every block.
"""

import numpy as np
import pytest

from treeopt.data import Dataset, points_in
from treeopt.solvers.cart_start import grow_gini_tree, grow_gini_tree_steps
from treeopt.solvers.gosdt.depth_two import DepthTwoSolver
from treeopt.solvers.slices import drain


def threshold_data(rows=400, seed=5) -> Dataset:
    rng = np.random.default_rng(seed)
    raw = rng.normal(size=(rows, 3))
    y = ((raw[:, 0] + raw[:, 1] * raw[:, 2]) > 0).astype(int)
    cuts = [np.quantile(raw[:, c], np.linspace(0.05, 0.95, 12)) for c in range(3)]
    X = np.hstack([raw[:, [c]] <= cuts[c] for c in range(3)])
    return Dataset.from_binary(X.astype(int), y)


def count_slices(steps):
    slices = 0
    while True:
        try:
            next(steps)
            slices += 1
        except StopIteration as done:
            return slices, done.value


@pytest.mark.parametrize("by", ["rows", "output columns"])
def test_pair_counts_in_slices_equal_the_one_product(monkeypatch, by):
    data = threshold_data()
    solver = DepthTwoSolver(data.points, data.counts, 0.01 * data.total_weight, 1e-9 * data.total_weight)
    columns = solver.columns(points_in(data.all_points, data.n_points))
    whole = solver.counts(columns)
    (m, f), k = columns.X.shape, columns.W.shape[1]
    # Blocks of a few rows; or, when the weighted rows fit in one block, a few output columns at a time.
    block = 1 << 12 if by == "rows" else m * k * f
    assert (block >= m * k * f) == (by == "output columns") and block // (k * f * f) < m
    monkeypatch.setattr(DepthTwoSolver, "block_products", block)
    slices, sliced = count_slices(solver.counts_steps(columns, slice_seconds=0.0))
    assert slices > 5
    assert np.array_equal(sliced.pair, whole.pair) and np.array_equal(sliced.single, whole.single)
    assert np.array_equal(sliced.right_objective, whole.right_objective)


def test_cart_grown_in_slices_is_the_same_tree(monkeypatch):
    data = threshold_data()
    whole = grow_gini_tree(data.points, data.counts, max_leaves=12)
    import treeopt.solvers.cart_start as cart_start
    monkeypatch.setattr(cart_start, "BLOCK_CELLS", 64)
    slices, sliced = count_slices(grow_gini_tree_steps(data.points, data.counts, 12, slice_seconds=0.0))
    assert slices > 10 and sliced == whole
    assert drain(grow_gini_tree_steps(data.points, data.counts, 12)) == whole


def test_a_depth_three_seed_in_slices_equals_the_one_piece_solve(monkeypatch):
    """The seed of a depth-three run (the support's best depth-two tree and its pair weights) is
    summed over blocks of rows with pauses; the optimum, its tree and the weights are unchanged."""
    data = threshold_data()
    solver = DepthTwoSolver(data.points, data.counts, 0.01 * data.total_weight, 1e-9 * data.total_weight)
    columns = solver.columns(points_in(data.all_points, data.n_points), solver._difference.dtype)
    objective, spec, both = solver.best_with_pair_weights(columns)
    monkeypatch.setattr(DepthTwoSolver, "block_products", 1 << 12)
    slices, (sliced_objective, sliced_spec, sliced_both) = count_slices(
        solver.best_with_pair_weights_steps(columns, slice_seconds=0.0))
    assert slices > 10
    assert sliced_objective == objective and sliced_spec == spec and np.array_equal(sliced_both, both)


def wide_threshold_data(rows=600, cuts=40, classes=2, seed=7) -> Dataset:
    """More threshold columns than the few-column shortcut takes, so the support's columns are packed and merged."""
    rng = np.random.default_rng(seed)
    raw = rng.normal(size=(rows, 3))
    y = np.digitize(raw[:, 0] + raw[:, 1] * raw[:, 2], np.linspace(-1, 1, classes - 1)) if classes > 2 else \
        ((raw[:, 0] + raw[:, 1] * raw[:, 2]) > 0).astype(int)
    X = np.hstack([raw[:, [c]] <= np.quantile(raw[:, c], np.linspace(0.02, 0.98, cuts)) for c in range(3)])
    return Dataset.from_binary(X.astype(int), y)


def _depth_two_solver(data, monkeypatch, regularization=0.01):
    solver = DepthTwoSolver(data.points, data.counts, regularization * data.total_weight, 1e-9 * data.total_weight)
    monkeypatch.setattr(solver, "small_support_cells", 0)            # the packed path, as on large supports
    return solver


def test_columns_copied_in_slices_are_the_same_columns(monkeypatch):
    data = wide_threshold_data()
    solver = _depth_two_solver(data, monkeypatch)
    mask = points_in(data.all_points, data.n_points)
    whole = solver.columns(mask)
    monkeypatch.setattr(DepthTwoSolver, "block_cells", 256)             # blocks of a few rows
    slices, sliced = count_slices(solver.columns_steps(mask, slice_seconds=0.0))
    assert slices > 10
    assert np.array_equal(sliced.X, whole.X) and np.array_equal(sliced.features, whole.features)
    assert np.array_equal(sliced.rows, whole.rows)


@pytest.mark.parametrize("classes", [2, 3])
def test_a_depth_two_solve_in_slices_equals_the_one_piece_solve(monkeypatch, classes):
    """An expansion's exact depth-two solve pauses while its columns are copied and its pair products
    summed; its optimum and tree are those of the solve in one piece, and so is the depth-one solve."""
    data = wide_threshold_data(classes=classes)
    solver = _depth_two_solver(data, monkeypatch)
    rng = np.random.default_rng(0)
    for mask in (points_in(data.all_points, data.n_points), rng.random(data.n_points) < 0.6):
        whole, whole_one = solver.best(mask), drain(solver.depth_one_steps(mask))
        with monkeypatch.context() as small:
            small.setattr(DepthTwoSolver, "block_cells", 256)
            small.setattr(DepthTwoSolver, "block_products", 1 << 12)
            slices, sliced = count_slices(solver.best_steps(mask, np.inf, slice_seconds=0.0))
            one_slices, sliced_one = count_slices(solver.depth_one_steps(mask, slice_seconds=0.0))
            run = solver.start(mask, np.inf, 0.0)
            runs = 0
            while not run.done:
                assert run.lower_bound == -np.inf and run.spec is None    # nothing proved half way
                run.advance(0.0)
                runs += 1
        assert slices > 10 and one_slices > 5 and runs > 10
        assert sliced == whole and sliced_one == whole_one and (run.objective, run.spec) == whole


def test_a_search_whose_depth_two_solves_pause_finds_the_same_optimum(monkeypatch):
    """With every block small and every slice spent at once, the search's expansions that call the
    depth-two solver go back on the queue between slices and resume; the optimum is unchanged."""
    from treeopt.solvers import GOSDT

    data = wide_threshold_data(rows=300, cuts=25)
    whole = GOSDT(data, regularization=0.02, depth_budget=3).run()
    monkeypatch.setattr(DepthTwoSolver, "block_cells", 128)
    monkeypatch.setattr(DepthTwoSolver, "block_products", 1 << 10)
    monkeypatch.setattr(DepthTwoSolver, "small_support_cells", 0)
    sliced = GOSDT(data, regularization=0.02, depth_budget=3)
    sliced.unit_budget = 0.0
    result = sliced.run()
    assert result.optimal and abs(result.objective - whole.objective) < 1e-12
    assert result.expansions > whole.expansions          # the paused solves came back as further units


@pytest.mark.parametrize("classes", [2, 3])
def test_the_sorted_and_the_bounded_depth_two_solves_in_slices_equal_the_one_piece_solves(monkeypatch, classes):
    """The loop over root splits (the sorted solver's, and the pair solver's on supports with more
    columns than a pair matrix takes) pauses between tried splits; the answers are unchanged."""
    from treeopt.solvers.gosdt.sorted_depth_two import SortedDepthTwo

    data = wide_threshold_data(classes=classes)
    penalty, eps = 0.002 * data.total_weight, 1e-9 * data.total_weight
    sorted_two = SortedDepthTwo(data.points, data.counts, penalty, eps)
    pairs = _depth_two_solver(data, monkeypatch, regularization=0.002)
    monkeypatch.setattr(pairs, "max_pair_columns", 8)                  # every support takes the bounded loop
    rng = np.random.default_rng(1)
    for mask in (points_in(data.all_points, data.n_points), rng.random(data.n_points) < 0.5):
        for solver in (sorted_two, pairs):
            whole = solver.best(mask)
            slices, sliced = count_slices(solver.best_steps(mask, np.inf, slice_seconds=0.0))
            assert slices > 3 and sliced == whole
            run = solver.start(mask, np.inf, 0.0)
            while not run.done:
                run.advance(0.0)
            assert (run.objective, run.spec) == whole

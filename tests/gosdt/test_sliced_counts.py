"""Counting in slices gives the same numbers: the pair counts of a depth-two solve and CART's growth.

Long computations run in slices of the unit budget (``treeopt/solvers/slices.py``); where the
slices fall depends on the clock, so the results must not. Blocks of rows are fixed by the sizes,
and a slice of zero seconds yields after every block.
"""

import numpy as np

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


def test_pair_counts_in_slices_equal_the_one_product(monkeypatch):
    data = threshold_data()
    solver = DepthTwoSolver(data.points, data.counts, 0.01 * data.total_weight, 1e-9 * data.total_weight)
    columns = solver.columns(points_in(data.all_points, data.n_points))
    whole = solver.counts(columns)
    monkeypatch.setattr(DepthTwoSolver, "block_products", 1 << 12)       # blocks of a few rows
    slices, sliced = count_slices(solver.counts_steps(columns, slice_seconds=0.0))
    assert slices > 10
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

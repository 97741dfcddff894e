"""Lower bounds raised to achievable objectives when losses are whole numbers.

``treeopt/solvers/gosdt/depth_two.py`` (``achievable_at_least``): with whole weights a subtree of
``k`` leaves costs a whole loss plus ``k·λ``, so a bound between two achievable values can rise
to the next one. The depth-three solver uses it; its oracle tests (``test_sorted_depth_two.py``,
``test_depth_three.py``) check the optima. Here: the rounding never passes an achievable value
above the bound. The depth-two search (``search_root_splits``) does not round: there every bound
is already a whole loss plus λ per leaf, and what rounding closed were bounds *equal* to the best
up to float error, which its tolerance closes for free (checked below).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force
from strategies import threshold_problems
from treeopt.data import Dataset
from treeopt.solvers.gosdt.depth_three import DepthThreeSolver
from treeopt.solvers.gosdt.depth_two import DepthTwoSolver, Leaves, achievable_at_least, search_root_splits
from treeopt.solvers.gosdt.sorted_depth_two import SortedDepthTwo


@settings(max_examples=200, deadline=None)
@given(penalty=st.floats(0.01, 30.0), max_leaves=st.sampled_from([2, 4]),
       losses=st.lists(st.integers(0, 200), min_size=1, max_size=8), seed=st.integers(0, 2**16))
def test_the_raised_bound_stays_below_every_achievable_value_above_the_bound(penalty, max_leaves, losses, seed):
    rng = np.random.default_rng(seed)
    leaves = rng.integers(1, max_leaves + 1, size=len(losses))
    achievable = np.array(losses) + leaves * penalty          # objectives of real subtrees
    low = achievable - rng.uniform(0.0, 2.0 * penalty + 1.0, size=len(losses))
    raised = achievable_at_least(low, penalty, max_leaves)
    assert np.all(raised >= low)
    assert np.all(raised <= achievable + 1e-9)
    # Each raised bound is achievable itself (a whole loss >= 0 plus 1..max_leaves times λ), or the bound.
    for value, bound in zip(raised, low):
        ks = np.arange(1, max_leaves + 1)
        whole = value - ks * penalty
        on_grid = np.any((np.abs(whole - np.round(whole)) < 1e-6) & (whole > -1e-6))
        assert on_grid or value == bound


def test_a_bound_between_two_achievable_values_rises_to_the_next_one():
    # λ = 0.3: depth-one subtrees cost 0.3, 0.6, 1.3, 1.6, 2.3, 2.6, ...
    raised = achievable_at_least(np.array([0.61, 1.0, 1.6, -5.0]), penalty=0.3, max_leaves=2)
    assert raised.round(9).tolist() == [1.3, 1.3, 1.6, 0.3]


def _count_tries(eps: float, X, y, lam: float) -> tuple[int, float]:
    """Root splits one depth-two search over the whole data tries with tolerance ``eps``, and its optimum."""
    dataset = Dataset.from_binary(X, y)
    solver = DepthTwoSolver(dataset.points, dataset.counts.astype(float), lam * dataset.total_weight, 1e-9)
    columns = solver.columns(np.ones(dataset.n_points, dtype=bool))
    leaves = Leaves.of(solver, columns)
    low_left, low_right = leaves.lower_bounds()
    calls = []

    def pair_with(j, alive):
        calls.append(j)
        pair = solver.pair_weights(columns, j)
        return pair, pair.sum(axis=0)[alive]
    best, _ = search_root_splits(leaves.total, leaves.single, leaves.left_leaf, leaves.right_leaf, low_left,
                                 low_right, pair_with, solver.penalty, eps, leaves.leaf_objective)
    return len(calls), best


def test_bounds_equal_to_the_best_up_to_float_error_close_their_splits():
    """Two numeric columns with every threshold: many splits' bounds equal the best tree's objective
    (whole losses plus λ per leaf, summed in another order), and only the tolerance closes them."""
    rng = np.random.default_rng(0)
    with_tolerance = without = fewer = 0
    for _ in range(20):
        points = rng.random((80, 2))
        y = (((points[:, 0] > 0.5) ^ (points[:, 1] > 0.4)) | (rng.random(80) < 0.15)).astype(int)
        X = np.concatenate([points[:, [j]] <= np.sort(points[:, j])[None, :-1] for j in range(2)], axis=1)
        (tolerant, best), (exact, same) = _count_tries(1e-9 * 80, X.astype(int), y, 0.013), \
            _count_tries(0.0, X.astype(int), y, 0.013)
        assert tolerant <= exact and best == pytest.approx(same, abs=1e-9)
        with_tolerance, without, fewer = with_tolerance + tolerant, without + exact, fewer + (tolerant < exact)
    assert fewer >= 10 and with_tolerance < 0.95 * without


@settings(max_examples=40, deadline=None)
@given(data=threshold_problems(), lam=st.sampled_from([0.01, 0.03, 0.07]))
def test_depth_three_with_whole_weights_matches_the_oracle(data, lam):
    """Whole weights (no sample weights) are where the rounding is on, in both solvers below."""
    X, y, _ = data
    expected = brute_force(X, y, lam, depth=3)
    dataset = Dataset.from_binary(X, y)
    args = (dataset.points, dataset.counts.astype(float), lam * dataset.total_weight, 1e-9 * dataset.total_weight)
    two = DepthTwoSolver(*args)
    assert two.whole
    for children in (None, SortedDepthTwo(*args)):
        objective, spec = DepthThreeSolver(two, children=children).solve(np.ones(dataset.n_points, bool), np.inf)
        assert abs(objective / dataset.total_weight - expected.objective) < 1e-9


@settings(max_examples=200, deadline=None)
@given(penalty=st.floats(0.01, 30.0), max_leaves=st.sampled_from([2, 4, 8, 16]), total=st.integers(1, 300),
       seed=st.integers(0, 2**16))
def test_rounding_by_the_table_of_achievable_values_equals_rounding_by_formula(penalty, max_leaves, total, seed):
    """round_up_near with achievable_values (a binary search) gives the bounds achievable_at_least gives."""
    from treeopt.solvers.gosdt.depth_two import achievable_values, round_up_near

    rng = np.random.default_rng(seed)
    low_left = rng.uniform(0.0, total + penalty, size=30)
    low_right = rng.uniform(0.0, total + penalty, size=30)
    best = float(rng.uniform(0.0, 2 * (total + penalty)))
    by_formula = (low_left.copy(), low_right.copy())
    round_up_near(*by_formula, best, penalty, max_leaves)
    values = achievable_values(penalty, max_leaves, float(total))
    by_table = (low_left.copy(), low_right.copy())
    round_up_near(*by_table, best, penalty, max_leaves, values=values)
    np.testing.assert_allclose(by_table[0], by_formula[0], rtol=0, atol=1e-9)
    np.testing.assert_allclose(by_table[1], by_formula[1], rtol=0, atol=1e-9)

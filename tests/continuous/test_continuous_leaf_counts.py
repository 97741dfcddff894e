"""The leaf-count bounds of the continuous solver at λ = 0 (``class_count_bound``, ``perfect_depth_bound``).

A tree without errors needs a leaf per class present, and depth ``d`` (so ``d + 1`` leaves) when no
shallower tree is without errors. At ``regularization=0`` these bounds decide most of the tie-break
between trees with the same errors, so the oracle tables here have trees without errors (planted
trees of depth 1-4, two and three classes, with and without weights) as well as noisy ones. The
brute-force oracle on every threshold, with λ below one error over the most leaves, orders trees by
(errors, leaves) like the solver does.
"""

import numpy as np
import pytest
from oracle import brute_force, once_per_table

from treeopt import make_solver
from treeopt.binarize import Binarizer
from treeopt.solvers.continuous.leaf_counts import least_cost, least_error

#: λ for the oracle's stand-in of λ = 0: below one error divided by the most leaves (16 at depth four).
TIE_LAMBDA = 1e-3

#: The switches of this file, each with its keyword of ``make_solver``.
LEAF_COUNT_SWITCHES = {"class_count_bound": "bounds", "perfect_depth_bound": "bounds",
                       "pure_side_dominance": "bounds", "one_error_budget": "strategies",
                       "perfect_depth_two": "strategies", "side_leaf_floors": "bounds",
                       "error_free_first": "strategies"}

#: Everything on, each of them off, and all of them off.
SETTINGS = [(), *((name,) for name in LEAF_COUNT_SWITCHES), tuple(LEAF_COUNT_SWITCHES)]


def _setting_id(off):
    return "+".join(f"{name}_off" for name in off) or "all"


def _options(off, strategies):
    options = {"bounds": {}, "strategies": dict(strategies)}
    for name in off:
        options[LEAF_COUNT_SWITCHES[name]][name] = False
    return options


def planted(seed: int, n_rows: int, depth: int, n_classes: int, noise: float = 0.0):
    """A table whose labels come from a random tree of ``depth`` on three coarse columns (a few
    distinct values each, so the oracle's binary table stays small); ``noise`` of them moved."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, 5, n_rows) * 1.0, rng.integers(0, 4, n_rows) + 0.5,
                         rng.integers(0, 6, n_rows) * 0.5])
    nodes = 2 ** (depth + 1)
    columns = rng.integers(0, 3, nodes)
    cuts = [np.quantile(X[:, j], q) for j, q in zip(columns, rng.uniform(0.25, 0.75, nodes))]  # inside the values
    labels = np.zeros(nodes, dtype=int)
    labels[2 ** depth:] = rng.permutation(np.arange(2 ** depth) % n_classes)   # every class a leaf when it can
    node = np.ones(n_rows, dtype=int)
    for _ in range(depth):
        node = np.where(X[np.arange(n_rows), columns[node]] <= np.take(cuts, node), 2 * node, 2 * node + 1)
    y = labels[node]
    moved = rng.random(n_rows) < noise
    y[moved] = rng.integers(0, n_classes, int(moved.sum()))
    if len(np.unique(y)) < 2:                   # the rows reached leaves of one class: draw again
        return planted(seed + 100, n_rows, depth, n_classes, noise)
    return X, y


def _expected(X, y, depth, weights):
    """(errors, leaves) of the oracle's optimum, computed once per table and depth: every setting and
    start of the parametrizations is checked against the same one."""
    def compute():
        binary = Binarizer(thresholds="all").fit_transform(X).astype(int)
        best = brute_force(binary, y, TIE_LAMBDA, depth=depth, sample_weight=weights)
        total = len(y) if weights is None else weights.sum()
        return best.objective * total - TIE_LAMBDA * total * best.n_leaves, best.n_leaves
    return once_per_table(compute, X, y, weights, "errors and leaves", TIE_LAMBDA, depth)


#: The exact search on its own (no CART or discrepancy passes to hand it the optimum first), also without
#: solving each support one level shallower first, or with everything.
STARTS = {"exact_only": {"cart_start": False, "discrepancy_search": False},
          "no_shallower_start": {"cart_start": False, "discrepancy_search": False, "shallower_start": False},
          "anytime": {}}


def _check(X, y, depth, off, strategies, weights=None):
    solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=depth,
                         sample_weight=weights, **_options(off, strategies))
    result = solver.run()
    errors, leaves = _expected(X, y, depth, weights)
    total = len(y) if weights is None else weights.sum()
    assert result.optimal
    assert result.objective * total == pytest.approx(errors, abs=1e-6)
    assert result.tree.n_leaves == leaves
    return solver


@pytest.mark.parametrize("starts", STARTS)
@pytest.mark.parametrize("off", SETTINGS, ids=_setting_id)
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("n_classes", [2, 3])
def test_perfect_and_noisy_tables_get_the_fewest_leaves(starts, off, depth, n_classes):
    for seed in range(12 if depth < 4 else 3):
        X, y = planted(seed, 40, depth, n_classes, noise=0.1 if seed % 3 == 2 else 0.0)
        _check(X, y, depth, off, STARTS[starts])


@pytest.mark.parametrize("starts", STARTS)
@pytest.mark.parametrize("off", SETTINGS, ids=_setting_id)
@pytest.mark.parametrize("depth", [2, 3, 4])
def test_weighted_three_class_tables_with_and_without_noise(starts, off, depth):
    for seed in range(4):
        X, y = planted(seed, 36, depth, 3, noise=0.1 if seed % 2 else 0.0)
        weights = np.random.default_rng(seed).integers(1, 4, len(y)) * 0.5      # half weights: not whole rows
        _check(X, y, depth, off, STARTS[starts], weights)


def test_each_leaf_count_switch_acts_on_a_perfect_table():
    """On a table with a perfect depth-three tree each bound prunes and the budget below one error is
    used; together they evaluate fewer thresholds than without them (the oracle tests above show
    that the optimum stays the same). ``perfect_depth_two`` and ``side_leaf_floors`` answer or close
    what the class count and the depth would otherwise prune, so those act when the two are off, and
    ``error_free_first`` finds the tree without errors before the thresholds the floors would close."""
    X, y = planted(7, 400, 3, 2)
    X = X + np.random.default_rng(7).normal(scale=0.01, size=X.shape)      # many distinct values
    newer = ("perfect_depth_two", "side_leaf_floors")
    runs = {(): ("error_free_first", "one_error_budget", "pure_side_dominance", "perfect_depth_two"),
            ("error_free_first",): ("one_error_budget", "pure_side_dominance") + newer,
            newer: ("class_count_bound", "perfect_depth_bound", "one_error_budget", "pure_side_dominance"),
            tuple(LEAF_COUNT_SWITCHES): ()}
    expansions = {}
    for off, acting in runs.items():
        solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3, **_options(off, {}))
        solver.passes_at_depth_three_above = 0      # with the passes' exact subproblems, as on a large table
        result = solver.run()
        assert result.optimal and result.objective == 0.0
        expansions[off] = solver.expansions
        assert all(solver.prune_counts[name] > 0 for name in acting), (off, solver.prune_counts)
    assert expansions[()] < expansions[newer] < expansions[tuple(LEAF_COUNT_SWITCHES)], expansions


def test_least_cost_counts_classes_depth_and_errors():
    totals = np.array([3.0, 0.0, 2.0])                       # two classes present
    assert least_cost(totals, depth=1, penalty=0.01, least_error=1.0) == pytest.approx(0.02)
    assert least_cost(totals, depth=3, penalty=0.01, least_error=1.0, fewest_leaves=4) == pytest.approx(0.04)
    # More leaves than the depth allows: only trees with errors (or the leaf) are left.
    assert least_cost(totals, depth=1, penalty=0.01, least_error=1.0, fewest_leaves=3) == pytest.approx(1.02)
    assert least_cost(np.array([1.0, 1.0, 1.0]), depth=1, penalty=0.01, least_error=0.5) == pytest.approx(0.52)
    # A leaf cheaper than any split bounds it.
    assert least_cost(np.array([5.0, 0.25]), depth=2, penalty=0.3, least_error=0.25) == pytest.approx(0.55)
    assert least_error(np.array([0.0, 2.0, 0.5])) == 0.5

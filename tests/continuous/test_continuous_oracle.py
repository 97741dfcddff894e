"""The continuous solver against the brute-force oracle on the binarized table, and against GOSDT.

Small random numeric tables (two columns with a few distinct values, one with about twenty, so
that intervals of thresholds are pruned, and every threshold is a binary feature the oracle can
enumerate): the optimum over sorted values must equal the optimum over
the binarization with every threshold, at every depth budget 1-4, with λ = 0 and λ > 0, with
weights, with three classes, and with each switch off.
"""

import numpy as np
import pytest
from oracle import brute_force, once_per_table

from treeopt import make_solver
from treeopt.binarize import Binarizer
from treeopt.solvers.continuous import ContinuousSearch

#: Everything on, then each switch off in turn (bounds as ``bounds=``, subsolvers and first incumbents as
#: ``strategies=``).
SWITCHES = [None] + [{("bounds" if switch.is_bound else "strategies"): {name: False}}
                     for name, switch in ContinuousSearch.SWITCHES.items()]


@pytest.fixture(autouse=True, params=["rows", "columns", "blocks"])
def reading(request, monkeypatch):
    """Every test three times: as the solver reads these small supports (all columns at once), column
    by column with the per-column bounds (``column_bounds``), and with the depth-two children read in
    blocks of a few positions on every support (``split_blocks``)."""
    if request.param == "columns":
        by_column(monkeypatch)
    if request.param == "blocks":
        small_blocks(monkeypatch)
    return request.param


def by_column(monkeypatch):
    """Every support read column by column (none is read all columns at once)."""
    from treeopt.solvers.continuous import terminal
    monkeypatch.setattr(terminal, "TOGETHER", 0)
    monkeypatch.setattr(terminal, "TOGETHER_MULTICLASS", 0)


def small_blocks(monkeypatch):
    """Blocks of a few positions on every support, always used (the oracle's tables are small; a
    support read all columns at once skips its blocks, so none is)."""
    from treeopt.solvers.continuous import split_blocks
    by_column(monkeypatch)
    monkeypatch.setattr(split_blocks, "FEWEST_ROWS", 4)
    monkeypatch.setattr(split_blocks, "LEAST_BLOCK", 2)
    monkeypatch.setattr(split_blocks, "MOST_READ", 1.0)


def _switch_id(switches):
    return "all" if switches is None else next(iter(next(iter(switches.values())))) + "_off"
#: λ for the oracle's stand-in of λ = 0: below one error divided by the most leaves (16 at depth four).
TIE_LAMBDA = 1e-3


def _table(seed: int, n_rows: int = 24, n_classes: int = 2, weighted: bool = False):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, 4, n_rows) * 1.5 - 1, rng.integers(0, 3, n_rows) + 0.25,
                         rng.normal(size=n_rows).round(1)])
    signal = (X[:, 0] > 0) ^ (X[:, 2] > 0.2)
    y = np.where(rng.random(n_rows) < 0.25, rng.integers(0, n_classes, n_rows), signal.astype(int) % n_classes)
    weights = rng.integers(1, 4, n_rows).astype(float) if weighted else None
    return X, y, weights


def _binary(X):
    return Binarizer(thresholds="all").fit_transform(X).astype(int)


def _oracle(X, y, regularization, depth, weights=None):
    """The brute-force optimum over the binarization with every threshold (once per table and settings)."""
    return once_per_table(lambda: brute_force(_binary(X), y, regularization, depth=depth, sample_weight=weights),
                      X, y, weights, regularization, depth)


def _errors(tree, X, y, weights):
    wrong = tree.predict(X, binarized=False) != y
    return float(np.sum(wrong * (1.0 if weights is None else weights)))


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("switches", SWITCHES, ids=_switch_id)
@pytest.mark.parametrize("seed", [0, 1])
def test_positive_lambda_matches_the_oracle(depth, switches, seed):
    X, y, _ = _table(seed)
    result = make_solver(X, y, solver="continuous", regularization=0.02, depth_budget=depth, **(switches or {})).run()
    expected = _oracle(X, y, 0.02, depth)
    assert result.optimal
    assert result.objective == pytest.approx(expected.objective, abs=1e-9)
    assert result.tree.depth <= depth
    # The tree predicts on the original table as the search counted it.
    assert _errors(result.tree, X, y, None) / len(y) + 0.02 * result.tree.n_leaves == pytest.approx(result.objective)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("switches", SWITCHES, ids=_switch_id)
def test_zero_lambda_is_the_most_accurate_tree_with_fewest_leaves(depth, switches):
    X, y, weights = _table(3, weighted=True)
    result = make_solver(X, y, solver="continuous", regularization=0, depth_budget=depth, **(switches or {}),
                         sample_weight=weights).run()
    # With integer weights, λ below one error over the most leaves orders trees by (errors, leaves).
    expected = _oracle(X, y, TIE_LAMBDA, depth, weights)
    total = weights.sum()
    expected_errors = expected.objective * total - TIE_LAMBDA * total * expected.n_leaves
    assert result.optimal
    assert result.objective == pytest.approx(expected_errors / total, abs=1e-9)
    assert result.tree.n_leaves == expected.n_leaves
    assert _errors(result.tree, X, y, weights) / total == pytest.approx(result.objective)


@pytest.mark.parametrize("depth", [1, 2, 3])
@pytest.mark.parametrize("switches", SWITCHES, ids=_switch_id)
def test_weighted_three_classes_match_the_oracle(depth, switches):
    X, y, weights = _table(5, n_rows=30, n_classes=3, weighted=True)
    weights = weights * 0.37                              # weights that are not whole numbers
    result = make_solver(X, y, solver="continuous", regularization=0.01, depth_budget=depth, **(switches or {}),
                         sample_weight=weights).run()
    expected = _oracle(X, y, 0.01, depth, weights)
    assert result.objective == pytest.approx(expected.objective, abs=1e-9)


@pytest.mark.parametrize("objective", ["balanced_accuracy", "weighted_accuracy"])
def test_class_cost_objectives_match_the_oracle(objective):
    X, y, _ = _table(7)
    options = {"omega": 3.0} if objective == "weighted_accuracy" else {}
    result = make_solver(X, y, solver="continuous", objective=objective, regularization=0.02, depth_budget=3,
                         **options).run()
    from treeopt.objectives import get_objective
    expected = brute_force(_binary(X), y, 0.02, depth=3, objective=get_objective(objective, **options))
    assert result.objective == pytest.approx(expected.objective, abs=1e-9)


@pytest.mark.parametrize("depth", [2, pytest.param(3, marks=pytest.mark.slow)])
@pytest.mark.parametrize("switches", SWITCHES, ids=_switch_id)
@pytest.mark.parametrize("seed", range(4))
def test_many_distinct_values_match_gosdt_with_every_threshold(depth, switches, seed):
    """Continuous columns (every value distinct, weighted rows, three classes for odd seeds): the same
    optimum as GOSDT on every threshold."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(60, 3))
    y = ((X[:, 0] > 0.3) ^ (X[:, 1] < -0.1)).astype(int) + (seed % 2) * (X[:, 2] > 1)
    noise = rng.random(60) < 0.2
    y[noise] = rng.integers(0, y.max() + 1, noise.sum())
    weights = rng.integers(1, 4, 60).astype(float)
    ours = make_solver(X, y, solver="continuous", regularization=0.005, depth_budget=depth, **(switches or {}),
                       sample_weight=weights).run()
    gosdt = once_per_table(lambda: make_solver(X, y, solver="gosdt", thresholds="all", regularization=0.005,
                                           depth_budget=depth, sample_weight=weights).run().objective,
                       X, y, weights, "gosdt", 0.005, depth)
    assert ours.objective == pytest.approx(gosdt, abs=1e-9)
    total = weights.sum()
    assert _errors(ours.tree, X, y, weights) / total + 0.005 * ours.tree.n_leaves == pytest.approx(ours.objective)


def test_without_a_depth_budget_the_leaf_count_bound_certifies_the_optimum():
    X, y, _ = _table(2)
    result = make_solver(X, y, solver="continuous", regularization=0.03).run()
    expected = brute_force(_binary(X), y, 0.03)
    assert result.optimal
    assert result.objective == pytest.approx(expected.objective, abs=1e-9)


def test_each_pruning_switch_acts_on_continuous_data(monkeypatch):
    """Every bound prunes something here, so switching it off is a real change (the tests above
    then show that the optimum stays the same). The leaf-count bounds, which decide ties between
    trees without errors at λ = 0, act on such tables (test_continuous_leaf_counts.py). The depth-two
    supports here are small enough to be read whole (``whole_depth_two``), without the interval
    search whose bounds these are, so that path is off."""
    small_blocks(monkeypatch)
    rng = np.random.default_rng(3)
    X = rng.normal(size=(120, 3))
    y = ((X[:, 0] > 0) ^ (X[:, 2] > 0.5)).astype(int)
    y[rng.random(120) < 0.1] ^= 1
    solver = make_solver(X, y, solver="continuous", regularization=0.05, depth_budget=3,
                         strategies={"whole_depth_two": False})
    solver.passes_at_depth_three_above = 0      # the discrepancy passes too (a small table skips them at depth three)
    solver.run()
    at_zero = ("class_count_bound", "perfect_depth_bound", "one_error_budget", "perfect_depth_two", "side_leaf_floors",
               "error_free_first", "fewest_leaves_first")
    assert all(solver.prune_counts[name] > 0 for name in solver.BOUNDS if name not in at_zero + ("whole_depth_two",)), \
        solver.prune_counts


def test_each_child_schedule_switch_acts_on_continuous_data():
    """ConTree's schedule of a split's children runs at depth three (the oracle tests above show that
    switching either part off keeps the optimum): the larger child goes first on some splits, and a
    second child is solved for its interval bound alone on others, with fewer thresholds evaluated."""
    rng = np.random.default_rng(4)
    X = rng.normal(size=(200, 3)).round(2)
    y = ((X[:, 0] > 0) ^ (X[:, 2] > 0.5)).astype(int)
    y[rng.random(200) < 0.15] ^= 1
    evaluated = {}
    for widen in (True, False):
        solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3,
                             strategies={"interval_budget": widen})
        assert solver.run().optimal
        evaluated[widen] = solver.expansions
        if widen:
            assert solver.prune_counts["larger_child_first"] > 0, solver.prune_counts
            assert solver.prune_counts["interval_budget"] > 0, solver.prune_counts
    assert evaluated[True] < evaluated[False], evaluated

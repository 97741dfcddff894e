"""GOSDT with ``regularization=0`` and a depth budget: the most accurate tree, ties broken by fewer leaves.

GOSDT charges each leaf ``2 ** -(depth + 1)`` of one error (``tie_charge``), so errors decide first and
leaves only between equal errors; its bounds and results report the errors alone. Checked against the
brute-force oracle with a λ below one error over the most leaves (the same order of trees), with
whole weights, three classes, depth budgets 1-4, and each bound switched off.
"""

import numpy as np
import pytest
from oracle import brute_force

from treeopt import OptimalTreeClassifier, make_solver
from treeopt.solvers import GOSDT
from treeopt.solvers.continuous import ContinuousSearch

#: λ for the oracle's stand-in of λ = 0: below one error divided by the most leaves (16 at depth four).
TIE_LAMBDA = 1e-3

#: Everything on, then each switch off in turn (bounds as ``bounds=``, the others as ``strategies=``), then all bounds off.
_BOUNDS = [name for name, switch in GOSDT.SWITCHES.items() if switch.is_bound]
SWITCHES = [None] + [{("bounds" if switch.is_bound else "strategies"): {name: False}}
                     for name, switch in GOSDT.SWITCHES.items()] + [{"bounds": dict.fromkeys(_BOUNDS, False)}]


def _table(seed: int, n_rows: int = 30, n_classes: int = 2, weighted: bool = True):
    """Three numeric columns of few values (nine thresholds in all), noisy labels, whole weights."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, 4, n_rows) * 1.5, rng.integers(0, 3, n_rows) - 0.5,
                         rng.integers(0, 5, n_rows) * 0.25])
    signal = ((X[:, 0] > 2) ^ (X[:, 2] > 0.6)).astype(int)
    y = np.where(rng.random(n_rows) < 0.3, rng.integers(0, n_classes, n_rows), signal % n_classes)
    weights = rng.integers(1, 4, n_rows).astype(float) if weighted else None
    return X, y, weights


def _binary(X):
    from treeopt.binarize import Binarizer
    return Binarizer(thresholds="all").fit_transform(X).astype(int)


def _expected(X, y, weights, depth, n_classes=2):
    """(errors, leaves) of the most accurate tree of at most ``depth`` levels with the fewest leaves."""
    best = brute_force(_binary(X), y, TIE_LAMBDA, depth=depth, sample_weight=weights)
    total = len(y) if weights is None else weights.sum()
    return best.objective * total - TIE_LAMBDA * total * best.n_leaves, best.n_leaves


def _switch_id(switches):
    if switches is None:
        return "all_on"
    names = next(iter(switches.values()))
    return "bounds_off" if len(names) > 1 else next(iter(names)) + "_off"


def _check(X, y, weights, depth, **settings):
    solver = make_solver(X, y, solver="gosdt", regularization=0, depth_budget=depth, thresholds="all",
                         sample_weight=weights, **settings)
    result = solver.run()
    errors, leaves = _expected(X, y, weights, depth)
    total = len(y) if weights is None else weights.sum()
    wrong = result.tree.predict(X, binarized=False) != y
    assert result.optimal and result.gap == 0.0
    assert result.objective * total == pytest.approx(errors, abs=1e-9)
    assert result.lower_bound == pytest.approx(result.objective, abs=1e-12)
    assert result.tree.n_leaves == leaves
    assert result.tree.depth <= depth
    assert np.sum(wrong * (1.0 if weights is None else weights)) == pytest.approx(errors)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_zero_lambda_is_the_most_accurate_tree_with_fewest_leaves(depth, seed):
    X, y, weights = _table(seed, weighted=seed != 0)
    _check(X, y, weights, depth)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_three_classes_with_whole_weights(depth):
    X, y, weights = _table(7, n_rows=28, n_classes=3)
    _check(X, y, weights, depth)


@pytest.mark.parametrize("switches", SWITCHES, ids=_switch_id)
def test_each_switch_off_keeps_the_optimum(switches):
    X, y, weights = _table(4)
    _check(X, y, weights, 3, **(switches or {}))


def test_bounds_while_searching_are_errors_alone_and_valid():
    X, y, weights = _table(5, n_rows=40)
    total = weights.sum()
    errors, _ = _expected(X, y, weights, 3)
    solver = make_solver(X, y, solver="gosdt", regularization=0, depth_budget=3, thresholds="all",
                         sample_weight=weights)
    while solver.step(1):
        # The upper bound is the incumbent's weighted errors exactly, the lower bound never above the optimum.
        incumbent = solver.best_tree
        wrong = incumbent.predict(X, binarized=False) != y
        assert solver.upper_bound * total == pytest.approx(float(np.sum(wrong * weights)), abs=1e-9)
        assert solver.lower_bound * total <= errors + 1e-9
        assert solver.lower_bound * total == pytest.approx(round(solver.lower_bound * total), abs=1e-9)
    assert solver.result().optimal and solver.result().objective * total == pytest.approx(errors)


def test_losses_that_are_not_whole_numbers_name_the_continuous_solver():
    X, y, weights = _table(6)
    with pytest.raises(ValueError, match="whole losses.*solver='continuous'"):
        make_solver(X, y, solver="gosdt", regularization=0, depth_budget=2, sample_weight=weights * 0.37)
    with pytest.raises(ValueError, match="whole losses.*solver='continuous'"):
        make_solver(X, y, solver="gosdt", regularization=0, depth_budget=2, objective="balanced_accuracy")


def test_auto_gives_few_thresholds_and_whole_losses_to_gosdt_and_the_rest_to_the_continuous_solver():
    X, y, weights = _table(8)
    assert isinstance(make_solver(X, y, regularization=0, depth_budget=3), GOSDT)
    assert isinstance(make_solver(X, y, regularization=0, depth_budget=3, sample_weight=weights), GOSDT)
    assert isinstance(make_solver(X, y, regularization=0, depth_budget=3, sample_weight=weights * 0.37),
                      ContinuousSearch)
    assert isinstance(make_solver(X, y, regularization=0, depth_budget=3, objective="balanced_accuracy"),
                      ContinuousSearch)
    many = np.random.default_rng(0).normal(size=(300, 3))              # 897 thresholds
    assert isinstance(make_solver(many, (many[:, 0] > 0).astype(int), regularization=0, depth_budget=2),
                      ContinuousSearch)
    # Both certify the same optimum, reported without any charge per leaf.
    clf = OptimalTreeClassifier(regularization=0, depth_budget=3).fit(X, y, sample_weight=weights)
    errors, leaves = _expected(X, y, weights, 3)
    assert clf.optimal_ and clf.objective_ * weights.sum() == pytest.approx(errors)
    assert clf.tree_.n_leaves == leaves and clf.thresholds_ == "all"

"""GOSDT finds the same optimum as the brute-force oracle on small random problems.

Every bound is a claim that some part of the search space cannot hold a
better tree; if one is wrong, some random dataset exposes it. So the search
runs with every bound on, with each bound switched off in turn, and with all
of them off, on random data of at most 6 binary features and 40 rows, for
several λ, depth budgets, class counts, sample weights and objectives. The
objective is recomputed from the returned tree by the oracle's own code
(:func:`oracle.tree_objective`), never read from the solver's bookkeeping.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force, to_treeopt_tuple, tree_objective
from strategies import LAMBDAS, lambdas, problems
from treeopt.data import Dataset
from treeopt.solvers import GOSDT

SWITCHES = [None] + sorted(GOSDT.BOUNDS) + ["all"]


def check(X, y, w, lam, *, objective="accuracy", bounds=None, depth=None):
    """Solve with GOSDT and with the oracle; the recomputed objectives must agree to 1e-9."""
    expected = brute_force(X, y, lam, sample_weight=w, objective=objective, depth=depth)
    dataset = Dataset.from_binary(X, y, sample_weight=w)
    result = GOSDT(dataset, regularization=lam, objective=objective, bounds=bounds,
                   depth_budget=depth).run()
    assert result.optimal and result.status == "optimal"
    got = tree_objective(to_treeopt_tuple(result.tree), X, y, lam, sample_weight=w, objective=objective)
    assert got == pytest.approx(expected.objective, abs=1e-9), (expected.tree, to_treeopt_tuple(result.tree))
    assert result.objective == pytest.approx(got, abs=1e-9)
    assert result.lower_bound == pytest.approx(got, abs=1e-9)
    if depth is not None:
        assert result.tree.depth <= depth
    # The project's own recomputation agrees with the oracle's.
    assert result.tree.objective(X, y, lam, objective=objective, sample_weight=w, binarized=True) \
        == pytest.approx(got, abs=1e-9)


def _bounds(switch):
    if switch is None:
        return None
    if switch == "all":
        return {name: False for name in GOSDT.BOUNDS}
    return {switch: False}


@pytest.mark.parametrize("switch", SWITCHES, ids=[str(s) for s in SWITCHES])
@settings(max_examples=20)
@given(data=problems(), lam=lambdas)
def test_accuracy_matches_oracle(switch, data, lam):
    X, y, w = data
    check(X, y, w, lam, bounds=_bounds(switch))


@given(data=problems(), lam=lambdas, depth=st.integers(0, 5),
       switch=st.sampled_from(SWITCHES))
def test_depth_budget_matches_oracle(data, lam, depth, switch):
    X, y, w = data
    check(X, y, w, lam, bounds=_bounds(switch), depth=depth)


@given(data=problems(n_classes=3), lam=lambdas,
       objective=st.sampled_from(["accuracy", "balanced_accuracy"]), switch=st.sampled_from([None, "all"]))
def test_multiclass_matches_oracle(data, lam, objective, switch):
    X, y, w = data
    check(X, y, w, lam, objective=objective, bounds=_bounds(switch))


@given(data=problems(weights="int"), lam=lambdas,
       objective=st.sampled_from(["accuracy", "balanced_accuracy"]), switch=st.sampled_from(SWITCHES))
def test_integer_weights_match_oracle(data, lam, objective, switch):
    X, y, w = data
    check(X, y, w, lam, objective=objective, bounds=_bounds(switch))


@given(data=problems(weights="float"), lam=lambdas,
       objective=st.sampled_from(["accuracy", "balanced_accuracy"]), switch=st.sampled_from(SWITCHES))
def test_float_weights_match_oracle(data, lam, objective, switch):
    X, y, w = data
    check(X, y, w, lam, objective=objective, bounds=_bounds(switch))


@given(data=problems(), lam=lambdas, omega=st.sampled_from([0.5, 1.0, 3.0]),
       switch=st.sampled_from(SWITCHES))
def test_weighted_accuracy_matches_oracle(data, lam, omega, switch):
    from treeopt.objectives import WeightedAccuracy
    X, y, w = data
    check(X, y, w, lam, objective=WeightedAccuracy(omega), bounds=_bounds(switch))


def test_oracle_is_not_trivially_satisfied():
    """A known instance where a wrong bound would show: XOR needs two levels of splits."""
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    y = np.array([0, 1, 1, 0] * 5)
    assert brute_force(X, y, 0.05).objective == pytest.approx(0.2)
    check(X, y, None, 0.05)
    check(X, y, None, 0.05, depth=1)


@pytest.mark.parametrize("switch", [None, "all"])
def test_seeded_sweep_matches_oracle(switch):
    """Many cheap random instances (fixed seed) on top of hypothesis's shrinkable ones.

    Subtle bound errors (e.g. a leaf bound a little too aggressive) show up in
    about one instance in a hundred, so breadth matters here.
    """
    rng = np.random.default_rng(2024)
    for _ in range(150):
        n_features, n_rows = int(rng.integers(3, 7)), int(rng.integers(20, 41))
        X = rng.integers(0, 2, (n_rows, n_features))
        a, b = rng.integers(0, n_features, 2)
        planted = [rng.integers(0, 2, n_rows), X[:, a] & X[:, b], X[:, a] ^ X[:, b]][rng.integers(0, 3)]
        y = np.where(rng.random(n_rows) < rng.choice([0.05, 0.12, 0.25]), rng.integers(0, 2, n_rows), planted)
        lam = float(rng.choice(LAMBDAS)) if rng.random() < 0.5 else float(rng.uniform(0.005, 0.2))
        if len(np.unique(y)) == 2:
            check(X, y, None, lam, bounds=_bounds(switch))

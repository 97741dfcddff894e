"""Sample weights mean what they say (property tests).

* uniform weights give the unweighted optimum (objectives are normalised by the total weight);
* a zero weight is the same as removing the row;
* a duplicated row is the same as doubling its weight.

Optimal trees can tie, so the tests compare optimal objectives, each
recomputed from the returned tree with its own weights, and the solver's
certified bounds; the tree itself is compared where it must be identical.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treeopt import OptimalTreeClassifier
from treeopt.data import Dataset
from treeopt.solvers import GOSDT

LAMBDAS = [0.01, 0.03, 0.1]


@st.composite
def binary_problems(draw, max_rows=40, max_features=6):
    n_features = draw(st.integers(1, max_features))
    n_rows = draw(st.integers(4, max_rows))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n_features, max_size=n_features),
                               min_size=n_rows, max_size=n_rows)), dtype=int)
    y = np.array([0, 1] + draw(st.lists(st.integers(0, 1), min_size=n_rows - 2, max_size=n_rows - 2)))
    return X, y


def solve(X, y, w, lam, objective):
    result = GOSDT(Dataset.from_binary(X, y, sample_weight=w, classes=[0, 1]), regularization=lam,
                   objective=objective).run()
    assert result.optimal
    value = result.tree.objective(X, y, lam, objective=objective, sample_weight=w, binarized=True)
    assert value == pytest.approx(result.objective, abs=1e-9)
    return result, value


@given(data=binary_problems(), lam=st.sampled_from(LAMBDAS), scale=st.sampled_from([1.0, 3.0, 0.25, 1.7]),
       objective=st.sampled_from(["accuracy", "balanced_accuracy"]))
def test_uniform_weights_equal_unweighted(data, lam, scale, objective):
    X, y = data
    plain, plain_value = solve(X, y, None, lam, objective)
    weighted, weighted_value = solve(X, y, np.full(len(y), scale), lam, objective)
    assert weighted_value == pytest.approx(plain_value, abs=1e-9)
    assert weighted.lower_bound == pytest.approx(plain.lower_bound, abs=1e-9)
    if scale == 1.0:
        assert weighted.tree.to_dict() == plain.tree.to_dict()


@given(data=binary_problems(), lam=st.sampled_from(LAMBDAS), drop=st.data(),
       objective=st.sampled_from(["accuracy", "balanced_accuracy"]),
       base=st.sampled_from(["ones", "integers", "floats"]))
def test_zero_weight_equals_removing_the_row(data, lam, drop, objective, base):
    X, y = data
    rows = drop.draw(st.sets(st.integers(2, len(y) - 1), max_size=len(y) // 2), label="zeroed rows")
    rng = np.random.default_rng(len(y))
    w = {"ones": np.ones(len(y)), "integers": rng.integers(1, 4, len(y)).astype(float),
         "floats": rng.uniform(0.2, 2.0, len(y))}[base]
    zeroed = w.copy()
    zeroed[sorted(rows)] = 0.0
    keep = np.array([i not in rows for i in range(len(y))])
    _, with_zeros = solve(X, y, zeroed, lam, objective)
    _, removed = solve(X[keep], y[keep], w[keep], lam, objective)
    assert with_zeros == pytest.approx(removed, abs=1e-9)


@given(data=binary_problems(), lam=st.sampled_from(LAMBDAS), pick=st.data(),
       objective=st.sampled_from(["accuracy", "balanced_accuracy"]))
def test_duplicated_row_equals_doubled_weight(data, lam, pick, objective):
    X, y = data
    rows = pick.draw(st.lists(st.integers(0, len(y) - 1), min_size=1, max_size=5), label="duplicated rows")
    doubled = np.ones(len(y))
    for i in rows:
        doubled[i] += 1
    X_dup = np.vstack([X, X[rows]])
    y_dup = np.concatenate([y, y[rows]])
    a, with_weights = solve(X, y, doubled, lam, objective)
    b, duplicated = solve(X_dup, y_dup, None, lam, objective)
    assert with_weights == pytest.approx(duplicated, abs=1e-9)
    assert a.lower_bound == pytest.approx(b.lower_bound, abs=1e-9)


@settings(max_examples=10)
@given(seed=st.integers(0, 10**6), lam=st.sampled_from(LAMBDAS))
def test_estimator_weights_on_numeric_and_categorical_columns(seed, lam):
    """The same three properties through OptimalTreeClassifier on an original table."""
    import pandas as pd
    rng = np.random.default_rng(seed)
    n = 30
    X = pd.DataFrame({"age": rng.integers(18, 30, n), "colour": rng.choice(["red", "green", "blue"], n)})
    y = np.where((X.age > 23) ^ (X.colour == "red"), "yes", "no")
    y[rng.random(n) < 0.2] = "no"
    y[:2] = ["yes", "no"]

    def objective(X, y, w=None):
        clf = OptimalTreeClassifier(regularization=lam).fit(X, y, sample_weight=w)
        assert clf.optimal_
        return clf.objective_, clf

    plain, clf = objective(X, y)
    assert objective(X, y, np.full(n, 2.5))[0] == pytest.approx(plain, abs=1e-9)
    zeroed = np.ones(n)
    zeroed[5:10] = 0
    keep = zeroed > 0
    assert objective(X, y, zeroed)[0] == pytest.approx(objective(X[keep], y[keep])[0], abs=1e-9)
    doubled = np.ones(n)
    doubled[3] = doubled[7] = 2
    X_dup = pd.concat([X, X.iloc[[3, 7]]], ignore_index=True)
    y_dup = np.concatenate([y, y[[3, 7]]])
    assert objective(X, y, doubled)[0] == pytest.approx(objective(X_dup, y_dup)[0], abs=1e-9)

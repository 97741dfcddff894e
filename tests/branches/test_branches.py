"""Branches: optimal multiway/multiclass trees, checked against a brute-force oracle, GOSDT and the reference optima.

Objectives are always recomputed from the returned tree's predictions
(``Tree.objective``), never taken from the solver's bookkeeping alone.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

from treeopt.categorical import CategoricalDataset, read_uci_categorical
from treeopt.data import Dataset
from treeopt.events import Expanded, Finished
from treeopt.registry import SOLVERS
from treeopt.solvers import GOSDT
from treeopt.solvers.branches import Branches
from treeopt.tree import MultiwaySplit, Tree

from conftest import DATASETS, read_binary, require_datasets
from oracle_multiway import best_by_enumeration, brute_force

LAMBDAS = [0.01, 0.03, 0.07, 0.15]


@st.composite
def categorical_problems(draw, max_rows=12, max_columns=3, max_categories=4, max_classes=3):
    n_rows = draw(st.integers(2, max_rows))
    n_columns = draw(st.integers(1, max_columns))
    sizes = [draw(st.integers(1, max_categories)) for _ in range(n_columns)]
    X = [[f"v{draw(st.integers(0, k - 1))}" for k in sizes] for _ in range(n_rows)]
    n_classes = draw(st.integers(2, max_classes))
    y = [0, 1] + [draw(st.integers(0, n_classes - 1)) for _ in range(n_rows - 2)]   # two classes at least
    frame = pd.DataFrame(X, columns=[f"c{j}" for j in range(n_columns)])
    return frame, np.array(y)


def _check_certified(result, X, y, lam, penalty, expected):
    assert result.optimal and result.status == "optimal"
    recomputed = result.tree.objective(X, y, lam, penalty=penalty)
    assert recomputed == pytest.approx(expected, abs=1e-9)
    assert result.objective == pytest.approx(recomputed, abs=1e-9)
    assert result.lower_bound == pytest.approx(recomputed, abs=1e-9)


# -- the oracle itself ----------------------------------------------------------------
@given(categorical_problems(max_rows=6, max_columns=2, max_categories=3),
       st.sampled_from(LAMBDAS), st.sampled_from(["split", "leaf"]))
def test_oracle_recursion_agrees_with_full_enumeration(problem, lam, penalty):
    X, y = problem
    assert brute_force(X, y, lam, penalty) == pytest.approx(best_by_enumeration(X, y, lam, penalty), abs=1e-12)


def test_oracle_multiway_hand_example():
    # Three colours, three classes: one 3-way split is perfect.
    X = [["r"], ["g"], ["b"]] * 2
    y = [0, 1, 2] * 2
    assert brute_force(X, y, 0.1, "split") == pytest.approx(0.1)        # 0 errors + 1 split
    assert brute_force(X, y, 0.1, "leaf") == pytest.approx(0.3)         # 0 errors + 3 leaves
    assert brute_force(X, y, 0.4, "leaf") == pytest.approx(4 / 6 + 0.4)  # a single leaf wins


# -- Branches against the oracle ----------------------------------------------------------------
@given(categorical_problems(), st.sampled_from(LAMBDAS), st.sampled_from(["split", "leaf"]),
       st.sampled_from([None, 1, 2]))
def test_matches_oracle_on_categorical_multiclass(problem, lam, penalty, depth_budget):
    X, y = problem
    dataset = CategoricalDataset.from_arrays(X, y)
    result = Branches(dataset, regularization=lam, penalty=penalty, depth_budget=depth_budget).run()
    _check_certified(result, X, y, lam, penalty, brute_force(X, y, lam, penalty, depth_budget))
    if depth_budget is not None:
        assert result.tree.depth <= depth_budget


@given(categorical_problems(max_rows=10), st.sampled_from(LAMBDAS),
       st.fixed_dictionaries({"purification": st.booleans(), "equivalent_points": st.booleans()}))
def test_every_bound_switch_keeps_the_optimum(problem, lam, bounds):
    X, y = problem
    result = Branches(CategoricalDataset.from_arrays(X, y), regularization=lam, bounds=bounds).run()
    _check_certified(result, X, y, lam, "split", brute_force(X, y, lam, "split"))


@given(categorical_problems(max_rows=12), st.sampled_from(LAMBDAS), st.integers(0, 6))
def test_stopped_search_returns_its_tree_and_an_honest_gap(problem, lam, limit):
    X, y = problem
    solver = Branches(CategoricalDataset.from_arrays(X, y), regularization=lam)
    result = solver.run(node_limit=limit)
    optimum = brute_force(X, y, lam, "split")
    recomputed = result.tree.objective(X, y, lam, penalty="split")
    assert result.lower_bound <= optimum + 1e-9
    assert recomputed <= result.upper_bound + 1e-9
    assert optimum <= recomputed + 1e-9
    assert result.gap == pytest.approx(0.0 if result.optimal else result.upper_bound - result.lower_bound)


# -- binary data: Branches and GOSDT agree (up to the penalty convention) --------------------------
@given(st.integers(2, 16).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.integers(0, 1), min_size=4, max_size=4), min_size=n, max_size=n),
    st.lists(st.integers(0, 1), min_size=n - 2, max_size=n - 2))), st.sampled_from(LAMBDAS))
def test_agrees_with_gosdt_on_binary_data(data, lam):
    X, y = np.array(data[0]), np.array([0, 1] + data[1])
    dataset = Dataset.from_binary(X, y)
    gosdt = GOSDT(dataset, regularization=lam).run()
    by_leaf = Branches(dataset, regularization=lam, penalty="leaf").run()
    by_split = Branches(dataset, regularization=lam, penalty="split").run()
    assert gosdt.optimal and by_leaf.optimal and by_split.optimal
    # With binary splits every tree has leaves = splits + 1: the two objectives differ by λ.
    assert by_leaf.objective == pytest.approx(gosdt.objective, abs=1e-9)
    assert by_split.objective + lam == pytest.approx(gosdt.objective, abs=1e-9)
    assert by_leaf.tree.objective(X, y, lam, binarized=True) == pytest.approx(gosdt.objective, abs=1e-9)
    assert not by_leaf.tree.has_multiway


# Reference instances that Branches certifies in about a second each (the full list runs in
# benchmarks/branches_bench.py with a 300 s limit).
FAST_REFERENCE = [("monk1", 0.05), ("monk1", 0.02), ("monk2", 0.05), ("monk3", 0.05), ("monk3", 0.02),
                  ("balance-scale", 0.02), ("car-evaluation", 0.05), ("compas-binary", 0.02),
                  ("fico-binary", 0.05), ("tic-tac-toe", 0.05)]


@pytest.mark.parametrize("name,lam", FAST_REFERENCE)
def test_reproduces_reference_optima_on_binary_data(name, lam, reference_optima):
    require_datasets()
    X, y = read_binary(name)
    row = reference_optima[(reference_optima.dataset == name) & np.isclose(reference_optima["lambda"], lam)
                           & (reference_optima.problem == "R")]
    assert len(row) == 1, "reference row missing"
    reference = row.reference_objective.iloc[0]
    dataset = Dataset.from_binary(X, y)
    by_leaf = Branches(dataset, regularization=lam, penalty="leaf").run(time_limit=120)
    assert by_leaf.optimal
    assert by_leaf.tree.objective(X, y, lam, binarized=True) == pytest.approx(reference, abs=1e-9)
    assert by_leaf.lower_bound == pytest.approx(reference, abs=1e-9)
    by_split = Branches(dataset, regularization=lam, penalty="split").run(time_limit=120)
    assert by_split.optimal
    assert by_split.tree.objective(X, y, lam, binarized=True, penalty="split") + lam == \
        pytest.approx(reference, abs=1e-9)


# -- raw categorical files --------------------------------------------------------------------
RAW = ["monks-1.train", "monks-2.train", "monks-3.train", "car.data", "balance-scale.data", "tic-tac-toe.data"]


@pytest.mark.parametrize("filename", RAW)
def test_raw_categorical_files_load_and_solve(filename):
    require_datasets()
    X, y = read_uci_categorical(DATASETS / "categorical" / filename)
    n_classes = {"car.data": 4, "balance-scale.data": 3}.get(filename, 2)
    assert y.nunique() == n_classes
    dataset = CategoricalDataset.from_arrays(X, y)
    assert all(c.kind == "categorical" for c in dataset.columns) and dataset.n_columns == X.shape[1]
    for penalty in ("split", "leaf"):
        result = Branches(dataset, regularization=0.02, penalty=penalty).run(time_limit=60)
        assert result.optimal
        recomputed = result.tree.objective(X, y, 0.02, penalty=penalty)
        assert result.objective == pytest.approx(recomputed, abs=1e-9)
        assert result.tree.predict(X).shape == (len(X),)
        text = result.tree.rules()
        dot = result.tree.to_dot()
        assert text and dot.startswith("digraph")
        if result.tree.n_splits:
            assert isinstance(result.tree.root, MultiwaySplit)
            assert f"if {result.tree.root.column} = " in text


def test_car_multiclass_multiway_tree_predicts_its_training_accuracy():
    require_datasets()
    X, y = read_uci_categorical(DATASETS / "categorical" / "car.data")
    result = Branches(CategoricalDataset.from_arrays(X, y), regularization=0.01).run(time_limit=60)
    tree = result.tree
    assert result.optimal and tree.n_splits >= 2 and tree.n_leaves > tree.n_splits + 1   # multiway
    accuracy = float((tree.predict(X) == y.to_numpy()).mean())
    assert result.objective == pytest.approx(1 - accuracy + 0.01 * tree.n_splits, abs=1e-9)
    again = Tree.from_dict(tree.to_dict())
    assert (again.predict(X) == tree.predict(X)).all()


# -- the stepwise protocol --------------------------------------------------------------------
def _monks(number=1):
    require_datasets()
    X, y = read_uci_categorical(DATASETS / "categorical" / f"monks-{number}.train")
    return X, y, CategoricalDataset.from_arrays(X, y)


def test_pause_and_resume_give_the_same_search():
    X, y, dataset = _monks(2)
    fresh = Branches(dataset, regularization=0.01).run()
    solver = Branches(dataset, regularization=0.01)
    events = solver.steps()
    seen = [next(events) for _ in range(25)]
    assert any(isinstance(e, Expanded) for e in seen)
    snap = solver.snapshot()
    assert snap.lower_bound <= snap.upper_bound and snap.extra["path"] and snap.extra["memo"] > 1
    assert snap.queue and all(e.lower_bound <= e.upper_bound + 1e-12 for e in snap.queue)
    solver.step(7)
    for event in solver.steps(every=5):
        if event.step > 60:
            break
    resumed = solver.run()
    assert resumed.optimal and fresh.optimal
    assert resumed.expansions == fresh.expansions
    assert resumed.tree == fresh.tree
    assert resumed.objective == pytest.approx(fresh.objective, abs=1e-12)
    assert isinstance(list(solver.steps())[-1], Finished)


def test_bounds_are_monotone_and_the_trace_records_them():
    X, y, dataset = _monks(3)
    solver = Branches(dataset, regularization=0.01)
    lows, highs = [], []
    while solver.step():
        lows.append(solver.lower_bound)
        highs.append(solver.upper_bound)
    assert all(a <= b + 1e-12 for a, b in zip(lows, lows[1:]))
    assert all(a >= b - 1e-12 for a, b in zip(highs, highs[1:]))
    result = solver.result()
    frame = result.trace_frame()
    assert result.optimal and len(frame) >= 2
    assert frame.lower_bound.iloc[-1] == pytest.approx(frame.upper_bound.iloc[-1])
    assert result.prune_counts["purification"] > 0


def test_bad_input_is_rejected_before_searching():
    dataset = CategoricalDataset.from_arrays(pd.DataFrame({"a": ["x", "y"]}), [0, 1])
    with pytest.raises(ValueError, match="penalty"):
        Branches(dataset, regularization=0.1, penalty="node")
    with pytest.raises(ValueError, match="regularization"):
        Branches(dataset, regularization=0.0)
    with pytest.raises(ValueError, match="unknown bound"):
        Branches(dataset, regularization=0.1, bounds={"lookahead": False})
    with pytest.raises(TypeError, match="Dataset"):
        Branches(np.zeros((2, 2)), regularization=0.1)
    with pytest.raises(ValueError, match="raw file"):
        read_uci_categorical("iris.data")
    assert SOLVERS["branches"] is Branches


def test_numeric_columns_become_binary_splits_next_to_multiway_ones():
    X = pd.DataFrame({"color": ["red", "blue", "green"] * 6, "size": np.arange(18, dtype=float)})
    y = np.where(X["color"] == "red", "r", np.where(X["size"] < 9, "small", "big"))
    dataset = CategoricalDataset.from_arrays(X, y)
    result = Branches(dataset, regularization=0.01).run()
    assert result.optimal and result.tree.has_multiway
    assert (result.tree.predict(X) == y).all()
    assert result.objective == pytest.approx(0.01 * result.tree.n_splits)
    # color (3-way), then size <= 8.5 under blue and under green: no 2-split tree is perfect, and a
    # third split costs less than any error (1/18 > 0.01).
    assert result.tree.n_splits == 3
    assert brute_force(X.assign(size=X["size"] < 9).to_numpy(), y, 0.01, "split") == pytest.approx(0.03)


# -- the estimator ----------------------------------------------------------------------------
def test_estimator_uses_categorical_columns_natively():
    from sklearn.base import clone

    from treeopt import OptimalTreeClassifier

    require_datasets()
    X, y = read_uci_categorical(DATASETS / "categorical" / "balance-scale.data")
    X = X.astype({"left_weight": "category"})                   # category and object columns alike
    clf = OptimalTreeClassifier(solver="branches", regularization=0.02, penalty="split").fit(X, y)
    assert clf.optimal_ and clf.tree_.has_multiway and len(clf.classes_) == 3
    n_splits = clf.tree_.n_splits
    assert clf.objective_ == pytest.approx(1 - clf.score(X, y) + 0.02 * n_splits, abs=1e-9)
    assert clf.predict_proba(X).shape == (len(X), 3)
    assert (clf.apply(X) < clf.tree_.n_leaves).all()
    unseen = X.iloc[:1].astype(object).copy()
    unseen.iloc[0, :] = "9"                                     # a category never seen in training
    assert clf.predict(unseen)[0] in clf.classes_
    by_leaf = clone(clf).set_params(penalty="leaf").fit(X, y)
    assert by_leaf.objective_ == pytest.approx(1 - by_leaf.score(X, y) + 0.02 * by_leaf.tree_.n_leaves, abs=1e-9)
    with pytest.raises(ValueError, match="needs solver='branches'"):
        OptimalTreeClassifier(solver="gosdt", penalty="split").fit(X, y)


def test_estimator_branches_on_binary_columns_matches_gosdt():
    from treeopt import OptimalTreeClassifier

    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.integers(0, 2, size=(60, 5)), columns=list("abcde"))
    y = (X.a & X.b) | (X.c & ~X.d.astype(bool))
    branches = OptimalTreeClassifier(solver="branches", regularization=0.02).fit(X, y)
    gosdt = OptimalTreeClassifier(solver="gosdt", regularization=0.02).fit(X, y)
    assert not branches.tree_.has_multiway
    assert branches.objective_ == pytest.approx(gosdt.objective_, abs=1e-9)
    assert branches.objective_ == pytest.approx(1 - branches.score(X, y) + 0.02 * branches.tree_.n_leaves, abs=1e-9)


@given(categorical_problems(max_rows=8), st.lists(st.integers(1, 3), min_size=8, max_size=8),
       st.sampled_from(LAMBDAS), st.sampled_from(["split", "leaf"]))
def test_integer_weights_equal_repeated_rows(problem, weights, lam, penalty):
    X, y = problem
    w = np.array(weights[:len(y)])
    weighted = Branches(CategoricalDataset.from_arrays(X, y, sample_weight=w), regularization=lam,
                        penalty=penalty).run()
    repeated_X, repeated_y = X.loc[X.index.repeat(w)].reset_index(drop=True), np.repeat(y, w)
    expected = brute_force(repeated_X, repeated_y, lam, penalty)
    assert weighted.optimal and weighted.objective == pytest.approx(expected, abs=1e-9)
    assert weighted.tree.objective(X, y, lam, sample_weight=w, penalty=penalty) == pytest.approx(expected, abs=1e-9)

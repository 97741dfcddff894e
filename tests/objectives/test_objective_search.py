"""Solvers find the optimum of every objective they accept; the AUC-optimal tree beats CART's hull.

The oracle enumerates every tree of depth <= 2 on tiny binary data and
scores each with the row-by-row metrics of ``reference_metrics.py`` (no
treeopt code), then the solvers' trees are rescored the same way.
"""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier

from reference_metrics import (auc_by_pairs, balanced_error, error_rate, f_loss, omega_labels,
                               partial_auc_by_segments, weighted_error)
from treeopt import OptimalTreeClassifier
from treeopt.cli import main
from treeopt.data import Dataset
from treeopt.objectives import get_objective
from treeopt.roc import estimator_hull
from treeopt.registry import SOLVERS

DEPTH = 2
OBJECTIVES = [("accuracy", {}), ("balanced_accuracy", {}), ("weighted_accuracy", {"omega": 3.0}),
              ("f1", {"omega": 1.0}), ("f1", {"omega": 2.5}), ("auc", {}), ("partial_auc", {"theta": 0.3}),
              ("partial_auc", {"theta": 1.0})]
NON_ADDITIVE_SOLVERS = ["osdt"]
SOLVER_OPTIONS = {"branches": {"penalty": "leaf"}}


def shapes(n_features, depth):
    """Every tree shape as nested tuples: ("leaf",) or ("split", j, left, right)."""
    yield ("leaf",)
    if depth > 0:
        subtrees = list(shapes(n_features, depth - 1))
        for j in range(n_features):
            for left, right in itertools.product(subtrees, subtrees):
                yield ("split", j, left, right)


def leaf_of_rows(shape, X):
    """Leaf number (left to right) of each row; also the number of leaves."""
    ids = {}

    def number(node, path):
        if node[0] == "leaf":
            ids[path] = len(ids)
        else:
            number(node[2], path + (0,))
            number(node[3], path + (1,))

    number(shape, ())
    out = []
    for row in X:
        node, path = shape, ()
        while node[0] == "split":
            side = int(row[node[1]])
            node, path = node[2 + side], path + (side,)
        out.append(ids[path])
    return np.array(out), len(ids)


def metric(name, params, y, leaf, n_leaves, w):
    """The loss of a tree (given the leaf of each row) under its objective, computed row by row."""
    if name in ("accuracy", "balanced_accuracy", "weighted_accuracy"):
        score = {"accuracy": error_rate, "balanced_accuracy": balanced_error,
                 "weighted_accuracy": lambda a, b, c: weighted_error(a, b, c, params["omega"])}[name]
        return min(score(y, np.asarray(labels)[leaf], w)
                   for labels in itertools.product((0, 1), repeat=n_leaves))
    counts = np.zeros((n_leaves, 2))
    np.add.at(counts, (leaf, y), w)
    if name == "f1":
        return f_loss(y, np.asarray(omega_labels(counts, params["omega"]))[leaf], w)
    fraction = counts[:, 1] / np.maximum(counts.sum(axis=1), 1e-300)
    if name == "auc":
        return 1 - auc_by_pairs(y, fraction[leaf], w)
    return 1 - partial_auc_by_segments(y, fraction[leaf], w, params["theta"])


def oracle(name, params, X, y, w, lam):
    return min(metric(name, params, y, *leaf_of_rows(shape, X), w) + lam * leaf_of_rows(shape, X)[1]
               for shape in shapes(X.shape[1], DEPTH))


def rescored(tree, name, params, X, y, w, lam):
    leaf = tree.apply(X, binarized=True)
    return metric(name, params, y, leaf, tree.n_leaves, w) + lam * tree.n_leaves


@st.composite
def problems(draw):
    n_features = draw(st.integers(1, 3))
    n_rows = draw(st.integers(4, 14))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n_features, max_size=n_features),
                               min_size=n_rows, max_size=n_rows)))
    y = np.array([0, 1] + draw(st.lists(st.integers(0, 1), min_size=n_rows - 2, max_size=n_rows - 2)))
    w = None if draw(st.booleans()) else np.array(draw(st.lists(st.integers(1, 3), min_size=n_rows,
                                                                  max_size=n_rows)), dtype=float)
    return X, y, w


def solvers_for(name):
    additive = get_objective(name).additive
    return [s for s in SOLVERS if SOLVERS[s].exact and SOLVERS[s].CAPABILITIES.depth_budget
            and (additive or s in NON_ADDITIVE_SOLVERS)]


@pytest.mark.parametrize("name, params", OBJECTIVES, ids=[f"{n}{p or ''}" for n, p in OBJECTIVES])
@settings(max_examples=12)
@given(data=problems(), lam=st.sampled_from([0.01, 0.03, 0.08]))
def test_every_solver_accepting_the_objective_finds_the_oracle_optimum(name, params, data, lam):
    X, y, w = data
    expected = oracle(name, params, X, y, np.ones(len(y)) if w is None else w, lam)
    objective = get_objective(name, **params)
    for solver_name in solvers_for(name):
        solver = SOLVERS[solver_name](Dataset.from_binary(X, y, sample_weight=w), regularization=lam,
                                      objective=objective, depth_budget=DEPTH,
                                      **SOLVER_OPTIONS.get(solver_name, {}))
        result = solver.run()
        assert result.optimal, solver_name
        got = rescored(result.tree, name, params, X, y, np.ones(len(y)) if w is None else w, lam)
        assert got == pytest.approx(expected, abs=1e-9), (solver_name, result.tree.rules())
        assert result.objective == pytest.approx(got, abs=1e-9), solver_name
        assert result.tree.objective(X, y, lam, objective=objective, sample_weight=w, binarized=True) \
            == pytest.approx(got, abs=1e-9), solver_name


def test_non_additive_objectives_have_a_solver():
    assert any(s in SOLVERS for s in NON_ADDITIVE_SOLVERS), "no solver accepts f1/auc/partial_auc"


def four_class_style(seed=0, n=200):
    """2-D data in the spirit of Four-Class: a positive ring around a negative core, a positive corner."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 2))
    r = np.hypot(X[:, 0] - 0.4, X[:, 1] - 0.45)
    p = np.where((r > 0.15) & (r < 0.35), 0.85, 0.15)
    p = np.where((X[:, 0] > 0.8) & (X[:, 1] > 0.75), 0.9, p)
    return pd.DataFrame(X, columns=["x1", "x2"]), (rng.random(n) < p).astype(int)


def test_auc_optimal_tree_hull_dominates_cart_at_the_same_number_of_leaves():
    """Same binary features (4 quantile thresholds per column), same number of leaves.

    Optimality guarantees the area: the optimal tree has the least loss + λ·leaves, so no tree with
    as many leaves or fewer has a larger AUC. On this data its hull is also above CART's everywhere.
    Measured: optimal AUC 0.8074 vs CART 0.7577, 5 leaves each.
    """
    X, y = four_class_style()
    clf = OptimalTreeClassifier(solver="osdt", objective="auc", regularization=0.02, thresholds="quantile",
                                max_thresholds=4).fit(X, y)
    assert clf.optimal_
    k = clf.tree_.n_leaves
    Z = clf.binarizer_.transform(X)
    cart = DecisionTreeClassifier(max_leaf_nodes=k, random_state=0).fit(Z, y)
    assert cart.get_n_leaves() == k
    optimal_hull, cart_hull = estimator_hull(clf, X, y), estimator_hull(cart, Z, y)
    assert optimal_hull.auc == pytest.approx(1 - clf.evaluate(X, y)["loss"], abs=1e-12)
    assert optimal_hull.auc >= cart_hull.auc
    assert optimal_hull.auc - cart_hull.auc > 0.03
    assert optimal_hull.dominates(cart_hull)
    assert not cart_hull.dominates(optimal_hull)


def test_estimator_objective_parameters_and_errors():
    X, y = four_class_style(n=60)
    with pytest.raises(ValueError, match="solver='osdt'"):
        OptimalTreeClassifier(objective="f1", solver="gosdt").fit(X, y)
    # solver="auto" (the default) picks OSDT for an objective that is not a sum over leaves.
    auto = OptimalTreeClassifier(objective="f1", thresholds="quantile", max_thresholds=2).fit(X, y)
    assert auto.solver_.name == "osdt" and auto.optimal_
    with pytest.raises(ValueError, match="theta"):
        OptimalTreeClassifier(objective="partial_auc", solver="osdt", theta=0.0).fit(X, y)
    with pytest.raises(ValueError, match="two classes"):
        OptimalTreeClassifier(objective="auc", solver="osdt").fit(X, np.arange(60) % 3)
    clf = OptimalTreeClassifier(objective="f1", omega=2.0, solver="osdt", regularization=0.05,
                                thresholds="quantile", max_thresholds=2).fit(X, y)
    report = clf.evaluate(X, y)
    assert report["objective"] == "f1" and clf.tree_.n_leaves == report["n_leaves"]
    predicted = clf.predict(X)
    tp = np.sum((predicted == 1) & (y == 1))
    assert report["tpr"] == pytest.approx(tp / np.sum(y == 1))
    assert report["fpr"] == pytest.approx(np.sum((predicted == 1) & (y == 0)) / np.sum(y == 0))
    assert report["accuracy"] == pytest.approx(np.mean(predicted == y))
    assert report["value"] == pytest.approx(2 * tp / (np.sum(predicted == 1) + np.sum(y == 1)))
    assert report["penalized"] == pytest.approx(clf.objective_, abs=1e-9)
    assert np.array_equal(clf.apply(X), clf.tree_.apply(clf.binarizer_.transform(X), binarized=True))


def test_cli_fit_with_objective_parameters(tmp_path, capsys):
    X, y = four_class_style(n=60)
    path = tmp_path / "four.csv"
    X.assign(label=y).to_csv(path, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main(["fit", str(path), "--target", "label", "--solver", "osdt", "--objective", "partial_auc",
                     "--theta", "0.2", "--regularization", "0.01", "--max-thresholds", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "partial_auc" in out and "TPR / FPR" in out and "certified optimal" in out
    assert "leaves         1 " not in out
    with pytest.raises(SystemExit, match="--solver osdt"):
        main(["fit", str(path), "--target", "label", "--objective", "auc", "--solver", "gosdt"])
    with pytest.raises(SystemExit, match="takes no omega"):              # ignored options are refused
        main(["fit", str(path), "--target", "label", "--objective", "auc", "--omega", "2"])

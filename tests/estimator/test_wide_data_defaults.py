"""What the front ends choose on wide data: guessed thresholds on many numeric thresholds, and the solver by width."""

import numpy as np

from oracle import brute_force
from treeopt import OptimalTreeClassifier


def test_auto_thresholds_guess_on_many_numeric_thresholds():
    """30 measured columns (breast cancer: 15,310 thresholds) get guessed thresholds and a guarantee."""
    from sklearn.datasets import load_breast_cancer
    X, y = load_breast_cancer(return_X_y=True)
    X, y = X[::3], y[::3]
    clf = OptimalTreeClassifier(regularization=0.02, time_limit=30).fit(X, y)
    assert clf.thresholds_ == "guess"
    assert "thresholds" in clf.guarantee_
    assert len(clf.binarizer_.features_) < 256
    every = OptimalTreeClassifier(regularization=0.02, thresholds="all", max_thresholds=2).fit(X[:, :3], y)
    assert every.thresholds_ == "all" and every.guarantee_ == {}


def test_auto_thresholds_keep_all_on_few():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 20, size=(80, 3))
    y = (X[:, 0] > 9).astype(int)
    clf = OptimalTreeClassifier(regularization=0.02).fit(X, y)
    assert clf.thresholds_ == "all"
    assert len(clf.binarizer_.features_) == sum(len(np.unique(X[:, j])) - 1 for j in range(3))


def test_auto_solver_picks_by_width_objective_and_options():
    from treeopt import make_solver
    rng = np.random.default_rng(1)
    narrow = rng.integers(0, 2, size=(60, 6))
    wide = rng.integers(0, 2, size=(60, 30))
    y = narrow[:, 0] ^ narrow[:, 1]
    assert make_solver(narrow, y, regularization=0.05).name == "gosdt"
    assert make_solver(wide, y, regularization=0.05).name == "portfolio"
    assert make_solver(wide, y, regularization=0.05, objective="f1").name == "osdt"
    assert make_solver(wide, y, regularization=0.05, top_k=2).name == "osdt"
    assert make_solver(wide, y, regularization=0.05, solver="gosdt").name == "gosdt"
    clf = OptimalTreeClassifier(regularization=0.05).fit(wide, y)
    assert clf.solver_.name == "portfolio" and clf.optimal_
    expected = brute_force(wide[:, :6], y, 0.05).objective     # y only depends on the first columns
    assert clf.objective_ <= expected + 1e-9

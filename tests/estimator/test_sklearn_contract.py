"""The scikit-learn contract of every public estimator: its estimator checks, pickling, the tree
accessors scikit-learn's trees have, and messages that say what is wrong and what to do."""

from __future__ import annotations

import inspect
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import cross_validate
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks

import treeopt
from treeopt import (GreedyTreeClassifier, GreedyTreeRegressor, OptimalTreeClassifier,
                     OptimalTreeClassifierCV)
from treeopt.datasets import load_monk
from treeopt.fitted_tree import leaf_node_ids

#: Every public estimator that predicts (the binarizers are transformers, checked with their own
#: tests). None has an expected failure. OptimalTreeClassifier keeps every threshold: with a cap of
#: four per column the certified-optimal tree on the checks' rounded blobs scores 0.78 < 0.83 in
#: check_classifiers_train, a property of the binarization rather than of the contract.
#: OptimalTreeClassifierCV leaves numeric columns uncapped too (with max_thresholds=4 its best tree on
#: all the data scores 0.825 < 0.83), and min_regularization=0.05, max_leaves=3 keep each of the
#: checks' many fits fast. Its time_limit covers its whole fit (three folds, all the data, the refit):
#: 50 s give each of those searches the 10 s the plain estimator has, so a loaded machine does not
#: stop one early and make weighted and repeated rows disagree.
ESTIMATORS = [
    OptimalTreeClassifier(regularization=0.05, time_limit=10),
    OptimalTreeClassifierCV(cv=3, max_leaves=3, min_regularization=0.05, time_limit=50),
    GreedyTreeClassifier(),
    GreedyTreeRegressor(),
]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_estimator_checks(estimator, check):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        warnings.simplefilter("ignore", UserWarning)    # StratifiedKFold on the checks' tiny classes
        check(estimator)


def test_every_public_estimator_is_checked():
    public = {name for name in treeopt.__all__
              if inspect.isclass(getattr(treeopt, name)) and issubclass(getattr(treeopt, name), BaseEstimator)
              and not issubclass(getattr(treeopt, name), TransformerMixin)}
    assert public == {type(estimator).__name__ for estimator in ESTIMATORS}


def mixed_frame(n=120, seed=0):
    """Numeric, string, category and boolean columns with a planted rule."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "age": rng.integers(18, 70, n),
        "colour": rng.choice(["red", "green", "blue"], n),
        "size": pd.Categorical(rng.choice(["S", "M", "L"], n)),
        "member": rng.random(n) < 0.5,
    })
    y = np.where((X.age < 40) & (X.colour != "red") | X.member & (X["size"] == "L"), "buy", "skip")
    return X, y


# -- pickling and parallel cross-validation -----------------------------------------------------------

def test_a_fitted_greedy_classifier_pickles_and_cross_validates_in_parallel():
    X, y = mixed_frame()
    clf = GreedyTreeClassifier(max_depth=3).fit(X, y)
    copy = pickle.loads(pickle.dumps(clf))
    assert np.array_equal(copy.predict(X), clf.predict(X)) and copy.n_leaves_ == clf.n_leaves_
    assert not hasattr(copy, "solver_")              # the finished search stays behind
    result = cross_validate(GreedyTreeClassifier(max_depth=3), X, y, cv=3, n_jobs=2, return_estimator=True)
    assert len(result["estimator"]) == 3 and (result["test_score"] > 0.5).all()


# -- targets ------------------------------------------------------------------------------------------

def test_the_greedy_classifier_refuses_a_continuous_target():
    X = np.arange(30, dtype=float).reshape(-1, 1)
    with pytest.raises(ValueError, match="Unknown label type: continuous"):
        GreedyTreeClassifier().fit(X, X.ravel() / 7)


@pytest.mark.parametrize("estimator", [GreedyTreeClassifier(), GreedyTreeRegressor(),
                                       OptimalTreeClassifier()], ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("frame", [False, True], ids=["array", "frame"])
def test_fit_without_y_says_that_y_is_required(estimator, frame):
    X = np.arange(12, dtype=float).reshape(-1, 2)
    with pytest.raises(ValueError, match="requires y to be passed"):
        estimator.fit(pd.DataFrame(X, columns=["a", "b"]) if frame else X, None)


@pytest.mark.parametrize("estimator", [GreedyTreeClassifier(), GreedyTreeRegressor()],
                         ids=lambda e: type(e).__name__)
def test_a_row_of_weight_zero_is_a_row_left_out(estimator):
    """The left-out row (x = 3) must not place the threshold: fitted without it, the split between
    2 and 4 is at 3, so x = 2.75 goes with 2."""
    X = np.array([[1.0], [2.0], [3.0], [4.0], [5.0]])
    y = np.array([0, 0, 1, 1, 1]) if isinstance(estimator, GreedyTreeClassifier) else np.array([0., 0, 5, 1, 1])
    weighted = estimator.fit(X, y, sample_weight=[1, 1, 0, 1, 1]).predict([[2.75], [3.25]])
    left_out = estimator.fit(np.delete(X, 2, axis=0), np.delete(y, 2)).predict([[2.75], [3.25]])
    assert weighted.tolist() == left_out.tolist()


# -- tables -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("estimator", [GreedyTreeClassifier(), GreedyTreeRegressor(),
                                       OptimalTreeClassifier(regularization=0.02)],
                         ids=lambda e: type(e).__name__)
def test_a_frame_of_bool_and_category_columns_fits(estimator):
    X, y = mixed_frame()
    X = X[["member", "size"]]
    target = (y == "buy").astype(float) if isinstance(estimator, GreedyTreeRegressor) else y
    estimator.fit(X, target)
    assert estimator.feature_names_in_.tolist() == ["member", "size"]
    assert estimator.feature_importances_.min() > 0                  # it splits on both columns
    assert len(np.unique(estimator.predict(X))) > 1


# -- the tree accessors -------------------------------------------------------------------------------

FITTED = {
    "optimal": lambda X, y: OptimalTreeClassifier(regularization=0.02, max_thresholds=4).fit(X, y),
    "greedy": lambda X, y: GreedyTreeClassifier(max_depth=4).fit(X, y),
    "greedy-multiway": lambda X, y: GreedyTreeClassifier(criterion="gain_ratio", multiway=True,
                                                         max_depth=3).fit(X, y),
    "branches": lambda X, y: OptimalTreeClassifier(regularization=0.02, solver="branches",
                                                   max_thresholds=4).fit(X, y),
    "cv": lambda X, y: OptimalTreeClassifierCV(cv=3, max_leaves=5, max_thresholds=4).fit(X, y),
    "regressor": lambda X, y: GreedyTreeRegressor(max_depth=3).fit(X, (y == "buy") * 2.0 + X.age / 100),
}


@pytest.mark.parametrize("kind", list(FITTED))
def test_depth_leaves_apply_and_decision_path_read_the_fitted_tree(kind):
    X, y = mixed_frame()
    X = X.drop(columns="member")        # Tree.decision_path reads one row as objects: no bool column
    model = FITTED[kind](X, y)
    tree = model.tree_
    assert model.get_depth() == tree.depth and model.get_depth() >= 1
    assert model.get_n_leaves() == model.n_leaves_ == tree.n_leaves
    leaves = model.apply(X)
    assert leaves.shape == (len(X),) and set(leaves) <= set(range(tree.n_leaves))
    assert np.array_equal(leaves, tree.apply(X))
    paths = model.decision_path(X)
    assert paths.format == "csr" and paths.shape[0] == len(X)
    for i in range(0, len(X), 7):
        assert np.flatnonzero(paths[i].toarray()).tolist() == tree.decision_path(X.iloc[i])
    # Each row's deepest node is its leaf: the leaf index maps to the leaf's node id.
    assert np.array_equal(paths.indices[paths.indptr[1:] - 1], leaf_node_ids(tree)[leaves])


def test_accessors_before_fit_raise_not_fitted():
    from sklearn.exceptions import NotFittedError
    for method in ("get_depth", "get_n_leaves"):
        with pytest.raises(NotFittedError):
            getattr(GreedyTreeClassifier(), method)()
    with pytest.raises(NotFittedError):
        OptimalTreeClassifier().decision_path([[0.0]])
    assert not hasattr(OptimalTreeClassifier(), "feature_importances_")
    assert not hasattr(GreedyTreeRegressor(), "n_leaves_")


def tie_free(n=200, seed=3):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.uniform(0, 10, size=(n, 4)), columns=["a", "b", "c", "d"])
    return X, rng


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_greedy_importances_are_scikit_learns(criterion):
    X, rng = tie_free()
    y = np.where(X.a + 0.5 * X.b + rng.normal(0, 1, len(X)) > 7, "yes", "no")
    weights = rng.integers(1, 4, len(X))
    ours = GreedyTreeClassifier(criterion=criterion, max_depth=3).fit(X, y, sample_weight=weights)
    theirs = DecisionTreeClassifier(criterion=criterion, max_depth=3, random_state=0).fit(X, y,
                                                                                          sample_weight=weights)
    assert ours.get_n_leaves() == theirs.get_n_leaves()
    assert np.allclose(ours.feature_importances_, theirs.feature_importances_)


def test_regressor_importances_are_scikit_learns():
    X, rng = tie_free()
    y = np.sin(X.a) + 0.3 * X.b + rng.normal(0, 0.2, len(X)) + 100.0     # a large mean: no cancellation
    ours = GreedyTreeRegressor(max_depth=4).fit(X, y)
    theirs = DecisionTreeRegressor(max_depth=4, random_state=0).fit(X, y)
    assert np.allclose(ours.feature_importances_, theirs.feature_importances_)


def test_optimal_importances_are_the_gini_importances_of_its_scikit_learn_export():
    X, rng = tie_free(150)
    y = np.where((X.a > 5) ^ (X.b > 5), 1, 0)          # XOR: the root split lowers no leaf's errors
    clf = OptimalTreeClassifier(regularization=0.01, max_thresholds=4).fit(X, y)
    assert clf.get_depth() >= 2
    assert np.allclose(clf.feature_importances_, clf.to_sklearn(input="original").feature_importances_)
    assert clf.feature_importances_[[0, 1]].min() > 0 and clf.feature_importances_.sum() == pytest.approx(1.0)


def test_the_cross_validated_estimator_answers_for_its_refit_tree():
    X, rng = tie_free(150)
    y = np.where((X.a > 5) & (X.b > 3), 1, 0)
    clf = OptimalTreeClassifierCV(cv=3, max_leaves=5, max_thresholds=4).fit(X, y)
    refit = clf.best_estimator_
    assert clf.get_depth() == refit.get_depth() >= 2 and clf.n_leaves_ == refit.get_n_leaves()
    assert np.array_equal(clf.feature_importances_, refit.feature_importances_)
    assert clf.feature_importances_[[0, 1]].min() > 0 and clf.feature_importances_.sum() == pytest.approx(1.0)
    assert np.array_equal(clf.apply(X), refit.apply(X)) and clf.decision_path(X).shape[0] == len(X)
    assert not hasattr(OptimalTreeClassifierCV(), "feature_importances_")


def test_importances_count_each_binary_feature_for_its_input_column():
    X, y = mixed_frame()
    clf = OptimalTreeClassifier(regularization=0.02, max_thresholds=4).fit(X, y)
    importances = clf.feature_importances_
    assert importances.shape == (clf.n_features_in_,) and importances.sum() == pytest.approx(1.0)
    tested = {clf.tree_.features[j].column_index for j in _split_features(clf.tree_.root)}
    assert {i for i in range(4) if importances[i] > 0} == tested
    # Dropping one column's share: the importances of a one-hot column's categories sum into it.
    binarized = clf.to_sklearn(input="binarized").feature_importances_
    by_column = np.zeros(clf.n_features_in_)
    for j, feature in enumerate(clf.binarizer_.features_):
        by_column[feature.column_index] += binarized[j]
    assert np.allclose(importances, by_column)
    single = OptimalTreeClassifier(regularization=1.0).fit(X, y)
    assert single.get_n_leaves() == 1 and not single.feature_importances_.any()


def _split_features(node) -> set:
    from treeopt.tree import Split
    if not isinstance(node, Split):
        return set()
    return {node.feature} | _split_features(node.left) | _split_features(node.right)


# -- messages -----------------------------------------------------------------------------------------

def test_the_greedy_solvers_warning_does_not_promise_a_certificate_from_a_time_limit():
    X, y = load_monk(1)
    with pytest.warns(ConvergenceWarning) as caught:
        OptimalTreeClassifier(solver="greedy", regularization=0.02).fit(X, y)
    message = str(caught[0].message)
    assert "never certifies" in message and "solver='auto'" in message
    assert "time_limit" not in message


def test_missing_values_at_predict_are_not_told_to_be_fixed_before_fitting():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0]})
    clf = GreedyTreeClassifier().fit(X, [0, 0, 1, 1])
    with pytest.raises(ValueError, match="missing values") as raised:
        clf.predict(pd.DataFrame({"a": [1.0, np.nan]}))
    assert "before fitting" not in str(raised.value) and "missing='indicator'" in str(raised.value)


def test_run_on_a_released_search_raises_and_names_keep_search():
    X, y = load_monk(2)
    with pytest.warns(ConvergenceWarning):
        clf = OptimalTreeClassifier(regularization=0.005, node_limit=20).fit(X, y)
    gap = clf.gap_
    with pytest.raises(RuntimeError, match="keep_search=True"):
        clf.solver_.run(time_limit=5)
    assert clf.solver_.result().gap == pytest.approx(gap)
    with pytest.warns(ConvergenceWarning):
        kept = OptimalTreeClassifier(regularization=0.005, node_limit=20, keep_search=True).fit(X, y)
    assert kept.solver_.run().gap < gap                  # kept: a later run() resumes and closes the gap

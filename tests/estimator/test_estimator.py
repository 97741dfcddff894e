"""OptimalTreeClassifier: fitted attributes, warnings, serialisation."""

import json
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import cross_val_score
from sklearn.pipeline import make_pipeline

from oracle import brute_force
from treeopt import OptimalTreeClassifier
from treeopt.tree import Tree

# scikit-learn's estimator checks run in test_sklearn_contract.py, for every public estimator.


def mixed_frame(n=120, seed=0):
    """Numeric, categorical (string and category dtype) and boolean columns, with a planted rule."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({
        "age": rng.integers(18, 70, n),
        "income": rng.normal(50, 15, n).round(1),
        "colour": rng.choice(["red", "green", "blue"], n),
        "size": pd.Categorical(rng.choice(["S", "M", "L"], n)),
        "member": rng.random(n) < 0.5,
    })
    y = np.where((X.age < 40) & (X.colour != "red") | (X.member & (X.income > 55)), "buy", "skip")
    flip = rng.random(n) < 0.05
    y[flip] = np.where(y[flip] == "buy", "skip", "buy")
    return X, pd.Series(y, name="decision")


@pytest.fixture(scope="module")
def fitted():
    X, y = mixed_frame()
    return OptimalTreeClassifier(regularization=0.02, max_thresholds=4).fit(X, y), X, y


def test_fitted_attributes(fitted):
    clf, X, y = fitted
    assert clf.optimal_ is True and clf.status_ == "optimal"
    assert clf.n_features_in_ == 5
    assert list(clf.feature_names_in_) == list(X.columns)
    assert list(clf.classes_) == ["buy", "skip"]
    assert clf.lower_bound_ == pytest.approx(clf.upper_bound_) and clf.gap_ == 0
    assert clf.objective_ == pytest.approx(clf.upper_bound_)
    # The certificate is the objective of the tree, recomputed from its predictions.
    errors = np.mean(clf.predict(X) != y.to_numpy())
    assert clf.objective_ == pytest.approx(errors + clf.regularization * clf.tree_.n_leaves, abs=1e-12)
    assert clf.n_steps_ > 0 and clf.n_steps_ == clf.solver_.expansions
    assert set(clf.prune_counts_) == set(clf.solver_.BOUNDS)
    trace = clf.trace_
    assert list(trace.columns) == ["elapsed", "expansions", "lower_bound", "upper_bound", "queue_size",
                                   "cache_size"]
    assert trace.lower_bound.is_monotonic_increasing and trace.upper_bound.is_monotonic_decreasing
    assert trace.upper_bound.iloc[-1] == pytest.approx(clf.objective_)
    assert clf.regularization == 0.02                       # never changed by fit


def test_trace_is_made_once_when_read_and_survives_pickling(fitted):
    clf, X, y = fitted
    assert clf.trace_ is clf.trace_                         # made on the first read, then kept
    copy = pickle.loads(pickle.dumps(clf))
    pd.testing.assert_frame_equal(copy.trace_, clf.trace_)
    assert not hasattr(OptimalTreeClassifier(), "trace_")  # no trace before fit


def test_optimum_matches_oracle_on_the_binarized_table(fitted):
    """The estimator's objective is the true optimum over its binary features (oracle, depth 3 cap)."""
    clf, X, y = fitted
    Z = clf.binarizer_.transform(X)
    keep = [j for j in range(Z.shape[1]) if j in {s for s in _split_features(clf.tree_.root)}]
    # The full oracle over all features is too slow; but the optimum restricted to a depth budget
    # and the tree's own features can never beat the certified optimum, and the tree attains it.
    restricted = brute_force(Z[:, keep].astype(int), y.to_numpy(), clf.regularization,
                             depth=clf.tree_.depth).objective
    assert restricted == pytest.approx(clf.objective_, abs=1e-9)


def _split_features(node):
    if hasattr(node, "prediction"):
        return []
    return [node.feature] + _split_features(node.left) + _split_features(node.right)


def test_predict_on_the_original_frame(fitted):
    clf, X, y = fitted
    pred = clf.predict(X)
    assert pred.shape == (len(X),) and set(pred) <= {"buy", "skip"}
    assert np.array_equal(pred, clf.tree_.predict(X))
    assert np.array_equal(pred, clf.predict(X.copy()))
    proba = clf.predict_proba(X)
    assert proba.shape == (len(X), 2) and np.allclose(proba.sum(axis=1), 1)
    assert np.array_equal(clf.classes_[proba.argmax(axis=1)], pred)
    leaves = clf.apply(X)
    assert leaves.min() >= 0 and leaves.max() < clf.tree_.n_leaves
    # A new row with an unseen category and out-of-range numbers still gets a prediction.
    new = pd.DataFrame({"age": [99], "income": [-5.0], "colour": ["purple"],
                        "size": pd.Categorical(["M"], categories=["S", "M", "L"]), "member": [True]})
    assert clf.predict(new)[0] in {"buy", "skip"}
    with pytest.raises(ValueError, match="feature"):
        clf.predict(X.iloc[:, :3])


def test_json_round_trip_predicts_identically(fitted):
    clf, X, _ = fitted
    text = json.dumps(clf.tree_.to_dict())
    with_binarizer = Tree.from_dict(json.loads(text), binarizer=clf.binarizer_)
    assert with_binarizer == clf.tree_
    assert np.array_equal(with_binarizer.predict(X), clf.predict(X))
    # Without the binarizer the features alone (column, kind, value) evaluate the original table.
    alone = Tree.from_dict(json.loads(clf.tree_.to_json()))
    assert np.array_equal(alone.predict(X, binarized=False), clf.predict(X))
    assert np.array_equal(alone.predict(clf.binarizer_.transform(X)), clf.predict(X))


def test_pickle_round_trip_predicts_identically(fitted):
    clf, X, _ = fitted
    clone_ = pickle.loads(pickle.dumps(clf))
    assert np.array_equal(clone_.predict(X), clf.predict(X))
    assert clone_.objective_ == clf.objective_ and clone_.optimal_
    assert not hasattr(clone_, "solver_")                      # the live search is not pickled
    assert hasattr(clf, "solver_")


def test_an_estimator_pickled_with_its_trace_frame_still_answers_trace_(fitted):
    """Estimators pickled when fit stored trace_ as a DataFrame (before it was made when read)
    unpickle with their trace: the stored frame, not an AttributeError."""
    clf, X, _ = fitted
    frame = clf.trace_.copy()
    state = clf.__getstate__()
    for name in ("_trace_points", "_trace_frame"):
        state.pop(name, None)
    state["trace_"] = frame                                    # what such a pickle holds
    old = pickle.loads(pickle.dumps(clf))
    old.__dict__.clear()
    old.__setstate__(state)
    assert old.trace_ is old.__dict__["trace_"]
    pd.testing.assert_frame_equal(old.trace_, frame)
    assert np.array_equal(old.predict(X), clf.predict(X))
    with pytest.raises(AttributeError, match="before fit"):
        OptimalTreeClassifier().trace_


def test_rules_and_dot(fitted):
    clf, _, _ = fitted
    rules = clf.tree_.rules()
    assert rules.count("predict") == clf.tree_.n_leaves
    assert "if " in rules and "else" in rules
    assert any(name in rules for name in ["age", "colour", "member", "income", "size"])
    dot = clf.tree_.to_dot()
    assert dot.startswith("digraph") and dot.rstrip().endswith("}")
    assert dot.count("->") == 2 * clf.tree_.n_splits


def test_stopped_search_warns_and_keeps_an_honest_certificate():
    X, y = mixed_frame(200, seed=3)
    full = OptimalTreeClassifier(regularization=0.01, max_thresholds=4).fit(X, y)
    with pytest.warns(ConvergenceWarning, match="node_limit"):
        stopped = OptimalTreeClassifier(regularization=0.01, max_thresholds=4, node_limit=5).fit(X, y)
    assert stopped.status_ == "node_limit" and not stopped.optimal_
    assert stopped.lower_bound_ <= full.objective_ + 1e-12 <= stopped.upper_bound_ + 1e-12
    assert stopped.gap_ == pytest.approx(stopped.upper_bound_ - stopped.lower_bound_) and stopped.gap_ > 0
    errors = np.mean(stopped.predict(X) != y.to_numpy())
    assert stopped.objective_ == pytest.approx(errors + 0.01 * stopped.tree_.n_leaves, abs=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)        # a certified fit does not warn
        OptimalTreeClassifier(regularization=0.05, max_thresholds=4).fit(X, y)


def test_works_in_pipelines_and_cross_validation():
    X, y = mixed_frame(90, seed=1)
    scores = cross_val_score(OptimalTreeClassifier(regularization=0.05, max_thresholds=4), X, y, cv=3)
    assert scores.shape == (3,) and (scores > 0.5).all()
    numeric = X[["age", "income"]]
    pipe = make_pipeline(OptimalTreeClassifier(regularization=0.05, max_thresholds=4)).fit(numeric, y)
    assert pipe.score(numeric, y) > 0.5
    assert clone(OptimalTreeClassifier(regularization=0.03)).get_params()["regularization"] == 0.03


def test_numpy_input_without_column_names():
    X, y = mixed_frame(60, seed=2)
    numeric = X[["age", "income"]].to_numpy()
    clf = OptimalTreeClassifier(regularization=0.05, max_thresholds=4).fit(numeric, y.to_numpy())
    assert clf.n_features_in_ == 2 and not hasattr(clf, "feature_names_in_")
    assert np.array_equal(clf.predict(numeric), clf.tree_.predict(numeric))

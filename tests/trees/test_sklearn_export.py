"""to_sklearn: a treeopt tree as a fitted scikit-learn DecisionTreeClassifier."""

from __future__ import annotations

import pickle

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.tree import DecisionTreeClassifier, export_text

from conftest import read_binary, require_datasets
from treeopt import OptimalTreeClassifier
from treeopt.binarize import BinaryFeature
from treeopt.datasets import load_breast_cancer, load_tic_tac_toe
from treeopt.greedy_estimators import GreedyTreeClassifier
from treeopt.sklearn_export import to_sklearn
from treeopt.tree import Leaf, Split, Tree

WORST = ["worst radius", "worst texture", "worst smoothness", "worst concave points", "worst area",
         "worst concavity"]


@pytest.fixture(scope="module")
def cancer():
    X, y = load_breast_cancer()
    clf = OptimalTreeClassifier(regularization=0.005, max_thresholds=4, depth_budget=3).fit(X[WORST], y)
    assert clf.optimal_ and clf.tree_.n_leaves >= 4          # a tree worth exporting
    return X[WORST], y, clf


def same_partition(a, b) -> bool:
    """Two leaf assignments induce the same partition of the rows (leaf ids differ between the libraries)."""
    pairs = set(zip(np.asarray(a).tolist(), np.asarray(b).tolist()))
    return len(pairs) == len(set(np.asarray(a).tolist())) == len(set(np.asarray(b).tolist()))


def test_numeric_gosdt_tree_predicts_the_same_on_original_and_binarized_tables(cancer):
    X, y, clf = cancer
    model = to_sklearn(clf)
    assert isinstance(model, DecisionTreeClassifier) and model.treeopt_input_ == "original"
    np.testing.assert_array_equal(model.predict(X), clf.predict(X))
    np.testing.assert_allclose(model.predict_proba(X), clf.predict_proba(X), rtol=0, atol=1e-12)
    assert same_partition(model.apply(X), clf.apply(X))
    assert model.get_n_leaves() == clf.tree_.n_leaves and model.get_depth() == clf.tree_.depth
    binary = to_sklearn(clf, input="binarized")
    Z = clf.binarizer_.transform(X)
    np.testing.assert_array_equal(binary.predict(Z), clf.predict(X))
    np.testing.assert_allclose(binary.predict_proba(Z), clf.predict_proba(X), rtol=0, atol=1e-12)


def test_predict_proba_is_treeopts_leaf_frequencies(cancer):
    X, y, clf = cancer
    model = to_sklearn(clf.tree_)
    leaves = [leaf for _, leaf in clf.tree_.leaves()]
    expected = np.array([np.asarray(leaf.counts) / np.sum(leaf.counts) for leaf in leaves])
    np.testing.assert_allclose(model.predict_proba(X), expected[clf.apply(X)], rtol=0, atol=1e-12)
    # The leaves hold the training weight of the rows reaching them.
    counts = clf.tree_.leaf_counts(X, y)
    leaf_nodes = np.flatnonzero(model.tree_.children_left == -1)
    assert sorted(model.tree_.weighted_n_node_samples[leaf_nodes].tolist()) == sorted(counts.sum(axis=1).tolist())


def test_export_text_and_tree_names_show_original_features_and_thresholds(cancer):
    X, y, clf = cancer
    model = to_sklearn(clf)
    text = export_text(model, feature_names=model.treeopt_feature_names_, decimals=4)
    used = {clf.tree_.features[node.feature] for node in clf.tree_._nodes(clf.tree_.root) if isinstance(node, Split)}
    for feature in used:
        assert f"{feature.column} <= {feature.value:.4f}" in text
    assert "feature_" not in text
    np.testing.assert_array_equal(model.feature_names_in_, WORST)   # fitted on a DataFrame


def test_plot_tree_draws_original_feature_names(cancer):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    from sklearn.tree import plot_tree

    X, y, clf = cancer
    model = to_sklearn(clf)
    texts = [a.get_text() for a in plot_tree(model, feature_names=model.treeopt_feature_names_,
                                              class_names=[str(c) for c in model.classes_])]
    root = clf.tree_.features[clf.tree_.root.feature]
    assert any(text.startswith(f"{root.column} <= ") for text in texts)
    assert sum("samples = " in text for text in texts) == model.tree_.node_count


def test_one_hot_tree_reads_binarized_features_and_refuses_original():
    X, y = load_tic_tac_toe()
    clf = OptimalTreeClassifier(regularization=0.01, depth_budget=3).fit(X, y)
    model = to_sklearn(clf)
    assert model.treeopt_input_ == "binarized"
    Z = clf.binarizer_.transform(X)
    np.testing.assert_array_equal(model.predict(Z), clf.predict(X))
    np.testing.assert_allclose(model.predict_proba(Z), clf.predict_proba(X), rtol=0, atol=1e-12)
    text = export_text(model, feature_names=model.treeopt_feature_names_)
    assert "middle_middle = " in text or " = " in text
    with pytest.raises(ValueError, match=r"input='original' is not possible: column '.+' is categorical"):
        to_sklearn(clf, input="original")


def test_zero_one_columns_export_on_the_original_table():
    require_datasets()
    X, y = read_binary("monk1")
    clf = OptimalTreeClassifier(regularization=0.02).fit(X, y)
    model = to_sklearn(clf)
    assert model.treeopt_input_ == "original"
    np.testing.assert_array_equal(model.predict(X), clf.predict(X))
    np.testing.assert_allclose(model.predict_proba(X), clf.predict_proba(X), rtol=0, atol=1e-12)
    assert set(model.tree_.threshold[model.tree_.children_left != -1].tolist()) == {0.5}


def test_missing_values_are_routed_as_treeopt_routes_them():
    rng = np.random.default_rng(3)
    n = 200
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n), "flag": rng.integers(0, 2, n).astype(float)})
    y = np.array(((X["a"] > 0) & (X["flag"] == 1)).astype(int))
    for column, share in (("a", 0.15), ("b", 0.3), ("flag", 0.2)):
        X.loc[rng.random(n) < share, column] = np.nan
    y[X["b"].isna().to_numpy()] = 1      # "b is missing" predicts the class: worth a split
    clf = OptimalTreeClassifier(regularization=0.01, depth_budget=3, max_thresholds=6, missing="indicator").fit(X, y)
    kinds = {clf.tree_.features[node.feature].kind for node in clf.tree_._nodes(clf.tree_.root)
             if isinstance(node, Split)}
    assert kinds == {"missing", "threshold", "binary"}     # x is missing, x <= t and a 0/1 column, all with NaN
    model = to_sklearn(clf, input="original")
    np.testing.assert_array_equal(model.predict(X), clf.predict(X))
    np.testing.assert_allclose(model.predict_proba(X), clf.predict_proba(X), rtol=0, atol=1e-12)
    # Rows missing where the training data had no NaN follow the false branch in both.
    fresh = pd.DataFrame({"a": [np.nan, 0.5, -0.5], "b": [0.1, np.nan, 0.2], "flag": [np.nan, 1.0, np.nan]})
    np.testing.assert_array_equal(model.predict(fresh), clf.predict(fresh))


@given(data=st.data())
def test_property_greedy_numeric_trees_agree_with_their_export(data):
    n_rows = data.draw(st.integers(8, 40))
    values = st.floats(-5, 5, allow_nan=False, width=32).map(lambda v: round(v, 2))
    X = pd.DataFrame({name: data.draw(st.lists(values, min_size=n_rows, max_size=n_rows)) for name in ("p", "q")})
    y = data.draw(st.lists(st.sampled_from(["u", "v", "w"]), min_size=n_rows, max_size=n_rows))
    if len(set(y)) < 2:
        y[0], y[1] = "u", "v"
    clf = GreedyTreeClassifier(max_depth=4).fit(X, y)
    model = clf.to_sklearn()
    probe = pd.DataFrame({name: data.draw(st.lists(values, min_size=20, max_size=20)) for name in ("p", "q")})
    for table in (X, probe):
        np.testing.assert_array_equal(model.predict(table), clf.predict(table))
        np.testing.assert_allclose(model.predict_proba(table), clf.predict_proba(table), rtol=0, atol=1e-12)


def test_smoothing_reaches_the_exported_probabilities(cancer):
    X, y, clf = cancer
    smoothed = OptimalTreeClassifier(**{**clf.get_params(), "proba_smoothing": 2.0}).fit(X, y)
    model = smoothed.to_sklearn()
    np.testing.assert_allclose(model.predict_proba(X), smoothed.predict_proba(X), rtol=0, atol=1e-12)
    assert not np.allclose(model.predict_proba(X), clf.predict_proba(X))
    np.testing.assert_allclose(to_sklearn(clf.tree_, smoothing=2.0).predict_proba(X), smoothed.predict_proba(X))


def test_a_tree_read_from_json_exports_without_its_binarizer(cancer):
    X, y, clf = cancer
    tree = Tree.from_dict(clf.tree_.to_dict())
    model = to_sklearn(tree)
    np.testing.assert_array_equal(model.predict(X.to_numpy()), clf.predict(X))
    assert not hasattr(model, "feature_names_in_")            # array input: no name check
    clone = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(clone.predict(X.to_numpy()), clf.predict(X))


def test_class_weighted_leaves_need_node_values_predictions():
    features = [BinaryFeature("x", 0, "threshold", 0.5, "x <= 0.5")]
    tree = Tree(Split(0, Leaf(0, (9, 1)), Leaf(1, (6, 4))), features, ["neg", "pos"])   # pos although 6 > 4
    with pytest.raises(ValueError, match=r"leaf 1 predicts 'pos' although .* node_values='predictions'"):
        to_sklearn(tree)
    model = to_sklearn(tree, node_values="predictions")
    X = np.array([[0.0], [1.0]])
    np.testing.assert_array_equal(model.predict(X), tree.predict(X, binarized=False))
    np.testing.assert_array_equal(model.predict_proba(X), [[0.0, 1.0], [1.0, 0.0]])


def test_multiway_trees_are_refused_with_the_alternatives():
    X, y = load_tic_tac_toe()
    greedy = GreedyTreeClassifier(multiway=True, max_depth=2).fit(X, y)
    assert greedy.tree_.has_multiway
    with pytest.raises(ValueError, match=r"multiway splits .* tree.to_dot\(\)"):
        greedy.to_sklearn()
    branches = OptimalTreeClassifier(solver="branches", regularization=0.05, depth_budget=2).fit(X, y)
    if branches.tree_.has_multiway:
        with pytest.raises(ValueError, match="multiway"):
            to_sklearn(branches)


def test_bad_arguments_are_refused_before_exporting(cancer):
    X, y, clf = cancer
    with pytest.raises(ValueError, match=r"input='raw' is not supported"):
        to_sklearn(clf, input="raw")
    with pytest.raises(ValueError, match=r"node_values='counts' is not supported"):
        to_sklearn(clf, node_values="counts")
    with pytest.raises(ValueError, match="smoothing must be a finite number >= 0"):
        to_sklearn(clf, smoothing=-1)
    with pytest.raises(TypeError, match="needs a treeopt Tree or a fitted treeopt estimator"):
        to_sklearn(DecisionTreeClassifier().fit([[0], [1]], [0, 1]))
    with pytest.raises(ValueError, match=r"not fitted yet; call fit"):
        to_sklearn(OptimalTreeClassifier())


def test_a_value_equal_to_a_threshold_goes_the_same_way_despite_float32():
    """scikit-learn rounds x to float32: 0.05 becomes 0.0500000007 > 0.05 (found by hypothesis)."""
    X = pd.DataFrame({"q": [0.0] * 7 + [0.1]})
    y = ["u", "v"] + ["u"] * 6
    clf = GreedyTreeClassifier(max_depth=4).fit(X, y)
    assert clf.tree_.depth >= 1                      # it splits on q <= 0.05
    on_threshold = pd.DataFrame({"q": [0.05, 0.0500001, 0.0499999]})
    model = clf.to_sklearn()
    np.testing.assert_array_equal(model.predict_proba(on_threshold), clf.predict_proba(on_threshold))


def test_a_row_equal_to_a_threshold_as_named_goes_left_in_treeopt_and_in_the_export():
    """Found by the property test above: between training values -1.86 and -1.5 the float64
    midpoint is -1.6800000000000002, so a new row -1.68 fell right of the split named
    ``q <= -1.68`` in treeopt, while scikit-learn, comparing float32(-1.68), sent it left. The
    threshold is now -1.68 itself, the midpoint's shortest decimal between the two values
    (``treeopt.numeric_thresholds.thresholds_between``)."""
    X = pd.DataFrame({"q": [-1.86, -1.86, -1.86, -1.5, -1.5, -1.5]})
    y = ["u", "u", "u", "v", "v", "v"]
    clf = GreedyTreeClassifier(max_depth=1).fit(X, y)
    assert "q <= -1.68" in str(clf.tree_)
    probe = pd.DataFrame({"q": [-1.68, -1.6799, -1.6801, -1.86, -1.5]})
    expected = ["u", "v", "u", "u", "v"]
    assert clf.predict(probe).tolist() == expected
    assert clf.to_sklearn().predict(probe).tolist() == expected


def test_beyond_float32_precision_the_export_still_sends_left_every_value_treeopt_sends_to_the_true_side():
    """scikit-learn rounds x to float32 (integers beyond 2**24 merge in pairs and more); the
    threshold ``max(t, float32(t))`` keeps treeopt's true side on the left (module notes)."""
    X = pd.DataFrame({"n": np.array([2**25 + 1, 2**25 + 5] * 3, dtype=np.int64)})
    clf = OptimalTreeClassifier(regularization=0.01).fit(X, [0, 1] * 3)
    model = clf.to_sklearn()
    probe = pd.DataFrame({"n": np.arange(2**25 - 8, 2**25 + 16, dtype=np.int64)})
    ours, theirs = clf.predict(probe), model.predict(probe)
    true_side = ours == 0
    assert (theirs[true_side] == 0).all()
    differ = probe["n"].to_numpy()[ours != theirs]
    assert all(np.float32(v) == np.float32(clf.tree_.features[0].value) for v in differ)

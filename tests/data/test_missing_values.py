"""Missing values: ``missing="indicator"`` in the binarizer, the estimators, Branches and the CLI.

The rule under test (``treeopt.binarize.Binarizer``, Notes): a column with
missing values in ``fit`` gets a feature ``x is missing`` before its other
features; those are learned from the present values only; a missing value
is false on every feature except the indicator. ``missing="error"`` (the
default) refuses missing values with a message that names the option.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force
from treeopt import OptimalTreeClassifier
from treeopt.binarize import Binarizer, BinaryFeature
from treeopt.categorical import CategoricalDataset
from treeopt.cli import main
from treeopt.greedy_estimators import GreedyTreeClassifier
from treeopt.tree import Tree

NAN = np.nan


def small_frame() -> pd.DataFrame:
    return pd.DataFrame({"age": [30, NAN, 10, 20, NAN],
                         "color": ["red", None, "blue", "red", "blue"],
                         "flag": [0, 1, 1, 0, 0]})


# -- the binarized columns ----------------------------------------------------------------------------------
def test_indicator_columns_on_a_hand_written_frame():
    b = Binarizer(missing="indicator").fit(small_frame())
    # age: indicator, then midpoints of the present values 10, 20, 30; color: indicator, then its two values.
    assert list(b.get_feature_names_out()) == [
        "age is missing", "age <= 15", "age <= 25", "color is missing", "color = blue", "color = red", "flag"]
    age, color = np.array([30, NAN, 10, 20, NAN]), ["red", None, "blue", "red", "blue"]
    present = ~np.isnan(age)
    expected = np.column_stack([
        ~present,
        present & (np.nan_to_num(age, nan=1e9) <= 15),
        present & (np.nan_to_num(age, nan=1e9) <= 25),
        [c is None for c in color],
        [c == "blue" for c in color],
        [c == "red" for c in color],
        [0, 1, 1, 0, 0],
    ]).astype(bool)
    np.testing.assert_array_equal(b.transform(small_frame()), expected)


def test_missing_rows_are_false_on_every_test_but_the_indicator():
    b = Binarizer(missing="indicator").fit(small_frame())
    Z = b.transform(small_frame())
    missing_age = np.array([1, 4])
    kinds = [f.kind for f in b.features_ if f.column == "age"]
    assert kinds == ["missing", "threshold", "threshold"]
    assert Z[missing_age, 0].all() and not Z[missing_age, 1:3].any()


def test_threshold_false_side_reads_or_missing():
    b = Binarizer(missing="indicator").fit(small_frame())
    by_name = {f.name: f for f in b.features_}
    assert by_name["age <= 15"].negated_name == "age > 15 or age is missing"
    assert by_name["age is missing"].negated_name == "age is not missing"
    # The false side of a category test names the missing rows too, as thresholds do.
    assert by_name["color = red"].negated_name == "color != red or color is missing"
    assert by_name["flag"].negated_name == "not (flag)"           # flag had no missing values


def test_category_dtype_nullable_integers_and_binary_columns():
    X = pd.DataFrame({"size": pd.Series(["S", NAN, "L", "S"], dtype="category"),
                      "count": pd.array([1, None, 3, 2], dtype="Int64"),
                      "bit": [1.0, NAN, 0.0, 1.0]})
    b = Binarizer(missing="indicator").fit(X)
    assert list(b.get_feature_names_out()) == [
        "size is missing", "size = L", "size = S",
        "count is missing", "count <= 1.5", "count <= 2.5",
        "bit is missing", "bit"]
    assert "size = nan" not in b.get_feature_names_out()
    Z = b.transform(X).astype(int)
    assert Z[1].tolist() == [1, 0, 0, 1, 0, 0, 1, 0]
    assert Z[:, 7].tolist() == [1, 0, 0, 1]
    assert b.features_[7].has_missing and b.features_[4].has_missing


def test_columns_without_missing_values_are_unchanged():
    X = small_frame().drop(columns=["age", "color"]).assign(x=[3.0, 1.0, 2.0, 5.0, 4.0], c=list("abcab"))
    default, indicator = Binarizer().fit(X), Binarizer(missing="indicator").fit(X)
    assert indicator.features_ == default.features_
    np.testing.assert_array_equal(indicator.transform(X), default.transform(X))


def test_missing_at_predict_time_in_a_column_that_had_none_is_false_everywhere():
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0], "c": ["a", "b", "a"]})
    b = Binarizer(missing="indicator").fit(X)
    Z = b.transform(pd.DataFrame({"x": [NAN, 2.0], "c": [None, "b"]}))
    assert Z[0].tolist() == [False] * len(b.features_)
    assert Z[1].tolist() == b.transform(X.iloc[[1]])[0].tolist()


# -- the default still refuses, with the fix in the message ---------------------------------------------
def test_default_raises_and_names_the_option():
    with pytest.raises(ValueError, match=r"missing values \(NaN\) in columns \['age', 'color'\].*missing='indicator'"):
        Binarizer().fit(small_frame())
    with pytest.raises(ValueError, match="missing='indicator'"):
        OptimalTreeClassifier().fit(small_frame(), [0, 1, 1, 0, 1])
    fitted = OptimalTreeClassifier(regularization=0.1).fit(small_frame().fillna({"age": 0, "color": "red"}),
                                                            [0, 1, 1, 0, 1])
    with pytest.raises(ValueError, match="missing='indicator'"):
        fitted.predict(small_frame())


def test_bad_policy_and_guessing_are_refused_before_any_search():
    with pytest.raises(ValueError, match="missing='impute' is not supported"):
        Binarizer(missing="impute").fit(small_frame())
    with pytest.raises(ValueError, match="missing"):
        OptimalTreeClassifier(missing="impute").fit(small_frame(), [0, 1, 1, 0, 1])
    for option in ({"thresholds": "guess"}, {"reference": "gbdt"}):
        with pytest.raises(ValueError, match="cannot be combined"):
            OptimalTreeClassifier(missing="indicator", **option).fit(small_frame(), [0, 1, 1, 0, 1])


def test_sklearn_allow_nan_tag_follows_the_option():
    assert OptimalTreeClassifier().__sklearn_tags__().input_tags.allow_nan is False
    assert OptimalTreeClassifier(missing="indicator").__sklearn_tags__().input_tags.allow_nan is True
    # GreedyTreeClassifier takes the same option, so it must declare NaN support the same way.
    assert GreedyTreeClassifier().__sklearn_tags__().input_tags.allow_nan is False
    assert GreedyTreeClassifier(missing="indicator").__sklearn_tags__().input_tags.allow_nan is True


# -- optimality on the binarized data ----------------------------------------------------------------------
@st.composite
def frames_with_gaps(draw):
    n = draw(st.integers(6, 16))
    x = draw(st.lists(st.sampled_from([1.0, 2.0, 3.0, NAN]), min_size=n, max_size=n))
    c = draw(st.lists(st.sampled_from(["u", "v", None]), min_size=n, max_size=n))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    if len(set(y)) < 2:
        y[0] = 1 - y[0]
    return pd.DataFrame({"x": x, "c": c}), np.asarray(y)


@settings(max_examples=25)
@given(frames_with_gaps(), st.sampled_from([0.02, 0.1]))
def test_optimal_tree_equals_the_brute_force_oracle(data, lam):
    X, y = data
    clf = OptimalTreeClassifier(regularization=lam, missing="indicator", depth_budget=3).fit(X, y)
    Z = clf.binarizer_.transform(X)
    assert Z.shape[1] <= 6                                   # the oracle's size limit
    oracle = brute_force(Z.astype(int), y, lam, depth=3)
    assert clf.optimal_
    assert clf.objective_ == pytest.approx(oracle.objective, abs=1e-9)
    # The tree's objective recomputed from its predictions on the original frame.
    assert clf.tree_.objective(X, y, lam) == pytest.approx(oracle.objective, abs=1e-9)


def planted(seed: int, n: int = 60):
    """x missing => class 1; otherwise class 0 whatever x is (only the indicator separates them)."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 10, n).astype(float)
    x[rng.random(n) < 0.3] = NAN
    noise = rng.choice(["a", "b", "c"], n)
    return pd.DataFrame({"x": x, "noise": noise}), np.where(np.isnan(x), 1, 0)


@pytest.mark.parametrize("solver", ["gosdt", "branches", "osdt"])
def test_planted_missing_rule_is_found_and_routes_new_rows(solver):
    X, y = planted(0)
    clf = OptimalTreeClassifier(regularization=0.05, solver=solver, missing="indicator").fit(X, y)
    assert clf.optimal_ and clf.score(X, y) == 1.0
    assert clf.tree_.n_leaves == 2
    assert "if x is missing:" in clf.tree_.rules()
    new = pd.DataFrame({"x": [NAN, 2.0, NAN, 100.0, -5.0], "noise": ["a", "c", "b", "a", "b"]})
    assert clf.predict(new).tolist() == [1, 0, 1, 0, 0]


def test_predict_on_the_original_frame_equals_predict_on_the_binarized_matrix():
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"x": rng.normal(size=40).round(1), "c": rng.choice(["p", "q", "r"], 40)})
    X.loc[rng.random(40) < 0.25, "x"] = NAN
    X.loc[rng.random(40) < 0.25, "c"] = None
    y = ((X["x"].fillna(0) > 0) ^ (X["c"] == "p")).astype(int)
    clf = OptimalTreeClassifier(regularization=0.03, missing="indicator", depth_budget=3).fit(X, y)
    new = pd.DataFrame({"x": [NAN, -1.0, 0.5, NAN, 2.0], "c": [None, "p", None, "q", "zz"]})
    for table in (X, new):
        Z = clf.binarizer_.transform(table)
        np.testing.assert_array_equal(clf.tree_.predict(table), clf.tree_.predict(Z, binarized=True))
        np.testing.assert_array_equal(clf.predict(table), clf.tree_.predict(Z, binarized=True))
        np.testing.assert_array_equal(clf.apply(table), clf.tree_.apply(Z, binarized=True))
    # A tree read back from JSON (no binarizer) evaluates its features itself, with the same result.
    restored = Tree.from_dict(clf.tree_.to_dict())
    assert restored == clf.tree_
    assert [f.has_missing for f in restored.features] == [f.has_missing for f in clf.tree_.features]
    np.testing.assert_array_equal(restored.predict(new, binarized=False), clf.predict(new))


def test_arrays_with_nan_work_like_frames():
    X, y = planted(1, n=30)
    array = X[["x"]].to_numpy()
    clf = OptimalTreeClassifier(regularization=0.05, missing="indicator").fit(array, y)
    assert clf.tree_.rules().startswith("if x0 is missing:")
    assert clf.predict(np.array([[NAN], [4.0]])).tolist() == [1, 0]


# -- Branches: the missing category of a multiway split ------------------------------------------------
def test_branches_multiway_split_with_a_missing_category():
    color = ["red", None, "blue", "red", None, "green", "blue", None]
    y = [0, 1, 1, 0, 1, 0, 1, 1]
    X = pd.DataFrame({"color": color})
    ds = CategoricalDataset.from_arrays(X, y, missing="indicator")
    assert ds.columns[0].values == (None, "blue", "green", "red")
    assert [f.name for f in ds.features] == ["color is missing", "color = blue", "color = green", "color = red"]
    assert [ds.class_counts(m) for m in ds.column_masks[0]] == [(0, 3), (0, 2), (1, 0), (2, 0)]

    clf = OptimalTreeClassifier(solver="branches", regularization=0.01, missing="indicator").fit(X, y)
    rules = clf.tree_.rules()
    assert clf.tree_.has_multiway and rules.splitlines()[0].startswith("if color is missing:")
    assert "nan" not in rules and "None" not in rules
    assert clf.score(X, y) == 1.0
    assert clf.predict(pd.DataFrame({"color": [NAN, None, "green", "red"]})).tolist() == [1, 1, 0, 0]
    assert "is missing" in clf.tree_.to_dot()
    restored = Tree.from_dict(clf.tree_.to_dict())
    assert restored.predict(pd.DataFrame({"color": [pd.NA, "green"]})).tolist() == [1, 0]
    with pytest.raises(ValueError, match="missing='indicator'"):
        OptimalTreeClassifier(solver="branches").fit(X, y)


def test_greedy_classifier_multiway_branch_for_missing():
    X = pd.DataFrame({"color": ["red", None, "blue", "red", None, "green", "blue", None]})
    y = [0, 1, 1, 0, 1, 0, 1, 1]
    greedy = GreedyTreeClassifier(criterion="entropy", multiway=True, missing="indicator").fit(X, y)
    assert "if color is missing:" in greedy.tree_.rules()
    assert greedy.predict(pd.DataFrame({"color": [None, "green"]})).tolist() == [1, 0]
    with pytest.raises(ValueError, match="missing='indicator'"):
        GreedyTreeClassifier().fit(X, y)


# -- the CLI ----------------------------------------------------------------------------------------------------
def test_cli_missing_flag(tmp_path, capsys):
    X, y = planted(2, n=30)
    path = tmp_path / "gaps.csv"
    X.assign(label=y).to_csv(path, index=False)          # NaN is written as an empty cell
    with pytest.raises(SystemExit, match="--missing indicator"):
        main(["fit", str(path), "--target", "label"])
    assert main(["fit", str(path), "--target", "label", "--missing", "indicator", "--regularization", "0.05"]) == 0
    assert "if x is missing:" in capsys.readouterr().out


def test_binary_feature_missing_kind_handles_every_missing_marker():
    f = BinaryFeature("c", 0, "missing", None, "c is missing")
    values = np.array([None, NAN, pd.NA, "a", 0], dtype=object)
    assert f.evaluate(values).tolist() == [True, True, True, False, False]
    g = BinaryFeature("c", 0, "category", "a", "c = a")
    assert g.evaluate(values).tolist() == [False, False, False, True, False]


def test_binarizer_allow_nan_tag_follows_the_option():
    assert Binarizer().__sklearn_tags__().input_tags.allow_nan is False
    assert Binarizer(missing="indicator").__sklearn_tags__().input_tags.allow_nan is True

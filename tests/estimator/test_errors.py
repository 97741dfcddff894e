"""Bad input fails fast with a ValueError/TypeError that names the problem, before any search starts."""

import numpy as np
import pandas as pd
import pytest

from treeopt import OptimalTreeClassifier
from treeopt.cli import main
from treeopt.cli.tables import read_table
from treeopt.data import Dataset
from treeopt.estimator import check_fit_input
from treeopt.solvers import GOSDT

GOOD_X = pd.DataFrame({"age": [20, 30, 40, 50, 60, 70], "colour": ["red", "blue", "red", "blue", "red", "blue"]})
GOOD_Y = np.array([0, 1, 0, 1, 1, 0])


@pytest.fixture(autouse=True)
def no_search(monkeypatch):
    """Any search started during these tests is a failure: errors must come first."""
    def forbidden(self):
        raise AssertionError("a search started before the input was validated")
        yield  # pragma: no cover
    monkeypatch.setattr(GOSDT, "_search", forbidden)


def fit(X, y, **params):
    return OptimalTreeClassifier(**{"regularization": 0.05, **params}).fit(X, y)


@pytest.mark.parametrize("X, y, error, message", [
    (pd.DataFrame({"a": []}), [], ValueError, "0 sample"),
    (np.zeros((0, 3)), [], ValueError, "0 sample"),
    (np.zeros((4, 0)), [0, 1, 0, 1], ValueError, "0 feature"),
    (pd.DataFrame({"a": [1.0, np.nan, 3.0, 4.0]}), [0, 1, 0, 1], ValueError, "missing values"),
    (pd.DataFrame({"a": ["x", None, "y", "x"]}), [0, 1, 0, 1], ValueError, "missing values"),
    (GOOD_X, [0, 1, np.nan, 1, 0, 1], ValueError, "NaN"),
    (GOOD_X, ["a", "b", None, "a", "b", "a"], ValueError, "missing values"),
    (GOOD_X, [1, 1, 1, 1, 1, 1], ValueError, "only one class"),
    (GOOD_X, [0.5, 1.25, 2.0, 0.1, 0.2, 0.3], ValueError, "Unknown label type"),
    (pd.DataFrame({"a": [1.0, np.inf, 3.0, 4.0]}), [0, 1, 0, 1], ValueError, "infinite"),
    (pd.DataFrame({"a": np.array([1, 2, -np.inf, 4], dtype=np.float32), "b": [1.0, 2.0, 3.0, np.nan]}),
     [0, 1, 0, 1], ValueError, "missing values"),
    (pd.DataFrame({"a": np.array([1, 2, -np.inf, 4], dtype=np.float32)}), [0, 1, 0, 1], ValueError, "infinite"),
    (GOOD_X, pd.Series([0.5, 1.25, 2.0, 0.1, 0.2, 0.3]), ValueError, "Unknown label type"),
    (GOOD_X, [0, 1, 0], ValueError, "inconsistent numbers of samples"),
    (pd.DataFrame({"when": pd.date_range("2020-01-01", periods=6)}), GOOD_Y, TypeError, "neither numeric"),
    (pd.DataFrame({"thing": [object() for _ in range(6)]}), GOOD_Y, TypeError, "neither numbers nor categories"),
    (pd.DataFrame({"z": [1j, 2j, 1, 2, 3, 4]}), GOOD_Y, ValueError, "Complex"),
    # Frames are read column by column (not copied by check_array): the same errors.
    (pd.DataFrame({"a": [1.0, np.inf, 3.0, 4.0]}), np.array([0, 1, 0, 1]), ValueError, "infinite"),
    (pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0]}), np.array([0, 1, 0]), ValueError, "inconsistent numbers of samples"),
    (pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0]}), np.array([1, 1, 1, 1]), ValueError, "only one class"),
    (pd.DataFrame({"a": [1.0, 2.0], 3: [1.0, 2.0]}), np.array([0, 1]), TypeError, "Feature names"),
], ids=["empty-frame", "empty-array", "no-columns", "nan-in-X", "none-in-X", "nan-in-y", "none-in-y",
        "single-class", "continuous-y", "inf-in-X", "float-frame-nan-and-inf",
        "float32-inf", "continuous-y-series", "length-mismatch", "datetime-column", "object-column", "complex-column",
        "numeric-frame-inf", "numeric-frame-length-mismatch", "numeric-frame-single-class",
        "numeric-frame-mixed-names"])
def test_estimator_rejects_bad_data(X, y, error, message):
    with pytest.raises(error, match=message):
        fit(X, y)


@pytest.mark.parametrize("lam", [0, -0.1, 1.5, float("nan"), float("inf"), "0.1", None])
def test_estimator_rejects_bad_regularization(lam):
    with pytest.raises((ValueError, TypeError), match="regularization"):
        fit(GOOD_X, GOOD_Y, regularization=lam)


@pytest.mark.parametrize("params, message", [
    ({"solver": "nope"}, "solver"),
    ({"objective": "nope"}, "objective"),
    ({"depth_budget": -1}, "depth_budget"),
    ({"time_limit": 0}, "time_limit"),
    ({"thresholds": "every"}, "thresholds"),
    ({"bounds": {"no_such_bound": False}}, "no_such_bound"),
])
def test_estimator_rejects_bad_parameters(params, message):
    with pytest.raises((ValueError, TypeError), match=message):
        fit(GOOD_X, GOOD_Y, **params)


def test_binary_only_objective_rejects_three_classes():
    with pytest.raises(ValueError, match="two classes"):
        fit(GOOD_X, [0, 1, 2, 0, 1, 2], objective="weighted_accuracy")


@pytest.mark.parametrize("lam", [0, -1, 1.01, float("nan"), True, "0.1"])
def test_solver_rejects_bad_regularization(lam):
    ds = Dataset.from_binary(np.array([[0], [1]]), [0, 1])
    with pytest.raises(ValueError, match="regularization"):
        GOSDT(ds, regularization=lam)


def test_solver_rejects_a_table_instead_of_a_dataset():
    with pytest.raises(TypeError, match="Dataset.from_arrays"):
        GOSDT(GOOD_X, regularization=0.1)


@pytest.mark.parametrize("X, y, weights, message", [
    (np.zeros((0, 2)), [], None, "empty"),
    (np.array([[0], [1]]), [0, 1, 1], None, "must match"),
    (np.array([[0], [1]]), [0, np.nan], None, "missing values"),
    (np.array([[0], [2]]), [0, 1], None, "0/1"),
    (np.array([[0], [1]]), [0, 1], [1.0, -1.0], "non-negative"),
    (np.array([[0], [1]]), [0, 1], [1.0, np.nan], "finite"),
    (np.array([[0], [1]]), [0, 1], [0.0, 0.0], "sums to zero"),
    (np.array([[0], [1]]), [0, 1], [1.0], "shape"),
])
def test_dataset_rejects_bad_input(X, y, weights, message):
    with pytest.raises(ValueError, match=message):
        Dataset.from_binary(X, y, sample_weight=weights)


def test_estimator_rejects_bad_sample_weight():
    with pytest.raises(ValueError, match="non-negative"):
        OptimalTreeClassifier().fit(GOOD_X, GOOD_Y, sample_weight=[1, 1, 1, -1, 1, 1])


def test_csv_target_column_that_does_not_exist(tmp_path):
    path = tmp_path / "data.csv"
    GOOD_X.assign(label=GOOD_Y).to_csv(path, index=False)
    with pytest.raises(SystemExit, match="target column 'lable' is not in"):
        read_table(str(path), "lable")
    with pytest.raises(SystemExit, match="--target"):
        main(["fit", str(path), "--target", "lable"])
    with pytest.raises(SystemExit, match="no such file"):
        main(["fit", str(tmp_path / "missing.csv"), "--target", "label"])


def test_a_numeric_frame_sets_the_names_and_width_it_is_checked_against():
    """A frame is kept as it is (the binarizer reads its columns), and validate_data records
    feature_names_in_ and n_features_in_, so predicting on other columns is refused as scikit-learn
    refuses it."""
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [4.0, 3.0, 2.0, 1.0]})
    clf = OptimalTreeClassifier(regularization=0.05)
    table, y = check_fit_input(clf, X, np.array([0, 1, 0, 1]))
    assert table is X and clf.n_features_in_ == 2 and clf.feature_names_in_.tolist() == ["a", "b"]
    assert clf.classes_.tolist() == [0, 1]

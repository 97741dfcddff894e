"""A tree reads its original table by column name (fitted on a DataFrame) or by position (an array)."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from treeopt import OptimalTreeClassifier
from treeopt.tree import Tree

X = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6], "b": [0, 1, 0, 1, 0, 1], "c": [5.0, 4.0, 3.0, 2.0, 1.0, 0.0]})
Y = np.array([0, 0, 0, 1, 1, 1])


@pytest.fixture(scope="module")
def clf():
    return OptimalTreeClassifier(regularization=0.01).fit(X, Y)


def test_the_fitted_tree_predicts_the_same_on_reordered_columns(clf):
    """Read by position, ``X[["c", "a", "b"]]`` predicted [1 1 1 0 0 0] for [0 0 0 1 1 1]."""
    assert clf.tree_.predict(X[["c", "a", "b"]]).tolist() == clf.tree_.predict(X).tolist() == Y.tolist()


def test_the_fitted_tree_refuses_renamed_columns(clf):
    with pytest.raises(ValueError, match=r"missing \['a'\], not seen at fit \['alpha'\]"):
        clf.tree_.predict(X.rename(columns={"a": "alpha"}))


def test_a_tree_read_from_json_reads_by_name(clf):
    tree = Tree.from_dict(json.loads(clf.tree_.to_json()))
    assert tree.predict(X[["b", "c", "a"]]).tolist() == Y.tolist()
    with pytest.raises(ValueError, match=r"not seen at fit \['d'\]"):
        tree.predict(X.assign(d=0))


def test_a_tree_fitted_on_an_array_reads_by_position_even_from_json():
    fitted = OptimalTreeClassifier(regularization=0.01).fit(X.to_numpy(), Y)
    for tree in (fitted.tree_, Tree.from_dict(json.loads(fitted.tree_.to_json()))):
        assert tree.predict(pd.DataFrame(X.to_numpy(), columns=["p", "q", "r"])).tolist() == Y.tolist()
        with pytest.raises(ValueError, match="X has 2 (features|columns)"):
            tree.predict(X.to_numpy()[:, :2])


def test_a_multiway_tree_reads_by_name():
    table = pd.DataFrame({"colour": ["red", "blue", "green", "red", "blue", "green"], "size": [1, 2, 3, 4, 5, 6]})
    labels = [0, 1, 1, 0, 1, 1]
    clf = OptimalTreeClassifier(regularization=0.01, solver="branches").fit(table, labels)
    assert clf.tree_.has_multiway
    assert clf.tree_.predict(table[["size", "colour"]]).tolist() == labels
    with pytest.raises(ValueError, match="not seen at fit"):
        clf.tree_.predict(table.rename(columns={"colour": "color"}))


def test_an_array_given_to_a_tree_fitted_on_names_is_read_by_position_with_a_warning(clf):
    """An array has no names to check: the tree and its binarizer say they read it by position."""
    for reader in (clf.tree_.predict, clf.binarizer_.transform):
        with pytest.warns(UserWarning, match=r"fitted with feature names \['a', 'b', 'c'\].*by position"):
            reader(X.to_numpy())
    with pytest.warns(UserWarning, match="by position"):
        assert clf.tree_.predict(X.to_numpy()).tolist() == clf.tree_.predict(X).tolist()


def test_the_estimator_warns_once_for_an_array_after_fitting_on_names(clf):
    """scikit-learn's own warning is the one: the tree reads the checked array under the fitted names."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        predicted = clf.predict(X.to_numpy())
    assert predicted.tolist() == Y.tolist()
    assert len([w for w in caught if "feature names" in str(w.message)]) == 1

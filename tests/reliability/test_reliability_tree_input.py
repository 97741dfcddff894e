"""A tree read back from JSON never predicts on the wrong reading of X.

``Tree.from_dict(json.loads(clf.tree_.to_json())).predict(X)`` used to read a raw numeric table as
the binarized matrix whenever the column counts matched: accuracy fell from 0.945 to 0.485 with no
warning. The tree now records the original columns it was fitted on and refuses an X that could
be either, naming ``binarized=``.
"""

import json

import numpy as np
import pandas as pd
import pytest

from treeopt import OptimalTreeClassifier
from treeopt.data import Dataset
from treeopt.solvers import GOSDT
from treeopt.tree import Tree


@pytest.fixture(scope="module")
def two_numeric_columns():
    """Two numeric columns of two values each: one threshold each, so the column counts match."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"u": rng.choice([1.0, 5.0], 200), "v": rng.choice([2.0, 8.0], 200)})
    y = ((X.u > 3) ^ (X.v > 5)).astype(int).to_numpy().copy()
    flip = rng.random(200) < 0.05
    y[flip] = 1 - y[flip]
    clf = OptimalTreeClassifier(regularization=0.02).fit(X, y)
    assert clf.binarizer_.transform(X).shape[1] == X.shape[1] == 2 and clf.tree_.n_leaves > 1
    return X, y, clf


def test_json_tree_refuses_an_ambiguous_array(two_numeric_columns):
    X, y, clf = two_numeric_columns
    loaded = Tree.from_dict(json.loads(clf.tree_.to_json()))
    with pytest.raises(ValueError, match="ambiguous.*binarized=False"):
        loaded.predict(X.to_numpy())              # used to be read as the binary matrix, silently


def test_json_tree_predicts_like_the_estimator_when_told_or_given_names(two_numeric_columns):
    X, y, clf = two_numeric_columns
    loaded = Tree.from_dict(json.loads(clf.tree_.to_json()))
    expected = clf.predict(X)
    assert (loaded.predict(X) == expected).all()                               # a DataFrame: by names
    assert (loaded.predict(X.to_numpy(), binarized=False) == expected).all()
    Z = clf.binarizer_.transform(X)
    assert (loaded.predict(Z) == expected).all()                               # booleans: the binary matrix
    assert (loaded.predict(Z.astype(int), binarized=True) == expected).all()


def test_json_records_the_original_columns(two_numeric_columns):
    X, y, clf = two_numeric_columns
    data = json.loads(clf.tree_.to_json())
    assert data["input"] == {"table": "original", "columns": ["u", "v"], "named": True}
    loaded = Tree.from_dict(data)
    with pytest.raises(ValueError, match="3 columns"):
        loaded.predict(np.zeros((4, 3)))


def test_unambiguous_arrays_are_read_the_only_way_they_can_be():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"u": rng.random(120), "v": rng.random(120)})
    y = (X.u > 0.4).astype(int).to_numpy()
    clf = OptimalTreeClassifier(regularization=0.02, max_thresholds=3).fit(X, y)
    loaded = Tree.from_dict(json.loads(clf.tree_.to_json()))
    expected = clf.predict(X)
    assert (loaded.predict(X.to_numpy()) == expected).all()                    # 2 columns vs 6 features
    assert (loaded.predict(clf.binarizer_.transform(X).astype(int)) == expected).all()


def test_a_tree_fitted_on_binary_columns_reads_both_alike():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    y = np.array([0, 1, 1, 0] * 3)
    tree = GOSDT(Dataset.from_binary(X, y), regularization=0.05).run().tree
    loaded = Tree.from_dict(json.loads(tree.to_json()))
    assert json.loads(tree.to_json())["input"] == {"table": "binary"}
    assert (loaded.predict(X) == y).all()


def test_a_dataframe_with_other_names_is_refused(two_numeric_columns):
    X, y, clf = two_numeric_columns
    loaded = Tree.from_dict(json.loads(clf.tree_.to_json()))
    with pytest.raises(ValueError, match=r"missing \['u', 'v'\], not seen at fit \['a', 'b'\]"):
        loaded.predict(X.rename(columns={"u": "a", "v": "b"}))

"""Property: every predicting object reads a DataFrame by column name, never by position.

For random DataFrames (integer, large-integer, float and string columns) and random trees over
their binary features, the binarizer, the tree, the tree read back from JSON, the estimator, the
Rashomon set and the frontier predict on reordered columns exactly what they predict on the
original frame, and raise a ``ValueError`` listing the difference for a missing, a renamed or an
extra column.
"""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from treeopt import Binarizer, OptimalTreeClassifier
from treeopt import frontier
from treeopt import rashomon_set
from treeopt.tree import Leaf, Split, Tree

NAMES = ["age", "income", "city", "id", "score"]


@st.composite
def frames(draw):
    n_rows = draw(st.integers(4, 10))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True))
    data = {}
    for name in names:
        kind = draw(st.sampled_from(["int", "big", "float", "str"]))
        if kind == "int":
            values = draw(st.lists(st.integers(-5, 5), min_size=n_rows, max_size=n_rows))
        elif kind == "big":
            values = [2**62 + v for v in draw(st.lists(st.integers(0, 5), min_size=n_rows, max_size=n_rows))]
        elif kind == "float":
            values = draw(st.lists(st.floats(-100, 100, allow_nan=False), min_size=n_rows, max_size=n_rows))
        else:
            values = draw(st.lists(st.sampled_from(["x", "y", "z"]), min_size=n_rows, max_size=n_rows))
        data[name] = pd.Series(values, dtype={"int": "int64", "big": "int64", "float": "float64", "str": object}[kind])
    labels = np.array(draw(st.lists(st.integers(0, 1), min_size=n_rows, max_size=n_rows)))
    labels[:2] = [0, 1]
    order = draw(st.permutations(names))
    return pd.DataFrame(data), labels, list(order)


@st.composite
def random_trees(draw, n_features, depth=3):
    if n_features == 0 or depth == 0 or draw(st.booleans()):
        return Leaf(draw(st.integers(0, 1)))
    return Split(draw(st.integers(0, n_features - 1)), draw(random_trees(n_features, depth - 1)),
                 draw(random_trees(n_features, depth - 1)))


def _changed_tables(frame):
    """(table, text the error must list) for a missing, a renamed and an extra column."""
    first = frame.columns[0]
    yield frame.drop(columns=[first]), f"missing ['{first}']"
    yield frame.rename(columns={first: "renamed"}), "not seen at fit ['renamed']"
    yield frame.assign(extra=0), "not seen at fit ['extra']"


def _predictors(frame, labels, root, binarizer):
    tree = Tree(root, binarizer.features_, [0, 1], binarizer=binarizer)
    yield "binarizer", binarizer.transform
    yield "tree", tree.predict
    yield "tree from JSON", Tree.from_dict(json.loads(tree.to_json())).predict
    clf = OptimalTreeClassifier(regularization=0.05, time_limit=30).fit(frame, labels)
    yield "estimator tree", clf.tree_.predict
    rs = rashomon_set(frame, labels, regularization=0.1, epsilon=0.2)
    yield "Rashomon agreement", rs.predict_agreement
    yield "Rashomon tree", rs[0].predict
    yield "frontier tree", frontier(frame, labels, max_leaves=3).tree_for(leaves=3).predict


@pytest.mark.slow
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_predictor_reads_reordered_columns_by_name_and_refuses_changed_ones(data):
    frame, labels, order = data.draw(frames())
    binarizer = Binarizer().fit(frame)
    root = data.draw(random_trees(len(binarizer.features_)))
    reordered = frame[order]
    for name, predict in _predictors(frame, labels, root, binarizer):
        np.testing.assert_array_equal(predict(reordered), predict(frame), err_msg=name)
        for table, listed in _changed_tables(frame):
            with pytest.raises(ValueError) as error:
                predict(table)
            assert listed in str(error.value), (name, str(error.value))

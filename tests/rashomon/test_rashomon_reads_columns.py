"""The trees of a Rashomon set, and its agreement, read the table by column name."""

import numpy as np
import pandas as pd
import pytest

from conftest import split_names
from treeopt import rashomon_set

X = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6, 7, 8], "b": [0, 1, 0, 1, 0, 1, 1, 0], "c": [8.0, 7, 6, 5, 4, 3, 2, 1]})
Y = np.array([0, 0, 0, 1, 1, 1, 0, 1])


def test_trees_and_agreement_are_the_same_on_reordered_columns():
    rs = rashomon_set(X, Y, regularization=0.05, epsilon=0.3)
    reordered = X[["c", "b", "a"]]
    np.testing.assert_array_equal(rs.predict_agreement(reordered), rs.predict_agreement(X))
    checked = set()
    for tree in rs:       # one tree per set of splits (hundreds of the set's trees repeat the same splits)
        splits = frozenset(split_names(tree))
        if splits not in checked:
            checked.add(splits)
            assert tree.predict(reordered).tolist() == tree.predict(X).tolist()
    assert len(checked) > 1
    with pytest.raises(ValueError, match=r"missing \['c'\]"):
        rs.predict_agreement(X[["a", "b"]])

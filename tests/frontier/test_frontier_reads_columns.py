"""The trees of a frontier read the table by column name."""

import numpy as np
import pandas as pd
import pytest

from treeopt import frontier

X = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6, 7, 8], "b": [0, 1, 0, 1, 0, 1, 1, 0], "c": [8.0, 7, 6, 5, 4, 3, 2, 1]})
Y = np.array([0, 0, 0, 1, 1, 1, 0, 1])


def test_tree_for_predicts_the_same_on_reordered_columns():
    result = frontier(X, Y, max_leaves=4)
    for leaves in range(1, 5):
        tree = result.tree_for(leaves=leaves)
        assert tree.predict(X[["b", "c", "a"]]).tolist() == tree.predict(X).tolist()
    with pytest.raises(ValueError, match=r"renamed\? 'z' for 'b'"):
        result.tree_for(leaves=4).predict(X.rename(columns={"b": "z"}))

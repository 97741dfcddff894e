"""Issue 17 item 15: bad tables get a message naming the problem and the fix."""
import pandas as pd
import pytest

from treeopt import OptimalTreeClassifier


def test_duplicate_column_names_are_named():
    X = pd.DataFrame([[0, 1], [1, 0], [1, 1], [0, 0]], columns=["a", "a"])
    with pytest.raises(ValueError, match=r"duplicate column names \['a'\]"):
        OptimalTreeClassifier(regularization=0.1).fit(X, [0, 1, 0, 1])


def test_distinct_column_names_fit():
    X = pd.DataFrame([[0, 1], [1, 0], [1, 1], [0, 0]], columns=["a", "b"])
    clf = OptimalTreeClassifier(regularization=0.1).fit(X, [0, 1, 1, 0])
    assert clf.predict(X).tolist() == [0, 1, 1, 0]

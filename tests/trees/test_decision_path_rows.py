"""Tree.decision_path reads one pandas row of a table with mixed column types."""

import numpy as np
import pandas as pd
import pytest

from treeopt import OptimalTreeClassifier


def _fitted_on_bool_and_numbers():
    X = pd.DataFrame({"flag": [True, False, True, False, True, False, True, False],
                      "age": [20.0, 30.0, 40.0, 50.0, 25.0, 35.0, 45.0, 55.0]})
    y = np.array([1, 0, 1, 0, 1, 1, 0, 0])
    return X, OptimalTreeClassifier(regularization=0.01).fit(X, y)


def test_a_row_of_a_table_with_a_bool_column_gives_the_estimators_path():
    X, clf = _fitted_on_bool_and_numbers()
    assert clf.tree_.n_splits >= 1
    assert any(f.column == "flag" for f in clf.tree_.features)
    paths = clf.decision_path(X).toarray()
    for i in range(len(X)):
        row = X.iloc[i]                           # an object Series: True next to 20.0
        assert row.dtype == object
        assert clf.tree_.decision_path(row) == np.flatnonzero(paths[i]).tolist()



def test_a_row_given_as_a_mapping_is_read_by_name():
    X, clf = _fitted_on_bool_and_numbers()
    for i in range(len(X)):
        row = {"age": X.age[i], "flag": X.flag[i]}           # the fitted order is flag, age
        assert clf.tree_.decision_path(row) == clf.tree_.decision_path(X.iloc[i])
    with pytest.raises(ValueError, match="missing \\['flag'\\]"):
        clf.tree_.decision_path({"age": 20.0})

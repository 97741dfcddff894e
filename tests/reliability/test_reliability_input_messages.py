"""Bad tables get a message naming the problem and the fix."""
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


@pytest.mark.parametrize("fit_as_strings", [True, False])
def test_predicting_on_another_column_kind_is_refused(fit_as_strings):
    strings = pd.DataFrame({"a": ["0", "1", "1", "0"] * 5, "b": ["1", "0", "1", "0"] * 5})
    numbers = strings.astype(int)
    fit_X, other_X = (strings, numbers) if fit_as_strings else (numbers, strings)
    y = [0, 1, 1, 0] * 5
    clf = OptimalTreeClassifier(regularization=0.01).fit(fit_X, y)
    assert clf.score(fit_X, y) == 1.0
    with pytest.raises(ValueError, match="column 'a' was .* when fitted but is"):
        clf.predict(other_X)

"""Integer columns are compared as integers: no cast through float64, which merges 2**62 and 2**62 + 1."""

import numpy as np
import pandas as pd
import pytest

from treeopt import Binarizer, OptimalTreeClassifier
from treeopt.numeric_thresholds import exact_numbers, less_equal, thresholds_between

BIG = 2**62


def test_the_estimator_finds_the_perfect_tree_on_integers_beyond_2_to_the_53():
    """Values 2**62 + i collapse to one float64; read as integers, a one-split tree is perfect."""
    X = pd.DataFrame({"id": np.array([BIG + i for i in range(8)], dtype=np.int64)})
    y = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    clf = OptimalTreeClassifier(regularization=0.01).fit(X, y)
    assert clf.objective_ == pytest.approx(0.02)
    assert (clf.predict(X) == y).all()
    assert f"id <= {BIG + 3}" in clf.tree_.rules()


@pytest.mark.parametrize("column", [
    pd.Series(np.array([2**64 - 4, 2**64 - 3, 2**64 - 2, 2**64 - 1], dtype=np.uint64)),
    pd.Series([BIG, BIG + 1, None, BIG + 3], dtype="Int64"),
])
def test_large_integer_columns_get_one_threshold_between_each_pair_of_values(column):
    binarizer = Binarizer(missing="indicator").fit(pd.DataFrame({"n": column}))
    present = column.dropna()
    thresholds = [f for f in binarizer.features_ if f.kind == "threshold"]
    assert len(thresholds) == present.nunique() - 1
    Z = binarizer.transform(pd.DataFrame({"n": column}))
    values = sorted(int(v) for v in present)
    for feature, j in ((f, binarizer.features_.index(f)) for f in thresholds):
        expected = [(not pd.isna(v)) and int(v) <= feature.value for v in column]
        assert Z[:, j].tolist() == expected
        below = [v for v in values if v <= feature.value]
        assert 0 < len(below) < len(values)


def test_integer_thresholds_are_exact_and_half_integers_only_where_float64_holds_them():
    assert thresholds_between(np.array([20, BIG]), np.array([31, BIG + 1])) == [25.5, BIG]
    assert thresholds_between(np.array([-3]), np.array([-2])) == [-2.5]


def test_comparisons_mix_integer_data_and_float_thresholds_exactly():
    ints = exact_numbers(np.array([32, 33, BIG, BIG + 1], dtype=np.int64))
    assert less_equal(ints, [32.5, float(BIG), BIG]).tolist() == [
        [True, True, True], [False, True, True], [False, True, True], [False, False, False]]
    floats = np.array([32.3, 32.7, float(BIG)])
    assert less_equal(floats, [32.5, BIG + 1, BIG - 1]).tolist() == [
        [True, True, True], [False, True, True], [False, True, False]]
    unsigned = exact_numbers(np.array([0, 2**64 - 1], dtype=np.uint64))
    assert less_equal(unsigned, [-1, 0.5, 2**64]).tolist() == [[False, True, True], [False, False, True]]

"""One way a table is read: by column name when fitted on a DataFrame, by position when fitted on an array."""

import numpy as np
import pandas as pd
import pytest

from treeopt import Binarizer
from treeopt.categorical import CategoricalDataset
from treeopt.table_columns import FittedColumns, read_columns

FRAME = pd.DataFrame({"a": [1, 2, 3, 4], "b": [0.5, 1.5, 0.5, 2.5], "c": ["x", "y", "x", "z"]})


def test_a_binarizer_fitted_on_a_frame_reads_reordered_columns_by_name():
    binarizer = Binarizer().fit(FRAME)
    np.testing.assert_array_equal(binarizer.transform(FRAME[["c", "a", "b"]]), binarizer.transform(FRAME))


@pytest.mark.parametrize("table, listed", [
    (FRAME.rename(columns={"a": "alpha"}), ["missing ['a']", "not seen at fit ['alpha']", "renamed?"]),
    (FRAME[["a", "b"]], ["missing ['c']", "not seen at fit []"]),
    (FRAME.assign(d=1), ["missing []", "not seen at fit ['d']"]),
])
def test_missing_renamed_or_extra_columns_are_refused_with_the_difference_listed(table, listed):
    binarizer = Binarizer().fit(FRAME)
    with pytest.raises(ValueError, match="differ from those Binarizer was fitted on") as error:
        binarizer.transform(table)
    for text in listed:
        assert text in str(error.value)
    assert "['a', 'b', 'c']" in str(error.value)          # the fix: the fitted columns


def test_repeated_column_names_are_refused():
    table = pd.concat([FRAME, FRAME[["a"]]], axis=1)
    with pytest.raises(ValueError, match=r"duplicate column names \['a'\]"):
        Binarizer().fit(FRAME).transform(table)


def test_a_binarizer_fitted_on_an_array_reads_by_position_and_checks_the_width():
    array = FRAME[["a", "b"]].to_numpy()
    binarizer = Binarizer().fit(array)
    renamed = pd.DataFrame(array, columns=["p", "q"])
    np.testing.assert_array_equal(binarizer.transform(renamed), binarizer.transform(array))
    with pytest.raises(ValueError, match="X has 1 features, but Binarizer is expecting 2 features"):
        binarizer.transform(array[:, :1])


def test_an_array_given_to_a_frame_fitted_binarizer_is_read_by_position():
    binarizer = Binarizer().fit(FRAME)
    np.testing.assert_array_equal(binarizer.transform(FRAME.to_numpy(dtype=object)), binarizer.transform(FRAME))


def test_a_column_of_strings_where_numbers_were_fitted_is_refused():
    binarizer = Binarizer().fit(FRAME)
    with pytest.raises(ValueError, match="column 'a' was int64 when fitted but is (str|object) now"):
        binarizer.transform(FRAME.assign(a=FRAME["a"].astype(str)))


def test_the_multiway_evaluator_reads_by_name():
    dataset = CategoricalDataset.from_arrays(FRAME, [0, 1, 0, 1])
    evaluator = dataset.binarizer
    np.testing.assert_array_equal(evaluator.transform(FRAME[["b", "c", "a"]]), evaluator.transform(FRAME))
    with pytest.raises(ValueError, match="not seen at fit"):
        evaluator.transform(FRAME.rename(columns={"c": "colour"}))


def test_read_columns_returns_the_frame_itself_when_already_in_order():
    fitted = FittedColumns.of_table(FRAME, named=True)
    assert read_columns(FRAME, fitted) is FRAME
    assert read_columns(FRAME[["c", "b", "a"]], fitted).columns.tolist() == ["a", "b", "c"]


def test_a_binarizer_pickled_without_fitted_columns_still_reads_by_name():
    binarizer = Binarizer().fit(FRAME)
    state = binarizer.__getstate__()
    del state["fitted_columns_"]
    state["column_dtypes_"] = [("int64", True), ("float64", True), ("object", False)]
    older = Binarizer.__new__(Binarizer)
    older.__setstate__(state)
    np.testing.assert_array_equal(older.transform(FRAME[["b", "c", "a"]]), binarizer.transform(FRAME))

"""Threshold names: the fewest digits that read back within a billionth of the threshold."""

from hypothesis import given, settings
from hypothesis import strategies as st

from treeopt.binarize import Binarizer, format_threshold, format_thresholds


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.floats(-1e12, 1e12, allow_nan=False) | st.integers(-10**6, 10**6).map(lambda v: v / 8),
                       min_size=1, max_size=30))
def test_names_are_the_shortest_that_read_back_within_a_billionth(values):
    """format_thresholds (every threshold name) agrees with format_threshold one by one, reads
    back within 1e-9 (relative), and one digit fewer would not."""
    texts = format_thresholds(values)
    assert texts == [format_threshold(v) for v in values]
    for value, text in zip(values, texts):
        tolerance = 1e-9 * max(1.0, abs(value))
        assert abs(float(text) - value) <= tolerance
        decimals = len(text.split(".")[1]) if "." in text else 0
        if decimals > 0:
            assert abs(round(value, decimals - 1) - value) > tolerance


def test_the_binarizer_names_thresholds_with_them():
    import numpy as np
    table = np.array([[0.1, 10.0], [0.2, 12.5], [0.4, 15.0]])
    names = Binarizer(thresholds="all").fit(table).get_feature_names_out().tolist()
    assert names == ["x0 <= 0.15", "x0 <= 0.3", "x1 <= 11.25", "x1 <= 13.75"]


@settings(max_examples=300, deadline=None)
@given(pair=st.lists(st.floats(-1e6, 1e6, allow_nan=False) | st.integers(-10**4, 10**4).map(lambda v: v / 100),
                     min_size=2, max_size=2, unique=True).map(sorted))
def test_split_points_separate_the_values_and_route_float32_rows_as_float64_rows(pair):
    """Each threshold lies in [midpoint, upper): the training rows fall as by the midpoint. When it
    moved onto the float32 grid, any row at or below it stays at or below it in float32, so a
    scikit-learn export (which compares float32(x)) sends left every row treeopt sends left."""
    import numpy as np
    from treeopt.binarize import split_points
    lower, upper = pair
    threshold = float(split_points([lower], [upper])[0])
    midpoint = (lower + upper) / 2.0
    assert lower <= midpoint <= threshold < upper or threshold == midpoint
    if float(np.float32(threshold)) == threshold:
        for row in (lower, midpoint, threshold, float(format_threshold(midpoint))):
            if row <= threshold:
                assert float(np.float32(row)) <= threshold

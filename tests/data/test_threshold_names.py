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
@given(pair=st.lists(st.floats(-1e300, 1e300, allow_nan=False) | st.integers(-10**4, 10**4).map(lambda v: v / 100),
                     min_size=2, max_size=2, unique=True).map(sorted))
def test_split_points_separate_the_values_and_read_back_as_the_compared_value(pair):
    """Each threshold lies in [lower, upper), so the training rows fall on their sides; the number
    its name prints parses back to exactly the float64 compared against (no float32 grid)."""
    import numpy as np
    from treeopt.binarize import BinaryFeature, split_points
    lower, upper = pair
    threshold = float(split_points([lower], [upper])[0])
    assert lower <= threshold < upper
    feature = BinaryFeature("x", 0, "threshold", threshold, None)
    assert float(feature.name.split(" <= ")[1]) == threshold
    assert feature.evaluate(np.array([lower, upper])).tolist() == [True, False]


def test_the_midpoint_of_adjacent_floats_that_rounds_up_still_separates_them():
    """(a + b) / 2 of two adjacent float64 values rounds to one of them; the threshold is then
    the lower value, which still puts a on the true side and b on the false side."""
    import numpy as np
    from treeopt.binarize import split_points
    lower = 0.1
    upper = float(np.nextafter(lower, 1.0))
    assert (lower + upper) / 2.0 in (lower, upper)
    table = np.array([[lower], [upper]])
    binarizer = Binarizer().fit(table)
    assert float(split_points([lower], [upper])[0]) == lower
    assert binarizer.transform(table)[:, 0].tolist() == [True, False]


def test_threshold_names_made_when_read_equal_those_made_all_at_once():
    """A threshold's name is formatted when first read (one by one, or all of them by
    get_feature_names_out); both ways give the same names, and the features compare, hash,
    pickle and copy as named ones."""
    import copy
    import pickle

    import numpy as np

    from treeopt.binarize import BinaryFeature

    table = np.array([[0.1, 10.0, 1.0], [0.2, 12.5, 0.0], [0.4, 15.0, 1.0], [0.7, 15.5, 0.0]])
    one_by_one = Binarizer(thresholds="all").fit(table)
    assert all("name" not in f.__dict__ for f in one_by_one.features_ if f.kind == "threshold")
    names = [f.name for f in one_by_one.features_]
    at_once = Binarizer(thresholds="all").fit(table).get_feature_names_out().tolist()
    assert names == at_once == ["x0 <= 0.15", "x0 <= 0.3", "x0 <= 0.55", "x1 <= 11.25", "x1 <= 13.75",
                                "x1 <= 15.25", "x2"]
    fresh = Binarizer(thresholds="all").fit(table).features_
    assert fresh == one_by_one.features_ and hash(fresh[0]) == hash(one_by_one.features_[0])
    unread = Binarizer(thresholds="all").fit(table).features_
    assert pickle.loads(pickle.dumps(unread))[1].name == "x0 <= 0.3"
    assert copy.deepcopy(unread[2]).name == "x0 <= 0.55"
    assert BinaryFeature("x", 0, "threshold", 2.0000001, None).negated_name == "x > 2.0000001"


@settings(max_examples=50, deadline=None)
@given(values=st.lists(st.floats(-1e6, 1e6, allow_nan=False, width=32), min_size=2, max_size=40))
def test_a_threshold_and_its_negation_name_the_same_number(values):
    """"x <= t" and "x > t" (the else branch of the rules) write t alike: the value compared against."""
    import numpy as np

    features = Binarizer(thresholds="all").fit(np.array(values)[:, None]).features_
    for feature in (f for f in features if f.kind == "threshold"):
        assert feature.name.split(" <= ")[1] == feature.negated_name.split(" > ")[1]
        assert float(feature.name.split(" <= ")[1]) == feature.value


def test_only_thresholds_may_go_without_a_name():
    import pytest

    from treeopt.binarize import BinaryFeature

    with pytest.raises(ValueError, match="only thresholds are named by their value"):
        BinaryFeature("color", 0, "category", "red", None)
    with pytest.raises(AttributeError, match="no attribute 'size'"):
        BinaryFeature("x", 0, "threshold", 1.5, None).size


def test_thresholds_in_bulk_are_the_features_the_constructor_makes():
    """BinaryFeature.thresholds fills each instance directly: it must make exactly what the
    constructor makes, name (formatted when read) and negated name included."""
    from treeopt.binarize import BinaryFeature
    values = [0.4905, 2.5, 10.0, 2**62 + 1]
    bulk = BinaryFeature.thresholds("x", 3, values, has_missing=True)
    one_by_one = [BinaryFeature("x", 3, "threshold", v, None, True) for v in values]
    assert bulk == one_by_one
    assert [(f.name, f.negated_name) for f in bulk] == [(f.name, f.negated_name) for f in one_by_one]
    assert bulk[3].name == "x <= 4611686018427387905"

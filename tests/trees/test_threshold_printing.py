"""The printed rule, to_python, to_latex and predict agree on every value: thresholds are float64."""

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from treeopt import OptimalTreeClassifier


def _fit(values, labels):
    return OptimalTreeClassifier(regularization=0.01).fit(pd.DataFrame({"x": values}), labels)


def test_a_value_above_the_printed_threshold_goes_to_the_false_side():
    """With the threshold stored as float32 (50000.1015625), 50000.100001 went to the ``<=`` side
    of the rule printed ``x <= 50000.1``."""
    clf = _fit([50000.0, 50000.2] * 3, [0, 1] * 3)
    assert "if x <= 50000.1:" in clf.tree_.rules()
    assert clf.predict(pd.DataFrame({"x": [50000.1, 50000.100001]})).tolist() == [0, 1]


def test_exports_print_the_threshold_they_compare_with():
    clf = _fit([4.9, 5.0] * 3, [0, 1] * 3)
    source = clf.tree_.to_python()
    assert "row['x'] <= 4.95:" in source
    assert r"$\le 4.95$" in clf.tree_.to_latex()
    scope = {}
    exec(source, scope)
    probe = [4.95, float(np.nextafter(4.95, 5)), float(np.nextafter(4.95, 4))]
    assert [scope["predict"]({"x": v}) for v in probe] == clf.predict(pd.DataFrame({"x": probe})).tolist() == [0, 1, 0]


@settings(max_examples=40, deadline=None)
@given(values=st.lists(st.floats(-1e9, 1e9, allow_nan=False, width=32) | st.integers(-2**63, 2**63 - 1),
                       min_size=2, max_size=6, unique=True))
def test_rules_python_and_predict_agree_next_to_every_threshold(values):
    """For every threshold t the tree tests, t and its float64 neighbours are routed alike by
    predict, by the exported function and by the rule as printed (the number parses to t)."""
    labels = [i % 2 for i in range(len(values))]
    column = np.array(values, dtype=np.int64 if all(isinstance(v, int) for v in values) else float)
    clf = _fit(column, labels)
    scope = {}
    exec(clf.tree_.to_python(), scope)
    for feature in clf.binarizer_.features_:
        printed = feature.name.split(" <= ")[1]
        t = feature.value
        assert (int(printed) if isinstance(t, int) else float(printed)) == t
        if isinstance(t, int) or column.dtype.kind == "i":
            probe = np.array([int(np.floor(t)) - 1, int(np.floor(t)), int(np.floor(t)) + 1], dtype=object)
            probe = probe[[-2**63 <= v < 2**63 for v in probe]].astype(np.int64)
        else:
            probe = np.array([np.nextafter(t, -np.inf), t, np.nextafter(t, np.inf)])
        frame = pd.DataFrame({"x": probe})
        assert clf.tree_.predict(frame).tolist() == [scope["predict"]({"x": v}) for v in probe.tolist()]
        assert clf.binarizer_.transform(frame)[:, clf.binarizer_.features_.index(feature)].tolist() == \
            [v <= t for v in probe.tolist()]

"""GOSDT with a depth budget on all-threshold features.

A depth budget keys the memo by (rows, depth left), so one support set is several problems,
and all-threshold columns give many nested features: together they exposed a scheduling bug
in which a problem whose scope had been raised was skipped while no parent needed it, and was
never queued again when a parent did ("queue emptied before the root was solved"). The oracle
here is the brute force of ``tests/oracle.py`` on the binarized table; its memo on row sets
keeps it fast on two numeric columns.
"""

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DATASETS, require_datasets
from test_search_oracle import check
from treeopt import OptimalTreeClassifier
from treeopt.binarize import Binarizer

SWITCHES = [None, "scope", "hierarchical", "all"]


@st.composite
def two_numeric_columns(draw):
    """Two integer columns with up to 8 distinct values each (up to 14 threshold features)."""
    n_rows = draw(st.integers(10, 22))
    a = draw(st.lists(st.integers(0, 7), min_size=n_rows, max_size=n_rows))
    b = draw(st.lists(st.integers(0, 7), min_size=n_rows, max_size=n_rows))
    kind = draw(st.sampled_from(["random", "checker", "ring"]))
    noise = draw(st.lists(st.integers(0, 1), min_size=n_rows, max_size=n_rows))
    a, b = np.array(a), np.array(b)
    if kind == "checker":
        y = ((a >= 4) ^ (b >= 4)).astype(int)
    elif kind == "ring":
        y = (((a - 3.5) ** 2 + (b - 3.5) ** 2) < 6).astype(int)
    else:
        y = np.array(noise)
    flip = np.array(draw(st.lists(st.booleans(), min_size=n_rows, max_size=n_rows))) & \
        np.array(draw(st.lists(st.booleans(), min_size=n_rows, max_size=n_rows)))
    y = np.where(flip, 1 - y, y)
    y[:2] = [0, 1]
    X = Binarizer(thresholds="all").fit_transform(pd.DataFrame({"a": a, "b": b})).astype(int)
    return X, y


@settings(max_examples=40, deadline=None)
@given(data=two_numeric_columns(), lam=st.sampled_from([0.01, 0.02, 0.04, 0.08]),
       depth=st.integers(2, 4), switch=st.sampled_from(SWITCHES))
def test_depth_budget_on_threshold_features_matches_oracle(data, lam, depth, switch):
    X, y = data
    bounds = None if switch is None else ({"scope": False, "hierarchical": False} if switch == "all"
                                          else {switch: False})
    check(X, y, None, lam, bounds=bounds, depth=depth)


def test_spiral_subset_at_depth_four_is_certified():
    """The reproduction of the issue: it raised RuntimeError before the fix."""
    require_datasets()
    frame = pd.read_csv(DATASETS / "continuous" / "spiral.csv")
    rows = [2, 4, 10, 21, 23, 24, 26, 31, 33, 34, 38, 40, 43, 44, 46, 48, 49, 54, 55, 59, 62, 67, 73, 74, 78,
            81, 87, 88, 95, 97, 98, 99]
    frame = frame.iloc[rows]
    X, y = frame.iloc[:, :-1], frame.iloc[:, -1]
    objectives = {}
    for bounds in (None, {"scope": False}, {"hierarchical": False}):
        clf = OptimalTreeClassifier(regularization=0.02, depth_budget=4, thresholds="all", bounds=bounds).fit(X, y)
        assert clf.status_ == "optimal" and clf.tree_.depth <= 4
        objectives[str(bounds)] = clf.objective_
    assert max(objectives.values()) - min(objectives.values()) < 1e-12, objectives

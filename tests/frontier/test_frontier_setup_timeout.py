"""A frontier whose time_limit runs out while binarizing keeps the single leaf, uncertified, and warns."""

import math
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

import treeopt
from treeopt.frontiers import cross_validate_frontier

TOO_SHORT = 1e-6          # seconds: runs out before the first column is binarized


def _wide_table():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(600, 12))
    return X, (X[:, 0] > 0).astype(int)


def test_frontier_keeps_the_single_leaf_uncertified_and_names_the_fix():
    X, y = _wide_table()
    with pytest.warns(ConvergenceWarning, match=r"ran out while binarizing.*Raise time_limit.*single leaf"):
        front = treeopt.frontier(X, y, max_leaves=4, time_limit=TOO_SHORT)
    assert front.table["leaves"].tolist() == [1]
    assert not front.table["certified"].any()
    assert not front.table["on_hull"].any() and math.isnan(front.table.at[0, "lambda_min"])
    assert not front.complete and front.certified_leaves == 0
    assert "max_thresholds" in front.setup_stopped
    majority = np.bincount(y).argmax()
    assert front.table.at[0, "accuracy"] == pytest.approx(np.mean(y == majority))
    with pytest.warns(UserWarning, match="only the single leaf"):
        tree = front.tree_for(regularization=0.01)
    assert tree.n_leaves == 1 and set(tree.predict(X).tolist()) == {majority}


def test_frontier_with_time_to_binarize_is_certified_as_before():
    X, y = _wide_table()
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        front = treeopt.frontier(X[:60, :3], y[:60], max_leaves=3, time_limit=60.0)
    assert front.setup_stopped is None and front.table["certified"].all()


def test_cross_validated_frontier_scores_the_uncertified_leaf_of_every_fold():
    X, y = _wide_table()
    with pytest.warns(ConvergenceWarning, match="ran out while binarizing"):
        cvf = cross_validate_frontier(X, y, cv=3, max_leaves=4, time_limit=TOO_SHORT)
    assert cvf.table["leaves"].tolist() == [1]
    assert not cvf.table["certified"].any()
    assert {cvf.table.at[0, f"split{i}_status"] for i in range(3)} == {"time_limit"}

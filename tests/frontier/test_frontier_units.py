"""The frontier search keeps each unit of work to the unit budget, also on a support with many splits.

Expanding a support builds one pair of children per binary feature; with every threshold of a
numeric table that is thousands of splits, which used to be one unit of work (a time limit, a
Ctrl-C or Pause waited for all of it). A unit budget of 0 makes every slice as short as it can be,
so the count of units shows the slicing without reading a clock; the frontier must not depend on it.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import ConvergenceWarning

from treeopt.frontier_fitting import build_frontier_search, fold_frontier


def _table(n=150, seed=4):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.random((n, 3)).round(4), columns=["a", "b", "c"])
    y = ((X.a > 0.4) & (X.b < 0.7) | (X.c > 0.9)).astype(int)
    return X, y


def test_a_support_with_many_splits_is_expanded_over_many_units_to_the_same_frontier():
    X, y = _table()
    search, _ = build_frontier_search(X, y, 5, thresholds="all")
    search.unit_budget = 0.0
    units = 0
    while search.root is None or search.root.children is None:
        search.step(1)
        units += 1
    assert search.dataset.n_features > 300 and units > search.dataset.n_features // 2
    search.run()
    whole, _ = build_frontier_search(X, y, 5, thresholds="all")
    whole.run()
    assert search.status == whole.status == "optimal"
    assert search.front(pareto_only=True) == whole.front(pareto_only=True)


def test_a_fold_whose_setup_reaches_the_deadline_holds_the_single_leaf_uncertified():
    """A cross-validation fold's setup (binarizing every threshold of a large table) keeps to the fit's
    deadline: past it, the fold holds the single leaf, uncertified, instead of binarizing to the end."""
    rng = np.random.default_rng(0)
    X = rng.random((20000, 5))
    y = (X[:, 0] + rng.normal(0, 0.3, len(X)) > 0.5).astype(int)
    settings = dict(max_leaves=5, objective="accuracy", omega=None, min_regularization=None, time_limit=None,
                    cache_limit=None, thresholds="all", max_thresholds=None, missing="error", random_state=0)
    with pytest.warns(ConvergenceWarning, match="single leaf"):
        front, _ = fold_frontier(X, y, None, settings, deadline=time.time())
    assert front.setup_stopped is not None
    assert front.table["leaves"].tolist() == [1] and not front.table["certified"].any()

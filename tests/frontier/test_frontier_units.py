"""The frontier search keeps each unit of work to the unit budget, also on a support with many splits.

Expanding a support builds one pair of children per binary feature; with every threshold of a
numeric table that is thousands of splits, which used to be one unit of work (a time limit, a
Ctrl-C or Pause waited for all of it). A unit budget of 0 makes every slice as short as it can be,
so the count of units shows the slicing without reading a clock; the frontier must not depend on it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from treeopt.frontier_fitting import build_frontier_search


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

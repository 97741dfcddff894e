"""The similar-support bound (``similar_support.py``, GOSDT Theorem B.10) prunes and keeps the optimum.

Its soundness against the oracle is also in ``test_search_wide_switches.py`` (switched off one at a time).
"""

import numpy as np
import pandas as pd
import pytest

from treeopt import OptimalTreeClassifier


@pytest.mark.parametrize("depth", [3, 4])
def test_depth_three_and_similar_support_prune_and_keep_the_optimum_on_threshold_features(depth):
    """All thresholds of two noisy numeric columns: the new switches fire and change nothing but the work."""
    rng = np.random.default_rng(depth)
    raw = rng.normal(size=(50, 2))
    y = ((raw[:, 0] * raw[:, 1] > 0) ^ (rng.random(50) < 0.15)).astype(int)
    X = pd.DataFrame(raw, columns=["a", "b"])
    fits = {}
    for name, bounds in (("on", {"depth_four": False}), ("off", {"depth_three": False, "similar_support": False,
                                                                 "depth_four": False}), ("four", None)):
        fits[name] = OptimalTreeClassifier(regularization=0.01, depth_budget=depth, thresholds="all", solver="gosdt",
                                           bounds=bounds, keep_search=True).fit(X, y)
    on, off, four = fits["on"], fits["off"], fits["four"]
    assert on.status_ == off.status_ == four.status_ == "optimal"
    assert on.objective_ == pytest.approx(off.objective_, abs=1e-12)
    assert four.objective_ == pytest.approx(off.objective_, abs=1e-12)
    assert on.solver_.prune_counts["depth_three"] > 0
    if depth == 4:
        assert on.solver_.prune_counts["similar_support"] > 0
        assert four.solver_.prune_counts["depth_four"] == 1           # the root, solved by the depth-four loop
    else:
        assert four.solver_.prune_counts["depth_four"] == 0
    assert off.solver_.prune_counts["depth_three"] == off.solver_.prune_counts["similar_support"] == 0
    assert on.tree_.depth <= depth and four.tree_.depth <= depth

"""A subproblem tries its nearest solved sibling's best root split in its first batch (``sibling_split_first``)."""

import numpy as np

from treeopt import make_solver
from treeopt.solvers.continuous.intervals import IntervalSearch
from treeopt.solvers.continuous.threshold_bounds import ThresholdBounds


def _table(seed: int = 0, n_rows: int = 300):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, 4)).round(2)
    y = ((X[:, 0] > 0.2) ^ (X[:, 1] + X[:, 2] > 0)).astype(int)
    y = np.where(rng.random(n_rows) < 0.15, 1 - y, y)
    return X, y


def test_the_sibling_split_is_tried_and_the_optimum_does_not_change(monkeypatch):
    X, y = _table()
    tried = []
    originals = {kind: kind.try_first for kind in (IntervalSearch, ThresholdBounds)}

    def spy(self, f, m):
        # Deeper levels name a threshold by its index among the column's, the depth-two solver by its
        # position among the support's rows, which must be an open threshold.
        if isinstance(self, ThresholdBounds):
            tried.append((f, m, self.width - 2, bool(self.open[f * self.width + 1 + m])))
        else:
            tried.append((f, m, len(self.cumulative[f]), True))
        originals[type(self)](self, f, m)

    for kind in originals:
        monkeypatch.setattr(kind, "try_first", spy)
    # Below one error each column also tries its threshold of fewest leaves first (fewest_leaves_first).
    on = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3,
                     strategies={"fewest_leaves_first": False})
    result_on = on.run()
    assert on.prune_counts["sibling_split_first"] == len(tried) > 0
    assert all(0 <= m < n and open_ for _, m, n, open_ in tried)      # a threshold of the child's own column
    tried.clear()
    off = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3,
                      strategies={"sibling_split_first": False, "fewest_leaves_first": False})
    result_off = off.run()
    assert not tried and off.prune_counts["sibling_split_first"] == 0
    assert result_on.optimal and result_off.optimal
    assert result_on.objective == result_off.objective
    assert result_on.tree.n_leaves == result_off.tree.n_leaves

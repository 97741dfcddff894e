"""Pure-side dominance over every column at once equals its rule, column by column.

Of a column's open thresholds whose left side holds one class (before ``first_other``), only the
last is kept; of those whose right side holds one class (at or after ``other_last``), only the first;
the others all stay. The masks here have columns with no open threshold, with one, with thresholds
pure on both sides (``other_last < first_other``) and with none pure.
"""

import numpy as np
import pytest

from treeopt.solvers.continuous import ContinuousSearch
from treeopt.sorted_columns import SortedDataset


def _by_column(open_thresholds, first_other, other_last):
    keep = np.zeros_like(open_thresholds)
    for f, row in enumerate(open_thresholds):
        positions = np.flatnonzero(row)
        pure_left = positions[positions < first_other[f]]
        pure_right = positions[positions >= other_last[f]]
        kept = set(positions) - set(pure_left) - set(pure_right)
        kept |= set(pure_left[-1:]) | set(pure_right[:1])
        keep[f, sorted(kept)] = True
    return keep


@pytest.mark.parametrize("seed", range(6))
def test_every_columns_undominated_thresholds_are_each_columns(seed):
    rng = np.random.default_rng(seed)
    n_columns, n = 7, 30
    open_thresholds = rng.random((n_columns, n - 1)) < rng.uniform(0.05, 0.9, (n_columns, 1))
    open_thresholds[0] = False                                   # no threshold
    open_thresholds[1] = False
    open_thresholds[1, rng.integers(n - 1)] = True               # one threshold
    first_other = rng.integers(0, n, n_columns)
    other_last = rng.integers(0, n, n_columns)
    first_other[2], other_last[2] = 20, 8                        # thresholds pure on both sides
    first_other[3], other_last[3] = 0, n                         # none pure
    X, y = rng.normal(size=(20, 2)), rng.integers(0, 2, 20)
    solver = ContinuousSearch(SortedDataset.from_arrays(X, y), regularization=0.01, depth_budget=2)
    kept = solver._undominated(open_thresholds.copy(), first_other, other_last)
    expected = _by_column(open_thresholds, first_other, other_last)
    assert np.array_equal(kept, expected)
    assert solver.prune_counts["pure_side_dominance"] == open_thresholds.sum() - expected.sum() > 0

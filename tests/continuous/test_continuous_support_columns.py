"""What SupportColumns makes for all columns at once equals its definition, column by column.

The weights, cumulative sums and sorted ranks are gathered for every column in one array operation,
and the all-columns kernel's padded threshold positions are built without a loop over columns; the
supports here include a constant column (no threshold), a column with one threshold and columns
with very different numbers of thresholds, where padding and offsets go wrong first.
"""

import numpy as np
import pytest

from treeopt.solvers.continuous import terminal
from treeopt.solvers.continuous.terminal import SupportColumns


def _support(seed: int, n_rows: int, n_classes: int = 2):
    rng = np.random.default_rng(seed)
    values = np.column_stack([np.zeros(n_rows), rng.integers(0, 2, n_rows), rng.integers(0, 5, n_rows),
                              rng.normal(size=n_rows)])
    rank = np.array([np.unique(column, return_inverse=True)[1] for column in values.T], dtype=np.int32)
    cw = np.zeros((n_rows, n_classes))
    cw[np.arange(n_rows), rng.integers(0, n_classes, n_rows)] = rng.integers(1, 3, n_rows)
    kept = np.flatnonzero(rng.random(n_rows) < 0.7)
    cols = np.stack([kept[np.argsort(rank[j, kept], kind="stable")] for j in range(values.shape[1])]).astype(np.int32)
    return SupportColumns(cols, rank, cw), cols, rank, cw


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_the_arrays_of_every_column_are_those_of_each_column(seed, n_classes):
    support, cols, rank, cw = _support(seed, 30 + 20 * seed, n_classes)
    for j, order in enumerate(cols):
        ranks = rank[j, order]
        assert np.array_equal(support.sorted_ranks[j], ranks)
        assert np.array_equal(support.weighted[j], cw[order].T)
        assert np.array_equal(support.cumulative[j], np.cumsum(cw[order].T, axis=1))
        assert np.array_equal(support.threshold_positions[j], np.flatnonzero(ranks[1:] != ranks[:-1]))
    assert not len(support.threshold_positions[0])                  # the constant column
    assert np.array_equal(support.total, cw[cols[0]].sum(axis=0))


@pytest.mark.parametrize("seed", range(6))
def test_the_all_columns_kernel_equals_the_column_by_column_kernel(seed):
    # _two_class_column is checked against a split-by-split reference (test_continuous_kernels.py);
    # the all-columns kernel reads the padded positions built here and must give the same gains.
    support, cols, rank, cw = _support(seed, 25 + 30 * seed)
    rng = np.random.default_rng(seed + 50)
    columns = rng.integers(1, cols.shape[0], 9)                       # the constant column has no threshold
    ranks = np.array([rng.choice(np.unique(rank[f, cols[f]])[:-1]) for f in columns])
    at = support.left_sizes(columns, ranks) - 1
    total_left = support.cumulative[columns, :, at].astype(float)
    total_right = support.total[None].astype(float) - total_left
    together = terminal._all_columns(support, columns, ranks, total_left, total_right)
    for j in range(cols.shape[0]):
        one = terminal._two_class_column(support, j, columns, ranks, total_left, total_right)
        for side in range(2):
            assert np.allclose(together[side][:, j], one[side]), (j, side)

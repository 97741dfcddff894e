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


@pytest.mark.parametrize("weights", [1, 2])
@pytest.mark.parametrize("n_classes", [3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_every_columns_class_runs_are_each_columns_laid_end_to_end(seed, n_classes, weights):
    # AllClassRuns is built for all columns at once; ClassRuns, column by column, defines it. The
    # supports hold a constant column (no threshold), pure runs of equal values (skipped thresholds)
    # and, with weights 2, rows whose weight is not one.
    support, cols, rank, cw = _support(seed, 40 + 25 * seed, n_classes)
    if weights == 1:
        cw = (cw > 0).astype(float)
        support = SupportColumns(cols, rank, cw)
    together = support.all_class_runs()
    n_columns, n = cols.shape
    runs = [terminal.ClassRuns(support, j) for j in range(n_columns)]
    assert np.array_equal(together.ranks, np.stack([r.ranks for r in runs], axis=1))
    if all(r.weights is None for r in runs):
        assert together.weights is None
    else:
        expected = np.stack([np.ones(n, dtype=together.kind) if r.weights is None else r.weights for r in runs])
        assert np.array_equal(together.weights, expected)
    offsets = [j * (n + 1) for j in range(n_columns)]
    assert np.array_equal(together.last, np.concatenate([r.last + o for r, o in zip(runs, offsets)], axis=1))
    with_thresholds = [(r, o) for r, o in zip(runs, offsets) if r.last.shape[1]]
    assert np.array_equal(together.before, np.concatenate([r.before + o for r, o in with_thresholds], axis=1))
    assert np.array_equal(together.widths, [r.last.shape[1] for r, _ in with_thresholds])
    assert np.array_equal(together.at_thresholds, np.concatenate([r.at_thresholds for r in runs], axis=1))
    counts = np.array([r.last.shape[1] for r in runs])
    assert np.array_equal(together.has_thresholds, counts > 0) and not together.has_thresholds[0]
    assert np.array_equal(together.starts, (np.cumsum(counts) - counts)[counts > 0])
    assert sum(len(p) for p in support.threshold_positions) > together.last.shape[1]   # some runs skipped

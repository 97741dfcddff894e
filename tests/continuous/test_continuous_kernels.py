"""The depth-two kernels against a split-by-split reference on random supports.

Each kernel (:func:`_column` for any number of classes, :func:`_two_class_column` and
:func:`_all_columns` for two) gives, for every root threshold of a batch, the best split's gain on a
column of both children. The reference sums each child's class weights at every threshold of the
column in plain Python. The supports mix columns with few values (few thresholds: summed segment by
segment), many ties and distinct values, whole weights (int32, or int16
for small multiclass supports) and fractional ones (float), 2 to 5 classes.
"""

import numpy as np
import pytest

from treeopt.solvers.continuous import terminal
from treeopt.solvers.continuous.terminal import SupportColumns


def _support(seed: int, n_classes: int, n_rows: int, whole: bool):
    """A support of a random subset of a table's rows: columns with 2 values, 6 values, rounded
    normals (ties) and distinct normals."""
    rng = np.random.default_rng(seed)
    values = np.column_stack([rng.integers(0, 2, n_rows), rng.integers(0, 6, n_rows),
                              rng.normal(size=n_rows).round(1), rng.normal(size=n_rows)])
    rank = np.array([np.unique(column, return_inverse=True)[1] for column in values.T], dtype=np.int32)
    y = rng.integers(0, n_classes, n_rows)
    cw = np.zeros((n_rows, n_classes))
    cw[np.arange(n_rows), y] = rng.integers(1, 4, n_rows) * (1.0 if whole else rng.choice([0.5, 1.25], n_rows))
    kept = np.flatnonzero(rng.random(n_rows) < 0.8)
    cols = np.stack([kept[np.argsort(rank[j, kept], kind="stable")] for j in range(values.shape[1])]).astype(np.int32)
    return SupportColumns(cols, rank, cw), rank, cw


def _batch(support: SupportColumns, rank: np.ndarray, seed: int, size: int = 12):
    """Random root thresholds of the support, and their children's class totals."""
    rng = np.random.default_rng(seed + 100)
    columns = rng.integers(0, support.cols.shape[0], size)
    ranks = np.array([rng.choice(np.unique(rank[f, support.cols[f]])[:-1]) for f in columns])
    at = support.left_sizes(columns, ranks) - 1
    total_left = support.cumulative[columns, :, at].astype(float)
    return columns, ranks, total_left, support.total[None].astype(float) - total_left


def _reference(support: SupportColumns, rank, cw, j, columns, ranks, total_left, total_right):
    """The best split's gain on column ``j`` of both children, threshold by threshold."""
    order = support.cols[j]
    gains = np.full((2, len(columns)), -np.inf)
    for b, (f, r) in enumerate(zip(columns, ranks)):
        goes_left = rank[f, order] <= r
        for side, (rows, totals) in enumerate(((goes_left, total_left[b]), (~goes_left, total_right[b]))):
            running = np.zeros(cw.shape[1])
            for p in range(len(order) - 1):
                running += cw[order[p]] * rows[p]
                if rank[j, order[p]] != rank[j, order[p + 1]]:
                    gains[side, b] = max(gains[side, b], running.max() + (totals - running).max())
    return gains


def _check(kernel, support, rank, cw, seed):
    """The kernel's gains, as the solver reads them: at least the child's largest class (the split
    with an empty side), which the two-class kernels leave to their caller."""
    columns, ranks, total_left, total_right = _batch(support, rank, seed)
    for j in range(support.cols.shape[0]):
        expected = _reference(support, rank, cw, j, columns, ranks, total_left, total_right)
        got = kernel(support, j, columns, ranks, total_left, total_right)
        for side, totals in enumerate((total_left, total_right)):
            np.testing.assert_allclose(np.maximum(got[side], totals.max(axis=1)),
                                       np.maximum(expected[side], totals.max(axis=1)), rtol=1e-12,
                                       err_msg=f"side {side}, column {j}")


def _all_columns_by_column(support, j, columns, ranks, total_left, total_right):
    """:func:`terminal._all_columns`, read at one column."""
    left, right = terminal._all_columns(support, columns, ranks, total_left, total_right)
    return left[:, j], right[:, j]


def _all_columns_multiclass_by_column(support, j, columns, ranks, total_left, total_right):
    """:func:`terminal._all_columns_multiclass`, read at one column."""
    left, right = terminal._all_columns_multiclass(support, columns, ranks, total_left, total_right)
    return left[:, j], right[:, j]


@pytest.mark.parametrize("whole", [True, False])
@pytest.mark.parametrize("n_rows", [60, 400])
@pytest.mark.parametrize("n_classes", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(2))
def test_every_kernel_equals_the_split_by_split_reference(seed, n_classes, n_rows, whole):
    support, rank, cw = _support(seed, n_classes, n_rows, whole)
    kinds = {"i"} if whole else {"f"}
    assert {w.dtype.kind for w in support.weighted} == kinds
    if whole and n_classes > 2:
        assert support.weighted[0].dtype == np.int16        # the narrow path is the one tested
    # Both ways of summing a column are exercised: few thresholds (segments) and many (every position).
    assert any(s is not None for s in support.segment_starts) and any(s is None for s in support.segment_starts)
    kernels = [terminal._column, _all_columns_multiclass_by_column]
    if n_classes == 2:
        kernels += [terminal._two_class_column, _all_columns_by_column]
    for kernel in kernels:
        _check(kernel, support, rank, cw, seed)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_the_comparison_catches_a_kernel_that_sends_the_thresholds_own_rows_right(n_classes):
    support, rank, cw = _support(0, n_classes, 200, whole=True)

    def wrong(support, j, columns, ranks, total_left, total_right):
        # rank < r instead of rank <= r: an off-by-one in the children's rows.
        return terminal._column(support, j, columns, ranks - 1, total_left, total_right)

    with pytest.raises(AssertionError):
        _check(wrong, support, rank, cw, 0)


def test_the_comparison_catches_an_overflowing_narrow_type():
    support, rank, cw = _support(1, 3, 400, whole=True)
    # int8 cannot hold the partial sums of 400 rows of weight up to 3.
    support.weighted = [w.astype(np.int8) for w in support.weighted]
    with pytest.raises(AssertionError):
        _check(terminal._column, support, rank, cw, 1)


@pytest.mark.parametrize("n_thresholds", [20, 299])          # 299: every position but the last
@pytest.mark.parametrize("seed", range(3))
def test_sums_at_thresholds_are_the_same_segment_by_segment_and_position_by_position(seed, n_thresholds):
    rng = np.random.default_rng(seed)
    values = rng.integers(-3, 4, size=(3, 5, 300)).astype(np.int32)
    valid = np.sort(rng.choice(299, n_thresholds, replace=False))
    starts = np.concatenate(([0], valid + 1))
    expected = np.cumsum(values, axis=-1)[..., valid]
    assert np.array_equal(terminal._left_of_thresholds(values.copy(), valid, starts), expected)
    assert np.array_equal(terminal._left_of_thresholds(values.copy(), valid, None), expected)


@pytest.mark.parametrize("seed", range(3))
def test_left_sizes_count_each_root_thresholds_left_rows(seed):
    support, rank, _ = _support(seed, 2, 300, whole=True)
    columns, ranks, _, _ = _batch(support, rank, seed, size=40)
    expected = [int((rank[f, support.cols[0]] <= r).sum()) for f, r in zip(columns, ranks)]
    assert support.left_sizes(columns, ranks).tolist() == expected


def _many_class_support(seed: int, whole: bool):
    """Ten classes, one of them absent from the support, some rows of zero weight, heavy ties."""
    rng = np.random.default_rng(seed)
    n_rows = 500
    values = np.column_stack([rng.integers(0, 3, n_rows), rng.poisson(2.0, n_rows), rng.normal(size=n_rows).round(1),
                              rng.normal(size=n_rows)])
    rank = np.array([np.unique(column, return_inverse=True)[1] for column in values.T], dtype=np.int32)
    y = np.minimum(rng.geometric(0.3, n_rows) - 1, 9)                # class 0 dominant, 9 rare
    weight = rng.integers(0, 3, n_rows) * (1.0 if whole else 0.75)
    cw = np.zeros((n_rows, 10))
    cw[np.arange(n_rows), y] = weight
    kept = np.flatnonzero(y != 5)                                     # class 5 has no row here
    cols = np.stack([kept[np.argsort(rank[j, kept], kind="stable")] for j in range(values.shape[1])]).astype(np.int32)
    return SupportColumns(cols, rank, cw), rank, cw


@pytest.mark.parametrize("whole", [True, False])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kernel", [terminal._column, _all_columns_multiclass_by_column])
def test_the_multiclass_kernels_with_ten_classes_an_absent_class_and_zero_weights(seed, whole, kernel):
    support, rank, cw = _many_class_support(seed, whole)
    _check(kernel, support, rank, cw, seed)


@pytest.mark.parametrize("kernel", [terminal._column, _all_columns_multiclass_by_column])
def test_the_comparison_catches_class_runs_that_leave_out_the_row_at_a_threshold(kernel):
    support, rank, cw = _many_class_support(0, whole=True)
    for j in range(support.cols.shape[0]):
        runs = support.class_runs(j)
        runs.last = np.maximum(runs.last - 1, runs.before)            # the last row before each threshold lost
    runs = support.all_class_runs()                                   # every column's, laid end to end
    runs.last = np.maximum(runs.last - 1, np.repeat(runs.before, runs.widths, axis=1))
    with pytest.raises(AssertionError):
        _check(kernel, support, rank, cw, 0)


def test_the_multiclass_kernels_skip_the_thresholds_inside_runs_of_one_class():
    support, rank, cw = _many_class_support(1, whole=True)
    skipped = sum(len(support.threshold_positions[j]) - support.class_runs(j).last.shape[1]
                  for j in range(support.cols.shape[0]))
    assert skipped > 0                                  # the pruned path is the one the comparisons above test


@pytest.mark.parametrize("kernel", [terminal._column, _all_columns_multiclass_by_column])
def test_the_comparison_catches_boundaries_that_drop_the_end_of_a_run(kernel, monkeypatch):
    kept = terminal.class_boundary_mask

    def too_few(labels, changes):
        # Also drops a threshold whose neighbouring rows share a class next to a mixed run: not the rule.
        pure_run_ends = (labels[:, 1:] == labels[:, :-1]) & changes
        return kept(labels, changes) & ~pure_run_ends

    monkeypatch.setattr(terminal, "class_boundary_mask", too_few)
    support, rank, cw = _many_class_support(2, whole=True)
    with pytest.raises(AssertionError):
        _check(kernel, support, rank, cw, 2)


@pytest.mark.parametrize("whole", [True, False])
@pytest.mark.parametrize("seed", range(3))
def test_the_two_class_all_columns_kernel_reads_a_support_without_ties_in_place(seed, whole):
    # Distinct values only: every position but the last is a threshold, and the kernel reads the
    # cumulative sums where they lie instead of gathering them.
    rng = np.random.default_rng(seed)
    n_rows = 150
    values = rng.normal(size=(n_rows, 3))
    rank = np.array([np.unique(column, return_inverse=True)[1] for column in values.T], dtype=np.int32)
    cw = np.zeros((n_rows, 2))
    cw[np.arange(n_rows), rng.integers(0, 2, n_rows)] = rng.integers(1, 4, n_rows) * (1.0 if whole else 0.5)
    kept = np.flatnonzero(rng.random(n_rows) < 0.8)
    cols = np.stack([kept[np.argsort(rank[j, kept], kind="stable")] for j in range(3)]).astype(np.int32)
    support = SupportColumns(cols, rank, cw)
    assert support.all_columns()[1] is None                  # no gather: the positions are the thresholds
    _check(_all_columns_by_column, support, rank, cw, seed)


@pytest.mark.parametrize("integral", [True, False])
@pytest.mark.parametrize("n_classes", [3, 5])
@pytest.mark.parametrize("seed", range(2))
def test_the_multiclass_kernels_count_rows_of_unit_weight(seed, n_classes, integral):
    # Unit weights: the class counts at the thresholds are the support's class weights, and the
    # all-columns kernel reads them without counting again. A table with fractional weights elsewhere
    # holds a support's unit weights as floats (integral=False).
    support, rank, cw = _support(seed, n_classes, 300, whole=True)
    cw = (cw > 0).astype(float)
    support = SupportColumns(support.cols, rank, cw, integral=integral)
    assert support.weighted.dtype.kind == ("i" if integral else "f")
    assert support.all_class_runs().weights is None
    for kernel in (terminal._column, _all_columns_multiclass_by_column):
        _check(kernel, support, rank, cw, seed)

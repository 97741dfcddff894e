"""The depth-two terminal solver's children against one depth-one solve per child.

For every root threshold of a small weighted table with ties, the batched children's costs
(:func:`depth_two_children`, its two-class shortcut and its general path) must equal the best
depth-one tree of each child solved on its own rows (:func:`best_depth_one`).
"""

import numpy as np
import pytest

from treeopt.solvers.continuous.terminal import SupportColumns, best_depth_one, depth_two_children, split_columns


def _support(seed: int, n_classes: int, n_rows: int = 40, whole: bool = False):
    rng = np.random.default_rng(seed)
    values = np.column_stack([rng.integers(0, 5, n_rows), rng.normal(size=n_rows).round(1),
                              rng.integers(0, 2, n_rows), rng.normal(size=n_rows)])
    order = np.argsort(values, axis=0, kind="stable").T.astype(np.int32)
    rank = np.array([np.unique(column, return_inverse=True)[1] for column in values.T], dtype=np.int32)
    y = rng.integers(0, n_classes, n_rows)
    cw = np.zeros((n_rows, n_classes))
    cw[np.arange(n_rows), y] = rng.integers(1, 4, n_rows) * rng.choice([1.0, 2.5], size=n_classes)[y]
    if whole:                                  # whole weights: the solver sums them as integers
        cw = np.ceil(cw)
    return order, rank, cw


@pytest.mark.parametrize("whole", [False, True])
@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("seed", range(4))
def test_batched_children_equal_one_depth_one_solve_per_child(n_classes, seed, whole):
    cols, rank, cw = _support(seed, n_classes, whole=whole)
    # A subset of the rows, as deeper in a tree, so that each column's order skips rows.
    kept = np.isin(cols[0], cols[0][::3], invert=True)
    cols = np.array([row[np.isin(row, cols[0][kept])] for row in cols])
    support = SupportColumns(cols, rank, cw)
    integral = bool(np.all(cw == np.round(cw)))
    assert integral or not whole
    assert support.weighted[0].dtype.kind == ("i" if integral else "f")
    columns, ranks = [], []
    for f in range(cols.shape[0]):
        for r in np.unique(rank[f, cols[f]])[:-1]:
            columns.append(f)
            ranks.append(r)
    penalty = 0.25
    left, right = depth_two_children(support, np.array(columns), np.array(ranks), penalty=penalty)
    n = cols.shape[0]
    for b, (f, r) in enumerate(zip(columns, ranks)):
        goes_left = rank[f][cols] <= r
        expected_left, _ = best_depth_one(cols[goes_left].reshape(n, -1), rank, cw, penalty=penalty)
        expected_right, _ = best_depth_one(cols[~goes_left].reshape(n, -1), rank, cw, penalty=penalty)
        assert left[b] == pytest.approx(expected_left), (f, r)
        assert right[b] == pytest.approx(expected_right), (f, r)


@pytest.mark.parametrize("n_classes", [2, 3, 5])
@pytest.mark.parametrize("seed", range(3))
def test_best_depth_one_equals_every_split_summed_by_hand(n_classes, seed):
    cols, rank, cw = _support(seed, n_classes)
    penalty = 0.25
    cost, split = best_depth_one(cols, rank, cw, penalty=penalty)

    def leaf(rows):
        totals = cw[rows].sum(axis=0)
        return totals.sum() - totals.max()

    rows = cols[0]
    best = leaf(rows) + penalty
    for f in range(cols.shape[0]):
        for r in np.unique(rank[f])[:-1]:
            below = rank[f, rows] <= r
            best = min(best, leaf(rows[below]) + leaf(rows[~below]) + 2 * penalty)
    assert cost == pytest.approx(best)
    if split is not None:
        f, r = split
        below = rank[f, rows] <= r
        assert leaf(rows[below]) + leaf(rows[~below]) + 2 * penalty == pytest.approx(cost)


@pytest.mark.parametrize("n_classes", [2, 3, 4])
@pytest.mark.parametrize("weighted", [False, True, "uniform"])
@pytest.mark.parametrize("seed", range(6))
def test_children_read_in_blocks_and_with_column_bounds_equal_every_row_read(n_classes, weighted, seed, monkeypatch):
    """The children's optima are exact whatever is skipped: blocks of split positions whose partial
    sums cannot win (``SplitBlocks``), and columns whose neighbours' bounds cannot win. The
    per-column costs returned are then lower bounds on the exact ones (equal where read)."""
    from treeopt.solvers.continuous import split_blocks
    from treeopt.solvers.continuous.split_blocks import SplitBlocks
    monkeypatch.setattr(split_blocks, "MOST_READ", 1.0)             # blocks even where rows would be cheaper
    rng = np.random.default_rng(seed)
    n_rows, n_columns = int(rng.integers(200, 1500)), int(rng.integers(2, 6))
    values = rng.integers(0, int(rng.integers(5, 400)), size=(n_rows, n_columns))
    rank = np.array([np.unique(column, return_inverse=True)[1] for column in values.T], dtype=np.int32)
    y = ((values[:, 0] > values[:, 0].mean()) + rng.integers(0, n_classes, n_rows) * (rng.random(n_rows) < 0.3))
    y = y % n_classes
    cw = np.zeros((n_rows, n_classes))
    cw[np.arange(n_rows), y] = rng.integers(1, 4, n_rows) * (0.37 if weighted else 1.0)
    if weighted == "uniform":                                      # one weight: the blocks' grids count rows
        cw[np.arange(n_rows), y] = 0.37
    kept = np.sort(rng.choice(n_rows, size=int(rng.integers(n_rows // 2, n_rows + 1)), replace=False))
    cols = np.stack([kept[np.argsort(rank[j, kept], kind="stable")] for j in range(n_columns)]).astype(np.int32)
    support = SupportColumns(cols, rank, cw)
    columns = rng.integers(0, n_columns, 30)
    ranks = np.array([rank[f, rng.choice(kept)] for f in columns])
    penalty = 0.25
    from treeopt.solvers.continuous.terminal import depth_two_by_column
    exact = depth_two_by_column(support, columns, ranks, penalty=penalty)
    # Bounds that hold (the exact costs lowered by a random amount), as neighbours would give.
    lower = [by - rng.random(by.shape) * 3 * (rng.random(by.shape) < 0.5) for by in exact[2:4]]
    for blocks, bounds in ((SplitBlocks(support), (None, None)), (None, lower), (SplitBlocks(support), lower)):
        got = depth_two_by_column(support, columns, ranks, penalty=penalty, lower_left=bounds[0],
                                  lower_right=bounds[1], blocks=blocks)
        np.testing.assert_allclose(got[0], exact[0])
        np.testing.assert_allclose(got[1], exact[1])
        assert np.all(got[2] <= exact[2] + 1e-9) and np.all(got[3] <= exact[3] + 1e-9)
        if bounds[0] is not None:
            assert got[4] > 0                               # some columns were skipped
        if blocks is not None and any(starts is None for starts in support.segment_starts):
            assert 0 < blocks.blocks_read < blocks.blocks_bounded   # some blocks were read, some not
        elif blocks is not None:
            assert blocks.blocks_bounded == 0                # few thresholds in every column: read by segments
        # The columns the per-column costs leave open hold each child's best split.
        for b, (f, r) in enumerate(zip(columns, ranks)):
            goes_left = rank[f][cols] <= r
            for part, best, by in ((goes_left, got[0][b], got[2][b]), (~goes_left, got[1][b], got[3][b])):
                part = cols[part].reshape(n_columns, -1)
                if part.shape[1]:
                    cost, _ = best_depth_one(part, rank, cw, penalty=penalty, columns=split_columns(by, best))
                    assert cost == pytest.approx(best), (f, r)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_a_large_depth_two_support_comes_in_slices_that_do_not_change_the_tree(n_classes, monkeypatch):
    """With blocks of split positions (supports of ``FEWEST_ROWS`` rows or more, not read all
    columns at once), the depth-two solver's setup and each batch yield whenever the unit budget is
    spent (``depth_two_steps``): more units, the same certified tree and the same thresholds evaluated."""
    from treeopt import make_solver
    from treeopt.solvers.continuous import split_blocks, terminal
    monkeypatch.setattr(terminal, "TOGETHER", 0)
    monkeypatch.setattr(terminal, "TOGETHER_MULTICLASS", 0)
    rng = np.random.default_rng(n_classes)
    n_rows = 2 * split_blocks.FEWEST_ROWS
    X = rng.normal(size=(n_rows, 4))
    y = ((X[:, 0] > 0.2).astype(int) + (X[:, 1] > -0.3) + (rng.random(n_rows) < 0.2)) % n_classes
    found = []
    for budget in (None, 0.0):                      # never due; due at every chance
        solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=2)
        solver.unit_budget = budget
        units = 1
        while solver.step(1):
            units += 1
        assert solver.lower_bound == solver.upper_bound
        found.append((units, solver.upper_bound, str(solver.best_tree), solver.expansions))
    assert found[0][1:] == found[1][1:]
    assert found[1][0] > 2 * found[0][0]


def test_columns_of_few_thresholds_are_read_by_segments_and_not_in_blocks(monkeypatch):
    """A column whose thresholds are few (``SupportColumns.segment_starts``) is read whole by the
    per-column kernel (with two classes, segment by segment), which costs less than bounding its
    blocks: the depth-two solver bounds the blocks of the other columns only, and a support whose
    columns all have few thresholds makes no blocks. The children's optima are those of every row
    read."""
    from treeopt import make_solver
    from treeopt.solvers.continuous import split_blocks, terminal
    from treeopt.solvers.continuous.split_blocks import SplitBlocks
    from treeopt.solvers.continuous.terminal import depth_two_by_column
    monkeypatch.setattr(split_blocks, "MOST_READ", 1.0)             # blocks even where rows would be cheaper
    rng = np.random.default_rng(0)
    n_rows = 3000
    values = np.column_stack([rng.integers(0, 12, n_rows), rng.permutation(n_rows), rng.integers(0, 6, n_rows)])
    rank = np.array([np.unique(column, return_inverse=True)[1] for column in values.T], dtype=np.int32)
    y = ((values[:, 0] > 5) ^ (values[:, 1] > 1400) ^ (rng.random(n_rows) < 0.1)).astype(int)
    cw = np.eye(2)[y]
    cols = np.argsort(rank, axis=1, kind="stable").astype(np.int32)
    support = SupportColumns(cols, rank, cw)
    assert [starts is None for starts in support.segment_starts] == [False, True, False]
    read = []
    gains = SplitBlocks.gains
    monkeypatch.setattr(SplitBlocks, "gains", lambda self, j, *args, **kw: read.append(j) or gains(self, j, *args,
                                                                                                **kw))
    columns = rng.integers(0, 3, 20)
    ranks = np.array([rank[f, rng.integers(n_rows)] for f in columns])
    exact = depth_two_by_column(support, columns, ranks, penalty=0.5)
    got = depth_two_by_column(support, columns, ranks, penalty=0.5, blocks=SplitBlocks(support))
    np.testing.assert_allclose(got[0], exact[0])
    np.testing.assert_allclose(got[1], exact[1])
    assert set(read) == {1}                                         # the column of many thresholds alone
    # A tall table of few values per column, read column by column: no support makes blocks.
    monkeypatch.setattr(terminal, "TOGETHER", 0)
    made = []
    init = SplitBlocks.__init__
    monkeypatch.setattr(SplitBlocks, "__init__", lambda self, support: made.append(1) or init(self, support))
    few = values[:, [0, 2]]
    found = []
    for blocks in (True, False):
        solver = make_solver(few, y, solver="continuous", regularization=0, depth_budget=3,
                             bounds={"split_blocks": blocks})
        result = solver.run()
        assert result.optimal
        found.append((result.objective, result.tree.n_leaves))
    assert not made and found[0] == found[1]
    with_many = make_solver(values, y, solver="continuous", regularization=0, depth_budget=2)
    assert with_many.run().optimal and made                         # the column of many thresholds makes them

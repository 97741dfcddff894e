"""The depth-two solver's batch interval searches (``ThresholdBounds`` on small supports, the heap's
``IntervalBatches`` on large ones): sound bounds, every threshold accounted for once, and the least
cost found, on real supports against every threshold's cost."""

import numpy as np
import pytest

from treeopt.solvers.continuous.intervals import IntervalBatches
from treeopt.solvers.continuous.terminal import SupportColumns, depth_two_by_column
from treeopt.solvers.continuous.threshold_bounds import ThresholdBounds


def _support(seed: int, n_rows: int = 60, n_columns: int = 3, n_classes: int = 2):
    """A support of a noisy table with ties, every threshold's exact children's costs (left and right,
    column × position, inf where the value does not change) and each column's cumulative row weights."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, n_rows // 3, size=(n_rows, n_columns))
    y = (X[:, 0] + rng.integers(0, n_rows // 3, n_rows) > n_rows // 3).astype(int) % n_classes
    rank = np.argsort(np.argsort(X, axis=0, kind="stable"), axis=0, kind="stable").T.astype(np.int32)
    # Equal values share a rank: the least rank of their run.
    for j in range(n_columns):
        order = np.argsort(X[:, j], kind="stable")
        values = X[order, j]
        first = np.concatenate(([0], np.flatnonzero(values[1:] != values[:-1]) + 1))
        rank[j, order] = np.repeat(first, np.diff(np.append(first, n_rows)))
    cols = np.argsort(rank, axis=1, kind="stable").astype(np.int32)
    cw = np.eye(n_classes)[y]
    support = SupportColumns(cols, rank, cw)
    costs = np.full((2, n_columns, n_rows - 1), np.inf)
    for f, positions in enumerate(support.threshold_positions):
        if len(positions):
            ranks = support.sorted_ranks[f][positions]
            left, right, *_ = depth_two_by_column(support, np.full(len(positions), f), ranks, penalty=0.0)
            costs[0, f, positions], costs[1, f, positions] = left, right
    return support, costs, np.cumsum(np.ones((n_columns, n_rows)), axis=1)


def _run(search: ThresholdBounds, costs: np.ndarray, batch: int, budget: float = np.inf):
    """Drive the search as the depth-two solver does, with each threshold's exact children's costs;
    return the best cost and the thresholds evaluated."""
    best, evaluated = np.inf, set()
    while True:
        chosen = search.candidates(min(best, budget), batch)
        if not chosen:
            return best, evaluated
        assert len(chosen) <= batch and not evaluated & set(chosen)
        evaluated |= set(chosen)
        left, right = (np.array([side[f, p] for f, p in chosen]) for side in costs)
        search.record_batch(search.pending, left, right)
        best = min(best, float((left + right).min()))


@pytest.mark.parametrize("kind", [ThresholdBounds, IntervalBatches])
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("batch", [1, 5, 64])
def test_the_least_cost_is_found_and_every_threshold_is_evaluated_or_pruned_once(kind, seed, batch):
    support, costs, weight_before = _support(seed)
    total = costs.sum(axis=0)
    searched = support.value_changes
    search = kind(weight_before, searched, floor=0.0, pruning=True)
    best, evaluated = _run(search, costs, batch)
    assert best == total.min()
    assert search.evaluated == len(evaluated)
    assert search.evaluated + search.pruned == int(searched.sum())
    assert all(searched[f, p] for f, p in evaluated)
    # The least bound of a closed threshold is a lower bound on every threshold not evaluated.
    unevaluated = [total[f, p] for f, p in zip(*np.nonzero(searched)) if (f, p) not in evaluated]
    assert search.closed_bound <= min(unevaluated, default=np.inf)


@pytest.mark.parametrize("seed", range(6))
def test_every_bound_is_at_most_the_thresholds_cost(seed):
    """Record the exact costs of a random third of the thresholds: every other threshold's bound (monotonicity
    and similarity from its evaluated neighbours) is at most its cost, and with pruning off it is the floor."""
    support, costs, weight_before = _support(seed, n_classes=3)
    rng = np.random.default_rng(seed)
    searched = support.value_changes
    for pruning in (True, False):
        search = ThresholdBounds(weight_before, searched, floor=0.0, pruning=pruning)
        chosen = search.candidates(np.inf, searched.size * len(searched))     # every threshold, to pick from
        entries = search.pending
        keep = rng.random(len(entries)) < 1 / 3
        left, right = (np.array([side[f, p] for f, p in chosen]) for side in costs)
        search.record_batch(entries[keep], left[keep], right[keep])
        search.open[entries[~keep]] = True                                 # the rest back to open
        others, bound = search.open_bounds()
        assert others.tolist() == entries[~keep].tolist()
        assert (bound <= (left + right)[~keep] + 1e-9).all()
        if pruning:
            assert bound.max() > 0                                         # the bounds are not all trivial
        else:
            assert (bound == 0).all()


def test_a_threshold_tried_first_comes_in_the_first_batch():
    support, costs, weight_before = _support(3)
    searched = support.value_changes
    f, p = 1, int(np.flatnonzero(searched[1])[-2])
    for batch in (2, 4, 64):
        search = ThresholdBounds(weight_before, searched, floor=0.0, pruning=True)
        assert search.last_open_at_or_before(f, p + 1) == p          # the position after p is not a threshold
        search.try_first(f, p)
        assert (f, p) in search.candidates(np.inf, batch)
    # A batch of one takes from the first column: the threshold waits for the first batch from its own.
    search = ThresholdBounds(weight_before, searched, floor=0.0, pruning=True)
    search.try_first(f, p)
    batches = [search.candidates(np.inf, 1)]
    while batches[-1][0][0] != f:
        search.record_batch(search.pending, np.ones(1), np.ones(1))
        batches.append(search.candidates(np.inf, 1))
    assert batches[-1] == [(f, p)]


@pytest.mark.parametrize("kind", [ThresholdBounds, IntervalBatches])
def test_a_budget_closes_what_it_excludes_and_the_lower_bound_holds(kind):
    """Asked below a budget under the optimum, the search evaluates little, and the least bound it
    reports stays at most the least cost of the thresholds it did not evaluate."""
    support, costs, weight_before = _support(5, n_rows=90)
    search = kind(weight_before, support.value_changes, floor=0.0, pruning=True)
    least = costs.sum(axis=0).min()
    best, evaluated = _run(search, costs, 8, budget=least * 0.5)
    assert best >= least
    assert search.lower_bound() == np.inf                                  # nothing left open
    assert search.closed_bound <= least
    assert len(evaluated) < int(support.value_changes.sum())


@pytest.mark.parametrize("n_classes, regularization", [(2, 0.0), (3, 0.0), (2, 0.01), (4, 0.005)])
def test_the_solver_finds_the_same_optimum_with_either_search(monkeypatch, n_classes, regularization):
    """The depth-two solver takes the array search on small supports and the heap on large ones
    (``ARRAY_ENTRIES``): with either alone, the same optimum."""
    import treeopt.solvers.continuous.search as search_module
    from treeopt import make_solver

    rng = np.random.default_rng(n_classes)
    X = rng.normal(size=(240, 4)).round(1)
    y = ((X[:, 0] > 0.1).astype(int) + (X[:, 1] + X[:, 2] > 0)) % n_classes
    y = np.where(rng.random(240) < 0.15, rng.integers(0, n_classes, 240), y)
    results = {}
    for limit, kind in ((0, IntervalBatches), (1 << 30, ThresholdBounds)):
        monkeypatch.setattr(search_module, "ARRAY_ENTRIES", limit)
        made = []
        original = kind.__init__

        def spy(self, *args, _original=original, **kwargs):
            made.append(self)
            _original(self, *args, **kwargs)

        monkeypatch.setattr(kind, "__init__", spy)
        solver = make_solver(X, y, solver="continuous", regularization=regularization, depth_budget=3)
        results[kind] = solver.run()
        assert made, kind                                              # the search taken is the one asked for
    heap, array = results[IntervalBatches], results[ThresholdBounds]
    assert heap.optimal and array.optimal
    assert heap.objective == pytest.approx(array.objective, abs=1e-9)

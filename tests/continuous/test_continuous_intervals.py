"""The interval search accounts for every threshold exactly once, in batches of any size."""

import numpy as np
import pytest

from treeopt.solvers.continuous.intervals import IntervalSearch


def _search_in_batches(search: IntervalSearch, batch: int, rng) -> list:
    """Ask for batches of at most ``batch`` thresholds until none is left, recording random child costs for
    each; return the batches (each checked to be within size and new)."""
    seen, best, batches = set(), np.inf, []
    while True:
        chosen = search.candidates(best, batch)
        if not chosen:
            return batches
        assert len(chosen) <= batch and not seen & set(chosen)
        seen |= set(chosen)
        batches.append(chosen)
        for f, m in chosen:
            left, right = rng.uniform(0.5, 5, 2)
            search.record(f, m, left, right)
            best = min(best, left + right)


@pytest.mark.parametrize("batch", [1, 3, 64])
@pytest.mark.parametrize("pruning", [True, False])
def test_every_threshold_is_evaluated_or_pruned_once(batch, pruning):
    rng = np.random.default_rng(batch)
    lengths = [1, 7, 40]
    cumulative = [np.cumsum(rng.integers(1, 3, n)).astype(float) for n in lengths]
    totals = [float(c[-1]) + 1 for c in cumulative]
    search = IntervalSearch(cumulative, totals, floor=0.5, pruning=pruning)
    seen = {pair for chosen in _search_in_batches(search, batch, rng) for pair in chosen}
    assert search.evaluated == len(seen)
    assert search.evaluated + search.pruned == sum(lengths)
    assert all(0 <= m < lengths[f] for f, m in seen)


def test_interval_reach_and_the_monotone_part_of_the_interval_bound():
    """The constant-time monotonicity bound never exceeds the full bound, and the reach of a threshold
    is the weight to its farther evaluated neighbour (the column's ends count as neighbours)."""
    cumulative = [np.array([1.0, 3.0, 4.0, 8.0, 9.0])]
    search = IntervalSearch(cumulative, [10.0], floor=0.0, pruning=True)
    (f, m), = search.candidates(np.inf, 1)
    assert (f, m) == (0, 2)
    assert search.interval_reach(0, -1, 2, 5) == 6.0                  # 4 rows below it, 6 above
    search.record(0, 2, 3.0, 5.0)
    assert search.monotone_bound(0, -1, 2) == 5.0                     # right child at least threshold 2's
    assert search.monotone_bound(0, 2, 5) == 3.0                      # left child at least threshold 2's
    for a, b in ((-1, 2), (2, 5)):
        assert search.monotone_bound(0, a, b) <= search.interval_bound(0, a, b)
    # Similarity raises threshold 1's left child to 3 - (4 - 3) = 2, not threshold 0's (3 - 3): the least is 5.
    assert search.interval_bound(0, -1, 2) == 5.0
    assert search.interval_reach(0, 2, 3, 5) == 4.0


@pytest.mark.parametrize("batch", [1, 3, 64])
@pytest.mark.parametrize("first", [0, 5, 20, 39])
def test_a_threshold_tried_first_comes_in_the_first_batch_and_is_counted_once(batch, first):
    """``try_first`` adds a threshold to its column's first middles (or takes a middle's place when
    the batch is full), and every threshold is still evaluated or pruned exactly once."""
    rng = np.random.default_rng(first)
    cumulative = [np.cumsum(rng.integers(1, 3, 40)).astype(float), np.cumsum(rng.integers(1, 3, 9)).astype(float)]
    totals = [float(c[-1]) + 1 for c in cumulative]
    search = IntervalSearch(cumulative, totals, floor=0.5, pruning=True)
    search.try_first(0, first)
    batches = _search_in_batches(search, batch, rng)
    assert (0, first) in batches[0]
    assert search.evaluated + search.pruned == 49


def _bound_of_every_threshold(search: IntervalSearch, f: int, a: int, b: int) -> float:
    """The interval bound by its definition: the least, over every threshold between ``a`` and ``b``, of
    the two children's bounds (:meth:`IntervalSearch.child_bounds`)."""
    return min(sum(search.child_bounds(f, a, m, b)) for m in range(a + 1, b))


@pytest.mark.parametrize("seed", range(4))
def test_the_interval_bound_is_the_least_over_its_thresholds(seed):
    # The bound is found by bisection of a convex function; it must equal the least bound of any
    # threshold of the interval, for known ends and for the interval's open ends (-1 and q).
    rng = np.random.default_rng(seed)
    for _ in range(300):
        q = int(rng.integers(2, 25))
        cumulative = np.cumsum(rng.integers(1, 4, q)).astype(float)
        search = IntervalSearch([cumulative], [float(cumulative[-1]) + 1], floor=float(rng.choice([0.0, 0.5])),
                                pruning=True)
        a = int(rng.integers(-1, q - 1))
        b = int(rng.integers(a + 2, q + 2)) if a + 2 <= q else q
        b = min(b, q)
        for end in (a, b):
            if 0 <= end < q:
                search.known[0][end] = tuple(rng.integers(0, 24, 2) / 2)
        assert search.interval_bound(0, a, b) == pytest.approx(_bound_of_every_threshold(search, 0, a, b), abs=1e-12)

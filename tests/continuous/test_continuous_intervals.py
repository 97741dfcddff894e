"""The interval search accounts for every threshold exactly once, in batches of any size."""

import numpy as np
import pytest

from treeopt.solvers.continuous.intervals import IntervalSearch


@pytest.mark.parametrize("batch", [1, 3, 64])
@pytest.mark.parametrize("pruning", [True, False])
def test_every_threshold_is_evaluated_or_pruned_once(batch, pruning):
    rng = np.random.default_rng(batch)
    lengths = [1, 7, 40]
    cumulative = [np.cumsum(rng.integers(1, 3, n)).astype(float) for n in lengths]
    totals = [float(c[-1]) + 1 for c in cumulative]
    search = IntervalSearch(cumulative, totals, floor=0.5, pruning=pruning)
    seen = set()
    best = np.inf
    while True:
        chosen = search.candidates(best, batch)
        if not chosen:
            break
        assert len(chosen) <= batch and not seen & set(chosen)
        seen |= set(chosen)
        for f, m in chosen:
            left, right = rng.uniform(0.5, 5, 2)
            search.record(f, m, left, right)
            best = min(best, left + right)
    assert search.evaluated == len(seen)
    assert search.evaluated + search.pruned == sum(lengths)
    assert all(0 <= m < lengths[f] for f, m in seen)

"""HeapFreeze keeps the collector off the memo during a unit of work and leaves no trace after it."""

import gc

import numpy as np
import pytest

from treeopt.data import Dataset
from treeopt.solvers import GOSDT
from treeopt.solvers.gosdt.gc_pause import HeapFreeze

from conftest import read_binary, require_datasets


def test_freezes_inside_and_releases_everything_after():
    with HeapFreeze():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0


def test_releases_on_an_exception():
    with pytest.raises(KeyboardInterrupt):
        with HeapFreeze():
            raise KeyboardInterrupt
    assert gc.get_freeze_count() == 0


def test_leaves_someone_elses_freeze_alone():
    """Objects frozen before (a pre-fork server, say) stay frozen: unfreezing would release them.

    The freeze count alone cannot tell: frozen objects that lose their last reference (another
    thread's, a finaliser's) leave the permanent generation and lower it. So a sentinel frozen
    beforehand must still be out of the collector's generations afterwards.
    """
    sentinel = ["frozen by someone else"]

    def collector_sees_sentinel():
        return any(obj is sentinel for obj in gc.get_objects())

    assert collector_sees_sentinel()
    gc.freeze()
    try:
        assert not collector_sees_sentinel()
        pause = HeapFreeze()
        with pause:
            pass
        assert not pause.enabled
        assert gc.get_freeze_count() > 0 and not collector_sees_sentinel()
    finally:
        gc.unfreeze()
    assert collector_sees_sentinel()


def test_nothing_when_the_collector_is_off():
    gc.disable()
    try:
        with HeapFreeze():
            assert gc.get_freeze_count() == 0
    finally:
        gc.enable()


def test_gosdt_search_is_the_same_with_and_without_it_and_leaves_nothing_frozen():
    require_datasets()
    X, y = read_binary("monk1")
    dataset = Dataset.from_binary(X, y)
    runs = []
    for freeze in (True, False):
        solver = GOSDT(dataset, regularization=0.02)
        solver.freeze_heap = freeze
        assert solver.step(5)
        assert gc.get_freeze_count() == 0                  # paused between units: nothing frozen
        result = solver.run()
        assert gc.get_freeze_count() == 0
        runs.append((result.objective, result.expansions, len(solver.problems), solver.prune_counts,
                     result.tree.rules()))
    assert runs[0] == runs[1]


def test_garbage_cycles_made_during_a_search_are_still_collected():
    """Cycles that become garbage during a unit of work are freed by the collector afterwards."""
    X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]] * 5)
    y = np.array([1, 1, 0, 0] * 5)
    solver = GOSDT(Dataset.from_binary(X, y), regularization=0.01)
    solver.run()
    import weakref
    probe = weakref.ref(solver)
    del solver
    gc.collect()
    assert probe() is None

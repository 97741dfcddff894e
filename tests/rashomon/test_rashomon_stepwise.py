"""The Rashomon set built step by step speaks the protocol and ends with the same set."""
import numpy as np
import pytest

from rashomon_oracle import as_tuple
from treeopt.data import Dataset
from treeopt.events import Finished, Started
from treeopt import rashomon_set
from treeopt.rashomon import RashomonSearch
from treeopt.solvers.base import Solver


def _data(seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(40, 5))
    y = (X[:, 0] ^ X[:, 1]) | (rng.random(40) < 0.2)
    return X, y.astype(int)


@pytest.mark.parametrize("seed", range(4))
def test_stepwise_set_equals_the_direct_set_and_bounds_are_honest(seed):
    X, y = _data(seed)
    dataset = Dataset.from_binary(X, y)
    search = RashomonSearch(dataset, regularization=0.02, epsilon=0.1)
    events = list(search.steps())
    assert isinstance(events[0], Started) and isinstance(events[-1], Finished) and events[-1].optimal
    direct = rashomon_set(Dataset.from_binary(X, y), regularization=0.02, epsilon=0.1)
    rs = search.rashomon_set
    assert len(rs) == len(direct) and rs.optimum == pytest.approx(direct.optimum)
    assert [as_tuple(t) for t in rs] == [as_tuple(t) for t in direct]
    assert search.snapshot().extra["count"] == len(rs)


@pytest.mark.parametrize("seed", range(3))
def test_snapshots_show_incumbent_bounds_and_a_growing_count(seed):
    X, y = _data(seed)
    search = RashomonSearch(Dataset.from_binary(X, y), regularization=0.02, epsilon=0.2)
    lows, highs, counts = [], [], []
    with pytest.raises(RuntimeError, match="not built"):
        search.rashomon_set
    while search.step(1):
        snap = search.snapshot()
        assert snap.lower_bound <= snap.upper_bound + 1e-12
        assert snap.best_tree.objective(X, y, 0.02, binarized=True) == pytest.approx(snap.upper_bound)
        lows.append(snap.lower_bound)
        highs.append(snap.upper_bound)
        if snap.extra["phase"] == "set":
            counts.append(snap.extra["count"])
            assert snap.extra["bound"] == pytest.approx(1.2 * snap.upper_bound)
    assert np.all(np.diff(lows) >= -1e-12) and np.all(np.diff(highs) <= 1e-12)
    assert counts == sorted(counts) and counts[-1] == len(search.rashomon_set)
    assert lows[-1] == pytest.approx(highs[-1]) == pytest.approx(search.rashomon_set.optimum)


def test_pause_and_resume_give_the_same_set_and_settings_are_data():
    X, y = _data(7)
    dataset = Dataset.from_binary(X, y)
    paused = RashomonSearch(dataset, regularization=0.03, bound=0.3)
    paused.step(4)
    paused.run()
    whole = paused.rebuild()
    whole.run()
    assert whole.settings["bound"] == 0.3 and whole.status == "optimal"
    assert [as_tuple(t) for t in whole.rashomon_set] == [as_tuple(t) for t in paused.rashomon_set]
    assert len(paused.snapshot().queue) == 0
    with pytest.raises(ValueError, match="depth_budget"):
        RashomonSearch(dataset, regularization=0.03, depth_budget=2)


def test_the_player_drives_the_search():
    pytest.importorskip("ipywidgets")
    pytest.importorskip("plotly")
    from treeopt.widgets import SolverPlayer
    X, y = _data(3)
    search = RashomonSearch(Dataset.from_binary(X, y), regularization=0.02, epsilon=0.2)
    player = SolverPlayer(search)
    player.step(3)
    assert player.status == "paused" and player.lower_bound <= player.upper_bound
    player.step(10 ** 4)
    assert player.status == "optimal" and player.lower_bound == pytest.approx(player.upper_bound)
    assert len(search.rashomon_set) == len(rashomon_set(Dataset.from_binary(X, y), regularization=0.02, epsilon=0.2))


def test_a_step_is_a_bounded_slice_of_work_not_a_whole_root_split():
    """One step used to be a whole root split (about 1 s on large data); now the graph pauses
    every UNITS_PER_PAUSE subproblem visits, so the work per step is bounded whatever the data, and
    the lower bound stays honest while a split is half done."""
    from treeopt.datasets import load_monk
    from treeopt.rashomon.search import UNITS_PER_PAUSE

    X, y = load_monk(2)
    search = RashomonSearch(Dataset.from_arrays(X, y), regularization=0.01, epsilon=0.02)
    graph = search.graph
    n_features = len(graph.features)

    def entries():
        return len(graph.exact) + len(graph.lower) + len(graph.nodes)

    steps, largest = 0, 0
    optimum = rashomon_set(X, y, regularization=0.01, epsilon=0.02).optimum
    while True:
        before = entries()
        alive = search.step(1)
        steps += 1
        largest = max(largest, entries() - before)
        assert search.lower_bound <= optimum + 1e-9                    # never above the optimum mid-split
        if not alive:
            break
    # a visit adds its own entry and its children's bounds: at most 2 per feature, plus one
    assert largest <= UNITS_PER_PAUSE * (2 * n_features + 2)
    assert steps > 2 * n_features + 2                                  # finer than a step per root split
    assert len(search.rashomon_set) == len(rashomon_set(X, y, regularization=0.01, epsilon=0.02))


def test_the_unit_budget_slices_the_graph_and_the_set_does_not_depend_on_it():
    """Besides every UNITS_PER_PAUSE visits, the graph pauses once a slice of the unit budget is spent
    (a visit may convolve large tables); a budget of 0 pauses at every pause point, to the same set."""
    from treeopt.datasets import load_monk

    X, y = load_monk(2)
    counts = {}
    for budget in (0.0, Solver.unit_budget):
        search = RashomonSearch(Dataset.from_arrays(X, y), regularization=0.01, epsilon=0.02)
        search.unit_budget = budget
        steps = 1
        while search.step(1):
            steps += 1
        counts[budget] = (steps, search.rashomon_set.count, search.rashomon_set.objective_counts())
    (sliced, n_sliced, table_sliced), (default, n_default, table_default) = counts.values()
    assert sliced > 2 * default
    assert n_sliced == n_default and table_sliced.equals(table_default)

"""The memory cap: ``cache_size`` in every solver, ``run(cache_limit=...)``, the estimator, CLI, frontier, player.

Every solver stops with status ``cache_limit`` at a small limit on MONK data, returns a valid tree
whose recomputed objective is the reported upper bound, and keeps ``lower <= optimum <= upper`` with
the optimum computed by an unlimited run; a large limit changes nothing.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import ConvergenceWarning

from treeopt import OptimalTreeClassifier
from treeopt.categorical import CategoricalDataset
from treeopt.cli import main
from treeopt.data import Dataset
from treeopt.datasets import load_monk
from treeopt import frontier
from treeopt.solvers import GOSDT, OSDT, Branches
from treeopt.greedy.solver import GreedyInduction
from treeopt.frontier.search import FrontierSearch

LAM = 0.02


@pytest.fixture(scope="module")
def monk():
    X, y = load_monk(2)                     # the hardest MONK rule: large memos, large greedy trees
    return X, y, Dataset.from_arrays(X, y), CategoricalDataset.from_arrays(X, y)


def make(name, monk):
    """A fresh solver and how to recompute its objective from a tree: (solver, recompute(tree))."""
    X, y, binary, categorical = monk
    if name == "gosdt":
        return GOSDT(binary, regularization=LAM), lambda tree: tree.objective(X, y, LAM)
    if name == "osdt":
        return OSDT(binary, regularization=0.05), lambda tree: tree.objective(X, y, 0.05)
    if name == "branches":
        return (Branches(categorical, regularization=LAM),
                lambda tree: tree.objective(X, y, LAM, penalty="split"))
    if name == "greedy":
        return GreedyInduction(binary, regularization=LAM), lambda tree: tree.objective(X, y, LAM)
    if name == "pareto":
        return FrontierSearch(binary, max_leaves=6), lambda tree: tree.objective(X, y, 0.0)
    raise AssertionError(name)


SOLVER_NAMES = ["gosdt", "osdt", "branches", "greedy", "pareto"]
#: Solvers that never free an entry they count: cache_size never decreases (OSDT pops partial trees,
#: greedy pruning collapses subtrees).
NEVER_FREE = ["gosdt", "branches", "pareto"]


@pytest.fixture(scope="module")
def unlimited(monk):
    """Each solver run to its end without limits: (result, true optimum)."""
    results = {name: make(name, monk)[0].run() for name in SOLVER_NAMES}
    optimum = {name: results[name].objective for name in SOLVER_NAMES}
    optimum["greedy"] = results["gosdt"].objective       # the heuristic's true optimum: GOSDT's, same λ
    return results, optimum


@pytest.mark.parametrize("name", SOLVER_NAMES)
def test_small_cache_limit_stops_with_a_valid_tree_and_honest_gap(name, monk, unlimited):
    results, optimum = unlimited
    full = results[name]
    limit = max(1, full.cache_size // 4)
    solver, recompute = make(name, monk)
    result = solver.run(cache_limit=limit)
    assert result.status == "cache_limit" and not result.optimal
    assert result.cache_size > limit and result.cache_size == solver.cache_size
    assert result.expansions < full.expansions
    assert recompute(result.tree) == pytest.approx(result.upper_bound, abs=1e-9)
    assert result.objective == result.upper_bound
    assert result.lower_bound <= optimum[name] + 1e-9 <= result.upper_bound + 2e-9
    assert result.gap == pytest.approx(result.upper_bound - result.lower_bound)
    # The trace records the cache size; its last point is the stop.
    frame = result.trace_frame()
    assert "cache_size" in frame.columns and frame.cache_size.iloc[-1] == result.cache_size
    # Resuming with no limit reaches the unlimited result.
    resumed = solver.run()
    assert resumed.status == full.status
    assert resumed.objective == pytest.approx(full.objective, abs=1e-12)


@pytest.mark.parametrize("name", SOLVER_NAMES)
def test_large_cache_limit_changes_nothing(name, monk, unlimited):
    full = unlimited[0][name]
    solver, _ = make(name, monk)
    result = solver.run(cache_limit=10 * full.cache_size + 10)
    assert (result.status, result.expansions, result.cache_size) == (full.status, full.expansions, full.cache_size)
    assert result.objective == full.objective and result.lower_bound == full.lower_bound
    assert result.tree.to_dict() == full.tree.to_dict()


@pytest.mark.parametrize("name", SOLVER_NAMES)
def test_snapshot_cache_size_is_positive_and_never_decreases_where_nothing_is_freed(name, monk):
    solver, _ = make(name, monk)
    assert solver.snapshot().cache_size >= 0
    sizes = []
    while solver.step(7):
        snapshot = solver.snapshot(top_k=1)
        assert snapshot.cache_size == solver.cache_size > 0
        sizes.append(snapshot.cache_size)
    assert len(sizes) > 3
    if name in NEVER_FREE:
        assert sizes == sorted(sizes)
    assert all(point.cache_size >= 0 for point in solver.trace)


def test_osdt_cache_size_counts_its_caches_and_partial_trees(monk):
    solver, _ = make("osdt", monk)
    solver.step(20)
    extra = solver.snapshot().extra
    assert solver.cache_size >= extra["leaf_cache"] + extra["tree_cache"] + solver.queue_size


def test_greedy_cache_size_is_the_number_of_tree_nodes(monk):
    solver, _ = make("greedy", monk)
    while solver.step(3):                                  # growing, then pruning (which frees nodes)
        tree = solver.best_tree
        assert solver.cache_size == tree.n_leaves + tree.n_splits
    tree = solver.best_tree
    assert solver.cache_size == tree.n_leaves + tree.n_splits > 1


@pytest.mark.parametrize("bad", [0, -5, 2.5, "100", True, np.float64(3.0)])
def test_bad_cache_limits_are_rejected_before_any_search(bad, monk):
    solver, _ = make("gosdt", monk)
    with pytest.raises(ValueError, match="cache_limit must be a positive integer"):
        solver.run(cache_limit=bad)
    assert solver.status == "not_started" and solver.expansions == 0
    X, y = monk[0], monk[1]
    with pytest.raises(ValueError, match="cache_limit"):
        OptimalTreeClassifier(regularization=LAM, cache_limit=bad).fit(X, y)
    with pytest.raises(ValueError, match="cache_limit"):
        frontier(X, y, max_leaves=3, cache_limit=bad)


def test_numpy_integer_limit_is_accepted(monk):
    solver, _ = make("gosdt", monk)
    assert solver.run(cache_limit=np.int64(50)).status == "cache_limit"


def test_estimator_warns_and_names_the_parameter(monk):
    X, y = monk[0], monk[1]
    with pytest.warns(ConvergenceWarning, match="cache_limit=40"):
        clf = OptimalTreeClassifier(regularization=LAM, cache_limit=40, keep_search=True).fit(X, y)
    assert clf.status_ == "cache_limit" and not clf.optimal_
    assert clf.solver_.cache_size > 40
    assert clf.lower_bound_ <= clf.upper_bound_ == clf.objective_
    assert clf.trace_.cache_size.iloc[-1] == clf.solver_.cache_size
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        full = OptimalTreeClassifier(regularization=LAM, cache_limit=10**7).fit(X, y)
    assert full.optimal_ and full.lower_bound_ <= full.objective_ <= clf.objective_ + 1e-12
    assert clf.lower_bound_ <= full.objective_ + 1e-12


def test_cli_cache_limit(tmp_path, capsys, monk):
    X, y = monk[0], monk[1]
    path = tmp_path / "monk2.csv"
    pd.concat([X, y], axis=1).to_csv(path, index=False)
    assert main(["fit", str(path), "--target", "class", "--regularization", str(LAM), "--cache-limit", "40"]) == 3  # stopped uncertified (README, exit codes)
    out = capsys.readouterr().out
    assert "NOT certified (cache_limit)" in out
    with pytest.raises(SystemExit, match="cache_limit"):
        main(["fit", str(path), "--target", "class", "--cache-limit", "0"])


def test_frontier_command_cache_limit(tmp_path, capsys, monk):
    X, y = monk[0], monk[1]
    path = tmp_path / "monk2.csv"
    pd.concat([X, y], axis=1).to_csv(path, index=False)
    assert main(["frontier", str(path), "--target", "class", "--max-leaves", "6", "--cache-limit", "30"]) == 3  # stopped uncertified
    assert "search stopped (cache_limit)" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="cache_limit"):
        main(["frontier", str(path), "--target", "class", "--cache-limit", "-1"])


def test_frontier_cache_limit_leaves_it_incomplete(monk):
    X, y = monk[0], monk[1]
    front = frontier(X, y, max_leaves=6, cache_limit=30)
    assert not front.complete and front.search.status == "cache_limit"
    assert front.search.cache_size > 30
    full = frontier(X, y, max_leaves=6, cache_limit=10**7)
    assert full.complete
    # Every certified point of the stopped frontier is a point of the complete one.
    certified = front.table[front.table.certified]
    for leaves, loss in zip(certified.leaves, certified.loss):
        assert full.table.loc[full.table.leaves <= leaves, "loss"].min() == pytest.approx(loss, abs=1e-12)


def test_player_shows_cache_size_and_stops_at_its_cache_limit(monk):
    pytest.importorskip("ipywidgets")
    import asyncio

    from treeopt.widgets import SolverPlayer, explore

    X, y = monk[0], monk[1]
    player = explore(X, y, regularization=LAM, views=None, speed=5, cache_limit=60)
    assert player.cache_limit == 60 and player.cache_size == 0
    player.step(3)
    assert player.cache_size == player.solver.cache_size > 0
    assert f"cache {player.cache_size}" in player.controls.status_label.value
    status = asyncio.run(player.play_until_done())
    assert status == "cache_limit" and player.cache_size > 60
    assert player.lower_bound <= player.upper_bound
    solver, _ = make("gosdt", monk)
    with pytest.raises(ValueError, match="cache_limit"):
        SolverPlayer(solver, views=None, cache_limit=0)
    from traitlets import TraitError
    with pytest.raises(TraitError, match="cache_limit"):
        player.cache_limit = -1

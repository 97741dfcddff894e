"""OSDT (leaf-set branch-and-bound) against the brute-force oracle, the reference optima and itself.

Every bound is a claim that part of the search space holds no better tree;
a wrong one shows up as a disagreement with the oracle on some random data
set, so the oracle comparison runs for every scheduling policy and with each
bound switched off in turn.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force
from treeopt import OptimalTreeClassifier
from treeopt.data import Dataset
from treeopt.registry import SOLVERS
from treeopt.solvers.osdt import OSDT
from treeopt.solvers.osdt.schedules import SCHEDULES
from treeopt.tree import Leaf, Split, Tree

from conftest import read_binary, require_datasets

SCHEDULE_NAMES = sorted(SCHEDULES)


@st.composite
def small_problems(draw, max_features=4, max_rows=24):
    n_features = draw(st.integers(1, max_features))
    n_rows = draw(st.integers(2, max_rows))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n_features, max_size=n_features),
                               min_size=n_rows, max_size=n_rows)))
    kind = draw(st.sampled_from(["random", "xor", "and"]))
    if kind == "random":
        y = np.array(draw(st.lists(st.integers(0, 1), min_size=n_rows, max_size=n_rows)))
    else:
        a, b = X[:, 0], X[:, -1]
        y = (a ^ b) if kind == "xor" else (a & b)
        flips = draw(st.lists(st.integers(0, n_rows - 1), max_size=3))
        y = y.copy()
        y[flips] ^= 1
    if len(set(y.tolist())) < 2:
        y = y.copy()
        y[0] ^= 1                                   # both classes (single-class data: its own test)
    lam = draw(st.sampled_from([0.005, 0.02, 0.05, 0.1]))
    return X, y, lam


def _check_against_oracle(X, y, lam, **options):
    expected = brute_force(X, y, lam, objective=options.get("objective", "accuracy"),
                           depth=options.get("depth_budget")).objective
    result = OSDT(Dataset.from_binary(X, y), regularization=lam, **options).run()
    assert result.optimal and result.gap == 0
    assert result.objective == pytest.approx(expected, abs=1e-9)
    # The returned tree really has that objective (recomputed from its predictions).
    assert result.tree.objective(X, y, lam, objective=options.get("objective", "accuracy"),
                                 binarized=True) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("schedule", SCHEDULE_NAMES)
@settings(max_examples=25)
@given(problem=small_problems())
def test_every_schedule_matches_oracle(schedule, problem):
    X, y, lam = problem
    _check_against_oracle(X, y, lam, schedule=schedule)


@pytest.mark.parametrize("off", [name for name in OSDT.BOUNDS if name not in OSDT.OPT_IN])
@settings(max_examples=15)
@given(problem=small_problems(max_features=3, max_rows=16))
def test_each_bound_off_matches_oracle(off, problem):
    X, y, lam = problem
    _check_against_oracle(X, y, lam, bounds={off: False})


@given(problem=small_problems(), objective=st.sampled_from(["balanced_accuracy", "weighted_accuracy"]),
       depth=st.sampled_from([None, 1, 2]), similar=st.booleans())
def test_other_objectives_depth_and_similar_support_match_oracle(problem, objective, depth, similar):
    X, y, lam = problem
    _check_against_oracle(X, y, lam, objective=objective, depth_budget=depth,
                          bounds={"similar_support": similar}, warm_start="cart")


def _drain(solver, chunk):
    """Run a solver in pieces through steps(), pausing after every ``chunk`` events."""
    events = 0
    while True:
        generator = solver.steps()
        for events, event in enumerate(generator, start=1):
            if events % chunk == 0:
                break
        else:
            return solver.result()
        generator.close()
        if solver.status == "optimal":
            return solver.result()


@pytest.mark.parametrize("schedule", SCHEDULE_NAMES)
def test_pause_and_resume_give_the_same_search(schedule):
    require_datasets()
    X, y = read_binary("car-evaluation")
    ds = Dataset.from_binary(X, y)
    straight = OSDT(ds, regularization=0.05, schedule=schedule)
    reference = straight.run()
    paused = OSDT(ds, regularization=0.05, schedule=schedule)
    result = _drain(paused, chunk=7)
    stepped = OSDT(ds, regularization=0.05, schedule=schedule)
    while stepped.step(3):
        stepped.snapshot()
    assert reference.optimal and result.optimal and stepped.result().optimal
    for other, solver in ((result, paused), (stepped.result(), stepped)):
        assert other.objective == reference.objective
        assert other.tree.to_dict() == reference.tree.to_dict()
        assert other.expansions == reference.expansions
        assert other.prune_counts == reference.prune_counts
        assert solver.trees_evaluated == straight.trees_evaluated


# -- reference optima (fast instances; the 300 s comparison is benchmarks/osdt_vs_gosdt.py) ---------
FAST = [("monk1", 0.05), ("monk3", 0.05), ("car-evaluation", 0.05), ("balance-scale", 0.02),
        ("compas-binary", 0.05), ("compas-binary", 0.02), ("compas-binary", 0.01), ("fico-binary", 0.05)]


@pytest.mark.parametrize("name,lam", FAST)
def test_matches_reference_optimum(name, lam, reference_optima):
    require_datasets()
    X, y = read_binary(name)
    row = reference_optima[(reference_optima.dataset == name) & np.isclose(reference_optima["lambda"], lam)
                           & (reference_optima.problem == "R")]
    result = OSDT(Dataset.from_binary(X, y), regularization=lam).run(time_limit=120)
    assert result.optimal, result.status
    recomputed = result.tree.objective(X, y, lam, binarized=True)
    assert recomputed == pytest.approx(row.reference_objective.iloc[0], abs=1e-9)
    assert result.objective == pytest.approx(recomputed, abs=1e-9)


def test_warm_start_never_displaces_a_better_single_leaf(reference_optima):
    """On tic-tac-toe at λ = 0.05 the single leaf is optimal and CART is not."""
    require_datasets()
    X, y = read_binary("tic-tac-toe")
    ds = Dataset.from_binary(X, y)
    solver = OSDT(ds, regularization=0.05, warm_start="cart")
    solver.step(1)
    assert solver.best_tree.n_leaves == 1
    result = solver.run(node_limit=50)
    expected = reference_optima[(reference_optima.dataset == "tic-tac-toe")
                                & np.isclose(reference_optima["lambda"], 0.05)
                                & (reference_optima.problem == "R")].reference_objective.iloc[0]
    assert result.objective == pytest.approx(expected, abs=1e-9)
    assert result.tree.n_leaves == 1
    assert result.lower_bound <= result.objective


def test_user_warm_start_is_used_only_when_better():
    X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]] * 5)
    y = np.array([1, 1, 0, 0] * 5)
    ds = Dataset.from_binary(X, y, feature_names=["a", "b"])
    good = Tree(Split(0, Leaf(0), Leaf(1)), ds.features, ds.classes)
    bad = Tree(Split(1, Split(0, Leaf(0), Leaf(1)), Split(0, Leaf(0), Leaf(1))), ds.features, ds.classes)
    started = next(OSDT(ds, regularization=0.1, warm_start=good).steps())   # before any expansion
    assert started.upper_bound == pytest.approx(0.2)                         # the warm tree
    ignored = OSDT(ds, regularization=0.3, warm_start=bad)         # 4 leaves × 0.3 > the single leaf
    assert next(ignored.steps()).upper_bound == pytest.approx(0.5 + 0.3)
    assert ignored.run().objective == pytest.approx(0.6)


def test_stopped_search_is_honest(reference_optima):
    require_datasets()
    X, y = read_binary("compas-binary")
    result = OSDT(Dataset.from_binary(X, y), regularization=0.005).run(node_limit=40)
    optimum = reference_optima[(reference_optima.dataset == "compas-binary")
                               & np.isclose(reference_optima["lambda"], 0.005)
                               & (reference_optima.problem == "R")].reference_objective.iloc[0]
    assert not result.optimal and result.status == "node_limit"
    assert result.lower_bound <= optimum + 1e-12 <= result.upper_bound + 2e-12
    assert result.gap == pytest.approx(result.upper_bound - result.lower_bound)
    assert result.tree.objective(X, y, 0.005, binarized=True) == pytest.approx(result.objective, abs=1e-9)


@pytest.mark.parametrize("schedule", SCHEDULE_NAMES)
def test_snapshot_shows_partial_trees_with_their_priority(schedule):
    require_datasets()
    X, y = read_binary("monk1")
    ds = Dataset.from_binary(X, y)
    solver = OSDT(ds, regularization=0.02, schedule=schedule)
    solver.step(5)
    snap = solver.snapshot(top_k=5)
    assert snap.solver == "osdt" and snap.extra["schedule"] == schedule
    assert 0 < len(snap.queue) <= 5 and snap.queue_size >= len(snap.queue)
    assert snap.lower_bound <= snap.upper_bound
    keys = [entry.priority for entry in snap.queue]
    assert keys == sorted(keys)
    for entry in snap.queue:
        leaves = entry.payload["leaves"]
        assert {leaf["mark"] for leaf in leaves} <= {"fixed", "split"}
        assert any(leaf["mark"] == "split" for leaf in leaves)
        assert sum(leaf["support"] for leaf in leaves) == pytest.approx(ds.total_weight)
        assert entry.lower_bound >= snap.lower_bound - 1e-12
        fixed = sum(leaf["support"] for leaf in leaves if leaf["mark"] == "fixed") / ds.total_weight
        if schedule == "curiosity" and fixed > 0:
            assert entry.payload["priority"] == pytest.approx(entry.lower_bound / fixed)
        if schedule == "lower_bound":
            assert entry.payload["priority"] == pytest.approx(entry.lower_bound)
        if schedule == "objective":
            assert entry.payload["priority"] == pytest.approx(entry.upper_bound)
        assert "[split]" in entry.rule


def test_estimator_runs_osdt_with_a_schedule():
    require_datasets()
    X, y = read_binary("monk1")
    gosdt = OptimalTreeClassifier(regularization=0.05).fit(X, y)
    osdt = OptimalTreeClassifier(regularization=0.05, solver="osdt", schedule="lower_bound",
                                 warm_start="cart").fit(X, y)
    assert "osdt" in SOLVERS
    assert osdt.optimal_ and osdt.objective_ == pytest.approx(gosdt.objective_, abs=1e-9)
    assert osdt.solver_.schedule == "lower_bound"
    with pytest.raises(ValueError, match="does not take schedule"):
        OptimalTreeClassifier(solver="gosdt", schedule="dfs").fit(X, y)


def test_single_class_data_gives_the_single_leaf():
    ds = Dataset.from_binary(np.array([[0, 1], [1, 0], [1, 1]]), ["a", "a", "a"])
    result = OSDT(ds, regularization=0.1).run()
    assert result.optimal and result.tree.n_leaves == 1 and result.objective == pytest.approx(0.1)


def test_bad_input_is_explained():
    ds = Dataset.from_binary(np.array([[0], [1]]), [0, 1])
    with pytest.raises(ValueError, match="unknown schedule 'fastest'"):
        OSDT(ds, regularization=0.1, schedule="fastest")
    with pytest.raises(TypeError, match="warm_start must be"):
        OSDT(ds, regularization=0.1, warm_start="greedy")
    with pytest.raises(ValueError, match="unknown bound"):
        OSDT(ds, regularization=0.1, bounds={"magic": False})
    wide = Dataset.from_binary(np.array([[0, 1], [1, 0]]), [0, 1])
    with pytest.raises(ValueError, match="warm_start tree has 2 features"):
        OSDT(ds, regularization=0.1, warm_start=Tree(Leaf(0), wide.features, wide.classes))
    deep = Tree(Split(0, Leaf(0), Leaf(1)), ds.features, ds.classes)
    with pytest.raises(ValueError, match="depth_budget"):
        OSDT(ds, regularization=0.1, depth_budget=0, warm_start=deep).run()


def test_bound_counters_react_to_their_switch():
    """Each switch really controls its bound: off means zero prunes counted for it."""
    require_datasets()
    X, y = read_binary("compas-binary")
    ds = Dataset.from_binary(X, y)
    on = OSDT(ds, regularization=0.02).run()
    for name in ("lookahead", "leaf_support", "incremental_accuracy", "leaf_accuracy", "equivalent_points"):
        assert on.prune_counts[name] > 0, name
        off = OSDT(ds, regularization=0.02, bounds={name: False}).run(node_limit=1500)
        assert off.prune_counts[name] == 0
        if off.optimal:
            assert off.objective == pytest.approx(on.objective, abs=1e-12)
        else:                                    # without equivalent points: not within the budget
            assert off.lower_bound <= on.objective <= off.upper_bound + 1e-12

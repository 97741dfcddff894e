"""GOSDT's speed-ups change how much work the search does, never what it returns.

Each speed-up is a named switch of ``GOSDT.BOUNDS`` (so ``test_search_oracle`` also runs the
search with it off against the brute-force oracle). Here, on the public datasets: the optimum
with it on equals the optimum with it off and the reference optimum, its counter moves, and it
does less work, measured in expansions and problems created (machine-independent; times are in
``benchmarks/gosdt_perf.py``).
"""

import numpy as np
import pytest

from treeopt.data import Dataset
from treeopt.solvers import GOSDT

from conftest import read_binary, require_datasets

# Fast instances (well under a second each with the speed-ups) where each one matters.
INSTANCES = [("balance-scale", 0.02), ("monk1", 0.02), ("compas-binary", 0.02), ("car-evaluation", 0.05)]

#: The switches added for wide data, off when measuring the older speed-ups on their own.
WITHOUT_WIDE = {"dives": False, "depth_two": False, "completions": False, "cart_start": False}


def solve(name, lam, **bounds):
    X, y = read_binary(name)
    solver = GOSDT(Dataset.from_binary(X, y), regularization=lam, bounds=bounds or None)
    result = solver.run(time_limit=120)
    assert result.optimal
    return solver, result, result.tree.objective(X, y, lam, binarized=True)


def reference(reference_optima, name, lam):
    row = reference_optima[(reference_optima.dataset == name) & np.isclose(reference_optima["lambda"], lam)
                           & (reference_optima.problem == "R")]
    return row.reference_objective.iloc[0]


@pytest.mark.parametrize("name,lam", INSTANCES)
def test_scope_saves_expansions_and_keeps_the_optimum(name, lam, reference_optima):
    require_datasets()
    # Measured on the search without the wide-data switches (dives expand the incumbent's leaves
    # whatever their scope; depth_two solves small problems without creating any).
    with_scope, result, objective = solve(name, lam, **WITHOUT_WIDE)
    without, result_off, objective_off = solve(name, lam, scope=False, **WITHOUT_WIDE)
    assert objective == pytest.approx(reference(reference_optima, name, lam), abs=1e-9)
    assert objective_off == pytest.approx(objective, abs=1e-9)
    assert result.lower_bound == pytest.approx(objective, abs=1e-9)
    assert with_scope.prune_counts["scope"] > 0 and without.prune_counts["scope"] == 0
    assert result.expansions < result_off.expansions
    assert len(with_scope.problems) < len(without.problems)


def test_scope_off_is_the_plain_search():
    """With the switch off every problem's scope is infinite: targets are the upper bounds."""
    require_datasets()
    solver, _, _ = solve("monk1", 0.05, scope=False)
    assert all(problem.scope == float("inf") for problem in solver.problems.values())


def test_a_larger_scope_requeues_an_expanded_problem(reference_optima):
    """A problem reached again through a parent with a larger scope is queued again.

    MONK-1's supports are reached by many paths, so the search meets this case; without the
    requeue the splits beyond the first, smaller scope would never be explored.
    """
    require_datasets()
    X, y = read_binary("monk1")
    solver = GOSDT(Dataset.from_binary(X, y), regularization=0.01)
    requeued = []
    push = solver._push

    def spy(problem):
        if problem.expanded:
            requeued.append(problem)
        push(problem)

    solver._push = spy
    result = solver.run()
    assert requeued, "no expanded problem was queued again for a larger scope"
    assert all(problem.scope > -float("inf") for problem in requeued)
    assert result.optimal
    assert result.tree.objective(X, y, 0.01, binarized=True) == \
        pytest.approx(reference(reference_optima, "monk1", 0.01), abs=1e-9)


@pytest.mark.parametrize("name,lam", [("compas-binary", 0.01), ("monk1", 0.02)])
def test_counts_by_subtraction_equal_direct_sums(name, lam):
    """Children's class counts and equivalent-points losses are their parent's minus their sibling's
    (section 4.4); every problem of a search must hold exactly what summing over its support gives."""
    require_datasets()
    solver, _, _ = solve(name, lam)
    ds = solver.dataset
    assert solver._subtract
    assert len(solver.problems) > 100
    for problem in solver.problems.values():
        assert problem.counts == ds.class_counts(problem.support)
        assert problem.eq == ds.equivalent_points_loss(problem.support)


def test_no_subtraction_with_fractional_weights():
    """Float sums would drift; with fractional sample weights every problem sums its own support."""
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    y = np.array([0, 1, 1, 0] * 5)
    solver = GOSDT(Dataset.from_binary(X, y, sample_weight=np.linspace(0.1, 2.0, 20)), regularization=0.01)
    assert not solver._subtract
    result = solver.run()
    assert result.optimal and result.tree.n_leaves == 4
    for problem in solver.problems.values():
        assert problem.counts == solver.dataset.class_counts(problem.support)


@pytest.mark.parametrize("name,lam", [("monk1", 0.02), ("compas-binary", 0.02), ("monk3", 0.05)])
def test_two_leaves_creates_fewer_problems_and_keeps_the_optimum(name, lam, reference_optima):
    require_datasets()
    solver, result, objective = solve(name, lam, **WITHOUT_WIDE)       # depth_two subsumes two_leaves
    without, result_off, objective_off = solve(name, lam, two_leaves=False, **WITHOUT_WIDE)
    assert objective == pytest.approx(reference(reference_optima, name, lam), abs=1e-9)
    assert objective_off == pytest.approx(objective, abs=1e-9)
    assert result.lower_bound == pytest.approx(objective, abs=1e-9)
    assert solver.prune_counts["two_leaves"] > 0 and without.prune_counts["two_leaves"] == 0
    assert len(solver.problems) < len(without.problems)


@pytest.mark.parametrize("lam,leaves", [(0.26, 2), (0.3, 2), (0.45, 2)])
def test_two_leaves_solves_a_stump_exactly(lam, leaves):
    """Ten rows of each class, split by x0 alone: the root's leaf loses 10 of 20 rows, so with
    0.25 ≤ λ < 0.5 (2λ covers the loss, the leaf bound does not apply yet) the root is decided in
    one pass: the stump (two pure leaves, 2λ) beats the leaf (0.5 + λ)."""
    X = np.array([[0, 1], [1, 0], [0, 0], [1, 1]] * 5)
    y = X[:, 0]
    solver = GOSDT(Dataset.from_binary(X, y), regularization=lam, bounds={"cart_start": False})
    result = solver.run()
    assert result.optimal and result.expansions == 1 and solver.prune_counts["two_leaves"] == 1
    assert result.tree.n_leaves == leaves
    assert result.objective == pytest.approx(min(2 * lam, 0.5 + lam))
    assert result.tree.predict(X, binarized=True).tolist() == (y.tolist() if leaves == 2 else [0] * 20)

"""GOSDT's memo trimming (``treeopt/solvers/gosdt/memo_trim.py``) drops only what the search cannot reach.

A trimmed memo must leave the search exact (the oracle's optimum, a closed certificate), keep
every live problem, and hold far fewer problems than the untrimmed memo on wide data.
"""

from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force, to_treeopt_tuple, tree_objective
from strategies import lambdas, problems
from treeopt.data import Dataset
from treeopt.solvers import GOSDT, Portfolio
from treeopt.solvers.gosdt.memo_trim import problem_bytes


@contextmanager
def trim_every_unit():
    """Every GOSDT search (a portfolio's members too) trims its memo before every unit of work."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(GOSDT, "_memo_trim_due", lambda self: True)
        yield


def wide_data(seed=0, rows=300, attributes=14):
    """One-hot columns of 2- and 3-valued attributes with labels from a noisy rule (wide and noisy)."""
    rng = np.random.default_rng(seed)
    columns = []
    for _ in range(attributes):
        values = rng.integers(0, rng.integers(2, 4), size=rows)
        columns.extend(values == v for v in np.unique(values))
    X = np.column_stack(columns).astype(int)
    y = ((X[:, 0] & X[:, 3]) | (X[:, 5] ^ X[:, 8])).astype(int)
    return X, np.where(rng.random(rows) < 0.1, 1 - y, y)


def live_ids(solver: GOSDT) -> set:
    """The problems reachable from the root and the queue, walked here independently of the solver."""
    seen, stack = set(), [solver.root, *(problem for _, problem in solver._queue), *solver._dive_targets]
    while stack:
        problem = stack.pop()
        if id(problem) in seen:
            continue
        seen.add(id(problem))
        splits = problem.splits or []
        if problem.solved and splits:
            splits = [min(splits, key=lambda split: split[1].ub + split[2].ub)]
        for _, left, right in splits:
            stack.extend((left, right))
    return seen


@settings(max_examples=30, deadline=None)
@given(data=problems(), lam=lambdas, depth=st.sampled_from([None, 3, 4]))
def test_trimming_before_every_unit_still_finds_the_oracle_optimum(data, lam, depth):
    X, y, w = data
    expected = brute_force(X, y, lam, sample_weight=w, depth=depth)
    with trim_every_unit():
        result = GOSDT(Dataset.from_binary(X, y, sample_weight=w), regularization=lam, depth_budget=depth).run()
    assert result.optimal
    got = tree_objective(to_treeopt_tuple(result.tree), X, y, lam, sample_weight=w)
    assert got == pytest.approx(expected.objective, abs=1e-9)
    assert result.objective == pytest.approx(got, abs=1e-9) and result.lower_bound == pytest.approx(got, abs=1e-9)


def test_after_a_trim_the_memo_holds_exactly_the_live_problems(monkeypatch):
    X, y = wide_data(rows=150, attributes=8)
    solver = GOSDT(Dataset.from_binary(X, y), regularization=0.02)
    solver.memo_trim_bytes = 200 * problem_bytes(len(y), budgeted=False)    # trims from 200 problems on
    checked = []
    trim = GOSDT._trim_memo

    def trim_and_check(self):
        dropped = trim(self)
        memo = {id(problem) for problem in self.problems.values()}
        assert memo == live_ids(self)
        for problem in self.problems.values():
            assert all(id(parent) in memo for parent in problem.parent_links[::2])
        checked.append(dropped)
        return dropped

    monkeypatch.setattr(GOSDT, "_trim_memo", trim_and_check)
    result = solver.run()
    assert len(checked) > 1 and sum(checked) == solver.trimmed_problems > 0
    monkeypatch.undo()
    untrimmed = GOSDT(Dataset.from_binary(X, y), regularization=0.02).run()
    assert result.optimal and result.objective == pytest.approx(untrimmed.objective, abs=1e-12)


def test_a_trimmed_memo_stays_far_smaller_than_the_full_one_on_wide_data():
    X, y = wide_data(seed=1, rows=400, attributes=16)
    sizes = {}
    for name, budget in (("full", None), ("trimmed", 300 * problem_bytes(len(y), budgeted=False))):
        solver = GOSDT(Dataset.from_binary(X, y), regularization=0.005)
        solver.memo_trim_bytes = budget
        largest = 0
        while solver.expansions < 1500 and solver.step(1):
            largest = max(largest, len(solver.problems))
        sizes[name] = largest
    # Early in a search much of the memo is still live; the share trimmed grows as splits are pruned.
    assert sizes["trimmed"] < 0.7 * sizes["full"], sizes


def test_the_portfolio_trimmed_before_every_unit_certifies_the_same_optimum():
    X, y = wide_data(seed=2, rows=100, attributes=6)
    dataset = Dataset.from_binary(X, y)
    expected = Portfolio(dataset, regularization=0.03).run()
    with trim_every_unit():
        result = Portfolio(dataset, regularization=0.03).run()
    assert expected.optimal and result.optimal
    assert result.objective == pytest.approx(expected.objective, abs=1e-12)
    assert result.tree.objective(X, y, 0.03, binarized=True) == pytest.approx(expected.objective, abs=1e-9)

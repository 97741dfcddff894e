"""GOSDT's incremental equation 7 (``GOSDT._propagate``) loses no progress.

A parent hears of a child's change through the split that holds the child: only when that is
the split of least lower bound are all splits summed again. After every unit of work, each
open problem's bounds must still be as tight as summing all its splits would make them, or the
search could stall with a lower bound that never rises.
"""

import math

import numpy as np
import pytest

from treeopt.data import Dataset
from treeopt.solvers import GOSDT

from test_search_scope import planted


def equation_seven(problem) -> tuple:
    """A problem's bounds summed over all its viable splits (the leaf and any completion included)."""
    lb = ub = problem.leaf_obj
    if problem.completion is not None:
        ub = min(ub, problem.completion[0])
    for _, left, right in problem.splits:
        lb, ub = min(lb, left.lb + right.lb), min(ub, left.ub + right.ub)
    return lb, ub


def thresholds(seed: int = 4) -> Dataset:
    """Every threshold of two noisy numeric columns (an XOR of their signs), where ``similar_support``
    raises lower bounds beside the splits that propagate."""
    rng = np.random.default_rng(seed)
    raw = rng.normal(size=(50, 2))
    y = ((raw[:, 0] * raw[:, 1] > 0) ^ (rng.random(50) < 0.15)).astype(int)
    X = np.hstack([raw[:, [c]] <= np.unique(raw[:, c])[:-1] for c in range(2)])
    return Dataset.from_binary(X.astype(int), y)


@pytest.mark.parametrize("data,settings", [
    (planted(1), {}), (planted(1), {"depth_budget": 5}), (planted(1), {"bounds": {"dives": False}}),
    (thresholds(), {"depth_budget": 4, "bounds": {"depth_four": False}})],
    ids=["default", "depth_budget=5", "no dives", "similar support"])
def test_every_open_problem_is_as_tight_as_its_splits(data, settings):
    solver = GOSDT(data, regularization=0.01, **settings)
    steps = 0
    while solver.step(1):
        steps += 1
        for problem in solver.problems.values():
            if problem.splits is None or problem.solved:
                continue
            lb, ub = equation_seven(problem)
            assert problem.lb >= lb - solver.eps
            assert problem.ub <= ub + solver.eps
            assert problem.lb <= problem.ub
    result = solver.result()
    assert steps > 10 and result.optimal and math.isclose(result.lower_bound, result.objective)
    if "depth_four" in settings.get("bounds", {}):
        assert solver.prune_counts["similar_support"] > 0

"""Plug-in lower bounds in GOSDT: the same function as in OSDT, raising a support's lower bound, exact
under a depth budget; queue policies refused with a clear error. What every search shares (switched,
counted, emitted, kept by rebuild) is in ``test_plugin_contract.py``."""

from __future__ import annotations

import numpy as np
import pytest

import treeopt
from treeopt.data import Dataset
from treeopt.datasets import load_monk
from treeopt.solvers import GOSDT, OSDT
from treeopt.solvers.subproblem import Subproblem

from hand_bounds import MY_LOOKAHEAD, lookahead_by_hand


def _xor():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    return Dataset.from_binary(X, [0, 1, 1, 0] * 3)


def test_the_same_function_sees_each_support_as_one_split_leaf(monk):
    seen = []
    spy = treeopt.lower_bound("spy", lambda node: seen.append(node) or 0.0)
    solver = GOSDT(monk, regularization=0.05, plugins=[spy])
    solver.run()
    assert len(seen) > 10 and all(isinstance(node, Subproblem) for node in seen)
    assert all(node.fixed_counts == () and node.n_split == 1 and node.n_leaves == 1 for node in seen)
    W = monk.total_weight
    for node in seen:
        counts = node.split_counts[0]
        assert node.split_losses[0] == pytest.approx((sum(counts) - max(counts)) / W)   # the leaf's errors
        assert node.total == W and node.regularization == 0.05
        assert 0 <= node.split_equivalent_losses[0] <= node.split_losses[0] + 1e-12
    root = seen[0]
    assert sum(root.split_counts[0]) == W and root.depth == 0
    assert root.incumbent == pytest.approx(root.split_losses[0] + 0.05)            # the single leaf
    assert max(node.depth for node in seen) >= 2
    assert all(node.incumbent < root.incumbent for node in seen if node.depth > 0)


def test_a_bound_below_the_search_s_own_never_lowers_it(monk):
    zero = treeopt.lower_bound("zero", lambda node: -1.0)
    plain = GOSDT(monk, regularization=0.02)
    with_zero = GOSDT(monk, regularization=0.02, plugins=[zero])
    result, ours = plain.run(), with_zero.run()
    assert ours.objective == result.objective and with_zero.expansions == plain.expansions
    assert with_zero.prune_counts["zero"] == 0
    assert [point.lower_bound for point in with_zero.trace] == [point.lower_bound for point in plain.trace]


def test_a_predicate_prunes_outright():
    one_level = treeopt.lower_bound("one_level", lambda node: node.depth >= 1)
    solver = GOSDT(_xor(), regularization=0.05, plugins=[one_level])
    result = solver.run()
    assert solver.prune_counts["one_level"] > 0
    assert result.tree.n_leaves <= 2                          # the two-level XOR tree was pruned
    assert GOSDT(_xor(), regularization=0.05).run().tree.n_leaves == 4


def test_depth_is_exact_under_a_depth_budget(monk):
    depths = []
    spy = treeopt.lower_bound("depths", lambda node: depths.append(node.depth) or False)
    GOSDT(monk, regularization=0.01, depth_budget=3, plugins=[spy],
          strategies={"depth_two": False, "depth_three": False}).run()
    assert set(depths) == {0, 1, 2}                          # depth 3 is closed by the budget first


def test_make_solver_passes_plugins_to_gosdt():
    X, y = load_monk(1)
    solver = treeopt.make_solver(X, y, solver="gosdt", regularization=0.05, plugins=[MY_LOOKAHEAD])
    assert isinstance(solver, GOSDT) and "my_lookahead" in solver.prune_counts
    assert solver.run().optimal


def test_one_function_runs_in_both_searches(monk):
    results = [cls(monk, regularization=0.1, bounds={"lookahead": False}, plugins=[MY_LOOKAHEAD]).run()
               for cls in (OSDT, GOSDT)]
    assert all(result.optimal for result in results)
    assert results[0].objective == pytest.approx(results[1].objective)


def test_a_queue_policy_is_refused_naming_what_gosdt_takes(monk):
    fewest = treeopt.queue_policy("fewest_leaves", lambda node: node.n_leaves)
    with pytest.raises(ValueError) as info:
        GOSDT(monk, regularization=0.05, plugins=[MY_LOOKAHEAD, fewest])
    message = str(info.value)
    assert "fewest_leaves" in message and "treeopt.lower_bound" in message and "solver='osdt'" in message


@pytest.mark.parametrize("plugins, error, words", [
    ([lookahead_by_hand], TypeError, "treeopt.lower_bound(name, function)"),
    ([treeopt.lower_bound("scope", lookahead_by_hand)], ValueError, "name of a built-in switch"),
    ([treeopt.lower_bound("words", lambda node: "high")], TypeError, "must return a number"),
    ([treeopt.lower_bound("typo", lambda node: node.n_leafs)], ValueError, "fails on the whole data set"),
])
def test_bad_plugins_fail_before_the_search(monk, plugins, error, words):
    with pytest.raises(error) as info:
        GOSDT(monk, regularization=0.05, plugins=plugins)
    assert words in str(info.value)

"""Plug-in bounds and queue policies in OSDT: predicates, queue policies, checked on input. What every
search shares (switched, counted, emitted, kept by rebuild) is in ``test_plugin_contract.py``."""

from __future__ import annotations

import numpy as np
import pytest

import treeopt
from treeopt.data import Dataset
from treeopt.datasets import load_monk
from treeopt.events import Expanded
from treeopt.solvers import OSDT

from hand_bounds import MY_LOOKAHEAD, lookahead_by_hand


def test_a_predicate_prunes_outright():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    dataset = Dataset.from_binary(X, [0, 1, 1, 0] * 3)
    never_split_twice = treeopt.lower_bound("one_level", lambda node: node.depth >= 1)
    solver = OSDT(dataset, regularization=0.05, plugins=[never_split_twice])
    result = solver.run()
    assert solver.prune_counts["one_level"] > 0
    assert result.tree.n_leaves <= 2                          # the two-level XOR tree was pruned
    assert OSDT(dataset, regularization=0.05).run().tree.n_leaves == 4


def test_queue_policy_orders_the_queue(monk):
    seen = []

    def newest_first(node):
        seen.append(node.n_leaves)
        return -len(seen)                                     # last pushed, first popped: a dive

    dive = treeopt.queue_policy("newest_first", newest_first, citation="depth-first order")
    solver = OSDT(monk, regularization=0.1, plugins=[dive])
    order = [event.rule for event in solver.steps() if isinstance(event, Expanded)]
    result = solver.result()
    assert len(seen) > 1 and result.optimal
    assert result.objective == pytest.approx(OSDT(monk, regularization=0.1).run().objective)
    default = [e.rule for e in OSDT(monk, regularization=0.1).steps() if isinstance(e, Expanded)]
    assert order != default
    seen.clear()
    OSDT(monk, regularization=0.1, strategies={"newest_first": False}, plugins=[dive]).run()
    assert len(seen) == 1                                     # only the construction-time check


def test_make_solver_passes_plugins():
    X, y = load_monk(1)
    solver = treeopt.make_solver(X, y, regularization=0.05, plugins=[MY_LOOKAHEAD])
    assert isinstance(solver, OSDT) and "my_lookahead" in solver.prune_counts


def test_decorator_form():
    @treeopt.lower_bound("decorated", citation="OSDT Theorem 1")
    def hierarchical(node):
        return node.fixed_loss + node.regularization * node.n_leaves

    assert hierarchical.name == "decorated" and hierarchical.citation == "OSDT Theorem 1"


@pytest.mark.parametrize("plugins, error, words", [
    ([lookahead_by_hand], TypeError, "treeopt.lower_bound(name, function)"),
    ([treeopt.lower_bound("lookahead", lookahead_by_hand)], ValueError, "name of a built-in switch"),
    ([MY_LOOKAHEAD, MY_LOOKAHEAD], ValueError, "two plug-ins are named"),
    ([treeopt.queue_policy("a", len), treeopt.queue_policy("b", len)], ValueError, "at most one queue policy"),
    ([treeopt.lower_bound("words", lambda node: "high")], TypeError, "must return a number"),
    ([treeopt.lower_bound("typo", lambda node: node.n_leafs)], ValueError, "fails on the single-leaf tree"),
    ([treeopt.queue_policy("maybe", lambda node: None)], TypeError, "must return a number"),
])
def test_bad_plugins_fail_before_the_search(monk, plugins, error, words):
    with pytest.raises(error, match=None) as info:
        OSDT(monk, regularization=0.05, plugins=plugins)
    assert words in str(info.value)


def test_bad_plugin_definitions():
    with pytest.raises(ValueError, match="identifier"):
        treeopt.lower_bound("my bound", lookahead_by_hand)
    with pytest.raises(TypeError, match="needs a function"):
        treeopt.lower_bound("mine", 0.5)


def test_plugin_bounds_need_an_additive_objective():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    dataset = Dataset.from_binary(X, [0, 1, 1, 0] * 3)
    with pytest.raises(ValueError, match="additive objective"):
        OSDT(dataset, regularization=0.05, objective="auc", plugins=[MY_LOOKAHEAD])
    policy = treeopt.queue_policy("fewest_leaves", lambda node: node.n_leaves)
    assert OSDT(dataset, regularization=0.05, objective="auc", plugins=[policy]).run().optimal

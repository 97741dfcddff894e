"""check_bound: built-in bounds pass, unsafe bounds are caught with the smallest counterexample."""

from __future__ import annotations

import numpy as np
import pytest

import treeopt
from treeopt.bounds_lab.check import random_cases
from treeopt.bounds_lab.oracle import optimal_tree
from treeopt.data import Dataset
from treeopt.solvers import GOSDT, OSDT

from oracle import brute_force

SPLITS_NEVER_HELP = treeopt.lower_bound(
    "splits_never_help", lambda node: node.fixed_loss + sum(node.split_losses)
    + node.regularization * (node.n_leaves + node.n_split))
THREE_LEAVES_PER_SPLIT = treeopt.lower_bound(
    "three_leaves_per_split", lambda node: node.fixed_loss + node.regularization * (node.n_leaves + 2 * node.n_split))


@pytest.mark.parametrize("name", OSDT.SWITCHES.names("bound"))
def test_built_in_bounds_pass(name):
    report = treeopt.check_bound(name, n_cases=80)
    assert report.safe and report.n_cases == 80
    assert repr(report) == f"BoundCheck({name!r}: safe on 80 cases)"


def test_a_hand_written_lookahead_passes():
    mine = treeopt.lower_bound("my_lookahead", lambda node: node.fixed_loss
                               + node.regularization * (node.n_leaves + node.n_split))
    assert treeopt.check_bound(mine, n_cases=80).safe


def _real_counterexample(report):
    """The report's counterexample, checked against brute force: its optimum is the true one and the
    search with the bound found worse. Returns the example, its table, labels and the true optimum."""
    example = report.counterexample
    assert not report.safe and "UNSAFE" in repr(report)
    X, y = example.data.drop(columns="y").to_numpy(), example.data["y"].to_numpy()
    truth = brute_force(X, y, example.regularization)
    assert example.optimal_objective == pytest.approx(truth.objective)
    assert example.found_objective > truth.objective + 1e-9
    return example, X, y, truth


@pytest.mark.parametrize("unsafe", [SPLITS_NEVER_HELP, THREE_LEAVES_PER_SPLIT])
def test_unsafe_bounds_are_caught_with_a_real_counterexample(unsafe):
    example, X, y, truth = _real_counterexample(treeopt.check_bound(unsafe))
    assert example.optimal_tree.objective(X, y, example.regularization, binarized=True) \
        == pytest.approx(truth.objective)


@pytest.mark.parametrize("name", GOSDT.SWITCHES.names("bound"))
def test_gosdt_built_in_bounds_pass(name):
    report = treeopt.check_bound(name, n_cases=80, solver="gosdt")
    assert report.safe and repr(report) == f"BoundCheck({name!r}: safe on 80 cases)"


def test_a_hand_written_lookahead_passes_in_gosdt():
    mine = treeopt.lower_bound("my_lookahead", lambda node: node.fixed_loss + sum(node.split_equivalent_losses)
                               + node.regularization * (node.n_leaves + node.n_split))
    assert treeopt.check_bound(mine, solver="gosdt").safe


@pytest.mark.parametrize("unsafe", [SPLITS_NEVER_HELP, THREE_LEAVES_PER_SPLIT])
def test_gosdt_catches_the_unsafe_bounds_with_a_real_counterexample(unsafe):
    example, X, y, _ = _real_counterexample(treeopt.check_bound(unsafe, solver="gosdt"))
    # The same case fails in GOSDT itself with the checker's switches (the report is no artefact).
    dataset = Dataset.from_binary(X, y, classes=[0, 1])
    solver = GOSDT(dataset, regularization=example.regularization, plugins=[unsafe],
                   bounds={name: name in ("hierarchical", "scope") for name in GOSDT.SWITCHES.names("bound")},
                   strategies={name: False for name in GOSDT.SWITCHES.names("subsolver")})
    assert solver.run().objective == pytest.approx(example.found_objective)
    assert solver.prune_counts[unsafe.name] > 0


def test_the_counterexample_is_the_smallest_failing_case():
    report = treeopt.check_bound(THREE_LEAVES_PER_SPLIT, n_cases=120)
    found = report.counterexample
    failing = []
    for X, y, regularization in random_cases(120, 10, 4, (0.01, 0.05, 0.1, 0.2)):
        truth = brute_force(X, y, regularization, classes=[0, 1]).objective
        solver = OSDT(Dataset.from_binary(X, y, classes=[0, 1]), regularization=regularization,
                      bounds={name: name == "permutation" for name in OSDT.SWITCHES.names("bound")},
                      plugins=[THREE_LEAVES_PER_SPLIT])
        if solver.run().objective > truth + 1e-9:
            failing.append(X.shape)
    assert len(failing) > 1
    assert (len(found.data), found.data.shape[1] - 1) == min(failing)


def test_the_lab_oracle_agrees_with_the_tests_oracle():
    rng = np.random.default_rng(3)
    for _ in range(30):
        X = rng.integers(0, 2, size=(int(rng.integers(2, 12)), int(rng.integers(1, 4))))
        y = rng.integers(0, 2, size=len(X))
        regularization = float(rng.choice([0.01, 0.05, 0.2]))
        objective, tree = optimal_tree(Dataset.from_binary(X, y, classes=[0, 1]), regularization=regularization)
        assert objective == pytest.approx(brute_force(X, y, regularization, classes=[0, 1]).objective)


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(bound=lambda node: 0.0), TypeError, "treeopt.lower_bound"),
    (dict(bound="no_such_bound"), TypeError, "OSDT's bounds"),
    (dict(bound="lookahead", solver="branches"), ValueError, "solver='gosdt'"),
    (dict(bound="two_leaves", solver="osdt"), TypeError, "OSDT's bounds"),
    (dict(bound="leaf_support", solver="gosdt"), TypeError, "GOSDT's bounds"),
    (dict(bound="lookahead", n_cases=0), ValueError, "n_cases"),
    (dict(bound="lookahead", regularizations=[0.0]), ValueError, "regularizations"),
])
def test_bad_arguments(kwargs, error, words):
    with pytest.raises(error) as info:
        treeopt.check_bound(**kwargs)
    assert words in str(info.value)

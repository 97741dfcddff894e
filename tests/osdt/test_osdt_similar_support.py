"""OSDT's similar support bound (Theorem 7, ``bounds={"similar_support": True}``).

The bound prunes a popped tree from its twin's *finished* sub-search
(``treeopt/solvers/osdt/similar_support.py``). A wrong ``L(D)`` or a wrong
twin pairing shows up as a disagreement with the brute-force oracle; the
bookkeeping itself (parent links, open counts) is checked directly; and one
small data set shows it prunes what the other bounds do not.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force
from strategies import problems
from treeopt.data import Dataset
from treeopt.solvers.osdt import OSDT
from treeopt.solvers.osdt.schedules import SCHEDULES
from treeopt.solvers.osdt.similar_support import SimilarSupport

SCHEDULE_NAMES = sorted(SCHEDULES)

# 62 rows of monk1 (shared/datasets/binary/monk1.csv) on six of its binary
# columns (a1_1, a2_2, a5_1, a1_2, a4_1, a5_3), the label last. At λ = 0.02
# with the BFS schedule, twins finish before their siblings are popped.
MONK1_SAMPLE = (
    "0001000 0100000 0100000 0011101 0000010 1100000 0101111 0110001 0000101 0000001 1000000 0001000 "
    "0001010 0001000 0000001 1010001 0000001 0001000 0000000 0010101 0100000 0001010 1110101 1100110 "
    "1000101 0100100 1100010 1000000 1000000 0000111 0011001 1000111 0101011 0000000 0101101 1100000 "
    "0000101 1110001 0000011 1000101 1000100 0001110 0000000 0011001 0011001 0011001 0000001 0001110 "
    "1100000 1000000 0100110 0010101 0101101 0000101 0110001 0110101 0010101 1000000 1000010 0010001 "
    "0000001 0000000")


def _monk1_sample():
    table = np.array([[int(c) for c in row] for row in MONK1_SAMPLE.split()])
    return table[:, :-1], table[:, -1]


def _run(X, y, lam, sample_weight=None, **options):
    dataset = Dataset.from_binary(X, y, sample_weight=sample_weight)
    solver = OSDT(dataset, regularization=lam, **options)
    return solver, solver.run()


def _check_against_oracle(X, y, lam, sample_weight=None, **options):
    objective = options.get("objective", "accuracy")
    expected = brute_force(X, y, lam, objective=objective, depth=options.get("depth_budget"),
                           sample_weight=sample_weight).objective
    solver, result = _run(X, y, lam, sample_weight, **options)
    assert result.optimal and result.gap == 0
    assert result.objective == pytest.approx(expected, abs=1e-9)
    assert result.tree.objective(X, y, lam, objective=objective, sample_weight=sample_weight,
                                 binarized=True) == pytest.approx(expected, abs=1e-9)
    return solver


@pytest.mark.parametrize("schedule", SCHEDULE_NAMES)
@settings(max_examples=30, deadline=None)
@given(problem=problems(max_rows=40, max_features=5), lam=st.sampled_from([0.005, 0.01, 0.02, 0.05]),
       similar=st.booleans())
def test_every_schedule_matches_oracle_with_and_without(schedule, problem, lam, similar):
    X, y, _ = problem
    solver = _check_against_oracle(X, y, lam, schedule=schedule, bounds={"similar_support": similar})
    if similar:
        assert solver._similar.open_records == 0    # every sub-search finished and was let go
    else:
        assert solver.prune_counts["similar_support"] == 0


@settings(max_examples=40, deadline=None)
@given(problem=problems(max_rows=36, max_features=5, weights="int"), lam=st.sampled_from([0.01, 0.02, 0.05]),
       schedule=st.sampled_from(["dfs", "bfs", "curiosity"]),
       objective=st.sampled_from(["accuracy", "balanced_accuracy", "weighted_accuracy"]),
       depth=st.sampled_from([None, 2, 3]),
       off=st.sampled_from([None, "lookahead", "permutation", "equivalent_points", "leaf_accuracy",
                            "incremental_accuracy", "leaf_support"]))
def test_with_weights_objectives_depth_and_other_bounds_off(problem, lam, schedule, objective, depth, off):
    X, y, w = problem
    bounds = {"similar_support": True} | ({off: False} if off else {})
    _check_against_oracle(X, y, lam, sample_weight=w, schedule=schedule, objective=objective, depth_budget=depth,
                          bounds=bounds)


def _best_descendant(solver, tree) -> float:
    """The smallest objective (weight units) of any descendant of a partial tree, by exhaustive recursion.

    Every split leaf is split (any feature with two non-empty sides) and
    below that anything goes; fixed leaves stay. Independent of the search.
    """
    ds, lam = solver.dataset, solver.penalty
    masks = ds.feature_masks

    def leaf_cost(support):
        return solver.model.leaf(ds.class_counts(support))[0] + lam

    memo = {}

    def split_best(support):
        if support not in memo:
            best = float("inf")
            for mask in masks:
                right = support & mask
                if right and right != support:
                    best = min(best, any_best(right) + any_best(support ^ right))
            memo[support] = best
        return memo[support]

    def any_best(support):
        return min(leaf_cost(support), split_best(support))

    return (sum(leaf_cost(leaf.support) for leaf in tree.fixed)
            + sum(split_best(leaf.support) for leaf in tree.split))


@st.composite
def noisy_parities(draw):
    """A parity of two of 3-5 features with 25 % label noise on 15-30 rows: many twins, many bounds."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_rows, n_features = int(rng.integers(15, 31)), int(rng.integers(3, 6))
    X = rng.integers(0, 2, (n_rows, n_features))
    y = (X[:, 0] ^ X[:, -1]) ^ (rng.random(n_rows) < 0.25)
    y[:2] = [0, 1]
    w = rng.integers(1, 4, n_rows).astype(float) if draw(st.booleans()) else None
    return X, y.astype(int), w


@settings(max_examples=80, deadline=None)
@given(problem=noisy_parities() | problems(max_rows=30, max_features=5, weights="int"),
       lam=st.sampled_from([0.01, 0.02, 0.05]), schedule=st.sampled_from(["dfs", "bfs", "curiosity", "lower_bound"]))
def test_every_twin_bound_is_below_the_best_descendant(problem, lam, schedule):
    # The rules that cut trees because a better one exists elsewhere are off: then the search reaches
    # every descendant with non-empty leaves, and the bound must hold for each of them.
    X, y, w = problem
    solver = OSDT(Dataset.from_binary(X, y, sample_weight=w), regularization=lam, schedule=schedule,
                  bounds={"similar_support": True, "leaf_support": False, "leaf_accuracy": False,
                          "incremental_accuracy": False})
    trees, bounds = {}, []
    push, lower_bound = solver._push, solver._similar.lower_bound

    def remember_push(tree):
        trees[id(tree.record)] = tree
        push(tree)

    def remember_bound(record):
        value = lower_bound(record)
        if value is not None:
            bounds.append((trees[id(record)], value))
        return value

    solver._push = remember_push                       # instance attributes: this solver only
    solver._similar.lower_bound = remember_bound
    result = solver.run()
    assert result.optimal
    pruned = solver.prune_counts["similar_support"]
    assert len(bounds) >= pruned
    for tree, value in bounds:
        assert value <= _best_descendant(solver, tree) + 1e-9


def test_prunes_what_the_other_bounds_do_not():
    X, y = _monk1_sample()
    off, result_off = _run(X, y, 0.02, schedule="bfs")
    on, result_on = _run(X, y, 0.02, schedule="bfs", bounds={"similar_support": True})
    expected = brute_force(X, y, 0.02).objective
    assert result_on.objective == pytest.approx(expected, abs=1e-9)
    assert result_off.objective == pytest.approx(expected, abs=1e-9)
    assert on.prune_counts["similar_support"] > 0
    assert on.expansions < off.expansions
    assert on.trees_evaluated < off.trees_evaluated


def test_twins_with_a_split_new_leaf_are_not_paired():
    ledger = SimilarSupport()
    root = ledger.root()
    D = ledger.child(root, features=(1,), marks=(2,), twin_losses=(1.0,))    # left new leaf split
    d = ledger.child(root, features=(4,), marks=(2,), twin_losses=(1.0,))
    ledger.dropped(D, 50.0)
    assert ledger.lower_bound(d) is None


def test_the_bound_is_the_minimum_over_the_whole_finished_sub_search():
    ledger = SimilarSupport()
    root = ledger.root()
    D = ledger.child(root, features=(1, 6), marks=(0, 1), twin_losses=(2.0, 5.0))
    d = ledger.child(root, features=(3, 6), marks=(0, 1), twin_losses=(1.0, 5.0))
    ledger.stop(D, 20.0)
    deep = ledger.child(D, features=(2,), marks=(1,), twin_losses=(0.0,))
    ledger.expanded(D)
    assert ledger.lower_bound(d) is None                     # a descendant of D is still open
    deeper = ledger.child(deep, features=(5,), marks=(2,), twin_losses=(0.0,))
    ledger.stop(deep, 17.0)
    ledger.expanded(deep)
    assert ledger.lower_bound(d) is None
    ledger.dropped(deeper, 12.0)                             # the smallest stop, two levels down
    assert ledger.lower_bound(d) == pytest.approx(12.0 + 1.0 - 2.0)
    ledger.expanded(d)
    ledger.expanded(root)
    assert ledger.open_records == 0


def test_the_twins_of_a_finished_parent_are_released():
    ledger = SimilarSupport()
    root = ledger.root()
    parent = ledger.child(root, features=(0,), marks=(1,), twin_losses=(0.0,))
    ledger.expanded(root)
    D = ledger.child(parent, features=(1,), marks=(0,), twin_losses=(1.0,))
    d = ledger.child(parent, features=(2,), marks=(0,), twin_losses=(1.0,))
    ledger.expanded(parent)
    ledger.dropped(D, 8.0)
    assert parent.twins                                      # kept while d is open
    ledger.dropped(d, ledger.lower_bound(d))
    assert parent.twins is None and root.twins is None and ledger.open_records == 0
    assert parent.low == 8.0 and root.low == 8.0

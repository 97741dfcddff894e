"""The depth-two subsolver for trees without errors (``perfect_depth_two``), against brute force.

The kernel's answer (the fewest leaves of a depth-two tree without errors, and a root threshold
with that many) is checked against an enumeration of every root threshold and every split of each
child, on small tables with tied values, two to four classes and rows of no weight; the solver with
the switch on and off is checked against the brute-force oracle on planted tables.
"""

import itertools

import numpy as np
import pytest
from test_continuous_leaf_counts import _check, _expected, planted

from treeopt import make_solver
from treeopt.solvers.continuous.perfect_depth_two import (WITH_ERRORS, fewest_leaves_without_errors, side_leaves,
                                                        split_leaf_floors)


def _classes(label, rows):
    return set(label[rows][label[rows] >= 0].tolist())


def _side_by_enumeration(rank, label, rows):
    """Fewest leaves of a tree of depth at most one without errors on ``rows`` (WITH_ERRORS if none)."""
    if len(_classes(label, rows)) <= 1:
        return 1
    for g in range(rank.shape[0]):
        for r in np.unique(rank[g, rows]):
            low, high = rows[rank[g, rows] <= r], rows[rank[g, rows] > r]
            if len(high) and len(_classes(label, low)) <= 1 and len(_classes(label, high)) <= 1:
                return 2
    return WITH_ERRORS


def _split_leaves(rank, label, rows, f, r):
    low, high = rows[rank[f, rows] <= r], rows[rank[f, rows] > r]
    return _side_by_enumeration(rank, label, low) + _side_by_enumeration(rank, label, high)


def _by_enumeration(rank, label, rows):
    if len(_classes(label, rows)) <= 1:
        return 1
    best = WITH_ERRORS
    for f in range(rank.shape[0]):
        for r in np.unique(rank[f, rows])[:-1]:
            best = min(best, _split_leaves(rank, label, rows, f, r))
    return best


def _table(seed, n_rows, n_columns, n_classes, n_values):
    rng = np.random.default_rng(seed)
    rank = rng.integers(0, n_values, size=(n_columns, n_rows)).astype(np.int32)
    # Labels from a random depth-two tree, some moved, some rows without weight (label -1).
    f, g, h = rng.integers(0, n_columns, 3)
    cut = rng.integers(0, n_values, 3)
    leaf = np.where(rank[f] <= cut[0], np.where(rank[g] <= cut[1], 0, 1), np.where(rank[h] <= cut[2], 2, 3))
    label = rng.permutation(np.arange(4) % n_classes)[leaf]
    moved = rng.random(n_rows) < 0.08 * (seed % 3)
    label[moved] = rng.integers(0, n_classes, int(moved.sum()))
    label[rng.random(n_rows) < 0.05] = -1
    return rank, label


@pytest.mark.parametrize("n_classes", [2, 3, 4])
@pytest.mark.parametrize("n_values", [2, 4, 12])
def test_fewest_leaves_match_enumeration(n_classes, n_values):
    for seed in range(25):
        rank, label = _table(seed, 30, 3, n_classes, n_values)
        rows = np.flatnonzero(np.random.default_rng(seed).random(30) < 0.8)     # a support, not every row
        cols = np.array([rows[np.argsort(rank[j, rows], kind="stable")] for j in range(rank.shape[0])])
        found = fewest_leaves_without_errors(cols, rank, label, n_classes)
        expected = _by_enumeration(rank, label, rows)
        if expected >= WITH_ERRORS:
            assert found is None, (seed, found)
            continue
        leaves, f, r = found
        assert leaves == expected, (seed, found, expected)
        if leaves > 1:                          # the root split it names has that many leaves
            assert _split_leaves(rank, label, rows, f, r) == leaves


@pytest.mark.parametrize("n_classes", [2, 3])
def test_side_leaves_of_every_prefix_match_enumeration(n_classes):
    for seed in range(20):
        rank, label = _table(seed, 25, 3, n_classes, 5)
        order = np.argsort(rank[0], kind="stable")
        got = side_leaves(rank[:, order][:, None, :], label[order][None, :], n_classes)[0]
        expected = [_side_by_enumeration(rank, label, order[:q + 1]) for q in range(len(order))]
        assert got.tolist() == expected, seed


def test_rows_in_chunks_of_root_columns_give_the_same_answer(monkeypatch):
    from treeopt.solvers.continuous import perfect_depth_two
    for seed in range(10):
        rank, label = _table(seed, 40, 5, 2, 6)
        cols = np.argsort(rank, axis=1, kind="stable")
        whole = fewest_leaves_without_errors(cols, rank, label, 2)
        monkeypatch.setattr(perfect_depth_two, "CHUNK_ENTRIES", 1)      # one root column at a time
        chunked = fewest_leaves_without_errors(cols, rank, label, 2)
        monkeypatch.undo()
        assert (whole is None) == (chunked is None)
        if whole is not None:
            assert whole[0] == chunked[0]


@pytest.mark.parametrize("on", [True, False])
@pytest.mark.parametrize("depth, n_classes", list(itertools.product([2, 3, 4], [2, 4])))
def test_the_solver_with_and_without_it_matches_the_oracle(on, depth, n_classes):
    for seed in range(6 if depth < 4 else 2):
        X, y = planted(seed, 40, depth, n_classes, noise=0.1 if seed % 3 == 2 else 0.0)
        weights = np.random.default_rng(seed).integers(1, 4, len(y)) * 0.5 if seed % 2 else None
        solver = _check(X, y, depth, () if on else ("perfect_depth_two",),
                        {"cart_start": False, "discrepancy_search": False}, weights)
        if not on:
            assert solver.prune_counts["perfect_depth_two"] == 0


@pytest.mark.parametrize("n_classes", [2, 3, 4])
def test_side_floors_bound_the_fewest_leaves_of_each_side(n_classes):
    """Below the exact fewest leaves of a depth-two tree without errors (at depth three), equal to them
    up to two leaves, and no tree at all (at depth two) exactly where no depth-one tree is without errors."""
    for seed in range(12):
        rank, label = _table(seed, 24, 3, n_classes, 5)
        rows = np.arange(24)
        cols = np.argsort(rank, axis=1, kind="stable")
        for depth in (2, 3):
            left, right = split_leaf_floors(cols, rank, label, n_classes, depth=depth)
            for f in range(3):
                for q in range(23):
                    for floor, side in ((left[f, q], cols[f][:q + 1]), (right[f, q + 1], cols[f][q + 1:])):
                        exact = _side_by_enumeration(rank, label, side) if depth == 2 else \
                            _by_enumeration(rank, label, side)
                        assert floor <= exact, (seed, depth, f, q)
                        if exact <= 2 or (depth == 2 and exact >= WITH_ERRORS):
                            assert floor == exact, (seed, depth, f, q)


@pytest.mark.parametrize("noise", [0.0, 0.1])
def test_the_root_asked_below_one_error_first_keeps_the_bounds_true(noise):
    """``error_free_first``: the root is first asked for its best tree without errors. Found, it is the
    optimum; not found, the search under the incumbent follows. At every step the lower bound stays at
    most the optimum, and the pass acts on these tables (their CART and discrepancy trees have errors)."""
    for seed in range(4):
        X, y = planted(seed, 60, 3, 2, noise=noise)
        errors, leaves = _expected(X, y, 3, None)
        for on in (True, False):
            solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3,
                                 strategies={"error_free_first": on, "discrepancy_search": False, "cart_start": False})
            for _ in solver.steps():
                assert solver.lower_bound * len(y) <= errors + 1e-9
            result = solver.result()
            assert result.optimal
            assert result.objective * len(y) == pytest.approx(errors, abs=1e-6)
            assert result.tree.n_leaves == leaves
            assert (solver.prune_counts["error_free_first"] > 0) == on


@pytest.mark.parametrize("n_classes", [2, 3, 4])
@pytest.mark.parametrize("most_leaves", [1, 2, 3, 4])
def test_a_leaf_budget_gets_the_trees_it_admits_or_a_bound(n_classes, most_leaves):
    """With ``most_leaves``, the answer is exact when a tree without errors of at most that many leaves
    exists, None when none exists at all, and otherwise ``most_leaves + 1`` with no split (a lower bound)."""
    for seed in range(25):
        rank, label = _table(seed, 30, 3, n_classes, 6)
        rows = np.flatnonzero(np.random.default_rng(seed + 7).random(30) < 0.8)
        cols = np.array([rows[np.argsort(rank[j, rows], kind="stable")] for j in range(rank.shape[0])])
        found = fewest_leaves_without_errors(cols, rank, label, n_classes, most_leaves=most_leaves)
        expected = _by_enumeration(rank, label, rows)
        if expected <= most_leaves:
            leaves, f, r = found
            assert leaves == expected, (seed, found, expected)
            if leaves > 1:
                assert _split_leaves(rank, label, rows, f, r) == leaves
        elif found is None:
            assert expected >= WITH_ERRORS, (seed, expected)   # None only when there is no tree at all
        else:
            assert found == (most_leaves + 1, -1, -1), (seed, found, expected)


@pytest.mark.parametrize("n_classes", [2, 3, 4])
def test_wider_tables_read_in_chunks_match_enumeration(n_classes, monkeypatch):
    """Six columns, some of them sorting the classes into runs, read one root column at a time or all
    together: the fewest leaves and a root split with that many."""
    from treeopt.solvers.continuous import perfect_depth_two
    for seed in range(15):
        rank, label = _table(seed, 28, 6, n_classes, 8 + seed % 5)
        rows = np.arange(28)
        cols = np.argsort(rank, axis=1, kind="stable")
        expected = _by_enumeration(rank, label, rows)
        for chunk in (perfect_depth_two.CHUNK_ENTRIES, 1):
            monkeypatch.setattr(perfect_depth_two, "CHUNK_ENTRIES", chunk)
            found = fewest_leaves_without_errors(cols, rank, label, n_classes)
            if expected >= WITH_ERRORS:
                assert found is None, (seed, found)
                continue
            assert found[0] == expected, (seed, found, expected)
            if expected > 1:
                assert _split_leaves(rank, label, rows, found[1], found[2]) == expected


def test_separable_children_are_split_when_the_tree_is_built():
    """A perfect depth-two answer names its children's splits only when the tree is built: the nested
    tuples hold a separable child, and the built tree has the leaves they count, no errors, and the
    oracle's fewest leaves."""
    from treeopt.solvers.continuous.search import _leaves
    seen = 0
    for seed in range(6):
        X, y = planted(seed, 40, 3, 3)
        errors, leaves = _expected(X, y, 3, None)
        solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3,
                             strategies={"cart_start": False, "discrepancy_search": False})
        result = solver.run()
        assert result.objective * len(y) == pytest.approx(errors, abs=1e-6)
        assert result.tree.n_leaves == leaves == _leaves(solver._best_tree)
        seen += "separable" in repr(solver._best_tree)
    assert seen


@pytest.mark.parametrize("on", [True, False])
@pytest.mark.parametrize("depth, n_classes", [(3, 2), (3, 3), (4, 3)])
def test_fewest_leaves_first_keeps_the_optimum(on, depth, n_classes):
    """Trying each column's threshold of least side floors first (``fewest_leaves_first``) changes the
    order only: the fewest errors and leaves stay the oracle's, and the switch acts when on."""
    acted = 0
    for seed in range(5 if depth < 4 else 2):
        X, y = planted(seed, 40, depth, n_classes, noise=0.1 if seed % 3 == 2 else 0.0)
        solver = _check(X, y, depth, (), {"cart_start": False, "discrepancy_search": False,
                                          "fewest_leaves_first": on})
        acted += solver.prune_counts["fewest_leaves_first"]
    assert (acted > 0) == on

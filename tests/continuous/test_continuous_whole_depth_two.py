"""A small depth-two support evaluates every root threshold at once (``whole_depth_two``).

The reference is the definition of the optimum at depth two: the least, over the leaf and every
root threshold of every column, of the two children's best trees of depth at most one
(:func:`best_depth_one`, itself checked split by split in test_continuous_terminal.py). Columns with
two or three values make every threshold count, the first and the last included.
"""

import numpy as np
import pytest

from treeopt.solvers.continuous import ContinuousSearch
from treeopt.solvers.continuous.terminal import best_depth_one, leaf_loss
from treeopt.sorted_columns import SortedDataset


def _table(seed: int, n_rows: int, n_classes: int):
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.integers(0, 2, n_rows), rng.integers(0, 3, n_rows), rng.integers(0, 3, n_rows),
                         rng.normal(size=n_rows).round(1)]).astype(float)
    y = rng.integers(0, n_classes, n_rows)
    return X, y


def _depth_two_by_definition(solver: ContinuousSearch, cols: np.ndarray | None = None) -> float:
    """The optimum at depth two of a support (the whole table by default), threshold by threshold (weight
    units, tie charge included)."""
    rank, cw, lam = solver._rank, solver._cw, solver._lambda
    cols = solver._columns.order if cols is None else cols
    n = cols.shape[0]
    best = leaf_loss(cw[cols[0]].sum(axis=0)) + lam
    for f in range(n):
        for r in np.unique(rank[f, cols[f]])[:-1]:
            left = rank[f][cols] <= r
            cost = sum(best_depth_one(part.reshape(n, -1), rank, cw, penalty=lam)[0]
                       for part in (cols[left], cols[~left]))
            best = min(best, cost)
    return best


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("regularization", [0.0, 0.02])
@pytest.mark.parametrize("seed", range(8))
def test_the_whole_depth_two_optimum_is_the_least_over_every_root_threshold(seed, regularization, n_classes):
    X, y = _table(seed, 12 + 4 * seed, n_classes)
    solver = ContinuousSearch(SortedDataset.from_arrays(X, y), regularization=regularization, depth_budget=2,
                              strategies={"cart_start": False, "discrepancy_search": False})
    result = solver.run()
    assert solver.prune_counts["whole_depth_two"] > 0            # the root's support is read whole
    assert result.optimal
    assert solver._best == pytest.approx(_depth_two_by_definition(solver), abs=1e-12)


@pytest.mark.parametrize("regularization", [0.01, 0.05])
@pytest.mark.parametrize("seed", range(4))
def test_the_whole_support_and_the_interval_search_find_trees_of_the_same_cost(seed, regularization):
    # At depth three the depth-two children are small supports, many of whose optimum is a leaf.
    X, y = _table(seed + 20, 60, 2)
    found = []
    for whole in (True, False):
        solver = ContinuousSearch(SortedDataset.from_arrays(X, y), regularization=regularization, depth_budget=3,
                                  strategies={"whole_depth_two": whole})
        result = solver.run()
        assert result.optimal
        found.append((result.objective, solver.prune_counts["whole_depth_two"] > 0))
    assert found[0][0] == pytest.approx(found[1][0], abs=1e-12)
    assert found[0][1] and not found[1][1]


@pytest.mark.parametrize("regularization", [0.0, 0.05, 0.2])
@pytest.mark.parametrize("seed", range(4))
def test_a_support_read_whole_answers_its_optimum_leaf_or_tree(seed, regularization):
    # Supports of a random subset of rows, some of whose optimum is the leaf (large λ): the answer's
    # cost is the optimum, and its tree is a leaf exactly when no split is cheaper.
    X, y = _table(seed + 40, 40, 2)
    solver = ContinuousSearch(SortedDataset.from_arrays(X, y), regularization=regularization, depth_budget=2)
    order = solver._columns.order
    rng = np.random.default_rng(seed)
    for _ in range(10):
        kept = rng.random(len(y)) < 0.6
        cols = order[kept[order]].reshape(order.shape[0], -1)
        leaf = leaf_loss(solver._cw[cols[0]].sum(axis=0)) + solver._lambda
        cost, tree = solver._whole_depth_two(cols, leaf)
        assert cost == pytest.approx(_depth_two_by_definition(solver, cols), abs=1e-12)
        assert (tree[0] == "leaf") == (cost >= leaf)


@pytest.mark.parametrize("seed", range(3))
def test_depth_two_results_build_their_childrens_trees_only_when_a_kept_tree_holds_them(seed, monkeypatch):
    # A depth-two result names its root split and defers its children's depth-one trees: of the many
    # results the search compares, only those in a tree it keeps (an incumbent, the answer) are built.
    built = []
    build = ContinuousSearch._depth_two_tree

    def counted(self, *args):
        built.append(args[1:3])
        return build(self, *args)

    monkeypatch.setattr(ContinuousSearch, "_depth_two_tree", counted)
    X, y = _table(seed + 60, 80, 2)
    solver = ContinuousSearch(SortedDataset.from_arrays(X, y), regularization=0.01, depth_budget=3,
                              strategies={"cart_start": False, "discrepancy_search": False})
    result = solver.run()
    solved = solver.prune_counts["whole_depth_two"] + solver.prune_counts["depth_two"]
    assert result.optimal and solved >= 20
    assert 0 < len(built) < solved / 4
    assert result.tree.n_leaves == solver._incumbent_leaves()       # the kept tree holds no deferred result

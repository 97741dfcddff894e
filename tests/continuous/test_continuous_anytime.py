"""Good trees early in the continuous solver: CART's tree as a floor, then limited discrepancy passes.

The first incumbent of a depth-three-or-deeper fit is never worse than scikit-learn's CART tree of
the same depth; the passes improve on it before the exact search, which still certifies the same
optimum with either switch off (the oracle tests switch each off too); the trace shows the
incumbents improving; a stopped search keeps an honest gap; and the passes run in slices whose
placement does not change the trees found.
"""

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from treeopt import make_solver
from treeopt.events import Improved
from treeopt.solvers.continuous.anytime import gini_tree
from treeopt.solvers.slices import drain
from treeopt.sorted_columns import SortedDataset


def _rotated(seed: int, n_rows: int = 400, n_columns: int = 3, n_classes: int = 2, noise: float = 0.1):
    """Continuous columns (all values distinct), an oblique boundary per class, and label noise."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, n_columns))
    scores = X @ rng.normal(size=(n_columns, n_classes)) + 0.3 * np.sin(3 * X[:, :1])
    y = scores.argmax(axis=1)
    flip = rng.random(n_rows) < noise
    y[flip] = rng.integers(0, n_classes, int(flip.sum()))
    return X, y


def _errors(tree, X, y):
    return int(np.sum(tree.predict(X, binarized=False) != y))


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("depth", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gini_tree_makes_as_many_errors_as_scikit_learns_cart(seed, depth, n_classes):
    X, y = _rotated(seed, n_classes=n_classes)
    dataset = SortedDataset.from_arrays(X, y)
    columns = dataset.columns
    cw = np.zeros((len(y), n_classes))
    cw[np.arange(len(y)), dataset.y_index] = 1.0
    cost, _ = drain(gini_tree(columns.order, columns.rank, cw, depth, penalty=0.0))
    cart = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)
    assert cost == int(np.sum(cart.predict(X) != y))


@pytest.mark.parametrize("depth", [3, 4])
@pytest.mark.parametrize("seed", [0, 3])
def test_the_first_incumbent_is_never_worse_than_cart(seed, depth):
    X, y = _rotated(seed, n_rows=600, n_columns=4, n_classes=3, noise=0.15)
    cart = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)
    solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=depth)
    for event in solver.steps():
        if isinstance(event, Improved):
            break
    assert solver.prune_counts["cart_start"] == 1
    assert _errors(solver.best_tree, X, y) <= int(np.sum(cart.predict(X) != y))
    assert solver.best_tree.depth <= depth


def test_the_passes_improve_on_cart_and_the_exact_search_certifies_the_same_optimum():
    X, y = _rotated(0, n_rows=300, noise=0.05)
    cart = DecisionTreeClassifier(max_depth=3, random_state=0).fit(X, y)
    solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3)
    improved = [(round(e.objective * len(y)), e.n_leaves) for e in solver.steps() if isinstance(e, Improved)]
    result = solver.result()
    plain = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3,
                        strategies={"cart_start": False, "discrepancy_search": False}).run()
    assert result.optimal and plain.optimal
    assert result.objective == pytest.approx(plain.objective, abs=1e-12)
    assert improved[0][0] == int(np.sum(cart.predict(X) != y))        # CART's tree comes first
    assert improved[1][0] < improved[0][0]                             # the first pass beats it
    assert all(a >= b for a, b in zip(improved, improved[1:]))         # (errors, leaves) never worse
    assert solver.prune_counts["discrepancy_search"] == 1
    # The trace follows the incumbents: its upper bound never rises.
    upper = [point.upper_bound for point in solver.trace]
    assert all(a >= b - 1e-12 for a, b in zip(upper, upper[1:]))


@pytest.mark.parametrize("strategies", [None, {"cart_start": False, "discrepancy_search": False}])
def test_the_lower_bound_never_passes_the_optimum_while_a_shallower_root_is_searched(strategies):
    """The shallower start first solves the root one or two levels shallower; that search's bound
    bounds the shallower optimum, which here has errors where the full depth has none."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 3))
    y = ((X[:, 0] > 0.2) ^ (X[:, 1] > -0.3) ^ (X[:, 2] > 0.1)).astype(int)     # parity: depth three
    solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3, strategies=strategies)
    result = solver.run()
    assert result.optimal and result.objective == 0.0
    assert max(point.lower_bound for point in solver.trace) <= result.objective + 1e-12


def test_a_stopped_search_keeps_its_best_tree_and_an_honest_gap():
    X, y = _rotated(6, n_rows=500, n_columns=4, noise=0.2)
    optimum = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3).run().objective
    solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3)
    solver.step(3)
    result = solver.result()
    assert not result.optimal
    assert result.lower_bound <= optimum + 1e-12 <= result.objective + 2e-12
    assert result.objective == pytest.approx(_errors(result.tree, X, y) / len(y))


def test_the_passes_run_in_slices_that_do_not_change_the_trees():
    X, y = _rotated(7, n_rows=400, n_columns=3, noise=0.1)
    whole = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3)
    whole.unit_budget = None                    # slices never due: the passes yield only between batches
    sliced = whole.rebuild()
    sliced.unit_budget = 0.0                    # every slice is due at once
    found = []
    for solver in (whole, sliced):
        units = 1
        while solver.step(1):
            units += 1
        upper = [point.upper_bound for point in solver.trace]
        improved = [b for a, b in zip(upper, upper[1:]) if b < a]
        found.append((improved, units, str(solver.best_tree)))
    assert len(found[0][0]) >= 2
    assert found[0][0] == found[1][0] and found[0][2] == found[1][2]
    assert found[1][1] > found[0][1]

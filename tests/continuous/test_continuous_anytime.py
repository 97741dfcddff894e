"""Good trees early in the continuous solver: CART's tree as a floor, then limited discrepancy passes.

The first incumbent of a depth-three-or-deeper fit is never worse than scikit-learn's CART tree of
the same depth; the passes (from depth four, and at depth three on large tables) improve on it
before the exact search, which still certifies the same optimum with either switch off (the oracle tests switch each off too); the trace shows the
incumbents improving; a stopped search keeps an honest gap; and the passes run in slices whose
placement does not change the trees found.
"""

import numpy as np
import pytest
from sklearn.tree import DecisionTreeClassifier

from treeopt import make_solver
from treeopt.events import Improved
from treeopt.solvers.continuous import anytime
from treeopt.solvers.continuous.anytime import DiscrepancySearch, gini_tree
from treeopt.solvers.continuous.terminal import best_depth_one
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
    solver.passes_at_depth_three_above = 0      # a table this small skips them at depth three
    improved = [(round(e.objective * len(y)), e.n_leaves) for e in solver.steps() if isinstance(e, Improved)]
    result = solver.result()
    plain = make_solver(X, y, solver="continuous", regularization=0, depth_budget=3,
                        strategies={"cart_start": False, "discrepancy_search": False}).run()
    assert result.optimal and plain.optimal
    assert result.objective == pytest.approx(plain.objective, abs=1e-12)
    stump = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y)
    assert improved[0][0] == int(np.sum(stump.predict(X) != y))       # CART's root split comes first,
    errors = [e for e, _ in improved]
    carts = errors.index(int(np.sum(cart.predict(X) != y)))             # then CART's deeper levels,
    assert carts <= 2 and errors[carts + 1] < errors[carts]             # and the passes beat CART's tree
    assert all(a >= b for a, b in zip(improved, improved[1:]))         # (errors, leaves) never worse
    assert solver.prune_counts["discrepancy_search"] == 1
    # The trace follows the incumbents: its upper bound never rises.
    upper = [point.upper_bound for point in solver.trace]
    assert all(a >= b - 1e-12 for a, b in zip(upper, upper[1:]))


@pytest.mark.parametrize("regularization", [0.0, 0.02])
def test_at_depth_three_only_a_large_table_runs_the_passes_and_the_optimum_is_the_same(regularization):
    X, y = _rotated(3, n_rows=300, noise=0.1)                       # 900 cells
    found = {}
    for depth, above in ((3, None), (3, 899), (4, None)):
        solver = make_solver(X, y, solver="continuous", regularization=regularization, depth_budget=depth)
        if above is not None:
            solver.passes_at_depth_three_above = above              # as if the table were larger
        result = solver.run()
        assert result.optimal
        found[depth, above] = (result.objective, solver.prune_counts["discrepancy_search"])
    assert found[3, None][1] == 0 and found[3, 899][1] == 1 and found[4, None][1] == 1
    assert found[3, None][0] == pytest.approx(found[3, 899][0], abs=1e-12)


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
    whole.passes_at_depth_three_above = sliced.passes_at_depth_three_above = 0   # passes on a small table
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


# -- the passes themselves, against a brute-force depth-two solver ------------------------------
def _brute_exact(rank, cw, penalty):
    """``exact(cols, depth, path)`` for :class:`DiscrepancySearch`: every root threshold of a depth-two
    tree tried, each child's best depth-one split from :func:`best_depth_one`."""

    def exact(cols, depth, path):
        best = best_depth_one(cols, rank, cw, penalty=penalty)
        best = (best[0], ("leaf",) if best[1] is None else ("split", *best[1], ("leaf",), ("leaf",)))
        if depth == 2:
            n = cols.shape[0]
            for f in range(n):
                for r in np.unique(rank[f, cols[f]])[:-1]:
                    low = rank[f][cols] <= r
                    sides = [best_depth_one(part.reshape(n, -1), rank, cw, penalty=penalty)
                             for part in (cols[low], cols[~low])]
                    cost = sides[0][0] + sides[1][0]
                    if cost < best[0]:
                        children = [("leaf",) if s is None else ("split", *s, ("leaf",), ("leaf",)) for _, s in sides]
                        best = (cost, ("split", f, int(r), *children))
        return best
        yield                                              # a generator, as the search's solver is

    return exact


def _tree_cost(tree, cols, rank, cw, penalty):
    """A tree's loss plus ``penalty`` per leaf, recomputed from the rows it sends to each leaf."""
    if tree[0] == "leaf":
        totals = cw[cols[0]].sum(axis=0)
        return float(totals.sum() - totals.max()) + penalty
    low = rank[tree[1]][cols] <= tree[2]
    n = cols.shape[0]
    return (_tree_cost(tree[3], cols[low].reshape(n, -1), rank, cw, penalty)
            + _tree_cost(tree[4], cols[~low].reshape(n, -1), rank, cw, penalty))


def _passes(X, y, penalty=0.0, **options):
    dataset = SortedDataset.from_arrays(X, y)
    columns = dataset.columns
    cw = np.zeros((len(y), dataset.n_classes))
    cw[np.arange(len(y)), dataset.y_index] = 1.0
    offered = []
    passes = DiscrepancySearch(columns.rank, cw, penalty=penalty, exact=_brute_exact(columns.rank, cw, penalty),
                               offer=lambda cost, tree: offered.append((cost, tree)), unit_budget=None, **options)
    return passes, columns, cw, offered


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("depth", [3, 4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_first_quick_pass_in_gini_order_is_never_worse_than_cart(seed, depth, n_classes):
    """Gini's split first at every node, and each depth-two node's best ranked candidate (Gini's split
    among them, with optimal children): at least as good as CART's tree of the same depth."""
    X, y = _rotated(seed, n_rows=300, n_classes=n_classes, noise=0.2)
    passes, columns, cw, _ = _passes(X, y)
    cart, _ = drain(gini_tree(columns.order, columns.rank, cw, depth, penalty=0.0))
    passes.gini_first = True
    cost, tree = drain(passes._dive(columns.order, depth, 0, (), True))
    assert cost <= cart
    assert cost == pytest.approx(_tree_cost(tree, columns.order, columns.rank, cw, 0.0))


def test_the_first_complete_tree_after_carts_needs_no_exact_depth_two_solve():
    """The quick passes come first: the first tree that improves on CART's is found before the exact
    depth-two solver is called at all (it is most of a pass's cost on a large table)."""
    X, y = _rotated(4, n_rows=600, n_columns=4, noise=0.1)
    calls, improved_at = [], []
    passes, columns, cw, offered = _passes(X, y)
    inner = passes.exact

    def counted(cols, depth, path):
        calls.append(depth)
        return inner(cols, depth, path)

    passes.exact = counted
    passes.offer = lambda cost, tree: (offered.append(cost), improved_at.append(calls.count(2)))
    cart, _ = drain(gini_tree(columns.order, columns.rank, cw, 4, penalty=0.0))
    drain(passes.run(columns.order, 4, cart))
    assert passes.quick_passes >= 2 and passes.passes > passes.quick_passes
    assert improved_at and improved_at[0] == 0          # the first better tree came from a quick pass
    assert calls.count(2) > 0                           # the exact passes followed
    assert all(a > b for a, b in zip(offered, offered[1:]))


def test_a_large_node_proposes_from_its_sample_and_every_cost_is_on_all_rows(monkeypatch):
    monkeypatch.setattr(anytime, "SAMPLE_ROWS", 64)
    X, y = _rotated(5, n_rows=500, n_columns=3, n_classes=3, noise=0.15)
    passes, columns, cw, offered = _passes(X, y)
    sample = passes._sample(columns.order)
    assert sample.shape == (3, 64)
    assert all(set(sample[j]) == set(sample[0]) for j in range(3))           # the same rows in each column
    assert all(np.all(np.diff(columns.rank[j, sample[j]]) >= 0) for j in range(3))   # in each column's order
    low, _ = anytime._split(columns.order, columns.rank, 0, int(np.median(columns.rank[0])))
    assert set(passes._sample(low)[0]) <= set(sample[0]) | set(low[0][low.shape[1] < 64:])
    for ranked in drain(passes._rank(columns.order)):
        for f, r, cost in ranked:
            tree = drain(passes._quick_depth_two(columns.order, [(f, r, cost)], np.inf))[1]
            assert cost == pytest.approx(_tree_cost(tree, columns.order, columns.rank, cw, 0.0))
    cart, _ = drain(gini_tree(columns.order, columns.rank, cw, 3, penalty=0.0))
    drain(passes.run(columns.order, 3, cart))
    assert offered
    for cost, tree in offered:
        assert cost == pytest.approx(_tree_cost(tree, columns.order, columns.rank, cw, 0.0))


def test_the_passes_stop_at_an_error_free_tree_despite_the_tie_charge():
    """At λ = 0 the search charges an infinitesimal amount per leaf; the sum of those charges is not
    exactly the product, and an error-free tree must still end the passes."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(300, 3))
    y = ((X[:, 0] > 0.2) ^ (X[:, 1] > -0.3) ^ (X[:, 2] > 0.1)).astype(int)     # parity: depth three
    tie = 1e-12 / 3
    passes, columns, cw, offered = _passes(X, y, penalty=tie, error_free_is_optimal=True)
    found_in = []
    passes.offer = lambda cost, tree: (offered.append(cost), found_in.append(passes.passes))
    drain(passes.run(columns.order, 4, np.inf))
    assert offered and offered[-1] < 1e-6
    assert passes.passes == found_in[-1] + 1            # no pass ran after the one that found it
    # Eleven leaves' charges summed one by one exceed eleven times the charge: still no error.
    charge, leaves = 1e-9, 11
    passes.penalty = charge
    tree = ("leaf",)
    for _ in range(leaves - 1):
        tree = ("split", 0, 0, tree, ("leaf",))
    summed = sum([charge] * leaves)
    assert summed > charge * leaves and passes._error_free(summed, tree)
    assert not passes._error_free(summed + 1.0, tree)


@pytest.mark.parametrize("penalty", [0.0, 2.0])
@pytest.mark.parametrize("depth", [1, 3, 5])
@pytest.mark.parametrize("seed", [0, 1])
def test_cart_floor_offers_each_level_and_ends_with_carts_tree(seed, depth, penalty):
    """Grown breadth first, one offer per level, each a correctly costed tree no worse than the one
    before; the last is gini_tree's (depth first) tree."""
    X, y = _rotated(seed, n_rows=300, n_classes=3, noise=0.2)
    dataset = SortedDataset.from_arrays(X, y)
    columns = dataset.columns
    cw = np.zeros((len(y), 3))
    cw[np.arange(len(y)), dataset.y_index] = 1.0
    offered = []
    drain(anytime.cart_floor(columns.order, columns.rank, cw, depth, penalty, lambda *found: offered.append(found)))
    assert offered[-1] == drain(gini_tree(columns.order, columns.rank, cw, depth, penalty))
    assert 1 <= len(offered) <= depth
    levels = [_depth_of(tree) for _, tree in offered]
    assert levels == sorted(levels) and all(level <= depth for level in levels)
    for (cost, tree), (later, _) in zip(offered, offered[1:]):
        assert later <= cost
    for cost, tree in offered:
        assert cost == pytest.approx(_tree_cost(tree, columns.order, columns.rank, cw, penalty))


def _depth_of(tree):
    return 0 if tree[0] == "leaf" else 1 + max(_depth_of(tree[3]), _depth_of(tree[4]))

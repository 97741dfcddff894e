"""GOSDT's first incumbents (``starts.py``): pruned CART, the best depth-two tree, a depth-three solve, an offered tree."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import brute_force, to_treeopt_tuple, tree_objective
from strategies import lambdas, problems
from treeopt.data import Dataset
from treeopt.solvers import GOSDT

from conftest import require_datasets
from engine_checks import WideGOSDT, _derived, noisy_parity


def test_cart_start_makes_the_first_incumbent_at_least_as_good_as_pruned_cart():
    """Before any expansion the incumbent is CART pruned at λ (cost-complexity), exactly recomputed."""
    require_datasets()
    from sklearn.tree import DecisionTreeClassifier
    frame = pd.read_csv(_derived("tic-tac-toe__onehot.csv"))
    X, y = frame.iloc[:, :-1], frame.iloc[:, -1]
    lam = 0.01
    path = DecisionTreeClassifier(random_state=0).cost_complexity_pruning_path(X, y)
    cart = min(1 - DecisionTreeClassifier(random_state=0, ccp_alpha=a).fit(X, y).score(X, y)
               + lam * DecisionTreeClassifier(random_state=0, ccp_alpha=a).fit(X, y).get_n_leaves()
               for a in path.ccp_alphas[::10])
    solver = GOSDT(Dataset.from_binary(X, y), regularization=lam)
    solver.step(1)
    assert solver.prune_counts["cart_start"] == 1
    assert solver.upper_bound <= cart + 1e-9
    assert solver.best_tree.objective(X, y, lam, binarized=True) == pytest.approx(solver.upper_bound, abs=1e-9)
    off = GOSDT(Dataset.from_binary(X, y), regularization=lam, bounds={"cart_start": False, "dives": False})
    off.step(1)
    assert off.upper_bound > solver.upper_bound


def test_depth_two_start_begins_from_the_best_depth_two_tree_where_cart_misses_it():
    """40 random binary columns, the label the XOR of two of them with 10 % noise: CART's greedy
    first split sees no gain in either XOR column, so its pruned tree is poor; ``depth_two_start``
    starts the search (depth budget 4) from the best tree of depth two, here checked by brute
    force over every pair of splits."""
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(400, 40))
    y = X[:, 5] ^ X[:, 17]
    flip = rng.random(len(y)) < 0.1
    y[flip] = 1 - y[flip]
    lam = 0.01

    def leaf(mask):
        return min(np.sum(y[mask] == 1), np.sum(y[mask] == 0)) / len(y) + lam

    def best_stump(mask):
        return min([leaf(mask)] + [leaf(mask & (X[:, g] == 0)) + leaf(mask & (X[:, g] == 1)) for g in range(40)])

    everything = np.ones(len(y), bool)
    depth_two = min([leaf(everything)] + [best_stump(X[:, f] == 0) + best_stump(X[:, f] == 1) for f in range(40)])
    started = {}
    for on in (True, False):
        solver = GOSDT(Dataset.from_binary(X, y), regularization=lam, depth_budget=4,
                       bounds={"depth_two_start": on})
        started[on] = next(iter(solver.steps()))
        assert solver.prune_counts["depth_two_start"] == int(on)
    assert started[True].upper_bound == pytest.approx(depth_two, abs=1e-9)
    assert started[False].upper_bound > depth_two + 0.1           # CART's start alone


class StartAtOnce(GOSDT):
    """GOSDT whose ``depth_three_start`` begins with the search instead of after a few seconds."""

    depth_three_start_after = 0.0


def test_depth_three_start_gives_the_parity_tree_that_shallower_starts_miss():
    """40 random binary columns, the label the parity of three of them with 5 % noise, depth
    budget 5: neither CART nor any depth-two tree sees the parity; the depth-three solve beside the
    search gives the eight-leaf parity tree as the incumbent within its first unit of work. (Without
    ``depth_four``: the loops over root splits solve the whole budget and meet the tree by themselves.)"""
    X, y = noisy_parity(600)
    lam = 0.005
    errors = 0
    for a in (0, 1):
        for b in (0, 1):
            for c in (0, 1):
                leaf = (X[:, 3] == a) & (X[:, 11] == b) & (X[:, 29] == c)
                errors += min(np.sum(y[leaf] == 1), np.sum(y[leaf] == 0))
    parity_tree = errors / len(y) + 8 * lam
    searches = {}
    for name, cls, on in (("start", StartAtOnce, True), ("off", StartAtOnce, False), ("later", GOSDT, True)):
        search = cls(Dataset.from_binary(X, y), regularization=lam, depth_budget=5,
                     bounds={"depth_three_start": on, "depth_four": False})
        next(iter(search.steps()))                       # Started, after the first unit of work
        searches[name] = search
    start = searches["start"]
    assert start.prune_counts["depth_three_start"] == 1
    assert start.upper_bound <= parity_tree + 1e-9
    assert start.best_tree.objective(X, y, lam, binarized=True) == pytest.approx(start.upper_bound, abs=1e-9)
    assert start.lower_bound < start.upper_bound                  # an incumbent, not a certificate
    for name in ("off", "later"):                                 # switched off, or not yet due
        assert searches[name].prune_counts["depth_three_start"] == 0
        assert searches[name].upper_bound > parity_tree + 0.2
    # A search that shares trees with another (iterative deepening) runs none of its own, unless it is
    # told to keep it (the portfolio's GOSDT member).
    for keep in (False, True):
        offered = StartAtOnce(Dataset.from_binary(X, y), regularization=lam, depth_budget=5,
                              bounds={"depth_four": False})
        offered.keep_start_when_offered = keep
        assert offered.offer_incumbent(searches["off"].best_tree, searches["off"].upper_bound)
        next(iter(offered.steps()))
        assert offered.prune_counts["depth_three_start"] == int(keep)
        assert (offered.upper_bound <= parity_tree + 1e-9) == keep


@settings(max_examples=30, deadline=None)
@given(data=problems() | problems(weights="float") | problems(n_classes=3), lam=lambdas,
       depth=st.sampled_from([None, 1, 2, 3]), offer_depth=st.sampled_from([None, 1, 2, 3]),
       steps_before=st.sampled_from([0, 1, 3]), keep_start=st.booleans())
def test_an_offered_incumbent_bounds_the_search_and_keeps_the_optimum(data, lam, depth, offer_depth, steps_before,
                                                                      keep_start):
    """A tree from another search (any depth) bounds GOSDT: it returns min(R*_depth, offered), certified,
    whether its depth-three start stops at the offer or goes on (as in the portfolio)."""
    X, y, w = data
    dataset = Dataset.from_binary(X, y, sample_weight=w)
    offered = GOSDT(dataset, regularization=lam, depth_budget=offer_depth).run()
    expected = brute_force(X, y, lam, sample_weight=w, depth=depth).objective
    solver = WideGOSDT(dataset, regularization=lam, depth_budget=depth)
    solver.keep_start_when_offered = keep_start
    solver.step(steps_before)
    before, offered_at = solver.upper_bound, len(solver.trace)
    took = solver.offer_incumbent(offered.tree, offered.objective)
    assert took == (offered.objective < before - 1e-6)
    result = solver.run()
    assert result.optimal
    assert result.objective == pytest.approx(min(expected, offered.objective), abs=1e-9)
    got = tree_objective(to_treeopt_tuple(result.tree), X, y, lam, sample_weight=w)
    assert got == pytest.approx(result.objective, abs=1e-9)
    # Lower bounds are on R*_depth before the offer, and on min(R*_depth, offered) after it.
    assert all(point.lower_bound <= expected + 1e-9 for point in solver.trace[:offered_at])
    assert all(point.lower_bound <= result.objective + 1e-9 for point in solver.trace[offered_at:])

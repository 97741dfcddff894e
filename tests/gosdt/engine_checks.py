"""What the tests of GOSDT's engine share: oracle checks of a whole search and of small-tree specs, and their data.

``check`` runs a stepwise search to its certificate and compares it with the brute-force oracle
(``tests/oracle.py``); ``spec_objective`` scores the nested specs of the small-tree solvers the
same way. ``WideGOSDT`` is GOSDT as on 32+ columns, so that the wide-data switches reach their
code on oracle-sized data.
"""

import numpy as np
import pandas as pd
import pytest

from oracle import _inputs, _label_leaves, brute_force, class_costs, to_treeopt_tuple, tree_objective
from treeopt.data import Dataset
from treeopt.solvers import GOSDT
from treeopt.solvers.gosdt.depth_two import LEAF, DepthTwoSolver


#: How DepthTwoSolver.columns treats equal columns: kept as they are (few features), grouped by
#: their bits, or merged with a nested neighbour of as many rows (threshold data).
MERGES = {"keep": (DepthTwoSolver.few_features, False), "bits": (0, False), "counts": (0, True)}


def merge_equal_columns(solver: DepthTwoSolver, merge: str) -> None:
    solver.few_features, solver.by_counts = MERGES[merge]


def spec_objective(X, y, w, lam, objective, spec) -> float:
    """The oracle's objective of a nested spec (LEAF, a feature, or (feature, left, right))."""
    X, y, w = _inputs(X, y, w)
    classes, costs = class_costs(X, y, w, objective)
    index = {c: k for k, c in enumerate(classes.tolist())}

    def build(spec):
        if spec == LEAF:
            return ("leaf", None)
        feature, left, right = (spec, LEAF, LEAF) if isinstance(spec, int) else spec
        return ("split", feature, build(left), build(right))

    tree = _label_leaves(build(spec), X, [index[v] for v in y.tolist()], w, costs, classes)
    return tree_objective(tree, X, y, lam, sample_weight=w, objective=objective)


def check(solver_cls, X, y, w, lam, *, bounds=None, depth=None, objective="accuracy"):
    expected = brute_force(X, y, lam, sample_weight=w, objective=objective, depth=depth)
    solver = solver_cls(Dataset.from_binary(X, y, sample_weight=w), regularization=lam, objective=objective,
                        bounds=bounds, depth_budget=depth)
    result = solver.run()
    assert result.optimal
    got = tree_objective(to_treeopt_tuple(result.tree), X, y, lam, sample_weight=w, objective=objective)
    assert got == pytest.approx(expected.objective, abs=1e-9)
    assert result.objective == pytest.approx(got, abs=1e-9)
    # Every lower bound the search ever reported was a true lower bound.
    assert max(point.lower_bound for point in solver.trace) <= expected.objective + 1e-9
    if depth is not None:
        assert result.tree.depth <= depth
    return solver


class WideGOSDT(GOSDT):
    """GOSDT as on 32+ columns: ``depth_two`` also closes unbudgeted problems on oracle-sized data,
    ``sorted_depth_two`` solves its depth-two subtrees whatever the chains' length, and
    ``bound_dives`` start at once."""

    wide_features = 0
    min_chain_length = 0
    min_sorted_features = 0
    bound_dives_after = 0
    depth_three_start_after = 0.0


def noisy_parity(n_rows: int) -> tuple[np.ndarray, np.ndarray]:
    """40 random binary columns; the label is the parity of columns 3, 11 and 29, with 5 % flipped."""
    rng = np.random.default_rng(5)
    X = rng.integers(0, 2, size=(n_rows, 40))
    y = X[:, 3] ^ X[:, 11] ^ X[:, 29]
    flip = rng.random(len(y)) < 0.05
    y[flip] = 1 - y[flip]
    return X, y


def _derived(name):
    from conftest import SHARED
    return SHARED / "datasets" / "derived" / name


def _checkerboard(n=40, cells=3, seed=0):
    """Two numeric columns labelled by a noisy checkerboard, every threshold a feature: data whose
    depth budgets 4 and 5 are solved by the loops over root splits."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 2))
    y = ((np.floor(X[:, 0] * cells) + np.floor(X[:, 1] * cells)) % 2).astype(int)
    y[rng.random(n) < 0.1] ^= 1
    return Dataset.from_arrays(pd.DataFrame(X, columns=["u", "v"]), y)

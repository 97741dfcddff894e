"""``tie_break="any"``: at λ = 0 the errors are certified, the leaves are not minimised.

The continuous solver's default proves that no tree as accurate has fewer leaves; ``"any"`` asks
ConTree's question only (the fewest errors of a tree of the depth budget) and stops at the first
tree it proves most accurate. Its errors must match the brute-force oracle's, with weights and
several classes, its tree must predict with exactly those errors, and no split of it may end in
two leaves of one class (a split is kept only when it is better than a leaf).
"""

import numpy as np
import pytest
from test_continuous_leaf_counts import STARTS, _expected, planted

from treeopt import OptimalTreeClassifier, make_solver
from treeopt.nodes import Leaf
from treeopt.solvers.continuous.search import ContinuousSearch


def _sibling_leaves_of_one_class(node) -> int:
    if isinstance(node, Leaf):
        return 0
    pair = isinstance(node.left, Leaf) and isinstance(node.right, Leaf) and node.left.prediction == node.right.prediction
    return int(pair) + _sibling_leaves_of_one_class(node.left) + _sibling_leaves_of_one_class(node.right)


def _weighted_errors(tree, X, y, weights) -> float:
    wrong = tree.predict(X, binarized=False) != y
    return float(wrong.sum() if weights is None else weights[wrong].sum())


@pytest.mark.parametrize("starts", sorted(STARTS))
@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("depth", [2, 3])
@pytest.mark.parametrize("noise", [0.0, 0.15])
def test_any_tie_break_certifies_the_oracles_errors(starts, seed, depth, noise):
    n_classes = 2 + seed % 2
    X, y = planted(seed, 70, depth, n_classes, noise)
    weights = np.random.default_rng(seed).integers(1, 4, len(y)).astype(float) if seed % 2 else None
    errors, fewest = _expected(X, y, depth, weights)
    solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=depth, sample_weight=weights,
                         strategies=STARTS[starts] or None, solver_options={"tie_break": "any"})
    result = solver.run()
    total = len(y) if weights is None else weights.sum()
    assert result.optimal
    assert round(result.objective * total, 6) == round(errors, 6)
    assert round(_weighted_errors(result.tree, X, y, weights), 6) == round(errors, 6)
    assert result.tree.n_leaves >= fewest
    assert _sibling_leaves_of_one_class(result.tree.root) == 0


def test_positive_regularization_ignores_the_tie_break():
    X, y = planted(1, 80, 2, 2, 0.1)
    trees = [make_solver(X, y, solver="continuous", regularization=0.02, depth_budget=3,
                         solver_options={"tie_break": tie_break}).run() for tie_break in ("any", "fewest_leaves")]
    assert trees[0].objective == pytest.approx(trees[1].objective)
    assert trees[0].tree.n_leaves == trees[1].tree.n_leaves


def test_an_unknown_tie_break_is_refused_with_its_values():
    X, y = planted(1, 40, 2, 2)
    with pytest.raises(ValueError, match="tie_break must be one of .'fewest_leaves', 'any'."):
        make_solver(X, y, solver="continuous", regularization=0, depth_budget=2, solver_options={"tie_break": "least"})
    with pytest.raises(ValueError, match="tie_break"):
        make_solver(X, y, solver="gosdt", regularization=0, depth_budget=2, solver_options={"tie_break": "any"})


def test_auto_takes_the_tie_break_to_the_continuous_solver_only_where_it_is_the_better_search():
    """Where GOSDT is the better search (few thresholds), auto runs it and drops the option: at λ = 0 its
    tree is the most accurate with the fewest leaves, which either value asks for. Where the continuous
    solver is (many thresholds), the option reaches it. A wrong value is refused either way."""
    X, y = planted(3, 60, 2, 2)                        # few thresholds: auto chooses GOSDT at λ = 0
    assert make_solver(X, y, regularization=0, depth_budget=2).name != "continuous"
    errors, fewest = _expected(X, y, 2, None)
    for tie_break in ContinuousSearch.TIE_BREAKS:
        solver = make_solver(X, y, regularization=0, depth_budget=2, solver_options={"tie_break": tie_break})
        assert solver.name == "gosdt"
        result = solver.run()
        assert result.optimal and round(result.objective * len(y), 6) == round(errors, 6)
        assert result.tree.n_leaves == fewest
    clf = OptimalTreeClassifier(regularization=0, depth_budget=2, solver_options={"tie_break": "any"}).fit(X, y)
    assert clf.optimal_ and round((clf.predict(X) != y).sum(), 6) == round(errors, 6)
    with pytest.raises(ValueError, match="tie_break must be one of"):
        make_solver(X, y, regularization=0, depth_budget=2, solver_options={"tie_break": "first"})
    rng = np.random.default_rng(0)
    many = rng.normal(size=(700, 3))                   # every value distinct: the continuous solver's table
    labels = ((many[:, 0] > 0) ^ (many[:, 1] > 0.3)).astype(int)
    solver = make_solver(many, labels, regularization=0, depth_budget=2, solver_options={"tie_break": "any"})
    assert isinstance(solver, ContinuousSearch) and solver.tie_break == "any"
    assert solver.run().objective == 0.0

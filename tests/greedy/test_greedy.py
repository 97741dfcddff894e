"""Greedy trees from the lecture slides ("Decision trees" lecture slides): C4.5 and CART, their criteria and prunings."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binom
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from conftest import read_binary, require_datasets
from treeopt import GreedyTreeClassifier, make_solver
from treeopt.greedy.criteria import impurity, impurity_decrease
from treeopt.data import Dataset
from treeopt.datasets import load_monk, load_restaurant, load_restaurant_pruning
from treeopt.greedy_estimators import GreedyTreeRegressor
from treeopt.greedy.grown_tree import Candidate, GrownNode
from treeopt.greedy.prunings import cost_complexity_pruning, pessimistic_error_bound, pessimistic_pruning
from treeopt.solvers import GOSDT
from treeopt.greedy.solver import GreedyInduction, SplitFinder
from treeopt.tree import MultiwaySplit


def partition(leaf_ids) -> set:
    """The leaves as a set of frozensets of row numbers (independent of how leaves are numbered)."""
    groups: dict = {}
    for row, leaf in enumerate(np.asarray(leaf_ids).tolist()):
        groups.setdefault(leaf, set()).add(row)
    return {frozenset(g) for g in groups.values()}


# -- the slides' numbers ------------------------------------------------------------------------

def test_information_gain_of_the_restaurant_splits():
    X, y = load_restaurant()
    ds = Dataset.from_arrays(X, y)
    finder = SplitFinder(ds.points, ds.counts, ds.features, "entropy", multiway=True)
    scores = {c.label: c.score for c in finder.candidates(np.arange(ds.n_points), ds.counts.sum(axis=0))}
    assert scores["Crowded"] == pytest.approx(0.541, abs=5e-4)       # slides part 1
    assert scores["Restaur"] == pytest.approx(0.0, abs=1e-12)        # "≈ 0 bits"
    assert max(scores, key=scores.get) == "Crowded"


def test_misclassification_and_gini_of_the_slides():
    # part 2: 6 yes/4 no -> .4, 2/8 -> .2, 7/3 -> .3; Gini = 2p(1-p)
    assert impurity([[6, 4], [2, 8], [7, 3]], "misclassification") == pytest.approx([0.4, 0.2, 0.3])
    p = 0.3
    assert float(impurity([p, 1 - p], "gini")) == pytest.approx(2 * p * (1 - p))


def test_pessimistic_bounds_of_the_pruning_example():
    X, y = load_restaurant_pruning()
    # per-leaf bounds of the split on Crowded (6, 9 and 1 rows, no errors): binocdf(0, n, p) = .25
    for n, slide in [(6, 0.206), (9, 0.143), (1, 0.75)]:
        bound = pessimistic_error_bound(0, n)
        assert bound == pytest.approx(slide, abs=5e-4)
        assert binom.cdf(0, n, bound) == pytest.approx(0.25)
    upper1 = (6 * pessimistic_error_bound(0, 6) + 9 * pessimistic_error_bound(0, 9) + pessimistic_error_bound(0, 1)) / 16
    assert upper1 == pytest.approx(0.204, abs=1e-3)
    # the collapsed leaf: 15 yes, 1 no. The exact 25% bound is .1596; the slides read .157, for which
    # their own binocdf(1, 16, .157) is .2589, not .25. Both are far below UpperBound1.
    upper2 = pessimistic_error_bound(1, 16)
    assert binom.cdf(1, 16, upper2) == pytest.approx(0.25)
    assert binom.cdf(1, 16, 0.157) == pytest.approx(0.2589, abs=1e-4)
    assert upper2 == pytest.approx(0.157, abs=3e-3)
    # the decision: options 2 and 3 (a leaf) beat option 1, so C4.5 collapses the split
    clf = GreedyTreeClassifier(criterion="entropy", multiway=True, pruning="pessimistic").fit(X, y)
    decision = clf.solver_.snapshot().extra["last_step"]
    assert decision["choice"] == "leaf"
    assert decision["keep"] == pytest.approx(upper1) and decision["leaf"] == pytest.approx(upper2)
    assert clf.n_leaves_ == 1 and set(clf.predict(X)) == {"Yes"}
    unpruned = GreedyTreeClassifier(criterion="entropy", multiway=True).fit(X, y)
    assert isinstance(unpruned.tree_.root, MultiwaySplit) and unpruned.tree_.root.column == "Crowded"
    assert unpruned.score(X, y) == 1.0


def _fixed_tree(ds: Dataset, index, depth, features) -> GrownNode:
    """A GrownNode that splits on ``features[0]`` at the root, ``features[1]`` below, and so on."""
    node = GrownNode(index, ds.counts[index].sum(axis=0), depth, f"d{depth}")
    if features:
        j = features[0]
        node.split = Candidate((0, j), 0.0, "binary", f"x{j}", (j,), (f"not x{j}", f"x{j}"), np.zeros((2, 2)))
        true = ds.points[index, j]
        node.children = [_fixed_tree(ds, index[~true], depth + 1, features[1:]),
                         _fixed_tree(ds, index[true], depth + 1, features[1:])]
    return node


def test_pessimistic_graft_replaces_a_node_by_its_largest_branch():
    # x1 decides the class; a tree that first splits on x0 (30 rows left, 2 right) is worse than its
    # larger branch's subtree given all 32 rows (option 3): .083 against .13 for keeping it.
    X = np.array([[0, 0]] * 15 + [[0, 1]] * 15 + [[1, 0], [1, 1]])
    y = np.array([0] * 15 + [1] * 15 + [0, 1])
    ds = Dataset.from_binary(X, y)
    root = _fixed_tree(ds, np.arange(ds.n_points), 0, [0, 1])
    decisions = list(pessimistic_pruning(root, ds.points, ds.counts))
    final = decisions[-1]
    assert final.choice == "graft"
    assert final.graft == pytest.approx(pessimistic_error_bound(0, 16)) and final.graft < final.keep < final.leaf
    assert root.split.features == (1,) and [float(c.stats.sum()) for c in root.children] == [16.0, 16.0]
    assert final.leaves_removed == 2


# -- the stepwise protocol ---------------------------------------------------------------------

def test_greedy_steps_replay_the_induction_and_report_an_honest_gap():
    X, y = load_monk(1)
    ds = Dataset.from_arrays(X, y)
    solver = GreedyInduction(ds, regularization=0.02, criterion="entropy", multiway=True,
                             pruning="cost_complexity", ccp_alpha=0.02)
    events = list(solver.steps())
    kinds = [type(e).__name__ for e in events]
    assert kinds[:2] == ["Started", "Expanded"] and kinds[-1] == "Finished" and "Pruned" in kinds
    assert events[-1].optimal is False and solver.status == "finished"
    result = solver.result()
    assert not result.optimal and result.gap == pytest.approx(result.upper_bound - result.lower_bound)
    # the running objective is the tree's objective, recomputed from its predictions
    assert result.objective == pytest.approx(result.tree.objective(X, y, 0.02))
    # the lower bound is valid: the certified optimum lies between the bounds
    optimum = GOSDT(ds, regularization=0.02).run()
    assert result.lower_bound <= optimum.objective + 1e-12 <= result.upper_bound + 1e-12
    trace = solver.trace_frame()
    assert len(trace) >= result.expansions and trace["expansions"].is_monotonic_increasing


def test_snapshot_queue_lists_the_next_nodes_candidates_best_first():
    X, y = read_binary("monk1") if _has_data() else load_monk(1)
    solver = GreedyInduction(Dataset.from_arrays(X, y), criterion="gini")
    solver.step()
    snap = solver.snapshot(top_k=5)
    scores = [entry.payload.score for entry in snap.queue]
    assert scores == sorted(scores, reverse=True) and len(scores) >= 1
    assert snap.queue_size == len(snap.extra["frontier"])
    nxt = snap.extra["next_node"]
    solver.step()
    assert solver.snapshot().extra["last_step"]["rule"] == nxt
    assert solver.snapshot().extra["last_step"]["chosen"] == snap.queue[0].payload.label


def _has_data() -> bool:
    from conftest import DATASETS
    return (DATASETS / "binary" / "monk1.csv").exists()


# -- CART against scikit-learn -----------------------------------------------------------------

def _sklearn_partitions(X, y, alpha, states=(0, 1, 2)):
    return [partition(DecisionTreeClassifier(criterion="gini", ccp_alpha=alpha, random_state=s).fit(X, y).apply(X))
            for s in states]


@pytest.mark.parametrize("name, alphas", [("monk1", [0.01, 0.02]), ("monk3", [0.01, 0.02]),
                                          ("compas-binary", [0.002, 0.005]), ("fico-binary", [0.003])])
def test_cart_cost_complexity_matches_sklearn_on_tie_free_data(name, alphas):
    require_datasets()
    X, y = read_binary(name)
    for alpha in alphas:
        theirs = _sklearn_partitions(X, y, alpha)
        # precondition: scikit-learn's random tie-breaking does not change its answer here
        assert all(p == theirs[0] for p in theirs)
        mine = GreedyTreeClassifier(criterion="gini", pruning="cost_complexity", pruning_risk="impurity",
                                    ccp_alpha=alpha).fit(X, y)
        assert partition(mine.apply(X)) == theirs[0]


def _grown_from_sklearn(model, ds: Dataset, X) -> GrownNode:
    """scikit-learn's fitted tree as a GrownNode over the dataset's points (to prune it our way)."""
    t = model.tree_
    paths = model.decision_path(X).tocsc()

    def build(node, depth):
        rows = paths[:, node].nonzero()[0]
        index = np.unique(ds.row_point[rows])
        grown = GrownNode(index, ds.counts[index].sum(axis=0), depth, f"n{node}")
        if t.children_left[node] != -1:
            j = int(t.feature[node])
            grown.split = Candidate((0, j), 0.0, "binary", f"x{j}", (j,), ("no", "yes"), np.zeros((2, 2)))
            grown.children = [build(t.children_left[node], depth + 1), build(t.children_right[node], depth + 1)]
        return grown

    return build(0, 0)


@pytest.mark.parametrize("name", ["monk2", "tic-tac-toe", "car-evaluation", "balance-scale"])
def test_cart_split_choice_and_pruning_match_sklearn_where_ties_exist(name):
    """On data with tied splits, compare what does not depend on tie-breaking.

    (1) At every node of scikit-learn's tree, its split's Gini decrease is the best one our
    criterion finds there (the two may pick different tied features). (2) Our cost-complexity
    pruning of scikit-learn's own unpruned tree gives scikit-learn's pruned tree.
    """
    require_datasets()
    X, y = read_binary(name)
    ds = Dataset.from_binary(X, y)
    full = DecisionTreeClassifier(criterion="gini", random_state=0).fit(X, y)
    finder = SplitFinder(ds.points, ds.counts, ds.features, "gini")
    grown = _grown_from_sklearn(full, ds, X)
    t = full.tree_
    checked = 0
    stack = [(0, grown)]
    while stack:
        node, g = stack.pop()
        if t.children_left[node] == -1:
            continue
        left, right = t.children_left[node], t.children_right[node]
        w = t.weighted_n_node_samples
        theirs = t.impurity[node] - (w[left] * t.impurity[left] + w[right] * t.impurity[right]) / w[node]
        best = finder.candidates(g.index, g.stats)[0]
        assert best.score == pytest.approx(theirs, abs=1e-9)
        checked += 1
        stack += [(left, g.children[0]), (right, g.children[1])]
    assert checked == t.node_count // 2
    total = ds.total_weight
    risk = lambda node: float(node.stats.sum() * impurity(node.stats, "gini"))  # noqa: E731
    for alpha in (0.002, 0.005, 0.01):
        ours = _grown_from_sklearn(full, ds, X)
        list(cost_complexity_pruning(ours, risk, max_alpha=alpha * total))
        pruned = DecisionTreeClassifier(criterion="gini", random_state=0, ccp_alpha=alpha).fit(X, y)
        leaf_rows = [set(np.flatnonzero(np.isin(ds.row_point, leaf.index)).tolist()) for leaf in ours.leaves()]
        assert {frozenset(r) for r in leaf_rows} == partition(pruned.apply(X))


@pytest.mark.parametrize("name", ["monk1", "monk3", "compas-binary"])
def test_pruning_path_matches_sklearn(name):
    require_datasets()
    X, y = read_binary(name)
    ours = GreedyTreeClassifier(criterion="gini", pruning_risk="impurity").cost_complexity_pruning_path(X, y)
    theirs = DecisionTreeClassifier(criterion="gini", random_state=0).cost_complexity_pruning_path(X, y)

    def by_alpha(path):   # tied collapses may be listed one by one or together: compare per distinct alpha
        out = {}
        for a, r in zip(path.ccp_alphas, path.impurities):
            out[round(float(a), 10)] = float(r)
        return out

    mine, sk = by_alpha(ours), by_alpha(theirs)
    assert mine.keys() == sk.keys()
    assert all(mine[a] == pytest.approx(sk[a], abs=1e-9) for a in mine)
    assert ours.n_leaves[-1] == 1


def test_regression_tree_matches_sklearn_on_generated_data():
    rng = np.random.default_rng(7)
    X = pd.DataFrame(rng.uniform(0, 10, size=(150, 3)), columns=["a", "b", "c"])
    y = np.sin(X["a"]) + 0.3 * X["b"] + rng.normal(0, 0.2, 150)
    for alpha in (0.0, 0.01, 0.05):
        mine = GreedyTreeRegressor(ccp_alpha=alpha).fit(X, y)
        theirs = DecisionTreeRegressor(ccp_alpha=alpha, random_state=0).fit(X, y)
        assert partition(mine.apply(X)) == partition(theirs.apply(X))
        assert np.allclose(mine.predict(X), theirs.predict(X))
        assert mine.n_leaves_ == theirs.get_n_leaves()
    assert GreedyTreeRegressor().fit(X, y).score(X, y) == pytest.approx(1.0)


# -- greedy against optimal ------------------------------------------------------------------------

def _pruned_cart(dataset, regularization, depth_budget=None):
    """CART pruned by cost complexity with the objective's loss as the risk and C = λ: ``(objective, tree)``."""
    result = make_solver(dataset, None, solver="greedy", regularization=regularization, depth_budget=depth_budget,
                         solver_options={"pruning": "cost_complexity", "ccp_alpha": regularization,
                                         "pruning_risk": "objective"}).run()
    return result.objective, result.tree


def test_optimal_tree_beats_the_greedy_tree_with_as_many_leaves():
    """monk1 (OSDT's binary encoding), λ = 0.01: both trees have 8 leaves; CART makes 7 errors, GOSDT 0."""
    require_datasets()
    X, y = read_binary("monk1")
    ds = Dataset.from_binary(X, y)
    greedy_value, greedy_tree = _pruned_cart(ds, 0.01)
    optimal = GOSDT(ds, regularization=0.01).run()
    Z, labels = X.to_numpy().astype(bool), y.to_numpy()
    greedy_errors = int((greedy_tree.predict(Z) != labels).sum())
    optimal_errors = int((optimal.tree.predict(Z) != labels).sum())
    assert optimal.optimal
    assert greedy_tree.n_leaves == optimal.tree.n_leaves == 8
    assert (greedy_errors, optimal_errors) == (7, 0)
    assert optimal.objective == pytest.approx(0.08) and greedy_value == pytest.approx(7 / 124 + 0.08)


@given(st.sampled_from([0.005, 0.01, 0.02, 0.05]), st.integers(1, 3))
def test_pruned_cart_is_a_valid_upper_bound_on_the_optimum(lam, problem):
    X, y = load_monk(problem)
    ds = Dataset.from_arrays(X, y)
    value, tree = _pruned_cart(ds, lam, depth_budget=3)
    assert value == pytest.approx(tree.objective(X, y, lam))
    single_leaf = min(np.bincount(y)) / len(y) + lam
    assert value <= single_leaf + 1e-12
    assert GOSDT(ds, regularization=lam, depth_budget=3).run().objective <= value + 1e-12


# -- pruning internals and errors -------------------------------------------------------------------

@given(st.lists(st.integers(0, 1), min_size=12, max_size=40), st.integers(0, 2**16))
def test_weakest_link_pruning_gives_the_least_cost_pruning(labels, seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(len(labels), 4))
    y = np.array(labels)
    if len(set(labels)) < 2:
        y[0] = 1 - y[0]
    ds = Dataset.from_binary(X, y)
    C = float(rng.choice([0.5, 1.5, 2.5]))
    solver = GreedyInduction(ds, criterion="gini")
    solver.run()
    errors = lambda node: float(node.stats.sum() - node.stats.max())  # noqa: E731

    def best(node):   # least errors + C × leaves over all prunings, by recursion
        if node.is_leaf:
            return errors(node) + C
        return min(errors(node) + C, sum(best(c) for c in node.children))

    optimum = best(solver.root)
    list(cost_complexity_pruning(solver.root, errors, max_alpha=C))
    cost = sum(errors(leaf) for leaf in solver.root.leaves()) + C * solver.root.n_leaves
    assert cost == pytest.approx(optimum)


def test_bad_parameters_are_rejected_before_any_search():
    X, y = load_monk(1)
    ds = Dataset.from_arrays(X, y)
    with pytest.raises(ValueError, match="criterion"):
        GreedyInduction(ds, criterion="squared_error")
    with pytest.raises(ValueError, match="pruning"):
        GreedyInduction(ds, pruning="reduced_error")
    with pytest.raises(ValueError, match="confidence"):
        pessimistic_error_bound(0, 5, confidence=1.5)
    with pytest.raises(ValueError):
        GreedyTreeClassifier(criterion="information").fit(X, y)
    with pytest.raises(ValueError, match="only one class"):
        GreedyTreeClassifier().fit(X, np.zeros(len(y)))
    with pytest.raises(ValueError, match="numeric"):
        GreedyTreeRegressor().fit(X[["head_shape"]].assign(n=1.0)[["n"]], ["a"] * len(y))


@pytest.mark.parametrize("criterion", ["entropy", "gain_ratio", "gini", "misclassification"])
def test_every_criterion_grows_a_consistent_tree(criterion):
    X, y = load_monk(2)
    clf = GreedyTreeClassifier(criterion=criterion, multiway=True, max_depth=3).fit(X, y)
    assert clf.tree_.depth <= 3
    assert clf.objective_ == pytest.approx(clf.tree_.objective(X, y, clf.regularization))
    assert clf.predict_proba(X).shape == (len(y), 2)
    full = GreedyTreeClassifier(criterion=criterion).fit(X, y)
    assert full.score(X, y) == 1.0      # grown until pure: the MONK data has no conflicting rows


def test_impurity_decrease_is_gain_on_a_perfect_split():
    assert float(impurity_decrease([3, 3], [[3, 0], [0, 3]], "entropy")) == pytest.approx(1.0)

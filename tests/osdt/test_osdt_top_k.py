"""OSDT(top_k=k): the k best distinct trees against an exhaustive list of every tree's objective.

A tree is its leaf set (:func:`oracle.leaf_sets`): the oracle lists the
objective of every distinct tree with non-empty leaves, and the k objectives
OSDT certifies must be the k smallest of that list (as multisets). With
``top_k=1`` the search must be today's search exactly.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import all_tree_objectives, brute_force
from treeopt import OptimalTreeClassifier
from treeopt.data import Dataset
from treeopt.solvers.osdt import OSDT
from treeopt.solvers.osdt.schedules import SCHEDULES

from conftest import read_binary, require_datasets


@st.composite
def tiny_problems(draw, max_features=4, max_rows=14):
    n_features = draw(st.integers(1, max_features))
    n_rows = draw(st.integers(2, max_rows))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n_features, max_size=n_features),
                               min_size=n_rows, max_size=n_rows)))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n_rows, max_size=n_rows)))
    if len(set(y.tolist())) < 2:
        y = y.copy()
        y[0] ^= 1
    lam = draw(st.sampled_from([0.01, 0.03, 0.05, 0.1, 0.2]))
    return X, y, lam


def leaf_set(tree) -> frozenset:
    """A Tree's leaves as a set of clause sets {(feature, value)} (the oracle's notion of a tree)."""
    leaves = []

    def walk(node, clauses):
        if hasattr(node, "prediction"):
            leaves.append(frozenset(clauses))
        else:
            walk(node.left, clauses | {(node.feature, 0)})
            walk(node.right, clauses | {(node.feature, 1)})

    walk(tree.root, frozenset())
    return frozenset(leaves)


def check_top_k(X, y, lam, k, objective="accuracy", **options):
    expected = all_tree_objectives(X, y, lam, objective=objective, depth=options.get("depth_budget"))[:k]
    solver = OSDT(Dataset.from_binary(X, y), regularization=lam, objective=objective, top_k=k, **options)
    result = solver.run()
    assert result.optimal and result.status == "optimal"
    objectives = [value for value, _ in result.top_trees]
    assert len(objectives) == len(expected)               # fewer than k only when fewer trees exist
    assert objectives == pytest.approx(expected, abs=1e-9)
    assert objectives == sorted(objectives) or np.allclose(objectives, sorted(objectives), atol=1e-9)
    trees = [tree for _, tree in result.top_trees]
    assert len({leaf_set(tree) for tree in trees}) == len(trees)          # distinct as leaf sets
    for value, tree in result.top_trees:                   # each objective is the tree's own
        assert tree.objective(X, y, lam, objective=objective, binarized=True) == pytest.approx(value, abs=1e-9)
        assert (np.bincount(tree.apply(X, binarized=True), minlength=tree.n_leaves) > 0).all()
    assert result.tree.to_dict() == trees[0].to_dict()     # the first is the incumbent
    assert result.objective == pytest.approx(expected[0], abs=1e-9)
    assert solver.top_k_lower_bound == pytest.approx(objectives[-1], abs=1e-9) or len(objectives) < k
    return result


@pytest.mark.parametrize("k", [2, 3, 5])
@settings(max_examples=12)
@given(problem=tiny_problems())
def test_k_best_objectives_are_the_k_smallest_over_all_trees(k, problem):
    X, y, lam = problem
    check_top_k(X, y, lam, k)


@settings(max_examples=10)
@given(problem=tiny_problems(max_features=3, max_rows=12), k=st.sampled_from([2, 4]),
       schedule=st.sampled_from(sorted(SCHEDULES)), depth=st.sampled_from([None, 1, 2]),
       objective=st.sampled_from(["balanced_accuracy", "weighted_accuracy"]))
def test_k_best_for_every_schedule_depth_and_class_cost_objective(problem, k, schedule, depth, objective):
    X, y, lam = problem
    check_top_k(X, y, lam, k, objective=objective, schedule=schedule, depth_budget=depth)


@pytest.mark.parametrize("objective", ["f1", "auc"])
@settings(max_examples=8)
@given(problem=tiny_problems(max_features=3, max_rows=12), k=st.sampled_from([2, 3]))
def test_k_best_for_non_additive_objectives(objective, problem, k):
    X, y, lam = problem
    check_top_k(X, y, lam, k, objective=objective)


@settings(max_examples=15)
@given(problem=tiny_problems(max_features=3, max_rows=16))
def test_top_k_1_is_todays_search(problem):
    """top_k=1 is the default search: same tree, prune counts, expansions, trees evaluated."""
    X, y, lam = problem
    ds = Dataset.from_binary(X, y)
    default = OSDT(ds, regularization=lam)
    one = OSDT(ds, regularization=lam, top_k=1)
    a, b = default.run(), one.run()
    assert a.tree.to_dict() == b.tree.to_dict()
    assert a.prune_counts == b.prune_counts and a.expansions == b.expansions
    assert default.trees_evaluated == one.trees_evaluated
    assert b.objective == pytest.approx(brute_force(X, y, lam).objective, abs=1e-9)
    assert b.top_trees == [] and one.snapshot().top_trees == []
    [(value, tree)] = one.top_trees
    assert value == b.objective and tree.to_dict() == b.tree.to_dict()


# Recorded by running treeopt/solvers/osdt.py as of commit f77dec4 (before top_k existed) with default
# options: (expansions, trees evaluated, objective, leaves, prune counts). top_k=1 must reproduce them
# (with the counter of ``one_split_left``, declared since, which prunes nothing for accuracy).
BEFORE_TOP_K = {
    ("monk1", 0.05): (133, 8526, 0.3387096774193548, 5, {
        "hierarchical": 5318, "lookahead": 2950, "leaf_support": 348, "incremental_accuracy": 5399,
        "leaf_accuracy": 160, "permutation": 9, "equivalent_points": 0, "similar_support": 0,
        "incremental_progress": 0, "one_split_left": 0}),
    ("monk3", 0.05): (404, 27691, 0.37131147540983606, 3, {
        "hierarchical": 24401, "lookahead": 2766, "leaf_support": 434, "incremental_accuracy": 61099,
        "leaf_accuracy": 381, "permutation": 43, "equivalent_points": 0, "similar_support": 0,
        "incremental_progress": 0, "one_split_left": 0}),
}


@pytest.mark.parametrize("name, lam", sorted(BEFORE_TOP_K))
def test_top_k_1_reproduces_the_search_before_top_k(name, lam):
    require_datasets()
    X, y = read_binary(name)
    solver = OSDT(Dataset.from_binary(X.to_numpy(), y.to_numpy()), regularization=lam, top_k=1)
    result = solver.run()
    expansions, evaluated, objective, leaves, counts = BEFORE_TOP_K[(name, lam)]
    assert result.optimal
    assert (result.expansions, solver.trees_evaluated, result.tree.n_leaves) == (expansions, evaluated, leaves)
    assert result.objective == objective and result.prune_counts == counts


def test_unsound_bounds_are_off_and_refused_with_top_k():
    X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]] * 5)
    y = np.array([1, 1, 0, 0] * 5)
    solver = OSDT(Dataset.from_binary(X, y), regularization=0.1, top_k=3)
    for name in OSDT.NOT_FOR_TOP_K:
        assert solver.bounds[name] is False
    result = solver.run()
    assert all(result.prune_counts[name] == 0 for name in OSDT.NOT_FOR_TOP_K)
    for name in ("hierarchical", "lookahead", "equivalent_points", "permutation"):
        assert solver.bounds[name] is True
    with pytest.raises(ValueError, match="leaf_support.*top_k=3"):
        OSDT(Dataset.from_binary(X, y), regularization=0.1, top_k=3, bounds={"leaf_support": True})
    for bad in (0, -1, 2.5, True, "3"):
        with pytest.raises(ValueError, match="top_k must be a positive integer"):
            OSDT(Dataset.from_binary(X, y), regularization=0.1, top_k=bad)


def test_stopped_search_keeps_its_best_trees_with_an_honest_bound():
    require_datasets()
    X, y = read_binary("monk1")
    ds = Dataset.from_binary(X.to_numpy(), y.to_numpy())
    solver = OSDT(ds, regularization=0.1, top_k=3)
    result = solver.run(node_limit=5)
    assert not result.optimal and result.status == "node_limit"
    values = [value for value, _ in result.top_trees]
    assert len(values) == 3 and values == sorted(values)
    assert solver.top_k_lower_bound <= values[-1] + 1e-12
    assert solver.snapshot().extra["top_k_lower_bound"] == solver.top_k_lower_bound
    final = solver.run()                                   # resumes to the certificate
    assert final.optimal
    assert final.top_trees[-1][0] <= values[-1] + 1e-12      # R_k only decreases
    assert solver.top_k_lower_bound == pytest.approx(final.top_trees[-1][0], abs=1e-12)


def test_estimator_exposes_top_trees_and_predicts_with_any_of_them():
    X = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [0, 0, 0], [1, 1, 1], [0, 1, 0]] * 4)
    y = np.array([1, 1, 0, 0, 1, 0] * 4)
    y[[0, 7]] ^= 1
    clf = OptimalTreeClassifier(solver="osdt", regularization=0.05, top_k=4).fit(X, y)
    assert len(clf.top_trees_) == 4
    objectives = [value for value, _ in clf.top_trees_]
    assert objectives == sorted(objectives) and objectives[0] == pytest.approx(clf.objective_)
    assert clf.top_trees_[0][1].to_dict() == clf.tree_.to_dict()
    np.testing.assert_array_equal(clf.predict(X), clf.predict(X, tree_index=0))
    for i, (value, tree) in enumerate(clf.top_trees_):
        np.testing.assert_array_equal(clf.predict(X, tree_index=i), clf.classes_[tree.predict_index(X)])
        assert tree.objective(X, y, 0.05) == pytest.approx(value, abs=1e-9)
    with pytest.raises(ValueError, match="tree_index"):
        clf.predict(X, tree_index=4)
    single = OptimalTreeClassifier(solver="osdt", regularization=0.05).fit(X, y)
    assert len(single.top_trees_) == 1 and single.top_trees_[0][1].to_dict() == single.tree_.to_dict()
    with pytest.raises(ValueError, match="top_k"):
        OptimalTreeClassifier(solver="gosdt", top_k=3).fit(X, y)


def test_cli_fit_top_k_prints_each_tree_objective_and_rules(tmp_path, capsys):
    from treeopt.cli import main

    X = np.array([[1, 0, 1], [1, 1, 0], [0, 1, 1], [0, 0, 0], [1, 1, 1], [0, 1, 0]] * 4)
    y = np.array([1, 1, 0, 0, 1, 0] * 4)
    y[[0, 7]] ^= 1
    path = tmp_path / "data.csv"
    path.write_text("a,b,c,label\n" + "\n".join(",".join(map(str, [*row, label])) for row, label in zip(X, y)))
    assert main(["fit", str(path), "--target", "label", "--solver", "osdt", "--top-k", "3",
                 "--regularization", "0.05"]) == 0
    out = capsys.readouterr().out
    clf = OptimalTreeClassifier(solver="osdt", regularization=0.05, top_k=3).fit(
        pd.DataFrame(X, columns=["a", "b", "c"]), y)
    assert "the 3 best trees (certified" in out
    for i, (value, tree) in enumerate(clf.top_trees_, start=1):
        assert f"# tree {i} of 3: objective {value:.10f}, {tree.n_leaves} leaves\n{tree.rules()}" in out
    with pytest.raises(SystemExit, match="--top-k 3 needs --solver osdt"):
        main(["fit", str(path), "--target", "label", "--top-k", "3", "--solver", "gosdt"])
    main(["fit", str(path), "--target", "label", "--solver", "osdt"])
    assert "best trees" not in capsys.readouterr().out

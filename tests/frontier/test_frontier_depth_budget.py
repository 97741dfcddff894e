"""The frontier of trees of depth at most d: its λ = 0 end is the estimator's ``regularization=0`` tree."""

from __future__ import annotations

import math

import numpy as np
import pytest

from treeopt import OptimalTreeClassifier, frontier


def _table(seed: int, n_rows: int = 36, n_columns: int = 3, n_classes: int = 2):
    """A small seeded numeric table with noisy labels (few enough thresholds to keep them all)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 6, size=(n_rows, n_columns)).astype(float)
    y = ((X[:, 0] > 2) ^ (X[:, 1] > 3)).astype(int) if n_classes == 2 else (X[:, 0] + X[:, 1]).astype(int) % n_classes
    flip = rng.random(n_rows) < 0.15
    y[flip] = (y[flip] + 1) % n_classes
    return X, y


def _depth(tree) -> int:
    return max(len(path) for path, _ in tree.leaves())


@pytest.mark.parametrize("seed, depth, n_classes", [(0, 1, 2), (1, 2, 2), (2, 2, 3), (3, 3, 2)])
def test_last_point_is_the_most_accurate_tree_of_that_depth(seed, depth, n_classes):
    X, y = _table(seed, n_classes=n_classes)
    front = frontier(X, y, depth_budget=depth, thresholds="all")
    table = front.table
    assert front.complete and front.max_leaves == 2 ** depth
    last = table.index[-1]
    assert table.at[last, "lambda_min"] == 0.0 and table.at[last, "certified"]
    zero = OptimalTreeClassifier(regularization=0, depth_budget=depth).fit(X, y)
    assert math.isclose(table.at[last, "accuracy"], zero.score(X, y))
    assert table.at[last, "leaves"] == zero.tree_.n_leaves            # ties go to fewer leaves on both sides
    assert front.tree_for(regularization=0).n_leaves == zero.tree_.n_leaves
    assert all(_depth(front.tree(i)) <= depth for i in table.index)


@pytest.mark.parametrize("seed, depth", [(4, 2), (5, 3)])
def test_each_hull_point_is_the_estimators_optimum_in_its_interval(seed, depth):
    X, y = _table(seed)
    front = frontier(X, y, depth_budget=depth, thresholds="all")
    hull = front.table[front.table["on_hull"] & (front.table["lambda_max"] - front.table["lambda_min"] > 1e-9)]
    assert len(hull) >= 2
    for _, row in hull.iterrows():           # (a point with a one-value interval ties with its neighbours)
        upper = row["lambda_max"] if math.isfinite(row["lambda_max"]) else 2 * row["lambda_min"] + 0.1
        lam = (row["lambda_min"] + upper) / 2
        fit = OptimalTreeClassifier(regularization=lam, depth_budget=depth, thresholds="all").fit(X, y)
        assert fit.optimal_
        assert math.isclose(fit.score(X, y), row["accuracy"]) and fit.tree_.n_leaves == row["leaves"]


def test_a_budget_deeper_than_any_tree_changes_nothing():
    X, y = _table(6, n_rows=24, n_columns=2)
    free = frontier(X, y, max_leaves=6, thresholds="all").table
    deep = frontier(X, y, max_leaves=6, depth_budget=5, thresholds="all").table
    assert free[["leaves", "loss"]].equals(deep[["leaves", "loss"]])


def test_a_shallow_budget_keeps_a_worse_front_than_no_budget():
    X, y = _table(7, n_rows=40)
    free = frontier(X, y, max_leaves=8, thresholds="all").table
    shallow = frontier(X, y, depth_budget=1, thresholds="all").table
    assert shallow["leaves"].max() <= 2
    assert shallow["loss"].min() >= free["loss"].min()


def test_zero_regularization_without_the_lambda_zero_end_names_depth_budget():
    X, y = _table(8)
    front = frontier(X, y, max_leaves=2, thresholds="all")
    assert front.table["lambda_min"].min() > 0
    with pytest.raises(ValueError, match="depth_budget"):
        front.tree_for(regularization=0)


def test_depth_budget_with_cv_is_refused():
    X, y = _table(9)
    with pytest.raises(ValueError, match="depth_budget"):
        frontier(X, y, depth_budget=2, cv=3)
    with pytest.raises(ValueError, match="depth_budget"):
        frontier(X, y, depth_budget=-1)


def test_the_cli_prints_the_lambda_zero_tree_of_a_depth_budget(tmp_path, capsys):
    from treeopt.cli import main
    X, y = _table(10)
    path = tmp_path / "table.csv"
    path.write_text("a,b,c,y\n" + "".join(f"{a},{b},{c},{t}\n" for (a, b, c), t in zip(X.tolist(), y.tolist())))
    assert main(["frontier", str(path), "--target", "y", "--depth-budget", "2", "--regularization", "0"]) == 0
    printed = capsys.readouterr().out
    zero = OptimalTreeClassifier(regularization=0, depth_budget=2).fit(X, y)
    assert f"optimal tree for λ = 0 ({zero.tree_.n_leaves} leaves)" in printed
    with pytest.raises(SystemExit, match="depth-budget"):
        main(["frontier", str(path), "--target", "y", "--depth-budget", "2", "--cv", "3"])

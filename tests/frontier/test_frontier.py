"""The accuracy–sparsity frontier: against GOSDT, a brute-force oracle, and itself paused."""

from __future__ import annotations

import itertools
import math
import warnings
from functools import lru_cache

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import read_binary, require_datasets
from treeopt import Dataset, Frontier, frontier
from treeopt.events import Finished, Started
from treeopt.frontier.result import frontier_traces, regularization_intervals
from treeopt.solvers import GOSDT
from treeopt.frontier.search import FrontierSearch

LAMBDAS = [0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001]


# -- against separate GOSDT runs -----------------------------------------------------------
# The fast public instances; the complete comparison with 300 s limits is benchmarks/frontier_bench.py.
GOSDT_CASES = {
    # dataset: (max_leaves, min_regularization)
    "monk1": (12, None),
    "monk2": (36, None),          # the optimum at λ = 0.001 has 33 leaves
    "monk3": (24, None),
    "compas-binary": (12, 0.001),
}


@lru_cache(maxsize=None)
def _binary_frontier(name: str):
    X, y = read_binary(name)
    max_leaves, lam0 = GOSDT_CASES[name]
    dataset = Dataset.from_binary(X, y)
    return X, y, dataset, frontier(dataset, max_leaves=max_leaves, min_regularization=lam0)


@pytest.mark.parametrize("name", sorted(GOSDT_CASES))
def test_tree_for_every_lambda_matches_a_separate_gosdt_run(name):
    require_datasets()
    X, y, dataset, front = _binary_frontier(name)
    assert front.complete
    assert front.min_certified_regularization <= min(LAMBDAS)
    for lam in LAMBDAS:
        reference = GOSDT(dataset, regularization=lam).run()
        assert reference.optimal
        with warnings.catch_warnings():
            warnings.simplefilter("error")          # certified: no warning
            tree = front.tree_for(regularization=lam)
            claimed = front.objective_for(lam)
        assert claimed == pytest.approx(reference.objective, abs=1e-9), lam
        # Recomputed from the tree's predictions, independent of the search's bookkeeping.
        assert tree.objective(X, y, lam, binarized=True) == pytest.approx(reference.objective, abs=1e-9), lam
        row = front.row_for(lam)
        assert front.table.at[row, "lambda_min"] <= lam <= front.table.at[row, "lambda_max"]


def test_a_small_leaf_cap_is_honest_about_the_lambdas_it_cannot_certify():
    require_datasets()
    X, y = read_binary("monk3")
    dataset = Dataset.from_binary(X, y)
    front = frontier(dataset, max_leaves=8)
    assert front.complete
    # GOSDT's optimum at λ = 0.005 has 14 leaves: more than the cap, so λ = 0.005 is not certified.
    assert 0.005 < front.min_certified_regularization
    with pytest.warns(UserWarning, match="certified range"):
        front.tree_for(regularization=0.005)
    for lam in LAMBDAS:
        if lam >= front.min_certified_regularization:
            reference = GOSDT(dataset, regularization=lam).run()
            assert front.objective_for(lam) == pytest.approx(reference.objective, abs=1e-9)


# -- a brute-force oracle on tiny data --------------------------------------------------------
def _trees_with_leaves(m: int, n_features: int):
    """Every tree with exactly ``m`` leaves: None is a leaf, (j, left, right) a split on feature j."""
    if m == 1:
        return [None]
    out = []
    for a in range(1, m):
        for left in _trees_with_leaves(a, n_features):
            for right in _trees_with_leaves(m - a, n_features):
                out.extend((j, left, right) for j in range(n_features))
    return out


def _oracle_loss(tree, X, y, w, costs) -> float:
    """Loss (objective units) of a tree whose leaves predict their least-cost class."""
    def walk(node, rows):
        if node is None:
            per_class = np.array([w[rows & (y == c)].sum() for c in range(len(costs))]) * costs
            return per_class.sum() - per_class.max()
        j, left, right = node
        return walk(left, rows & (X[:, j] == 0)) + walk(right, rows & (X[:, j] == 1))
    return float(walk(tree, np.ones(len(y), dtype=bool)))


def _oracle_front(X, y, w, costs, max_leaves):
    """least loss with at most k leaves, for k = 1..max_leaves, by enumerating every tree."""
    best = []
    for m in range(1, max_leaves + 1):
        exact = min(_oracle_loss(t, X, y, w, costs) for t in _trees_with_leaves(m, X.shape[1]))
        best.append(min(exact, best[-1]) if best else exact)
    return best


@st.composite
def tiny_problems(draw):
    n_features = draw(st.integers(1, 3))
    n_rows = draw(st.integers(1, 10))
    n_classes = draw(st.integers(1, 3))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n_features, max_size=n_features),
                               min_size=n_rows, max_size=n_rows)), dtype=int)
    y = np.array(draw(st.lists(st.integers(0, n_classes - 1), min_size=n_rows, max_size=n_rows)))
    w = np.array(draw(st.lists(st.integers(1, 3), min_size=n_rows, max_size=n_rows)), dtype=float)
    objective = draw(st.sampled_from(["accuracy", "balanced_accuracy"]))
    max_leaves = draw(st.integers(1, 5 if n_features <= 2 else 4))
    lam0 = draw(st.sampled_from([None, None, 0.02, 0.1]))
    return X, y, w, objective, max_leaves, lam0


def _costs(y_index, w, n_classes, objective):
    if objective == "accuracy":
        return np.full(n_classes, 1.0 / w.sum())
    totals = np.array([w[y_index == c].sum() for c in range(n_classes)])
    return 1.0 / (n_classes * totals)


@given(tiny_problems())
def test_front_matches_brute_force_enumeration(problem):
    X, y, w, objective, max_leaves, lam0 = problem
    dataset = Dataset.from_binary(X, y, sample_weight=w)
    y_index = np.searchsorted(dataset.classes, y)
    costs = _costs(y_index, w, dataset.n_classes, objective)
    oracle = _oracle_front(X, y_index, w, costs, max_leaves)

    search = FrontierSearch(dataset, max_leaves=max_leaves, objective=objective, min_regularization=lam0)
    assert search.run().optimal
    front = Frontier.from_search(search)
    rows = search.front(pareto_only=False)
    assert [r["budget"] for r in rows] == list(range(1, max_leaves + 1))
    for k, row in enumerate(rows, start=1):
        tree = search.tree_for_budget(k)
        assert tree.n_leaves <= k
        assert tree.n_leaves == row["leaves"]
        assert row["loss"] >= oracle[k - 1] - 1e-9          # a real tree: never below the optimum
        if lam0 is None:
            assert row["certified"]
            assert row["loss"] == pytest.approx(oracle[k - 1], abs=1e-9), (k, rows, oracle)
    # Every certified row of the table is the optimum for its number of leaves.
    for _, row in front.table[front.table["certified"]].iterrows():
        assert row["loss"] == pytest.approx(oracle[int(row["leaves"]) - 1], abs=1e-9)
    # The λ intervals: for λ in the certified range the chosen tree is the regularized optimum
    # among all trees with at most max_leaves leaves (oracle) and among all trees (GOSDT).
    for lam in [0.3, 0.1, 0.05, 0.02, 0.01]:
        if lam < front.min_certified_regularization:
            continue
        expected = min(oracle[k - 1] + lam * k for k in range(1, max_leaves + 1))
        assert front.objective_for(lam) == pytest.approx(expected, abs=1e-9), (lam, front.table, oracle)
        assert front.objective_for(lam) == pytest.approx(
            GOSDT(dataset, regularization=lam, objective=objective).run().objective, abs=1e-9)


def test_oracle_counts_trees_correctly():
    # With F features: t(1) = 1, t(m) = F * sum_a t(a) t(m - a).
    assert [len(_trees_with_leaves(m, 3)) for m in range(1, 5)] == [1, 3, 18, 135]


# -- λ intervals -------------------------------------------------------------------------------
def test_regularization_intervals_are_the_lower_convex_hull():
    intervals = regularization_intervals([1, 2, 3, 5], [10.0, 4.0, 3.0, 0.0])
    # Hull: (1,10) -(slope 6)- (2,4) -(slope 4/3)- (5,0); (3,3) lies above the segment from (2,4) to (5,0).
    assert intervals[0] == (6.0, math.inf)
    assert intervals[1] == pytest.approx((4 / 3, 6.0))
    assert math.isnan(intervals[2][0]) and math.isnan(intervals[2][1])
    assert intervals[3] == pytest.approx((0.0, 4 / 3))
    # A point exactly on a hull edge is optimal at one λ only.
    assert regularization_intervals([1, 2, 3], [2.0, 1.0, 0.0])[1] == (1.0, 1.0)
    # The floor cuts intervals: a tree with 4 or more leaves might reach loss 0, so the 3-leaf
    # tree (optimal only for λ <= 0.4) is never certified and the 2-leaf tree only from λ = 0.5.
    cut = regularization_intervals([1, 2, 3], [2.0, 1.0, 0.6], floor=0.0, beyond=3)
    assert cut[:2] == [(1.0, math.inf), (0.5, 1.0)]
    assert math.isnan(cut[2][0])
    with pytest.raises(ValueError, match="strictly increasing"):
        regularization_intervals([2, 1], [1.0, 2.0])


def test_intervals_tile_the_certified_lambda_range():
    require_datasets()
    *_, front = _binary_frontier("monk2")
    hull = front.table[front.table["on_hull"]].sort_values("leaves")
    assert hull["lambda_max"].iloc[0] == math.inf
    # Consecutive hull trees meet: one's lower end is the next one's upper end.
    assert np.allclose(hull["lambda_min"].to_numpy()[:-1], hull["lambda_max"].to_numpy()[1:])
    assert hull["lambda_min"].iloc[-1] == pytest.approx(front.min_certified_regularization)
    assert (front.table["accuracy"].diff().dropna() > 0).all()      # more leaves, strictly more accurate


# -- stepwise, paused and stopped searches -----------------------------------------------------------
def test_a_paused_search_shows_its_front_and_marks_uncertified_points():
    require_datasets()
    X, y = read_binary("monk2")
    dataset = Dataset.from_binary(X, y)
    search = FrontierSearch(dataset, max_leaves=20)
    events = list(itertools.islice(search.steps(), 300))
    assert isinstance(events[0], Started)
    snap = search.snapshot()
    assert snap.status == "paused"
    assert snap.lower_bound <= snap.upper_bound
    assert 1 <= snap.extra["certified_leaves"] < 20
    assert snap.extra["front"][0]["certified"]
    assert snap.queue_size == len(search._stack) and snap.queue        # the recursion being worked on
    paused = Frontier.from_search(search)
    assert not paused.complete
    assert paused.certified_leaves == snap.extra["certified_leaves"]
    assert paused.min_certified_regularization > 0
    with pytest.warns(UserWarning, match="certified"):
        paused.tree_for(regularization=0.0001)
    # Every point is a real tree with at most its budget of leaves, and its loss is never below the bound.
    for row in search.front(pareto_only=False):
        assert row["lower_bound"] <= row["loss"] + 1e-12
        assert search.tree_for_budget(row["budget"]).n_leaves <= row["budget"]
    events = list(search.steps(every=1000))
    assert isinstance(events[-1], Finished) and events[-1].optimal
    paused.refresh()
    assert paused.complete and paused.table["certified"].all()
    fresh = frontier(dataset, max_leaves=20)
    pd.testing.assert_frame_equal(paused.table, fresh.table)


def test_a_stopped_search_keeps_the_certified_points():
    require_datasets()
    X, y = read_binary("monk2")
    search = FrontierSearch(Dataset.from_binary(X, y), max_leaves=20)
    result = search.run(node_limit=200)
    assert result.status == "node_limit" and not result.optimal
    assert result.gap > 0
    front = Frontier.from_search(search)
    assert not front.complete
    certified = front.table[front.table["certified"]]
    assert certified["leaves"].max() <= front.certified_leaves
    assert (front.table.loc[~front.table["certified"], "lambda_min"].isna()).all()


# -- the Frontier object -----------------------------------------------------------------------------
def test_holdout_accuracy_plot_and_trees_on_an_original_table():
    from treeopt.datasets import load_monk
    X, y = load_monk(2)
    X_train, X_test = X.iloc[::2], X.iloc[1::2]
    y_train, y_test = np.asarray(y)[::2], np.asarray(y)[1::2]
    front = frontier(X_train, y_train, max_leaves=6, X_test=X_test, y_test=y_test)
    assert "test_accuracy" in front.table
    for i in range(len(front)):
        tree = front.tree(i)
        assert front.table.at[i, "leaves"] == tree.n_leaves
        assert front.table.at[i, "test_accuracy"] == pytest.approx(np.mean(tree.predict(X_test) == y_test))
        assert front.table.at[i, "accuracy"] == pytest.approx(np.mean(tree.predict(X_train) == y_train))
    front.evaluate(X_train, y_train, "holdout")
    assert np.allclose(front.table["holdout_accuracy"], front.table["accuracy"])
    fig = front.plot()
    assert [trace.name for trace in fig.data] == ["training", "test", "holdout"]
    assert list(fig.data[0].x) == front.table["leaves"].tolist()
    assert front.tree_for(leaves=3).n_leaves <= 3


def test_uncertified_points_are_drawn_hollow():
    table = pd.DataFrame({"leaves": [1, 2, 3], "accuracy": [0.5, 0.7, 0.8], "certified": [True, True, False],
                          "test_accuracy": [0.5, 0.6, 0.6]})
    traces = frontier_traces(table)
    assert [t["name"] for t in traces] == ["training", "test"]
    assert traces[1]["marker"]["symbol"] == ["circle", "circle", "circle-open"]


def test_one_class_is_a_one_leaf_frontier():
    front = frontier(np.array([[0, 1], [1, 0], [1, 1]]), ["a", "a", "a"], max_leaves=4)
    assert front.table["leaves"].tolist() == [1]
    assert front.table["accuracy"].tolist() == [1.0]
    assert front.tree_for(regularization=0.01).n_leaves == 1


# -- bad input ----------------------------------------------------------------------------------------
def test_bad_input_is_rejected_before_searching():
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]])
    y = [0, 1, 1, 0]
    dataset = Dataset.from_binary(X, y)
    with pytest.raises(ValueError, match="max_leaves must be at least 1"):
        frontier(X, y, max_leaves=0)
    with pytest.raises(TypeError, match="max_leaves must be an integer"):
        frontier(X, y, max_leaves="3")
    with pytest.raises(ValueError, match="additive"):
        frontier(X, y, objective="f1")
    with pytest.raises(ValueError, match="min_regularization"):
        frontier(X, y, min_regularization=-0.1)
    with pytest.raises(ValueError, match="y is required"):
        frontier(X)
    with pytest.raises(ValueError, match="not both"):
        frontier(dataset, y)
    with pytest.raises(ValueError, match="X_test and y_test"):
        frontier(X, y, X_test=X)
    with pytest.raises(ValueError, match="time_limit"):
        frontier(X, y, time_limit=0)
    front = frontier(X, y, max_leaves=3)
    with pytest.raises(ValueError, match="regularization must be a positive number"):
        front.tree_for(regularization=-0.1)
    with pytest.raises(ValueError, match="exactly one"):
        front.tree_for()
    with pytest.raises(ValueError, match="row must be between"):
        front.tree(99)
    with pytest.raises(ValueError, match="rows but y has"):
        front.evaluate(X, y[:2])
    with pytest.raises(TypeError, match="FrontierSearch"):
        Frontier.from_search(GOSDT(dataset, regularization=0.1))


# -- command line ---------------------------------------------------------------------------------
def test_cli_prints_the_frontier_the_chosen_tree_and_writes_the_table(tmp_path, capsys):
    from treeopt.cli import main
    from treeopt.datasets import load_monk
    X, y = load_monk(1)
    frame = X.assign(label=np.asarray(y))
    frame.iloc[::2].to_csv(tmp_path / "train.csv", index=False)
    frame.iloc[1::2].to_csv(tmp_path / "test.csv", index=False)
    out_csv = tmp_path / "front.csv"
    code = main(["frontier", str(tmp_path / "train.csv"), "--target", "label", "--max-leaves", "8",
                 "--test", str(tmp_path / "test.csv"), "--regularization", "0.02", "--output", str(out_csv)])
    assert code == 0
    printed = capsys.readouterr().out
    assert "test_accuracy" in printed and "complete frontier up to 8 leaves" in printed
    assert "optimal tree for λ = 0.02" in printed
    written = pd.read_csv(out_csv)
    expected = frontier(frame.iloc[::2].drop(columns="label"), frame.iloc[::2]["label"], max_leaves=8,
                        X_test=frame.iloc[1::2].drop(columns="label"), y_test=frame.iloc[1::2]["label"])
    assert written["leaves"].tolist() == expected.table["leaves"].tolist()
    assert np.allclose(written["test_accuracy"], expected.table["test_accuracy"])
    with pytest.raises(SystemExit, match="max_leaves must be at least 1"):
        main(["frontier", str(tmp_path / "train.csv"), "--target", "label", "--max-leaves", "0"])
    with pytest.raises(SystemExit, match="target column"):
        main(["frontier", str(tmp_path / "train.csv"), "--target", "nope"])


def test_a_frontier_says_when_its_certificates_cover_guessed_thresholds_only():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.normal(size=80).round(3), "b": rng.normal(size=80).round(3)})
    y = ((X.a > 0.3) ^ (X.b < -0.2)).astype(int)
    guessed = frontier(X, y, max_leaves=4, thresholds="guess", random_state=0)
    exact = frontier(X, y, max_leaves=4, thresholds="all")
    assert guessed.over_guessed_thresholds and "over the guessed thresholds only" in repr(guessed)
    assert not exact.over_guessed_thresholds and "guessed" not in repr(exact)

"""The Rashomon set's trees against brute force: every tree once, in objective order, predicting right."""
import sys

import numpy as np
import pandas as pd
import pytest

from rashomon_oracle import all_trees, as_tuple
from treeopt.data import Dataset
from treeopt import rashomon_set
from treeopt.tree import Tree


def _problem(seed, n=10, p=3, weights=None):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, p))
    y = rng.integers(0, 2, size=n)
    w = None
    if weights == "int":
        w = rng.integers(1, 4, size=n).astype(float)
    elif weights == "float":
        w = rng.uniform(0.2, 2.0, size=n)
    return X, y, w


@pytest.mark.parametrize("regularization,epsilon", [(0.03, 0.4), (0.08, 0.2)])
@pytest.mark.parametrize("weights", [None, "int", "float"])
@pytest.mark.parametrize("seed", range(4))
def test_the_set_is_every_tree_within_the_bound_in_objective_order(seed, weights, regularization, epsilon):
    X, y, w = _problem(seed, weights=weights)
    brute = all_trees(X, y, regularization, sample_weight=w)
    optimum = brute[0].objective
    bound = (1 + epsilon) * optimum
    expected = [t for t in brute if t.objective <= bound + 1e-9]
    rs = rashomon_set(Dataset.from_binary(X, y, sample_weight=w), regularization=regularization, epsilon=epsilon)
    assert rs.optimum == pytest.approx(optimum)
    assert len(rs) == len(expected)
    trees = list(rs)
    assert [as_tuple(t) for t in trees] == [as_tuple(rs[i]) for i in range(len(rs))]
    assert sorted(map(as_tuple, trees)) == sorted(t.tree for t in expected)
    objectives = [t.objective(X, y, regularization, sample_weight=w, binarized=True) for t in trees]
    assert np.all(np.diff(objectives) > -1e-9)                      # objective order
    assert objectives == pytest.approx([t.objective for t in expected])
    assert rs.objectives() == pytest.approx(objectives)
    assert all(isinstance(t, Tree) for t in trees)


@pytest.mark.parametrize("seed", range(3))
def test_trees_predict_like_the_brute_force_trees(seed):
    X, y, _ = _problem(seed)
    rs = rashomon_set(X, y, regularization=0.03, epsilon=0.5)   # through the estimator's binarizer
    brute = {t.tree: t for t in all_trees(X, y, 0.03)}
    features = [f.column_index for f in rs.dataset.features]
    for tree in rs:
        def to_columns(node):
            if node[0] == "leaf":
                return node
            return ("split", features[node[1]], to_columns(node[2]), to_columns(node[3]))
        reference = brute[to_columns(as_tuple(tree))]
        assert tree.predict(X).tolist() == np.unique(y)[reference.predict(X)].tolist()


def test_sample_draws_distinct_trees_of_the_set():
    X, y, _ = _problem(1)
    rs = rashomon_set(X, y, regularization=0.02, epsilon=1.0)
    every = {as_tuple(t) for t in rs}
    picked = [as_tuple(t) for t in rs.sample(7, random_state=0)]
    assert len(set(picked)) == min(7, len(rs)) and set(picked) <= every
    assert [as_tuple(t) for t in rs.sample(7, random_state=0)] == picked
    assert len(rs.sample(10 ** 6)) == len(rs)
    assert as_tuple(rs[-1]) == as_tuple(rs[len(rs) - 1])
    assert [as_tuple(t) for t in rs[1:3]] == [as_tuple(rs[1]), as_tuple(rs[2])]
    with pytest.raises(IndexError):
        rs[len(rs)]


def test_a_set_too_large_for_len_samples_is_true_and_names_its_count():
    rng = np.random.default_rng(0)
    X = np.column_stack([np.tile([0, 1], 15), rng.integers(0, 2, 30), rng.random(30)])
    rs = rashomon_set(X, X[:, 0].astype(int), regularization=0.01, epsilon=20)
    assert rs.count > sys.maxsize and rs
    with pytest.raises(OverflowError, match="count"):
        len(rs)
    picked = rs.sample(3, random_state=0)
    assert len({as_tuple(t) for t in picked}) == 3
    assert [as_tuple(t) for t in rs.sample(3, random_state=0)] == [as_tuple(t) for t in picked]


def test_non_binary_columns_go_through_the_estimators_binarizer():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"age": rng.integers(18, 30, size=14), "color": rng.choice(["red", "blue", "green"], size=14)})
    y = (X["age"] > 23).astype(int).to_numpy() ^ (X["color"] == "red").to_numpy()
    rs = rashomon_set(X, y, regularization=0.04, epsilon=0.3)
    assert len(rs) >= 1
    for tree in rs.sample(5, random_state=1):
        value = tree.objective(X, y, 0.04)        # recomputed from the tree's predictions on the table
        assert rs.optimum - 1e-9 <= value <= rs.bound + 1e-9
    frame = rs.to_frame()
    assert frame["objective"].iloc[0] == pytest.approx(rs.optimum)
    assert any("color" in name for row in frame["features"] for name in row)


def test_weighted_objectives_and_errors():
    X, y, w = _problem(2, weights="int")
    rs = rashomon_set(X, y, regularization=0.05, epsilon=0.3, sample_weight=w)
    duplicated = np.repeat(np.arange(len(y)), w.astype(int))
    same = rashomon_set(X[duplicated], y[duplicated], regularization=0.05, epsilon=0.3)
    assert len(rs) == len(same) and rs.optimum == pytest.approx(same.optimum)
    assert rashomon_set(X, y, regularization=0.05, epsilon=0.3, objective="balanced_accuracy").count >= 1
    with pytest.raises(ValueError, match="additive"):
        rashomon_set(X, y, regularization=0.05, epsilon=0.3, objective="f1")
    with pytest.raises(ValueError, match="exactly one"):
        rashomon_set(X, y, regularization=0.05)
    with pytest.raises(ValueError, match="regularization"):
        rashomon_set(X, y, regularization=0.0, epsilon=0.1)
    with pytest.raises(ValueError, match="guess"):
        rashomon_set(X, y, regularization=0.05, epsilon=0.1, thresholds="guess")


@pytest.mark.parametrize("seed", range(3))
def test_three_classes_and_string_labels(seed):
    rng = np.random.default_rng(50 + seed)
    X = rng.integers(0, 2, size=(12, 3))
    y = rng.integers(0, 3, size=12)
    labels = np.array(["ant", "bee", "cat"])[y]
    brute = all_trees(X, y, 0.03)
    rs = rashomon_set(Dataset.from_binary(X, labels), regularization=0.03, epsilon=0.5)
    expected = [t for t in brute if t.objective <= rs.bound + 1e-9]
    assert rs.optimum == pytest.approx(brute[0].objective) and len(rs) == len(expected)
    assert sorted(as_tuple(t) for t in rs) == sorted(t.tree for t in expected)
    votes = np.array([t.predict(X) for t in expected])
    share = np.stack([(votes == k).mean(axis=0) for k in range(3)], axis=1)
    assert rs.predict_agreement(X, binarized=True) == pytest.approx(share)
    assert rs.n_prediction_distinct() == len({tuple(t.predict(np.unique(X, axis=0))) for t in expected})
    assert set(rs[0].predict(X, binarized=True)) <= {"ant", "bee", "cat"}


@pytest.mark.parametrize("name,value", [("epsilon", float("nan")), ("epsilon", float("inf")), ("epsilon", -0.1),
                                        ("epsilon", "0.1"), ("bound", float("nan")), ("regularization", float("nan")),
                                        ("regularization", 0), ("time_limit", float("nan")), ("time_limit", 0)])
def test_bad_parameters_are_refused_by_name(name, value):
    X, y, _ = _problem(0)
    arguments = {"regularization": 0.05, "epsilon": 0.1, name: value}
    if name == "bound":
        del arguments["epsilon"]
    with pytest.raises(ValueError, match=f"{name} must be a finite number"):
        rashomon_set(X, y, **arguments)


def test_a_stopped_search_keeps_the_trees_it_proved_marked_partial():
    """Stopped in the set phase, the part holds the leaf and the trees under the root splits looked at."""
    from treeopt.rashomon.stepwise import RashomonSearch

    X, y, _ = _problem(1, n=30, p=5)
    dataset = Dataset.from_binary(X, y)
    whole = rashomon_set(dataset, regularization=0.02, epsilon=0.3)
    search = RashomonSearch(Dataset.from_binary(X, y), regularization=0.02, epsilon=0.3)
    while search.snapshot().extra["phase"] == "optimum" or search.queue_size > 3:
        search.step()
    part = search.partial_set()
    assert not part.complete and "partial" in repr(part)
    assert 0 < len(part) < len(whole) and part.optimum == pytest.approx(whole.optimum)
    assert {as_tuple(t) for t in part} <= {as_tuple(t) for t in whole}
    assert max(part.objectives()) <= whole.bound + 1e-9
    assert not part.filter(max_depth=1).complete


def test_rashomon_set_with_a_time_limit_is_partial_when_stopped_and_whole_otherwise():
    X, y, _ = _problem(2, n=30, p=5)
    whole = rashomon_set(X, y, regularization=0.02, epsilon=0.3)
    assert whole.complete and whole.status == "optimal"
    timed = rashomon_set(X, y, regularization=0.02, epsilon=0.3, time_limit=600)
    assert timed.complete and [as_tuple(t) for t in timed] == [as_tuple(t) for t in whole]
    from sklearn.exceptions import ConvergenceWarning

    with pytest.warns(ConvergenceWarning, match="complete=False"):
        stopped = rashomon_set(X, y, regularization=0.02, epsilon=0.3, time_limit=1e-9)   # after one unit of work
    assert not stopped.complete and stopped.status == "time_limit" and len(stopped) < len(whole)


def test_verbose_shows_the_search_progress(monkeypatch):
    """verbose=1 hands the search the progress display the estimator uses, and closes it at the end."""
    import importlib
    from treeopt.rashomon.stepwise import RashomonSearch

    calls = []

    class Display:
        def __call__(self, solver):
            calls.append(solver.expansions)

        def close(self):
            calls.append("closed")

    real_run = RashomonSearch.run

    def run(self, **kwargs):
        kwargs["progress"](self)               # a fast search ends before the first once-a-second call
        return real_run(self, **kwargs)

    monkeypatch.setattr(importlib.import_module("treeopt.rashomon_sets"), "progress_display", Display)
    monkeypatch.setattr(RashomonSearch, "run", run)
    X, y, _ = _problem(3, n=30, p=5)
    assert rashomon_set(X, y, regularization=0.02, epsilon=0.3, verbose=1).complete
    assert calls == [0, "closed"]

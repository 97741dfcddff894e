"""The cross-validated frontier: each row against folds searched and scored by hand."""

from __future__ import annotations

import os
import pickle
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import balanced_accuracy_score
from sklearn.model_selection import KFold, StratifiedKFold

from treeopt import CVFrontier, cross_validate_frontier, frontier
from treeopt.datasets import load_monk
from treeopt.frontier.cross_validation import FoldResult


@pytest.fixture(scope="module")
def monk():
    X, y = load_monk(1)
    return X.iloc[::2].reset_index(drop=True), np.asarray(y)[::2]


def splits(X, y, n=4):
    return list(KFold(n, shuffle=True, random_state=1).split(X, y))


@pytest.fixture(scope="module")
def cvf(monk):
    X, y = monk
    return cross_validate_frontier(X, y, cv=splits(X, y), max_leaves=8)


@pytest.fixture(scope="module")
def by_hand(monk):
    """Each fold's frontier, searched here without the module under test."""
    X, y = monk
    return [(frontier(X.iloc[train], y[train], max_leaves=8), test) for train, test in splits(X, y)]


def test_every_row_is_the_folds_own_optimum_scored_on_its_held_out_rows(monk, cvf, by_hand):
    X, y = monk
    table = cvf.table
    assert cvf.complete and table["certified"].all() and len(table) >= 3
    # The intervals tile (0, inf) from the sparsest down, without gaps.
    assert table["lambda_max"].iloc[0] == np.inf and table["lambda_min"].iloc[-1] == 0
    assert np.allclose(table["lambda_min"].iloc[:-1].to_numpy(), table["lambda_max"].iloc[1:].to_numpy())
    rng = np.random.default_rng(0)
    for _, row in table.iterrows():
        hi = min(row["lambda_max"], 1.0)
        # Not only the representative λ: anywhere strictly inside the interval picks the same trees.
        for lam in [row["regularization"], *rng.uniform(row["lambda_min"], hi, 3)]:
            if not row["lambda_min"] < lam < row["lambda_max"]:
                continue
            scores = []
            for i, (front, test) in enumerate(by_hand):
                tree = front.tree_for(regularization=lam)
                assert tree.n_leaves == row[f"split{i}_leaves"]
                scores.append(np.mean(tree.predict(X.iloc[test]) == y[test]))
            assert row["mean_test_score"] == pytest.approx(np.mean(scores))
            assert row["std_test_score"] == pytest.approx(np.std(scores))
    full = frontier(X, y, max_leaves=8)
    for _, row in table.iterrows():
        assert row["leaves"] == full.tree_for(regularization=row["regularization"]).n_leaves


def test_by_leaves_uses_each_folds_best_tree_within_the_budget(monk, cvf, by_hand):
    X, y = monk
    assert cvf.by_leaves["leaves"].tolist() == list(range(1, 9))
    for _, row in cvf.by_leaves.iterrows():
        scores = []
        for i, (front, test) in enumerate(by_hand):
            tree = front.tree_for(leaves=int(row["leaves"]))
            assert tree.n_leaves == row[f"split{i}_leaves"] <= row["leaves"]
            scores.append(np.mean(tree.predict(X.iloc[test]) == y[test]))
        assert row["mean_test_score"] == pytest.approx(np.mean(scores))


def test_best_and_one_standard_error_choices(cvf):
    for table in (cvf.table, cvf.by_leaves):
        means, sems = table["mean_test_score"].to_numpy(), table["sem_test_score"].to_numpy()
        best = int(np.flatnonzero(table["is_best"])[0])
        one_se = int(np.flatnonzero(table["is_one_se"])[0])
        assert table["is_best"].sum() == table["is_one_se"].sum() == 1
        assert means[best] == means.max()
        assert means[one_se] >= means[best] - sems[best] - 1e-12
        for chosen in (best, one_se):
            ties = np.flatnonzero(np.isclose(means, means[chosen], rtol=0, atol=1e-12))
            if table is cvf.by_leaves:
                assert chosen == ties[0]                                                   # the sparsest
            else:                                                                          # the folds' leaves, then sparsest
                gaps = np.abs(table["leaves"].to_numpy() - table["mean_leaves"].to_numpy())[ties]
                assert chosen == ties[np.argmin(gaps)]
        assert (means[:ties[0]] < means[best] - sems[best]).all()                           # no sparser score qualifies
        assert table["rank_test_score"].iloc[best] == 1
    assert cvf.best_regularization == cvf.table.at[cvf.best_index, "regularization"]
    assert cvf.regularization("one_se") == cvf.table.at[cvf.one_se_index, "regularization"]
    assert cvf.tree_for(cvf.best_regularization).n_leaves == cvf.table.at[cvf.best_index, "leaves"]
    with pytest.raises(ValueError, match="'best' or 'one_se'"):
        cvf.regularization("median")


def test_a_fold_stopped_at_its_limit_is_reported_not_averaged_as_optimal():
    X, y = load_monk(2)
    y = np.asarray(y)
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    with pytest.warns(ConvergenceWarning, match="cache_limit"):
        cvf = cross_validate_frontier(X, y, cv=cv, max_leaves=12, cache_limit=300)
    assert not cvf.complete
    assert {f.status for f in cvf.folds} == {"cache_limit"}
    table = cvf.table
    stopped = table[~table["certified"]]
    assert len(stopped) and (table["certified"] | (table["n_certified_folds"] < 3)).all()
    statuses = set(stopped[[f"split{i}_status" for i in range(3)]].to_numpy().ravel())
    assert "cache_limit" in statuses
    # Every uncertified cell names a limit; chosen rows are certified; uncertified rows rank 0.
    for i, fold in enumerate(cvf.folds):
        lows = table["regularization"] < fold.min_certified_regularization
        assert (table.loc[lows, f"split{i}_status"] == "cache_limit").all()
        assert (table.loc[~lows, f"split{i}_status"] == "optimal").all()
    assert table.at[cvf.best_index, "certified"] and table.at[cvf.one_se_index, "certified"]
    assert (stopped["rank_test_score"] == 0).all()
    results = cvf.cv_results()
    assert list(results["split0_status"]) == table["split0_status"].tolist()


def test_a_budget_past_the_cap_is_flagged_max_leaves():
    X, y = load_monk(2)
    cvf = cross_validate_frontier(X, np.asarray(y), cv=KFold(3, shuffle=True, random_state=0), max_leaves=4)
    assert cvf.complete
    low = cvf.table[~cvf.table["certified"]]
    assert len(low) and "max_leaves" in set(low[[f"split{i}_status" for i in range(3)]].to_numpy().ravel())


def test_a_lambda_below_min_regularization_is_flagged(monk):
    X, y = monk
    cvf = cross_validate_frontier(X, y, cv=splits(X, y, 3), max_leaves=8, min_regularization=0.05)
    table = cvf.table
    low = table["regularization"] < 0.05
    assert low.any() and not table.loc[low, "certified"].any()
    assert (table.loc[low, "split0_status"] == "min_regularization").all()
    assert table.loc[~low, "certified"].all() and cvf.best_regularization >= 0.05


def test_parallel_folds_give_the_same_results_and_send_back_only_trees_and_numbers(monk, cvf):
    X, y = monk
    parallel = cross_validate_frontier(X, y, cv=splits(X, y), max_leaves=8, n_jobs=2)
    assert parallel.table.equals(cvf.table) and parallel.by_leaves.equals(cvf.by_leaves)
    assert {f.worker for f in cvf.folds} == {os.getpid()}                 # n_jobs=1: in this process
    assert os.getpid() not in {f.worker for f in parallel.folds}           # n_jobs=2: in worker processes
    assert all(f.cpu_seconds > 0 for f in parallel.folds)
    for fold in parallel.folds + [parallel.full]:
        assert isinstance(fold, FoldResult)
        assert len(pickle.dumps(fold)) < 100_000          # a table and a few trees, no search graph
    assert "FrontierSearch" not in repr(vars(parallel.folds[0]))


def test_scoring_and_sample_weight(monk):
    X, y = monk
    weight = np.where(y == 1, 2.0, 1.0)
    cvf = cross_validate_frontier(X, y, cv=splits(X, y, 3), max_leaves=5, scoring="balanced_accuracy",
                                  sample_weight=weight, refit=False)
    assert cvf.full is None and "leaves" not in cvf.table and cvf.scoring == "balanced_accuracy"
    for i, (train, test) in enumerate(splits(X, y, 3)):
        front = frontier(X.iloc[train], y[train], max_leaves=5, sample_weight=weight[train])
        for _, row in cvf.table.iterrows():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)      # below the certified range: best known tree
                tree = front.tree_for(regularization=row["regularization"])
            expected = balanced_accuracy_score(y[test], tree.predict(X.iloc[test]), sample_weight=weight[test])
            assert row[f"split{i}_test_score"] == pytest.approx(expected)
    with pytest.raises(ValueError, match="refit=False"):
        cvf.tree_for(0.1)


def test_cv_results_shape(cvf):
    results = cvf.cv_results()
    n = len(cvf.table)
    assert [p["regularization"] for p in results["params"]] == cvf.table["regularization"].tolist()
    for key in ["mean_test_score", "std_test_score", "rank_test_score", "split0_test_score", "param_regularization"]:
        assert len(results[key]) == n
    assert isinstance(cvf, CVFrontier) and "3 folds" not in repr(cvf) and "4 folds" in repr(cvf)


def test_plot_has_error_bars_and_marks_the_choices(cvf):
    pytest.importorskip("plotly")
    fig = cvf.plot()
    names = [trace.name for trace in fig.data]
    assert names == ["cross-validated", "best mean", "one standard error"]
    assert list(fig.data[0].error_y.array) == pytest.approx(cvf.table["std_test_score"].tolist())
    assert list(fig.data[1].x) == [cvf.table.at[cvf.best_index, "leaves"]]


def test_bad_input(monk):
    X, y = monk
    with pytest.raises(ValueError, match="max_leaves"):
        cross_validate_frontier(X, y, max_leaves=0)
    with pytest.raises(ValueError, match="time_limit"):
        cross_validate_frontier(X, y, time_limit=-1)
    with pytest.raises(ValueError, match="rows"):
        cross_validate_frontier(X, y[:-1])
    with pytest.raises(ValueError, match="scoring"):
        cross_validate_frontier(X, y, scoring=3)
    with pytest.raises(ValueError, match="at least 2 folds"):
        cross_validate_frontier(X, y, cv=[(np.arange(10), np.arange(10, 20))])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cross_validate_frontier(X, y, cv=2, max_leaves=2)      # a complete search does not warn


def test_probability_scorers_see_the_smoothed_leaf_frequencies(monk):
    from sklearn.metrics import roc_auc_score
    X, y = monk
    cvf = cross_validate_frontier(X, y, cv=splits(X, y, 3), max_leaves=4, scoring="roc_auc", proba_smoothing=1.0,
                                  refit=False)
    for i, (train, test) in enumerate(splits(X, y, 3)):
        front = frontier(X.iloc[train], y[train], max_leaves=4)
        for _, row in cvf.table.iterrows():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                tree = front.tree_for(regularization=row["regularization"])
            expected = roc_auc_score(y[test], tree.predict_proba(X.iloc[test], smoothing=1.0)[:, 1])
            assert row[f"split{i}_test_score"] == pytest.approx(expected)


def test_frontier_with_cv_is_the_cross_validated_frontier(monk, cvf):
    """``treeopt.frontier(X, y, cv=...)`` as the issue names it."""
    X, y = monk
    through_frontier = frontier(X, y, max_leaves=8, cv=splits(X, y))
    assert isinstance(through_frontier, CVFrontier)
    assert through_frontier.table.equals(cvf.table) and through_frontier.by_leaves.equals(cvf.by_leaves)
    assert through_frontier.regularization("one_se") == cvf.regularization("one_se")
    with pytest.raises(ValueError, match="cv=5"):
        frontier(X, y, max_leaves=8, n_jobs=2)
    with pytest.raises(ValueError, match="X_test"):
        frontier(X, y, max_leaves=8, cv=3, X_test=X, y_test=y)


def test_a_plateau_is_chosen_where_the_data_takes_the_folds_kind_of_tree():
    """Equal scores on several λ intervals: the choice is where the tree on all the data has the folds' leaves.

    At the plateau's upper end (rows are sparsest first) the data as a whole already takes a 1-leaf tree
    while the folds' 2-leaf trees earned the score; the sparsest rule refitted that constant tree.
    """
    from treeopt.frontier.cross_validation import _choose

    table = pd.DataFrame({"leaves": [1, 1, 2, 2, 3], "mean_leaves": [1.0, 2.0, 2.0, 2.0, 3.0],
                          "mean_test_score": [0.6, 0.88, 0.88, 0.88, 0.85],
                          "sem_test_score": [0.0, 0.01, 0.01, 0.01, 0.01],
                          "certified": [True] * 5})
    best, one_se = _choose(table.copy(), agree=True)
    assert best == one_se == 2
    assert _choose(table.copy(), agree=False) == (1, 1)       # per leaf budget (or without refit): the sparsest
    table.loc[4, "mean_test_score"] = 0.875                   # within one standard error of 0.88, and denser
    assert _choose(table.copy(), agree=True) == (2, 2)


def test_frontier_and_cv_binarize_like_the_estimator():
    """thresholds="auto" is one policy: many thresholds are guessed by the frontier, the folds and the estimator."""
    from treeopt import OptimalTreeClassifier, cross_validate_frontier, frontier
    from treeopt.encoding import AUTO_MAX_THRESHOLDS, fit_binarizer

    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=300).round(3), "b": rng.normal(size=300).round(3)})
    y = (X["a"] + 0.3 * rng.normal(size=300) > 0).astype(int)
    assert X.nunique().sum() - 2 > AUTO_MAX_THRESHOLDS
    names = fit_binarizer(X, y, random_state=0).get_feature_names_out().tolist()
    assert len(names) < AUTO_MAX_THRESHOLDS                                        # guessed
    front = frontier(X, y, max_leaves=3, random_state=0)
    assert front.search.dataset.feature_names == names
    estimator = OptimalTreeClassifier(regularization=0.05, random_state=0).fit(X, y)
    assert estimator.binarizer_.get_feature_names_out().tolist() == names and estimator.thresholds_ == "guess"
    cvf = cross_validate_frontier(X, y, cv=3, max_leaves=3, random_state=0)
    assert all(tree.n_leaves <= 3 for fold in cvf.folds for tree in fold.trees)
    assert cvf.full.table["leaves"].tolist() == front.table["leaves"].tolist()
    every = frontier(X, y, max_leaves=3, thresholds="all")
    assert every.search.dataset.n_features == X.nunique().sum() - 2

"""OptimalTreeClassifierCV: the choice of λ, the refit, Dask (scikit-learn's checks: ``test_sklearn_contract.py``)."""

from __future__ import annotations

import pickle
import warnings
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import KFold, StratifiedKFold

from conftest import read_binary, require_datasets
from frontier_memory import fake_memory_past
from treeopt import OptimalTreeClassifier, OptimalTreeClassifierCV, frontier
from treeopt.datasets import load_monk

# scikit-learn's estimator checks run on OptimalTreeClassifierCV(cv=3, max_leaves=3,
# min_regularization=0.05, time_limit=50) in tests/estimator/test_sklearn_contract.py, with every
# other public estimator (this file ran the same checks on the same instance a second time).


@pytest.fixture(scope="module")
def monk():
    X, y = load_monk(2)
    return X, np.where(np.asarray(y) == 1, "yes", "no")


CV = KFold(4, shuffle=True, random_state=0)


@pytest.fixture(scope="module")
def fitted(monk):
    X, y = monk
    return OptimalTreeClassifierCV(cv=CV, max_leaves=8).fit(X, y)


def test_chooses_the_best_certified_lambda_and_refits_the_optimal_tree(monk, fitted):
    X, y = monk
    clf = fitted
    results = clf.cv_results_
    means = results["mean_test_score"]
    certified = results["certified"]
    assert clf.best_index_ == int(np.flatnonzero(certified & (means == means[certified].max()))[0])
    assert clf.best_score_ == means[clf.best_index_] and results["rank_test_score"][clf.best_index_] == 1
    assert results["lambda_min"][clf.best_index_] < clf.regularization_ < results["lambda_max"][clf.best_index_]
    assert results["params"][clf.best_index_] == {"regularization": clf.regularization_}
    # The refit is the optimum at the chosen λ: the frontier's tree.
    assert isinstance(clf.best_estimator_, OptimalTreeClassifier) and clf.optimal_ and clf.status_ == "optimal"
    front = frontier(X, y, max_leaves=8)
    assert clf.tree_.n_leaves == front.tree_for(regularization=clf.regularization_).n_leaves \
        == results["leaves"][clf.best_index_]
    assert clf.best_estimator_.objective_ == pytest.approx(front.objective_for(clf.regularization_), abs=1e-12)
    # Prediction goes through the refit tree, on the original labels.
    assert set(clf.predict(X)) <= {"yes", "no"}
    assert (clf.predict(X) == clf.best_estimator_.predict(X)).all()
    assert clf.predict_proba(X).shape == (len(X), 2)
    assert clf.score(X, y) == pytest.approx(np.mean(clf.predict(X) == y))
    assert list(clf.feature_names_in_) == list(X.columns) and clf.n_splits_ == 4


def test_cv_results_have_the_usual_shape(fitted):
    results = fitted.cv_results_
    n = len(results["params"])
    for key in ["mean_test_score", "std_test_score", "rank_test_score", "param_regularization",
                *[f"split{i}_{what}" for i in range(4) for what in ("test_score", "leaves", "status")]]:
        assert len(results[key]) == n, key
    folds = np.array([results[f"split{i}_test_score"] for i in range(4)])
    assert np.allclose(results["mean_test_score"], folds.mean(axis=0))
    assert np.allclose(results["std_test_score"], folds.std(axis=0))
    assert pd.DataFrame(results).shape[0] == n               # what users do with cv_results_


def test_one_standard_error_rule_picks_a_sparser_or_equal_tree(monk, fitted):
    X, y = monk
    sparse = OptimalTreeClassifierCV(cv=CV, max_leaves=8, selection="one_se").fit(X, y)
    assert sparse.regularization_ >= fitted.regularization_
    assert sparse.tree_.n_leaves <= fitted.tree_.n_leaves
    assert sparse.best_index_ == sparse.frontier_.one_se_index


def test_a_stopped_fold_is_reported_in_cv_results(monk):
    X, y = monk
    with pytest.warns(ConvergenceWarning, match="cache_limit"):
        clf = OptimalTreeClassifierCV(cv=StratifiedKFold(3), max_leaves=12, cache_limit=300).fit(X, y)
    results = clf.cv_results_
    statuses = {s for i in range(3) for s in results[f"split{i}_status"]}
    assert "cache_limit" in statuses
    stopped = ~results["certified"]
    assert stopped.any() and (results["rank_test_score"][stopped] == 0).all()
    assert results["certified"][clf.best_index_]


def test_pickles_small_without_searches(fitted):
    blob = pickle.dumps(fitted)
    assert len(blob) < 500_000
    again = pickle.loads(blob)
    assert again.regularization_ == fitted.regularization_
    assert "solver_" not in vars(again.best_estimator_)


def test_parameters_are_validated_in_fit(monk):
    X, y = monk
    with pytest.raises(ValueError, match="selection"):
        OptimalTreeClassifierCV(selection="median").fit(X, y)
    with pytest.raises(ValueError, match="objective"):
        OptimalTreeClassifierCV(objective="f1").fit(X, y)
    clf = OptimalTreeClassifierCV(cv=3, max_leaves=2)
    assert clone(clf).get_params() == clf.get_params()
def _dask_case():
    require_datasets()
    X, y = read_binary("monk1")
    return X.iloc[:, :6], y


@pytest.mark.slow      # about 5-10 s: starting two worker processes dominates
def test_a_dask_cluster_gives_the_same_cv_results_as_one_process():
    distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed "
                                      "(pip install 'treeopt[test]'): the Dask backend cannot be tested")
    import joblib
    X, y = _dask_case()
    clf = OptimalTreeClassifierCV(cv=KFold(3, shuffle=True, random_state=0), max_leaves=6)
    local = clone(clf).set_params(n_jobs=1).fit(X, y)
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) \
            as cluster, distributed.Client(cluster) as client:
        with joblib.parallel_config(backend="dask"):
            remote = clone(clf).fit(X, y)
        workers = client.run(lambda: __import__("os").getpid())
    assert len(set(workers.values())) == 2
    assert remote.cv_results_.keys() == local.cv_results_.keys()
    for key, value in local.cv_results_.items():
        if key == "params":
            assert remote.cv_results_[key] == value
        else:
            np.testing.assert_array_equal(np.asarray(remote.cv_results_[key]), np.asarray(value), err_msg=key)
    assert remote.regularization_ == local.regularization_
    assert remote.tree_ == local.tree_


def test_missing_values_with_the_indicator_in_folds_and_refit():
    """``missing=`` like OptimalTreeClassifier; NaN is refused by default."""
    import pandas as pd
    from treeopt import OptimalTreeClassifierCV, frontier
    rng = np.random.default_rng(0)
    x = rng.normal(size=120)
    y = (x > 0).astype(int)
    x[rng.random(120) < 0.25] = np.nan
    y[np.isnan(x)] = 1                                    # missing means positive here
    X = pd.DataFrame({"x": x, "noise": rng.normal(size=120)})
    with pytest.raises(ValueError, match="missing"):
        OptimalTreeClassifierCV(cv=3, max_leaves=4).fit(X, y)
    clf = OptimalTreeClassifierCV(cv=3, max_leaves=4, missing="indicator").fit(X, y)
    assert clf.best_score_ > 0.95 and clf.score(X, y) == pytest.approx(1.0)    # held-out rows fall between thresholds
    assert "x is missing" in clf.tree_.rules()
    front = frontier(X, y, max_leaves=4, missing="indicator")
    assert front.table["accuracy"].max() == pytest.approx(1.0)


def test_the_refit_is_the_kind_of_tree_the_chosen_score_describes():
    """Breast cancer, cv=3, max_leaves=2: every fold's 2-leaf trees earn the best score on a plateau of λ.

    At the plateau's upper end the data as a whole already takes a single leaf; choosing there refitted a
    constant classifier (training accuracy 0.627) under a cross-validated score of 0.884.
    """
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True, as_frame=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)           # the width warning of thresholds="all"
        clf = OptimalTreeClassifierCV(cv=3, max_leaves=2, thresholds="all").fit(X, y)
    results, best = clf.cv_results_, clf.best_index_
    folds = [results[f"split{i}_leaves"][best] for i in range(3)]
    assert folds == [2, 2, 2] and results["mean_leaves"][best] == 2
    assert clf.tree_.n_leaves == results["leaves"][best] == 2
    assert clf.score(X, y) > 0.9


def test_the_refit_says_what_its_certificate_covers():
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"a": rng.normal(size=90).round(3), "b": rng.normal(size=90).round(3)})
    y = ((X.a > 0.3) ^ (X.b < -0.2)).astype(int)
    guessed = OptimalTreeClassifierCV(cv=3, max_leaves=4, thresholds="guess", random_state=0).fit(X, y)
    assert guessed.status_ == "optimal_over_guessed_thresholds" and not guessed.optimal_
    assert guessed.thresholds_ == "guess" and guessed.guarantee_["thresholds"]["applies"] in (True, False)
    exact = OptimalTreeClassifierCV(cv=3, max_leaves=4, thresholds="all").fit(X, y)
    assert exact.thresholds_ == "all" and exact.guarantee_ == {} and exact.optimal_


def test_time_limit_is_shared_by_the_folds_the_frontier_on_all_the_data_and_the_refit(monk, monkeypatch):
    """time_limit bounds the whole fit: 3 folds + the data as a whole in one process are 4 waves, the refit a 5th
    (kept for a refit the frontier on all the data cannot spare: here it certifies λ, so none runs)."""
    import time

    import treeopt.estimator_cv as estimator_cv

    seen = {}
    real_cv, real_fit = estimator_cv.cross_validate_frontier, OptimalTreeClassifier.fit

    def spy_cv(*args, **kwargs):
        seen["search"], seen["deadline"] = kwargs["time_limit"], kwargs["deadline"]
        return real_cv(*args, **kwargs)

    def spy_fit(self, *args, **kwargs):
        seen["refit"] = self.time_limit
        return real_fit(self, *args, **kwargs)

    monkeypatch.setattr(estimator_cv, "cross_validate_frontier", spy_cv)
    monkeypatch.setattr(OptimalTreeClassifier, "fit", spy_fit)
    X, y = monk
    before = time.time()
    OptimalTreeClassifierCV(cv=3, max_leaves=4, time_limit=50.0, n_jobs=1).fit(X, y)
    assert seen["search"] == pytest.approx(10.0)
    assert before + 50.0 <= seen["deadline"] <= time.time() + 50.0
    assert "refit" not in seen                     # the frontier's tree is the refit: no second search
    OptimalTreeClassifierCV(cv=3, max_leaves=4, time_limit=50.0, n_jobs=2).fit(X, y)
    assert seen["search"] == pytest.approx(50.0 / 3)                # 4 searches in 2 waves, the refit a third


def _reported(clf, X, y, sample_weight=None) -> dict:
    """Everything a fitted OptimalTreeClassifier reports about its tree, its certificate and its data."""
    return {"status_": clf.status_, "optimal_": clf.optimal_, "thresholds_": clf.thresholds_,
            "guarantee_": clf.guarantee_, "n_features_in_": clf.n_features_in_, "classes_": list(clf.classes_),
            "feature_names_in_": list(getattr(clf, "feature_names_in_", [])), "n_leaves": clf.tree_.n_leaves,
            "setup_stopped_": clf.setup_stopped_, "regularization": clf.regularization,
            "predict": clf.predict(X).tolist(), "predict_proba": clf.predict_proba(X).tolist(),
            "score": clf.score(X, y, sample_weight=sample_weight)}


REFIT_CASES = {
    "monk": dict(),
    "weighted": dict(weighted=True),
    "guessed thresholds": dict(thresholds="guess", random_state=0),
    "balanced accuracy, weighted": dict(objective="balanced_accuracy", weighted=True),
}


@pytest.mark.parametrize("case", sorted(REFIT_CASES))
def test_the_refit_is_the_frontier_tree_at_the_chosen_lambda_without_a_second_setup_or_search(case, monkeypatch):
    """When the frontier on all the data certifies the chosen λ, its tree is the refit: every fitted attribute
    is what a fresh fit at that λ gives, and neither the table is binarized again nor a search run."""
    import treeopt.building as building
    import treeopt.estimator as estimator

    options = dict(REFIT_CASES[case])
    weighted = options.pop("weighted", False)
    rng = np.random.default_rng(len(case))
    n = 150
    X = pd.DataFrame({"a": rng.integers(0, 10, n), "b": rng.integers(0, 10, n), "c": rng.integers(0, 3, n)})
    y = np.where((X.a > 5) ^ (X.b < 3) | (rng.random(n) < 0.15), "yes", "no")
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    binarized = []
    real_fit_binarizer = building.fit_binarizer

    def counting_fit_binarizer(*args, **kwargs):
        binarized.append(len(args[0]))
        return real_fit_binarizer(*args, **kwargs)

    def no_search(self, *args, **kwargs):
        raise AssertionError("the refit searched again")

    monkeypatch.setattr(building, "fit_binarizer", counting_fit_binarizer)
    with monkeypatch.context() as patched:
        patched.setattr(estimator.OptimalTreeClassifier, "fit", no_search)
        clf = OptimalTreeClassifierCV(cv=KFold(3, shuffle=True, random_state=0), max_leaves=6,
                                      **options).fit(X, y, sample_weight=w)
    assert binarized.count(n) == 1                 # the frontier on all the data's binarization, not a second
    fresh = OptimalTreeClassifier(regularization=clf.regularization_, **options).fit(X, y, sample_weight=w)
    kept = clf.best_estimator_
    assert _reported(kept, X, y, w) == _reported(fresh, X, y, w)
    for name in ("objective_", "lower_bound_", "upper_bound_", "gap_"):
        assert getattr(kept, name) == pytest.approx(getattr(fresh, name), abs=1e-12), name
    assert kept.n_steps_ == 0 and kept.solver_.name == fresh.solver_.name
    assert kept.solver_.result().tree == kept.tree_ and kept.solver_.cannot_resume is None
    assert clf.cv_results_["leaves"][clf.best_index_] == kept.tree_.n_leaves == clf.tree_.n_leaves
    assert clf.status_ == fresh.status_ and clf.optimal_ == fresh.optimal_ and clf.guarantee_ == fresh.guarantee_
    assert clf.score(X, y, sample_weight=w) == fresh.score(X, y, sample_weight=w)


def _uncertified_full_frontier(monkeypatch, clock_jump: float = 0.0) -> dict:
    """Make the frontier on all the data certify no λ (as when its search stopped early), and with
    ``clock_jump`` let that many seconds seem to pass once the folds are done."""
    import math
    import time

    import treeopt.estimator_cv as estimator_cv

    real_cv = estimator_cv.cross_validate_frontier
    offset = {"seconds": 0.0}

    def stopped_full(*args, **kwargs):
        cvf = real_cv(*args, **kwargs)
        cvf.full.min_certified_regularization = math.inf
        offset["seconds"] = clock_jump
        return cvf

    clock = SimpleNamespace(monotonic=lambda: time.monotonic() + offset["seconds"], time=time.time)
    monkeypatch.setattr(estimator_cv, "cross_validate_frontier", stopped_full)
    monkeypatch.setattr(estimator_cv, "time", clock)
    return offset


def test_with_nothing_left_of_time_limit_the_uncertified_frontier_tree_is_kept(monk, monkeypatch):
    """A frontier that did not certify the chosen λ and no time left for a refit: the frontier's best tree at
    that λ, marked uncertified (status_ "time_limit", an honest gap), without a refit beyond the limit."""
    import treeopt.estimator as estimator

    def no_search(self, *args, **kwargs):
        raise AssertionError("a refit ran with nothing left of time_limit")

    X, y = monk
    _uncertified_full_frontier(monkeypatch, clock_jump=1000.0)
    with monkeypatch.context() as patched, pytest.warns(ConvergenceWarning, match="time_limit"):
        patched.setattr(estimator.OptimalTreeClassifier, "fit", no_search)
        clf = OptimalTreeClassifierCV(cv=CV, max_leaves=8, time_limit=60).fit(X, y)
    tree = clf.frontier_.full.trees[clf.frontier_.full.row_for(clf.regularization_)[0]]
    assert clf.tree_ == tree and clf.status_ == "time_limit" and not clf.optimal_
    kept = clf.best_estimator_
    assert 0 < kept.lower_bound_ < kept.objective_ and kept.gap_ == pytest.approx(kept.objective_ - kept.lower_bound_)
    fresh = OptimalTreeClassifier(regularization=clf.regularization_).fit(X, y)
    assert kept.lower_bound_ <= fresh.objective_ + 1e-12 <= kept.objective_ + 1e-12   # the bound is proved
    assert (clf.predict(X) == tree.predict(X)).all()


def test_without_a_certified_frontier_tree_the_refit_searches_within_what_is_left(monk, monkeypatch):
    """A frontier that did not certify the chosen λ: the refit is a fresh fit, bounded by the time left."""
    X, y = monk
    _uncertified_full_frontier(monkeypatch)
    seen = {}
    real_fit = OptimalTreeClassifier.fit

    def spy_fit(self, *args, **kwargs):
        seen["time_limit"] = self.time_limit
        return real_fit(self, *args, **kwargs)

    monkeypatch.setattr(OptimalTreeClassifier, "fit", spy_fit)
    clf = OptimalTreeClassifierCV(cv=CV, max_leaves=8, time_limit=60).fit(X, y)
    assert 0 < seen["time_limit"] < 60 and clf.best_estimator_.n_steps_ > 0 and clf.optimal_
    fresh = real_fit(OptimalTreeClassifier(regularization=clf.regularization_), X, y)
    assert _reported(clf.best_estimator_, X, y)["predict"] == _reported(fresh, X, y)["predict"]


def test_memory_limit_stops_the_folds_searches_and_is_validated(monk, monkeypatch):
    """The process's resident memory (read by the driver, faked here past the limit once the searches
    have done some work) stops every fold's frontier search, which keeps its certified rows."""
    X, y = monk
    with pytest.raises(ValueError, match="memory_limit"):
        OptimalTreeClassifierCV(memory_limit=-1).fit(X, y)
    with pytest.raises(ValueError, match="memory_limit must be a positive number of bytes"):
        OptimalTreeClassifierCV(memory_limit="lots").fit(X, y)
    fake_memory_past(monkeypatch, 10**12, solves=100)
    with pytest.warns(ConvergenceWarning, match="memory_limit"):
        clf = OptimalTreeClassifierCV(cv=StratifiedKFold(3), max_leaves=12, memory_limit="1TB").fit(X, y)
    results = clf.cv_results_
    statuses = {s for i in range(3) for s in results[f"split{i}_status"]}
    assert "memory_limit" in statuses
    assert {f.status for f in clf.frontier_.folds} == {"memory_limit"}
    assert results["certified"][clf.best_index_] and results["certified"].sum() >= 1
    assert clf.best_estimator_.memory_limit == "1TB"
    assert clone(clf).get_params()["memory_limit"] == "1TB"

"""The hint of a search that has not certified in good time (``SlowCertificateWarning``)."""

import io
import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone

import treeopt.estimator
from treeopt import OptimalTreeClassifier
from treeopt.datasets import load_monk
from treeopt.progress import ProgressLine
from treeopt import slow_certificate
from treeopt.slow_certificate import SlowCertificateHint, SlowCertificateWarning


@pytest.fixture
def late_clock(monkeypatch):
    """The hint's clock: the fit starts at 0 and every later reading is an hour on."""
    readings = itertools.chain([0.0], itertools.repeat(3600.0))
    monkeypatch.setattr(slow_certificate, "clock", lambda: next(readings))


@pytest.fixture
def hard():
    """Noisy numeric columns at a small λ: far more than a few expansions from a certificate."""
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(80, 4)).round(2), columns=list("abcd"))
    return X, rng.integers(0, 2, size=80)


def _slow_warnings(caught):
    return [w for w in caught if issubclass(w.category, SlowCertificateWarning)]


def _fit(clf, X, y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clf.fit(X, y)
    return _slow_warnings(caught)


def test_a_slow_search_warns_once_naming_its_size_and_the_settings_that_help(late_clock, hard):
    X, y = hard
    clf = OptimalTreeClassifier(regularization=0.005, thresholds="all", node_limit=30)
    caught = _fit(clf, X, y)
    assert not clf.optimal_
    assert len(caught) == 1
    message = str(caught[0].message)
    n_features = clf.binarizer_.transform(X).shape[1]
    assert f"80 rows and {n_features} binary features with no depth budget" in message
    for setting in ("depth_budget=3", "max_thresholds=", "thresholds='guess'", "regularization"):
        assert setting in message


def test_a_quick_certificate_gets_no_hint(late_clock):
    X, y = load_monk(1)
    clf = OptimalTreeClassifier()
    assert _fit(clf, X, y) == [] and clf.optimal_


def test_a_shallow_depth_budget_gets_no_hint(late_clock, hard):
    X, y = hard
    clf = OptimalTreeClassifier(regularization=0.005, thresholds="all", depth_budget=3, node_limit=1)
    assert _fit(clf, X, y) == [] and not clf.optimal_


def test_a_search_within_the_hint_time_gets_no_hint(hard):
    X, y = hard                                    # the real clock: a few expansions take far under 5 s
    clf = OptimalTreeClassifier(regularization=0.005, thresholds="all", node_limit=5)
    assert _fit(clf, X, y) == [] and not clf.optimal_


def test_the_progress_line_shows_the_hint(late_clock, hard, monkeypatch):
    X, y = hard
    stream = io.StringIO()
    monkeypatch.setattr(treeopt.estimator, "progress_display", lambda: ProgressLine(stream))
    _fit(OptimalTreeClassifier(regularization=0.005, thresholds="all", node_limit=30, verbose=1), X, y)
    assert "slow to certify? try depth_budget=3, max_thresholds=8, thresholds='guess'" in stream.getvalue()


@pytest.mark.parametrize("time_limit, after", [(None, 5.0), (10.0, 5.0), (600.0, 60.0)])
def test_the_hint_waits_five_seconds_or_a_tenth_of_the_time_limit(time_limit, after):
    hint = SlowCertificateHint(time_limit=time_limit, depth_budget=None, regularization=0.05)
    assert hint.after == after


def _continuous_table(n_rows=600, seed=1):
    """Numeric columns with all values distinct and noisy labels: the continuous solver's kind of table."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n_rows, 3)), columns=["u", "v", "w"])
    y = ((X.u + 0.4 * X.v > 0) ^ (X.w > 0.5)).to_numpy().astype(int)
    flip = rng.random(n_rows) < 0.15
    y[flip] = 1 - y[flip]
    return X, y


def _hinted(clf, X, y):
    caught = _fit(clf, X, y)
    assert len(caught) == 1
    return clf.solver_, str(caught[0].message)


def _each_suggestion_fits(clf, X, y):
    """Every suggested setting, applied as the hint writes it, is a fit that builds and runs."""
    hint = SlowCertificateHint(time_limit=None, depth_budget=clf.depth_budget, regularization=clf.regularization)
    suggestions = hint.suggestions(clf.solver_)
    for settings, _ in suggestions:
        changed = clone(clf).set_params(**settings)        # each on its own, from the user's settings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            changed.fit(X, y)                  # raises if the suggestion is not a valid fit
        assert changed.tree_ is not None
    return [settings for settings, _ in suggestions]


def test_a_slow_continuous_fit_names_its_columns_and_only_settings_that_fit(late_clock):
    """λ = 0 with a depth budget runs the continuous solver over sorted values (no binary features);
    a threshold cap or guessed thresholds need a positive λ, so the hint suggests them with one."""
    X, y = _continuous_table()
    clf = OptimalTreeClassifier(regularization=0, depth_budget=5, node_limit=5)
    solver, message = _hinted(clf, X, y)
    assert type(solver).__name__ == "ContinuousSearch"
    assert "600 rows and 3 numeric columns (every threshold, as sorted values) with depth_budget=5" in message
    assert "binary features" not in message
    assert "max_thresholds=8 with regularization=0.001" in message
    assert "thresholds='guess' with regularization=0.001" in message
    suggested = _each_suggestion_fits(clf, X, y)
    assert {"depth_budget": 3} in suggested and {"max_thresholds": 8, "regularization": 0.001} in suggested


def test_a_slow_continuous_fit_at_positive_lambda_suggests_binary_encodings_without_changing_lambda(late_clock):
    """With a depth budget and many thresholds, ``solver="auto"`` runs the continuous solver at λ > 0
    too: the hint names the sorted columns, and a threshold cap or guessed thresholds (which binarize,
    and so leave the continuous solver) need no change of λ."""
    X, y = _continuous_table()
    clf = OptimalTreeClassifier(regularization=0.001, depth_budget=5, node_limit=5)
    solver, message = _hinted(clf, X, y)
    assert type(solver).__name__ == "ContinuousSearch" and clf.thresholds_ == "all"
    assert "600 rows and 3 numeric columns (every threshold, as sorted values) with depth_budget=5" in message
    assert "max_thresholds=8 (" in message and "thresholds='guess' (" in message
    suggested = _each_suggestion_fits(clf, X, y)
    assert {"max_thresholds": 8} in suggested and {"thresholds": "guess"} in suggested
    assert {"regularization": 0.002} in suggested


def test_a_newcomers_small_numeric_table_without_a_depth_budget_gets_settings_that_fit(late_clock):
    """The 176 × 4 table of a newcomer's CSV, every threshold, λ = 0.01 and no depth budget."""
    rng = np.random.default_rng(7)
    X = pd.DataFrame(rng.normal(size=(176, 4)).round(2), columns=list("abcd"))
    y = ((X.a + 0.5 * X.b > 0) ^ (X.c > 0.3)).to_numpy().astype(int)
    flip = rng.random(176) < 0.1
    y[flip] = 1 - y[flip]
    clf = OptimalTreeClassifier(regularization=0.01, thresholds="all", node_limit=20)
    _, message = _hinted(clf, X, y)
    assert "176 rows and" in message and "binary features with no depth budget" in message
    suggested = _each_suggestion_fits(clf, X, y)
    assert suggested[:3] == [{"depth_budget": 3}, {"max_thresholds": 8}, {"thresholds": "guess"}]


def test_errors_certified_at_lambda_zero_suggest_the_tie_break_that_stops_there(late_clock):
    # Wine at depth four has trees without errors; finding one is quick, proving that none has fewer
    # leaves is not. Once the errors are certified (gap 0) the hint names tie_break="any" first.
    from sklearn.datasets import load_wine

    from treeopt import make_solver
    X, y = load_wine(return_X_y=True)
    solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=4)
    for _ in solver.steps():
        if solver.gap == 0:
            break
    assert solver.gap == 0 and not solver.result().optimal
    hint = SlowCertificateHint(time_limit=None, depth_budget=4, regularization=0)
    settings = [setting for setting, _ in hint.suggestions(solver)]
    assert settings[0] == {"solver_options": {"tie_break": "any"}}
    errors_only = make_solver(X, y, solver="continuous", regularization=0, depth_budget=4,
                              solver_options={"tie_break": "any"})
    errors_only.run()
    assert errors_only.gap == 0
    assert {"solver_options": {"tie_break": "any"}} not in [s for s, _ in hint.suggestions(errors_only)]

"""The hint of a search that has not certified in good time (``SlowCertificateWarning``)."""

import io
import itertools
import warnings

import numpy as np
import pandas as pd
import pytest

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

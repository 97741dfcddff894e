"""A certificate says what it covers: over guessed thresholds it is not "optimal" over all of them."""

import numpy as np
import pandas as pd
import pytest

from treeopt import OptimalTreeClassifier
from treeopt import encoding


@pytest.fixture
def numeric():
    rng = np.random.default_rng(0)
    X = pd.DataFrame({"a": rng.normal(size=60).round(2), "b": rng.normal(size=60).round(2)})
    y = ((X["a"] > 0.3) ^ (X["b"] < -0.2)).astype(int).to_numpy()
    return X, y


def test_guessed_thresholds_certify_over_those_thresholds_only(numeric):
    X, y = numeric
    clf = OptimalTreeClassifier(regularization=0.02, thresholds="guess", random_state=0).fit(X, y)
    assert clf.status_ == "optimal_over_guessed_thresholds"
    assert not clf.optimal_
    assert clf.guarantee_["thresholds"]["theorem"] == "McTavish et al. 2022, Theorem 4.1"
    assert clf.gap_ == 0 and clf.lower_bound_ == clf.objective_    # over the guessed thresholds


def test_auto_reports_the_guess_it_made(numeric, monkeypatch):
    X, y = numeric
    monkeypatch.setattr(encoding, "AUTO_MAX_THRESHOLDS", 10)      # the table has more: auto guesses
    clf = OptimalTreeClassifier(regularization=0.02, random_state=0).fit(X, y)
    assert clf.thresholds_ == "guess"
    assert clf.status_ == "optimal_over_guessed_thresholds" and not clf.optimal_


def test_all_thresholds_certify_optimal(numeric):
    X, y = numeric
    clf = OptimalTreeClassifier(regularization=0.02, thresholds="all").fit(X, y)
    assert clf.status_ == "optimal" and clf.optimal_ and clf.guarantee_ == {}

"""Setup is covered: many thresholds warn with numbers, a table that cannot fit is refused before
it is built, ``time_limit`` counts the setup and is checked after every unit of work.
"""

import re
import time
import warnings

import numpy as np
import pandas as pd
import pytest
from sklearn.exceptions import ConvergenceWarning

import treeopt.building as building
import treeopt.estimator as estimator_module
from treeopt import OptimalTreeClassifier, make_solver
from treeopt import frontier
from treeopt.binarize import Binarizer, BinarizationTimeout, binarization_deadline
from treeopt.datasets import load_monk
from treeopt.solvers import GOSDT


def _one_wide_column(n=1500, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"x": rng.permutation(n).astype(float)})
    return X, (X.x > n / 2).astype(int).to_numpy()


def test_many_thresholds_warn_with_numbers_and_the_fix():
    X, y = _one_wide_column()
    with pytest.warns(UserWarning, match=r"1499 binary features for 1500 rows \(x: 1499\).*max_thresholds.*"
                                         r"thresholds='guess'"):
        make_solver(X, y, regularization=0.1, thresholds="all")


def test_many_thresholds_warn_above_depth_budget_three_only():
    X, y = _one_wide_column()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make_solver(X, y, solver="gosdt", regularization=0.1, thresholds="all", depth_budget=3)   # solved in seconds
        # solver="auto" keeps so many thresholds as sorted values under a depth budget: no binary features
        assert make_solver(X, y, regularization=0.1, thresholds="all", depth_budget=4).name == "continuous"
    with pytest.warns(UserWarning, match=r"1499 binary features for 1500 rows"):
        make_solver(X, y, solver="gosdt", regularization=0.1, thresholds="all", depth_budget=4)


def test_few_thresholds_or_a_heuristic_do_not_warn():
    X, y = _one_wide_column()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        make_solver(X, y, regularization=0.1, max_thresholds=20)
        make_solver(X, y, solver="greedy", regularization=0.1)      # greedy is not an exhaustive search


def test_a_binarization_that_cannot_fit_is_refused_before_it_is_built(monkeypatch):
    X, y = _one_wide_column(200)
    monkeypatch.setattr(building, "memory_room", lambda: 1000)           # 1 kB free
    monkeypatch.setattr(building, "SMALL_TABLE_BYTES", 0)               # check even a small table
    monkeypatch.setattr(Binarizer, "transform", lambda *a, **k: pytest.fail("the table was built"))
    with pytest.raises(ValueError, match=r"needs about .* more than the 1 kB .*max_thresholds"):
        OptimalTreeClassifier(regularization=0.1, thresholds="all").fit(X, y)


def test_threshold_features_in_blocks_equal_feature_by_feature(monkeypatch):
    import treeopt.binarize as binarize
    monkeypatch.setattr(binarize, "_BLOCK", 64)                         # force many blocks
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"a": rng.random(300), "b": rng.integers(0, 40, 300).astype(float),
                      "c": rng.choice(["x", "y"], 300), "d": rng.integers(0, 2, 300)})
    X.loc[rng.random(300) < 0.1, "a"] = np.nan
    binarizer = Binarizer(missing="indicator").fit(X)
    expected = np.column_stack([f.evaluate(X.iloc[:, f.column_index].to_numpy()) for f in binarizer.features_])
    assert (binarizer.transform(X) == expected).all()


def test_time_limit_counts_the_setup(monkeypatch):
    X, y = load_monk(2)
    real = estimator_module.make_solver

    def slow_setup(*args, **kwargs):
        solver = real(*args, **kwargs)
        time.sleep(0.3)                                                  # a slow binarization
        return solver

    monkeypatch.setattr(estimator_module, "make_solver", slow_setup)
    with pytest.warns(Warning):
        clf = OptimalTreeClassifier(regularization=0.01, time_limit=0.2).fit(X, y)
    assert clf.status_ == "time_limit" and clf.n_steps_ <= 1             # the search got what remained: nothing


class _SlowUnits(GOSDT):
    """GOSDT whose units of work take 20 ms each (an expensive expansion)."""

    def _expand(self, problem, **kwargs):
        time.sleep(0.02)
        return super()._expand(problem, **kwargs)


def test_time_limit_is_checked_after_every_unit():
    X, y = load_monk(2)
    solver = make_solver(X, y, regularization=0.01)
    slow = _SlowUnits(solver.dataset, **solver.settings)
    result = slow.run(time_limit=0.05)
    assert result.status == "time_limit"
    assert result.expansions < 16, "the clock was read only every 16 units"


def _wide_table(rows=200, columns=300, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.random((rows, columns)), columns=[f"c{i}" for i in range(columns)])
    return X, (X.c0 > 0.5).astype(int).to_numpy()


def test_a_fit_whose_binarization_runs_out_of_time_keeps_the_single_leaf():
    X, y = _wide_table()
    with pytest.warns(ConvergenceWarning, match=r"time_limit=1e-06 s ran out while binarizing .*max_thresholds.*"
                                                r"single leaf") as caught:
        clf = OptimalTreeClassifier(regularization=0.01, time_limit=1e-6).fit(X, y)
    # Stopped while learning the features, before the last column and before any threshold was
    # evaluated (the message names where; no clock in the assertion).
    where = re.search(r"learning the features of column (\d+) of 300", str(caught[0].message))
    assert where is not None and int(where.group(1)) < 300, str(caught[0].message)
    assert clf.status_ == "time_limit" and not clf.optimal_ and clf.tree_.n_leaves == 1
    assert clf.lower_bound_ <= clf.upper_bound_ and clf.gap_ > 0
    majority = np.bincount(y).argmax()
    assert (clf.predict(X) == majority).all() and clf.predict_proba(X).shape == (len(y), 2)
    assert clf.solver_.step() is False                # released: it cannot claim the leaf is optimal


def test_a_frontier_whose_binarization_runs_out_of_time_says_so_with_the_fix():
    X, y = _wide_table()
    with pytest.warns(ConvergenceWarning, match=r"time_limit=1e-06 s ran out while binarizing .*max_thresholds"):
        front = frontier(X, y, max_leaves=3, time_limit=1e-6)
    assert front.table["leaves"].tolist() == [1] and not front.table["certified"].any()


def test_the_deadline_is_checked_between_blocks_of_rows_of_thresholds(monkeypatch):
    X, _ = _one_wide_column(n=300)
    binarizer = Binarizer().fit(X)
    monkeypatch.setattr("treeopt.binarize._BLOCK", 299 * 10)            # blocks of 10 rows
    clock = iter(range(100))                                              # each reading is one second later
    monkeypatch.setattr("treeopt.binarize.time.perf_counter", lambda: next(clock))
    with binarization_deadline(1.5):                                      # set at 0, column check at 1 passes
        with pytest.raises(BinarizationTimeout, match="rows 11 to 20 of 300"):
            binarizer.transform(X)
    monkeypatch.undo()
    assert binarizer.transform(X).shape == (300, 299)                     # outside the block: no deadline


def test_the_cli_prints_the_single_leaf_of_a_stopped_binarization(tmp_path, capsys):
    from treeopt.cli import main
    X, y = _wide_table()
    X.assign(y=y).to_csv(tmp_path / "wide.csv", index=False)
    assert main(["fit", str(tmp_path / "wide.csv"), "--target", "y", "--time-limit", "0.000001"]) == 3
    captured = capsys.readouterr()
    assert captured.err.startswith("treeopt: the time limit ran out while binarizing, before any search")
    assert "NOT certified (time_limit" in captured.out and "Traceback" not in captured.err


def test_threshold_guessing_checks_the_deadline_and_the_fit_keeps_the_leaf(monkeypatch):
    """Threshold guessing's elimination refits a booster per dropped feature; the setup's deadline is
    checked between refits, so ``fit`` stops at ``time_limit`` (made slow on purpose: each refit sleeps)."""
    from treeopt.guessing.thresholds import ThresholdGuessBinarizer
    refit = ThresholdGuessBinarizer._refit
    refits = []

    def slow_refit(self, *args):
        refits.append(1)
        time.sleep(0.1)
        return refit(self, *args)

    monkeypatch.setattr(ThresholdGuessBinarizer, "_refit", slow_refit)
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.random((300, 6)), columns=[f"c{i}" for i in range(6)])
    y = ((X.c0 > 0.5) ^ (rng.random(300) < 0.2)).astype(int).to_numpy()     # many stumps, few needed
    guessed = ThresholdGuessBinarizer(random_state=0).fit(X, y)
    assert len(refits) > 5                                  # enough refits to outlast the limit below
    refits.clear()
    with pytest.warns(ConvergenceWarning, match="guessing thresholds: eliminating features"):
        clf = OptimalTreeClassifier(regularization=0.01, thresholds="guess", random_state=0,
                                    time_limit=0.25).fit(X, y)
    assert clf.status_ == "time_limit" and clf.tree_.n_leaves == 1
    assert len(refits) < len(guessed.elimination_path_) + 1


def test_the_deadline_is_checked_between_the_blocks_of_building_the_dataset(monkeypatch):
    """Distinct rows and packed columns run in blocks of the table; the setup's deadline is checked
    between them, so a fit whose time runs out there keeps the single leaf."""
    import treeopt.data as data
    X, y = _wide_table(rows=400, columns=4)
    monkeypatch.setattr(data, "BLOCK_CELLS", 400)                        # a block is a row or two
    building = data.Dataset._build.__func__

    def build_after_the_deadline(cls, *args):
        monkeypatch.setattr("treeopt.binarize.time.perf_counter", lambda: float("inf"))   # the deadline passes
        return building(cls, *args)

    monkeypatch.setattr(data.Dataset, "_build", classmethod(build_after_the_deadline))
    with pytest.warns(ConvergenceWarning, match=r"building the dataset: packing row"):
        clf = OptimalTreeClassifier(regularization=0.01, thresholds="quantile", time_limit=30).fit(X, y)
    assert clf.status_ == "time_limit" and clf.tree_.n_leaves == 1

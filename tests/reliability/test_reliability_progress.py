"""Progress on long runs: ``verbose=1`` shows a tqdm bar, or a plain line without tqdm."""

import builtins
import io
import itertools

import treeopt.estimator
from treeopt import OptimalTreeClassifier
from treeopt.data import Dataset
from treeopt.datasets import load_monk
from treeopt.progress import ProgressLine, TqdmProgress, progress_display
from treeopt.solvers import GOSDT


def _solver():
    return GOSDT(Dataset.from_arrays(*load_monk(2)), regularization=0.01)


def test_the_bar_shows_expansions_and_bounds_and_closes():
    stream = io.StringIO()
    progress = progress_display(stream)
    assert isinstance(progress, TqdmProgress)               # tqdm is in the test extra
    solver = _solver()
    solver.step(50)
    progress(solver)
    solver.step(50)
    progress(solver)
    progress.close()
    text = stream.getvalue()
    assert "100 expansions" in text
    assert f"upper={solver.upper_bound:.6f}" in text and "lower=" in text


def test_without_tqdm_the_plain_line_is_used(monkeypatch):
    real_import = builtins.__import__

    def no_tqdm(name, *args, **kwargs):
        if name == "tqdm" or name.startswith("tqdm."):
            raise ImportError("No module named 'tqdm'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tqdm)
    stream = io.StringIO()
    progress = progress_display(stream)
    assert isinstance(progress, ProgressLine)
    solver = _solver()
    solver.step(10)
    progress(solver)
    progress.close()
    assert "expansions" in stream.getvalue() and stream.getvalue().endswith("\n")


def test_fit_with_verbose_reports_progress_and_closes_the_display(monkeypatch):
    shown = []

    class Recorder:
        def __call__(self, solver):
            shown.append(solver.expansions)

        def close(self):
            shown.append("closed")

    monkeypatch.setattr(treeopt.estimator, "progress_display", Recorder)
    monkeypatch.setattr("treeopt.solvers.base.time.perf_counter",
                        _fast_clock())                        # every unit looks like a second
    X, y = load_monk(2)
    OptimalTreeClassifier(regularization=0.02, verbose=1, solver="gosdt").fit(X, y)
    assert shown and shown[-1] == "closed" and any(isinstance(v, int) for v in shown)
    quiet = []
    monkeypatch.setattr(treeopt.estimator, "progress_display", lambda: quiet.append(1))
    OptimalTreeClassifier(regularization=0.02, solver="gosdt").fit(X, y)
    assert quiet == []


def _fast_clock():
    ticks = itertools.count()
    return lambda: 0.5 * next(ticks)

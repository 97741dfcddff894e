"""The continuous benchmark's generated data keeps its promises, and its script starts.

``benchmarks/continuous_data.py`` draws the hard data of ``benchmarks/continuous_bench.py`` in
memory from a seed: the same seed must give the same data in every worker process, every column
must be continuous, and the stated fraction of labels must be moved, so that no tree of the tested
depth is perfect. No timing here (speed is measured by the benchmark itself).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import continuous_data  # noqa: E402  (a script folder, not a package)


@pytest.mark.parametrize("draw", [continuous_data.gaussian_mixture, continuous_data.rotated_boundaries])
def test_the_same_seed_gives_the_same_data_and_another_seed_other_data(draw):
    X, y, clean = draw(400, 3, 3, 0.12, seed=7)
    again = draw(400, 3, 3, 0.12, seed=7)
    other = draw(400, 3, 3, 0.12, seed=8)
    np.testing.assert_array_equal(X, again[0])
    np.testing.assert_array_equal(y, again[1])
    np.testing.assert_array_equal(clean, again[2])
    assert not np.array_equal(X, other[0])


@pytest.mark.parametrize("draw", [continuous_data.gaussian_mixture, continuous_data.rotated_boundaries])
@pytest.mark.parametrize("n_classes", [2, 5])
def test_every_column_is_continuous_and_the_stated_fraction_of_labels_is_moved(draw, n_classes):
    X, y, clean = draw(1_000, 4, n_classes, 0.15, seed=3)
    assert all(len(np.unique(X[:, j])) == len(X) for j in range(X.shape[1]))
    assert np.sum(y != clean) == 150
    assert set(np.unique(y)) == set(range(n_classes)) and set(np.unique(clean)) == set(range(n_classes))


def test_the_benchmark_sizes_have_at_least_5000_distinct_values_per_column():
    X, y = continuous_data.load("mixture_5k")
    spec = continuous_data.GENERATED["mixture_5k"]
    assert X.shape == (spec.n_rows, spec.n_features) and len(y) == spec.n_rows
    assert X.nunique().min() >= 5_000
    assert all(s.noise >= continuous_data.LEAST_NOISE for s in continuous_data.GENERATED.values())


def least_errors(X: np.ndarray, y: np.ndarray, depth: int) -> int:
    """The least training errors of any tree of ``depth`` with splits ``x[j] <= t``, by exhaustion:
    a leaf, or for every column and every cut between two of its distinct values, the best subtree
    of each side one level down."""
    best = len(y) - np.bincount(y).max()
    if depth == 0 or best == 0:
        return best
    for j in range(X.shape[1]):
        for t in np.unique(X[:, j])[:-1]:
            left = X[:, j] <= t
            best = min(best, least_errors(X[left], y[left], depth - 1) + least_errors(X[~left], y[~left], depth - 1))
    return best


def test_no_tree_of_depth_two_is_perfect_on_the_generated_data():
    for draw in (continuous_data.gaussian_mixture, continuous_data.rotated_boundaries):
        X, y, _ = draw(60, 2, 2, 0.10, seed=11)
        assert least_errors(X, y, 2) > 0


def test_too_little_noise_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="noise=0.05 must be at least 0.1"):
        continuous_data.gaussian_mixture(100, 2, 2, 0.05, seed=0)


def test_the_loader_gives_float_columns_and_class_codes():
    X, y = continuous_data.load("iris")
    assert X.dtypes.map(lambda d: d.kind == "f").all()
    assert np.unique(y).tolist() == [0, 1, 2]
    with pytest.raises(ValueError, match="unknown dataset 'nope'"):
        continuous_data.load("nope")


def test_the_bench_script_explains_itself():
    done = subprocess.run([sys.executable, str(BENCHMARKS / "continuous_bench.py"), "--help"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "--quick" in done.stdout and "--memory-cap-mb" in done.stdout


def test_the_memory_script_runs_one_small_cell_and_reports_its_peak():
    done = subprocess.run([sys.executable, str(BENCHMARKS / "continuous_memory.py"), "--cells", "iris:2",
                           "--lambdas", "0", "--time-limit", "30"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout.strip().splitlines()[-1])
    # λ = 0 on iris's few thresholds: auto's GOSDT (the large tables of the memory targets get the continuous solver).
    assert row["solver"] == "gosdt" and row["certified"]
    assert row["peak_sampled_mb"] >= row["rss_before_mb"] > 0 and row["errors"] >= 0


# -- tables of the real kind -------------------------------------------------------------------
def real_kind(name: str):
    spec = continuous_data.REAL_KINDS[name]
    return spec, continuous_data.generate(name)


def test_a_real_kind_table_is_the_same_from_the_same_seed_and_other_from_another():
    kinds = [("ties", 2), ("flag", 1), ("lognormal", 1), ("count", 1)]
    X, y, clean = continuous_data.real_kind_table(500, kinds, 3, noise=0.03, seed=4, duplicates=0.01)
    again = continuous_data.real_kind_table(500, kinds, 3, noise=0.03, seed=4, duplicates=0.01)
    other = continuous_data.real_kind_table(500, kinds, 3, noise=0.03, seed=5, duplicates=0.01)
    for a, b in zip((X, y, clean), again):
        np.testing.assert_array_equal(a, b)
    assert not np.array_equal(X, other[0])


@pytest.mark.parametrize("name", sorted(continuous_data.REAL_KINDS))
def test_each_real_kind_preset_has_its_shape_classes_shares_and_noise(name):
    spec, (X, y, clean) = real_kind(name)
    assert X.shape == (spec.n_rows, spec.n_features) and name in continuous_data.names()
    assert np.unique(y).tolist() == list(range(spec.n_classes))
    assert np.sum(y != clean) == round(spec.noise * spec.n_rows)
    assert spec.duplicates <= spec.noise <= 0.15                   # little to moderate noise, as real tables have
    shares = np.bincount(clean) / spec.n_rows
    if spec.largest_share is None:
        assert shares.max() - shares.min() < 0.1
    else:
        assert abs(shares.max() - spec.largest_share) < 0.01


@pytest.mark.parametrize("name", sorted(continuous_data.REAL_KINDS))
def test_each_column_is_of_its_kind(name):
    spec, (X, y, clean) = real_kind(name)
    kinds = [kind for kind, count in spec.columns for _ in range(count)]
    copies = round(spec.duplicates * spec.n_rows)
    for j, kind in enumerate(kinds):
        distinct = X.iloc[:, j].nunique()
        if kind == "continuous":
            assert distinct == spec.n_rows - copies                # every value distinct but the copied rows'
        elif kind == "ties":
            assert 2 <= distinct <= 50
        elif kind == "few":
            assert 2 <= distinct <= 6
        elif kind == "flag":
            assert sorted(np.unique(X.iloc[:, j])) == [0.0, 1.0]
        elif kind == "byte":
            column = X.iloc[:, j]
            assert 50 < distinct <= 256 and (column == column.round()).all() and column.between(0, 255).all()
        elif kind == "lognormal":
            column = X.iloc[:, j]
            assert (column > 0).all() and distinct < spec.n_rows and column.mean() > column.median()   # skewed, tied
        else:
            assert (X.iloc[:, j] == X.iloc[:, j].round()).all() and (X.iloc[:, j] >= 0).all()


@pytest.mark.parametrize("name", sorted(continuous_data.REAL_KINDS))
def test_duplicated_rows_carry_other_labels(name):
    spec, (X, y, clean) = real_kind(name)
    frame = X.assign(label=y)
    conflicting = frame.groupby(list(X.columns))["label"].nunique()
    assert (conflicting > 1).sum() >= round(spec.duplicates * spec.n_rows)


def test_a_planted_tree_labels_the_clean_rows_without_error_at_its_depth_and_not_below():
    from treeopt import make_solver
    X, y, clean = continuous_data.real_kind_table(300, [("continuous", 2), ("ties", 1)], 3, noise=0.0, seed=2,
                                                  tree_depth=2)
    assert np.array_equal(y, clean) and np.unique(clean).tolist() == [0, 1, 2]
    at_depth = make_solver(X, y, solver="continuous", regularization=0, depth_budget=2).run()
    below = make_solver(X, y, solver="continuous", regularization=0, depth_budget=1).run()
    assert at_depth.optimal and at_depth.objective == 0
    assert below.objective > 0


def test_a_real_kind_table_refuses_bad_settings_with_the_reason():
    with pytest.raises(ValueError, match="unknown column kinds"):
        continuous_data.real_kind_table(100, [("binary", 2)], 2, noise=0.02, seed=0)
    with pytest.raises(ValueError, match="duplicates <= noise"):
        continuous_data.real_kind_table(100, [("ties", 2)], 2, noise=0.01, seed=0, duplicates=0.02)
    with pytest.raises(ValueError, match="largest_share=0.3"):
        continuous_data.real_kind_table(100, [("ties", 2)], 2, noise=0.02, seed=0, largest_share=0.3)
    with pytest.raises(ValueError, match="tree_depth=2 needs a leaf per class"):
        continuous_data.real_kind_table(100, [("ties", 2)], 5, noise=0.02, seed=0, tree_depth=2)
    with pytest.raises(ValueError, match="largest_share=None"):
        continuous_data.real_kind_table(100, [("ties", 2)], 2, noise=0.02, seed=0, tree_depth=2, largest_share=0.7)

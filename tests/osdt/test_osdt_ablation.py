"""The per-bound ablation (OSDT thesis Table 6.2): its structure, honest limits, and the CLI."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import treeopt
from treeopt.cli import main
from treeopt.data import Dataset

from conftest import read_binary, require_datasets


def test_compas_all_bounds_row_certifies_the_reference_optimum(reference_optima):
    """The thesis's ProPublica setting: λ = 0.005, cold start, curiosity."""
    require_datasets()
    X, y = read_binary("compas-binary")
    table = treeopt.ablation(Dataset.from_binary(X, y), regularization=0.005, bounds=["leaf_support"],
                             time_limit=120, measure_memory=False)
    optimum = reference_optima[(reference_optima.dataset == "compas-binary")
                               & np.isclose(reference_optima["lambda"], 0.005)
                               & (reference_optima.problem == "R")].reference_objective.iloc[0]
    assert table["variant"].tolist() == ["all bounds", "no support bound"]
    for _, row in table.iterrows():
        assert row.status == "optimal"
        assert row.objective == pytest.approx(optimum, abs=1e-9)
        assert row.lower_bound == pytest.approx(optimum, abs=1e-9)
        assert 0 < row.trees_to_optimum <= row.trees_evaluated
        assert 0 <= row.time_to_optimum_s <= row.total_time_s
    # Without the support bound the search evaluates at least as many trees.
    assert table.trees_evaluated[1] >= table.trees_evaluated[0]
    assert table.slowdown[0] == pytest.approx(1.0)


def test_rows_stopped_by_a_limit_say_so_and_stay_honest():
    require_datasets()
    X, y = read_binary("compas-binary")
    ds = Dataset.from_binary(X, y)
    timed = treeopt.ablation(ds, regularization=0.02, bounds=["equivalent_points"], time_limit=1.5,
                             measure_memory=False)
    full, stopped = timed.iloc[0], timed.iloc[1]
    assert full.status == "optimal"
    assert stopped.status == "stopped at time limit" and stopped.variant == "no equivalent points"
    assert stopped.lower_bound <= full.objective + 1e-12 <= stopped.objective + 1e-12
    memory = treeopt.ablation(ds, regularization=0.02, bounds=["lookahead"], time_limit=30, memory_limit_mb=0.5)
    assert memory.status[1] == "stopped at memory limit"
    assert memory.peak_memory_mb[1] > 0.5
    assert memory.peak_memory_mb[0] > 0


def test_ablation_rejects_bad_input():
    ds = Dataset.from_binary(np.array([[0], [1]]), [0, 1])
    with pytest.raises(ValueError, match="unknown bound"):
        treeopt.ablation(ds, bounds=["telepathy"])
    with pytest.raises(ValueError, match="labels y"):
        treeopt.ablation(np.array([[0], [1]]))
    with pytest.raises(ValueError, match="time_limit"):
        treeopt.ablation(ds, time_limit=0)


def test_cli_prints_table_6_2(tmp_path, capsys):
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(60, 4))
    y = X[:, 0] ^ X[:, 1]
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"]).assign(label=y)
    path = tmp_path / "data.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "table.csv"
    assert main(["ablation", str(path), "--regularization", "0.02", "--bounds", "lookahead,leaf_support",
                 "--time-limit", "20", "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "all bounds" in printed and "no lookahead" in printed and "no support bound" in printed
    table = pd.read_csv(out)
    assert table.status.tolist() == ["optimal"] * 3
    assert np.allclose(table.objective, 3 * 0.02 + 0.02)       # XOR: four pure leaves
    with pytest.raises(SystemExit, match="target column 'nope'"):
        main(["ablation", str(path), "--target", "nope"])

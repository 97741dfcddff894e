"""``treeopt frontier data.csv --target y --cv K --jobs N``: the table and the chosen λ."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import DATASETS, read_binary, require_datasets
from treeopt import cross_validate_frontier
from treeopt.cli import main

MONK = DATASETS / "binary" / "monk3.csv"


def _rows(text: str) -> list[list[str]]:
    lines = text.split("\n\n")[0].splitlines()
    assert lines[0].split() == ["lambda_min", "lambda_max", "leaves", "mean_score", "std_score", "certified",
                                "folds", "choice"]
    return [line.split() for line in lines[1:]]


def test_prints_the_cross_validated_table_and_the_chosen_lambda(capsys):
    require_datasets()
    assert main(["frontier", str(MONK), "--target", "class_1", "--sep", ";", "--max-leaves", "6", "--cv", "3"]) == 0
    out = capsys.readouterr().out
    X, y = read_binary("monk3")
    expected = cross_validate_frontier(X, y, cv=3, max_leaves=6)
    rows = _rows(out)
    assert len(rows) == len(expected.table)
    for cells, (_, row) in zip(rows, expected.table.iterrows()):
        assert int(cells[2]) == row["leaves"]
        assert float(cells[3]) == pytest.approx(row["mean_test_score"], abs=5e-5)
        assert float(cells[4]) == pytest.approx(row["std_test_score"], abs=5e-5)
        assert cells[5] == str(bool(row["certified"])) and cells[6] == f"{row['n_certified_folds']}/3"
        assert ("best" in cells[7:]) == bool(row["is_best"])
    chosen = re.search(r"chosen λ = ([0-9.e-]+) .*: (\d+) leaves", out)
    assert float(chosen.group(1)) == pytest.approx(expected.best_regularization, rel=1e-3)
    assert int(chosen.group(2)) == expected.table.at[expected.best_index, "leaves"]
    tree = expected.tree_for(expected.best_regularization)
    assert f"fitted on all the data ({tree.n_leaves} leaves):\n{tree.rules()}" in out


@pytest.mark.slow      # 5-15 s: two joblib worker processes each import treeopt, scikit-learn and pandas
def test_the_console_script_runs_folds_in_two_processes_and_writes_the_table(tmp_path):
    require_datasets()
    script = Path(sys.executable).parent / "treeopt"
    if not script.exists():
        pytest.skip(f"the console script is not installed next to {sys.executable} (pip install -e .)")
    output = tmp_path / "cv.csv"
    done = subprocess.run([str(script), "frontier", str(MONK), "--target", "class_1",
                           "--sep", ";", "--max-leaves", "5", "--cv", "3", "--jobs", "2", "--selection", "one_se",
                           "--output", str(output)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    X, y = read_binary("monk3")
    expected = cross_validate_frontier(X, y, cv=3, max_leaves=5)
    assert len(_rows(done.stdout)) == len(expected.table)
    lam = expected.one_se_regularization
    assert f"tree for λ = {lam:.4g}" in done.stdout
    assert output.read_text().splitlines()[0].startswith("lambda_min,lambda_max,regularization")


def test_a_stopped_fold_is_named(capsys):
    require_datasets()
    main(["frontier", str(MONK), "--target", "class_1", "--sep", ";", "--max-leaves", "10", "--cv", "3",
          "--cache-limit", "200"])
    out = capsys.readouterr().out
    assert "stopped early: fold 0 (cache_limit" in out
    assert any(cells[5] == "False" for cells in _rows(out))


@pytest.mark.parametrize("extra, message", [(["--cv", "1"], "at least 2 folds"),
                                            (["--cv", "3", "--regularization", "0.1"], "chooses λ itself")])
def test_bad_options(extra, message):
    require_datasets()
    with pytest.raises(SystemExit, match=message):
        main(["frontier", str(MONK), "--target", "class_1", "--sep", ";", *extra])

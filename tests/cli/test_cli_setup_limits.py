"""``--time-limit`` covers reading the CSV and binarizing; a setup that runs out still answers with a tree."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import treeopt.cli.tables as tables
import treeopt.estimator as estimator
from treeopt.cli import main
from treeopt.cli.exits import EXIT_UNCERTIFIED
from treeopt.tree import Tree


@pytest.fixture
def numeric_csv(tmp_path):
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({"x": rng.normal(size=300), "z": rng.normal(size=300)})
    frame["y"] = np.where(frame.x + 0.3 * rng.normal(size=300) > 0.2, "b", "a")
    path = tmp_path / "numeric.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_the_time_limit_stops_reading_a_long_file(numeric_csv, tmp_path, capsys, monkeypatch):
    path, _ = numeric_csv
    monkeypatch.setattr(tables, "CHUNK_ROWS", 10)             # a long file: many blocks of rows
    out_json = tmp_path / "fit.json"
    code = main(["fit", str(path), "--target", "y", "--time-limit", "1e-9", "--json", str(out_json)])
    assert code == EXIT_UNCERTIFIED
    err = capsys.readouterr().err
    assert "ran out while reading" in err and "--time-limit" in err
    assert not out_json.exists()                              # no data, no tree: nothing pretends otherwise


def test_a_file_read_in_time_is_read_whole(numeric_csv, monkeypatch):
    path, frame = numeric_csv
    monkeypatch.setattr(tables, "CHUNK_ROWS", 7)
    X, y = tables.read_table(str(path), "y", deadline=float("inf"))
    assert X.equals(frame.drop(columns=["y"])) and (y == frame.y).all()


def _leaf_objective(frame, regularization):
    return (frame.y != frame.y.mode()[0]).mean() + regularization


def test_binarizing_out_of_time_answers_with_the_single_leaf(numeric_csv, tmp_path, capsys):
    path, frame = numeric_csv
    out_json = tmp_path / "fit.json"
    code = main(["fit", str(path), "--target", "y", "--regularization", "0.01", "--time-limit", "1e-9",
                 "--json", str(out_json)])
    assert code == EXIT_UNCERTIFIED
    captured = capsys.readouterr()
    assert "ran out while binarizing" in captured.err
    assert "NOT certified (time_limit" in captured.out
    document = json.loads(out_json.read_text())
    certificate = document["certificate"]
    assert certificate["status"] == "time_limit" and certificate["optimal"] is False
    assert certificate["objective"] == pytest.approx(_leaf_objective(frame, 0.01))
    assert certificate["lower_bound"] == pytest.approx(0.01)   # every tree pays λ for its one leaf at least
    assert certificate["gap"] == pytest.approx(certificate["objective"] - 0.01)
    tree = Tree.from_json(json.dumps(document))
    assert tree.n_leaves == 1 and tree.classes[tree.root.prediction] == frame.y.mode()[0]


def test_running_out_of_memory_in_the_setup_answers_with_the_single_leaf(numeric_csv, tmp_path, capsys,
                                                                         monkeypatch):
    path, frame = numeric_csv

    def out_of_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(estimator, "make_solver", out_of_memory)
    out_json = tmp_path / "fit.json"
    code = main(["fit", str(path), "--target", "y", "--regularization", "0.01", "--json", str(out_json)])
    assert code == EXIT_UNCERTIFIED
    assert "NOT certified (memory" in capsys.readouterr().out
    certificate = json.loads(out_json.read_text())["certificate"]
    assert certificate["status"] == "memory"
    assert certificate["objective"] == pytest.approx(_leaf_objective(frame, 0.01))


def test_the_search_gets_what_reading_left_of_the_limit(numeric_csv, capsys, monkeypatch):
    path, _ = numeric_csv
    seen = {}
    original = estimator.OptimalTreeClassifier.fit

    def fit(self, X, y, *args, **kwargs):
        seen["time_limit"] = self.time_limit
        return original(self, X, y, *args, **kwargs)

    monkeypatch.setattr(estimator.OptimalTreeClassifier, "fit", fit)
    main(["fit", str(path), "--target", "y", "--max-thresholds", "4", "--time-limit", "30"])
    assert 0 < seen["time_limit"] < 30


@pytest.mark.filterwarnings("ignore:time_limit=.* ran out while binarizing")
def test_a_frontier_binarizing_out_of_time_prints_the_uncertified_leaf(numeric_csv, capsys):
    path, frame = numeric_csv
    code = main(["frontier", str(path), "--target", "y", "--max-leaves", "3", "--time-limit", "1e-9",
                 "--show", "3"])
    assert code == EXIT_UNCERTIFIED
    out = capsys.readouterr().out
    rows = out.split("\n\n")[0].splitlines()[1:]
    assert len(rows) == 1 and rows[0].split()[0] == "1" and rows[0].split()[-1] == "False"
    assert "ran out while binarizing, before any search" in out and "--max-thresholds" in out
    assert f"predict {frame.y.mode()[0]}" in out

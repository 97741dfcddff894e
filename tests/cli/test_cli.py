"""The ``treeopt`` command (driven through ``treeopt.cli.main``)."""

import json

import numpy as np
import pandas as pd
import pytest

from treeopt.cli import COMMANDS, main
from treeopt.regularization import DEFAULT_REGULARIZATION
from treeopt.tree import Tree


def test_demo_prints_a_certified_tree(capsys):
    assert main(["demo", "--regularization", "0.02"]) == 0
    out = capsys.readouterr().out
    assert "MONK-1" in out
    assert "certified optimal" in out
    assert "predict" in out and "objective" in out and "leaves" in out
    objective = float(out.split("objective")[1].split()[0])
    assert objective == pytest.approx(0.14, abs=1e-9)        # 7 leaves × λ = 0.02, no errors on MONK-1


def test_demo_uses_the_default_regularization_and_says_how_to_see_the_whole_rule(capsys):
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert f"regularization {DEFAULT_REGULARIZATION}" in out
    objective = float(out.split("objective")[1].split()[0])
    errors = 1 - float(out.split("accuracy")[1].split()[0])
    leaves = int(out.split("leaves")[1].split()[0])
    assert objective == pytest.approx(errors + DEFAULT_REGULARIZATION * leaves, abs=1e-9)
    assert "--regularization 0.02" in out                    # the hint to the 7-leaf rule


@pytest.fixture
def csv_file(tmp_path):
    rng = np.random.default_rng(0)
    n = 80
    frame = pd.DataFrame({"age": rng.integers(18, 70, n), "colour": rng.choice(["red", "blue"], n)})
    frame["label"] = np.where((frame.age < 35) | (frame.colour == "red"), "yes", "no")
    path = tmp_path / "people.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_fit_prints_tree_and_certificate(csv_file, capsys):
    path, frame = csv_file
    assert main(["fit", str(path), "--target", "label", "--regularization", "0.02",
                 "--max-thresholds", "8"]) == 0
    out = capsys.readouterr().out
    assert "certified optimal" in out
    assert "accuracy       1.0000" in out                 # the rule is exactly representable
    assert "age <=" in out and "colour" in out


def test_fit_writes_json_that_predicts_like_the_printed_tree(csv_file, tmp_path, capsys):
    path, frame = csv_file
    out_json = tmp_path / "tree.json"
    assert main(["fit", str(path), "--target", "label", "--regularization", "0.02", "--max-thresholds", "8",
                 "--json", str(out_json)]) == 0
    assert f"tree written to {out_json}" in capsys.readouterr().out
    tree = Tree.from_dict(json.loads(out_json.read_text()))
    X = frame.drop(columns=["label"])
    assert (tree.predict(X, binarized=False) == frame.label.to_numpy()).all()


def test_fit_with_depth_budget_and_time_limit(csv_file, capsys):
    path, _ = csv_file
    assert main(["fit", str(path), "--target", "label", "--depth-budget", "1", "--time-limit", "30"]) == 0
    out = capsys.readouterr().out
    assert "depth 1" in out or "depth 0" in out


def test_fit_reports_bad_input_without_a_traceback(tmp_path):
    path = tmp_path / "one_class.csv"
    pd.DataFrame({"x": [1, 2, 3], "label": ["a", "a", "a"]}).to_csv(path, index=False)
    with pytest.raises(SystemExit, match="only one class"):
        main(["fit", str(path), "--target", "label"])
    with pytest.raises(SystemExit, match="regularization"):
        main(["fit", str(path), "--target", "label", "--regularization", "0"])


def test_commands_registry_and_help(capsys):
    assert {"demo", "fit"} <= set(COMMANDS)
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    assert "fit" in capsys.readouterr().out

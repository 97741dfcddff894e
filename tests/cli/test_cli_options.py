"""Every option explains itself, bad values are refused by the parser, and messages name only flags that exist."""

from __future__ import annotations

import argparse
import json
import re

import numpy as np
import pandas as pd
import pytest

from treeopt.cli import COMMANDS, main
from treeopt.registry import SOLVERS


def _parsers() -> dict:
    parsers = {}
    for name, (_, add_arguments, _) in COMMANDS.items():
        parser = argparse.ArgumentParser(prog=f"treeopt {name}")
        add_arguments(parser)
        parsers[name] = parser
    return parsers


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_option_has_help_text(command):
    parser = _parsers()[command]
    undocumented = [action.dest for action in parser._actions if not action.help]
    assert undocumented == []


def test_solver_and_objective_list_their_choices(capsys):
    with pytest.raises(SystemExit) as info:
        main(["fit", "d.csv", "--target", "y", "--help"])
    assert info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert all(name in text for name in SOLVERS) and "partial_auc" in text and "--depth-budget DEPTH" in text


@pytest.mark.parametrize("option, value", [("--solver", "gsodt"), ("--depth-budget", "-1"),
                                           ("--depth-budget", "two"), ("--objective", "accurracy")])
def test_a_bad_option_value_is_a_usage_error_before_reading(option, value, capsys):
    with pytest.raises(SystemExit) as info:
        main(["fit", "no-such-file.csv", "--target", "y", option, value])
    assert info.value.code == 2                                # argparse's usage error, not a search
    assert option in capsys.readouterr().err


@pytest.fixture
def with_missing(tmp_path):
    frame = pd.DataFrame({"a": [1, 0, 1, 0, 1, 0] * 4, "b": [1.0, np.nan, 3.0, 4.0, np.nan, 2.0] * 4})
    frame["y"] = (frame.a == 1).astype(int)
    path = tmp_path / "holes.csv"
    frame.to_csv(path, index=False)
    return path


def _flags_of(command) -> set:
    return {flag for action in _parsers()[command]._actions for flag in action.option_strings}


@pytest.mark.parametrize("command", ["fit", "frontier"])
def test_messages_name_only_flags_the_command_has(with_missing, command):
    extra = ["--max-leaves", "3"] if command == "frontier" else []
    with pytest.raises(SystemExit) as info:
        main([command, str(with_missing), "--target", "y", *extra])
    message = str(info.value.code)
    assert "--missing indicator" in message
    named = set(re.findall(r"--[a-z][a-z-]*", message))
    assert named and named <= _flags_of(command)
    assert "missing='indicator'" not in message


def test_the_frontiers_warnings_name_its_flags(tmp_path, capsys):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.random((400, 3)).round(6), columns=["a", "b", "c"])
    frame["y"] = (frame["a"] > 0.5).astype(int)
    path = tmp_path / "wide.csv"
    frame.to_csv(path, index=False)
    assert main(["frontier", str(path), "--target", "y", "--max-leaves", "2", "--thresholds", "all"]) == 0
    err = capsys.readouterr().err
    assert "--max-thresholds" in err and "max_thresholds=" not in err
    assert set(re.findall(r"--[a-z][a-z-]*", err)) <= _flags_of("frontier")


def test_frontier_reads_missing_values_with_an_indicator(with_missing, capsys):
    assert main(["frontier", str(with_missing), "--target", "y", "--max-leaves", "3",
                 "--missing", "indicator"]) == 0
    assert "complete frontier" in capsys.readouterr().out


def test_an_empty_separator_is_a_one_line_error(with_missing):
    with pytest.raises(SystemExit, match=r"--sep is empty; give the column separator"):
        main(["fit", str(with_missing), "--target", "y", "--sep", ""])


def test_a_typed_backslash_t_separator_means_tab(tmp_path, capsys):
    path = tmp_path / "tabs.tsv"
    path.write_text("a\tb\ty\n" + "1\t0\t1\n0\t1\t0\n0\t0\t0\n1\t1\t1\n" * 3)
    assert main(["fit", str(path), "--target", "y", "--sep", "\\t"]) == 0
    assert "predict" in capsys.readouterr().out


def test_a_table_with_only_the_target_is_a_one_line_error(tmp_path):
    path = tmp_path / "only.csv"
    path.write_text("y\n1\n0\n1\n")
    with pytest.raises(SystemExit, match=r"has only the target column 'y'; a tree needs at least one feature"):
        main(["fit", str(path), "--target", "y"])


def test_an_option_of_the_chosen_solver_reaches_it(tmp_path, capsys):
    path = tmp_path / "xor.csv"
    path.write_text("a,b,y\n" + "0,0,0\n0,1,1\n1,0,1\n1,1,0\n" * 5)
    code = main(["fit", str(path), "--target", "y", "--solver", "frontier", "--regularization", "0.01",
                 "--option", "max_leaves=3", "--json", "-"])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["certificate"]["solver"] == "frontier"


def test_an_option_the_solver_does_not_take_is_named(tmp_path, capsys):
    path = tmp_path / "xor.csv"
    path.write_text("a,b,y\n" + "0,0,0\n0,1,1\n1,0,1\n1,1,0\n" * 5)
    with pytest.raises(SystemExit) as stopped:
        main(["fit", str(path), "--target", "y", "--solver", "gosdt", "--option", "epsilon=0.05"])
    assert stopped.value.code not in (0, None)
    assert "takes no option" in str(stopped.value) + capsys.readouterr().err


def test_an_option_without_a_value_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["fit", "d.csv", "--target", "y", "--option", "max_leaves"])
    assert stopped.value.code == 2 and "NAME=VALUE" in capsys.readouterr().err


def test_the_tie_break_option_takes_lambda_zero_to_the_continuous_solver(tmp_path, capsys):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 2))          # many thresholds: the continuous solver's table (few go to GOSDT)
    frame = pd.DataFrame(X, columns=["a", "b"])
    frame["y"] = ((X[:, 0] > 0) ^ (X[:, 1] > 0.3)).astype(int)
    path = tmp_path / "xor.csv"
    frame.to_csv(path, index=False)
    code = main(["fit", str(path), "--target", "y", "--regularization", "0", "--depth-budget", "3",
                 "--option", "tie_break=any", "--json", "-"])
    assert code == 0
    certificate = json.loads(capsys.readouterr().out)["certificate"]
    assert certificate["solver"] == "continuous" and certificate["status"] == "optimal"
    assert certificate["objective"] == 0.0

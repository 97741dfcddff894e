"""Every option explains itself, bad values are refused by the parser, and messages name only flags that exist."""

from __future__ import annotations

import argparse
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

"""``treeopt frontier`` stopped by SIGTERM or Ctrl-C prints and writes the frontier certified so far."""

from __future__ import annotations

import signal

import pandas as pd
import pytest

from treeopt.cli import main
from treeopt.datasets import load_monk
from treeopt.frontier import search as frontier_search

from sigint_timer import ctrl_c_while_binarizing


@pytest.fixture(autouse=True)
def python_sigint_handler():
    """Python's own SIGINT handler, as at a terminal (a test run started in the background inherits SIGINT
    ignored, and the command leaves an ignored signal ignored)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("signum, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_stopped_frontier_keeps_its_certified_points(tmp_path, capsys, monkeypatch, signum, code):
    X, y = load_monk(2)
    path = tmp_path / "monk2.csv"
    X.assign(label=y).to_csv(path, index=False)
    original = frontier_search.FrontierSearch._solve
    calls = {"n": 0}

    def solve_then_stop(self, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 40:
            signal.raise_signal(signum)
        return (yield from original(self, *args, **kwargs))

    monkeypatch.setattr(frontier_search.FrontierSearch, "_solve", solve_then_stop)
    output = tmp_path / "front.csv"
    assert main(["frontier", str(path), "--target", "label", "--max-leaves", "8", "--output", str(output)]) == code
    printed = capsys.readouterr().out
    assert "search stopped (interrupted)" in printed and "leaves certified up to 8 leaves" in printed
    table = pd.read_csv(output)
    assert len(table) >= 1 and table["certified"].any()


def test_a_frontier_stopped_while_binarizing_says_so_and_writes_the_single_leaf(tmp_path, capsys, monkeypatch):
    """A real SIGINT during the setup: one line says where it stopped, exit 130, the single leaf written."""
    X, y = load_monk(2)
    path = tmp_path / "monk2.csv"
    X.assign(label=y, score=range(len(y))).to_csv(path, index=False)      # a numeric column to binarize
    sent = ctrl_c_while_binarizing(monkeypatch)
    output = tmp_path / "front.csv"
    code = main(["frontier", str(path), "--target", "label", "--max-leaves", "4", "--output", str(output)])
    assert sent and code == 130
    printed = capsys.readouterr().out
    lines = [line for line in printed.splitlines() if "interrupted while binarizing" in line]
    assert len(lines) == 1 and "single leaf only, uncertified" in lines[0]
    table = pd.read_csv(output)
    assert table["leaves"].tolist() == [1] and not table["certified"].any()

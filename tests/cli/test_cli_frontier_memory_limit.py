"""``treeopt frontier --memory-limit``: parsed as ``treeopt fit``'s, and a frontier stopped by it prints
and writes the points certified so far, says so in one line and exits with 3 (uncertified)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from treeopt.cli import main
from treeopt.cli.exits import EXIT_UNCERTIFIED

from frontier_memory import fake_memory_past


@pytest.fixture
def table_path(tmp_path):
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.normal(size=(40, 3)), columns=["a", "b", "c"])
    path = tmp_path / "random.csv"
    X.assign(y=(rng.random(40) < 0.5).astype(int)).to_csv(path, index=False)
    return path


def test_the_flag_is_documented_and_a_bad_value_is_refused(table_path, capsys):
    with pytest.raises(SystemExit):
        main(["frontier", "--help"])
    assert "--memory-limit" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="memory_limit must be a positive number of bytes"):
        main(["frontier", str(table_path), "--target", "y", "--memory-limit", "lots"])


def test_a_frontier_stopped_by_the_memory_limit_is_reported_and_written(table_path, tmp_path, capsys, monkeypatch):
    fake_memory_past(monkeypatch, 10**12, solves=200)
    output = tmp_path / "front.csv"
    code = main(["frontier", str(table_path), "--target", "y", "--depth-budget", "3", "--memory-limit", "1TB",
                 "--output", str(output)])
    printed = capsys.readouterr().out
    assert code == EXIT_UNCERTIFIED
    assert "search stopped (memory_limit)" in printed
    assert sum("passed --memory-limit 1TB" in line for line in printed.splitlines()) == 1
    table = pd.read_csv(output)
    assert table["certified"].any() and table["leaves"].max() < 8     # the depth-3 frontier reaches 8 leaves


def test_a_cross_validated_frontier_stopped_by_the_memory_limit_says_so(table_path, capsys, monkeypatch):
    fake_memory_past(monkeypatch, 10**12, solves=50)
    code = main(["frontier", str(table_path), "--target", "y", "--cv", "3", "--max-leaves", "8",
                 "--memory-limit", "1TB"])
    printed = capsys.readouterr().out
    assert code == EXIT_UNCERTIFIED
    assert "(memory_limit, certified up to" in printed
    assert sum("passed --memory-limit 1TB" in line for line in printed.splitlines()) == 1


def test_the_real_resident_memory_stops_the_search_in_a_fresh_process(table_path):
    """No fake: a limit a little above what the command's process holds before its search (which
    grows far past it when left alone) stops the search, and the command reports the stop."""
    script = ("import sys\n"
              "from treeopt.cli import main\n"
              "from treeopt.memory import resident_memory\n"
              "limit = resident_memory() + 20 * 10**6\n"
              f"sys.exit(main(['frontier', {str(table_path)!r}, '--target', 'y', '--depth-budget', '3', "
              "'--memory-limit', str(limit)]))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == EXIT_UNCERTIFIED, done.stdout + done.stderr
    assert "search stopped (memory_limit)" in done.stdout

"""The command line never loses the user's work or data, and never shows a traceback (issue 17, items 7, 10-14).

SIGTERM (``timeout``, ``kill``) stops a search like Ctrl-C: the best tree and its gap are printed
and the JSON written. Exit codes say what happened (``treeopt/cli/exits.py``).
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from treeopt.cli import main
from treeopt.cli.exits import EXIT_UNCERTIFIED
from treeopt.tree import Tree

from conftest import DATASETS, require_datasets


def _treeopt_command() -> list:
    script = Path(sys.executable).parent / "treeopt"
    return [str(script)] if script.exists() else [sys.executable, "-c", "import sys; from treeopt.cli import main; "
                                                                         "sys.exit(main())"]


def _wait_for_output(stream, timeout: float) -> bytes:
    """The first bytes written to ``stream`` (the progress line: the search has started)."""
    seen = []
    reader = threading.Thread(target=lambda: seen.append(stream.read(1)), daemon=True)
    reader.start()
    reader.join(timeout)
    return seen[0] if seen else b""


def test_sigterm_prints_the_best_tree_and_writes_the_json(tmp_path):
    require_datasets()
    out_json = tmp_path / "t.json"
    command = _treeopt_command() + ["fit", str(DATASETS / "binary" / "tic-tac-toe.csv"), "--target", "target",
                                    "--sep", ";", "--regularization", "0.002", "--json", str(out_json)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert _wait_for_output(process.stderr, timeout=60), "no progress line: the search did not start"
        process.send_signal(signal.SIGTERM)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    text = stdout.decode()
    assert process.returncode == 128 + signal.SIGTERM, stderr.decode()[-2000:]
    assert "NOT certified (interrupted" in text and "gap" in text and "predict" in text
    assert "Traceback" not in stderr.decode()
    tree = Tree.from_dict(json.loads(out_json.read_text()))
    assert tree.n_leaves >= 1


@pytest.fixture
def small_csv(tmp_path):
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"a": rng.integers(0, 2, 60), "b": rng.integers(0, 5, 60)})
    frame["y"] = (frame.a ^ (frame.b > 2)).astype(int)
    path = tmp_path / "d.csv"
    frame.to_csv(path, index=False)
    return path


def test_exit_code_of_a_search_stopped_by_a_limit(small_csv, tmp_path, capsys, monkeypatch):
    import treeopt.solvers.base as base
    monkeypatch.setattr(base, "resident_memory", lambda: 10**15)       # always over the limit
    import treeopt.building as building
    monkeypatch.setattr(building, "resident_memory", lambda: 0)
    out_json = tmp_path / "t.json"
    code = main(["fit", str(small_csv), "--target", "y", "--regularization", "0.01", "--memory-limit", "1GB",
                 "--json", str(out_json)])
    assert code == EXIT_UNCERTIFIED == 3
    assert "NOT certified (memory_limit" in capsys.readouterr().out
    assert Tree.from_dict(json.loads(out_json.read_text())).n_leaves == 1


def test_exit_code_of_a_certified_search_is_zero(small_csv):
    assert main(["fit", str(small_csv), "--target", "y", "--regularization", "0.05"]) == 0

"""The command line never loses the user's work or data, and never shows a traceback.

SIGTERM (``timeout``, ``kill``) stops a search like Ctrl-C: the best tree and its gap are printed
and the JSON written. Exit codes say what happened (``treeopt/cli/exits.py``).
"""

import json
import signal
import subprocess
import sys
import threading
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


def _signal_once_searching(command: list, signum, preexec_fn=None) -> tuple:
    """Run ``command``, send it ``signum`` once its progress line shows the search has started, and
    return ``(returncode, stdout, stderr)`` as text."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=preexec_fn)
    try:
        assert _wait_for_output(process.stderr, timeout=60), "no progress line: the search did not start"
        process.send_signal(signum)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    return process.returncode, stdout.decode(), stderr.decode()


def test_sigterm_prints_the_best_tree_and_writes_the_json(tmp_path):
    require_datasets()
    out_json = tmp_path / "t.json"
    command = _treeopt_command() + ["fit", str(DATASETS / "binary" / "tic-tac-toe.csv"), "--target", "target",
                                    "--sep", ";", "--regularization", "0.002", "--json", str(out_json)]
    returncode, text, stderr = _signal_once_searching(command, signal.SIGTERM)
    assert returncode == 128 + signal.SIGTERM, stderr[-2000:]
    assert "NOT certified (interrupted" in text and "gap" in text and "predict" in text
    assert "Traceback" not in stderr
    tree = Tree.from_dict(json.loads(out_json.read_text()))
    assert tree.n_leaves >= 1


def test_a_sigint_the_command_was_started_to_ignore_stays_ignored(tmp_path):
    """``nohup`` and a shell's background jobs start a command with SIGINT ignored: a Ctrl-C in that
    terminal must not stop it (Python leaves such a signal ignored; the command's own stop handler did not)."""
    require_datasets()
    out_json = tmp_path / "t.json"
    command = _treeopt_command() + ["fit", str(DATASETS / "binary" / "tic-tac-toe.csv"), "--target", "target",
                                    "--sep", ";", "--regularization", "0.002", "--time-limit", "4", "--json", str(out_json)]
    ignore_sigint = lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)   # noqa: E731
    returncode, stdout, stderr = _signal_once_searching(command, signal.SIGINT, preexec_fn=ignore_sigint)
    # The search ran on to its time limit: not stopped by the signal.
    assert returncode == EXIT_UNCERTIFIED, stderr[-2000:]
    assert "time_limit" in stdout and "interrupted" not in stdout
    assert Tree.from_dict(json.loads(out_json.read_text())).n_leaves >= 1


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


# -- item 10: an output path that is an input ---------------------------------------------------
def test_fit_refuses_to_overwrite_its_input(small_csv):
    before = small_csv.read_bytes()
    with pytest.raises(SystemExit, match="is the input file"):
        main(["fit", str(small_csv), "--target", "y", "--json", str(small_csv)])
    assert small_csv.read_bytes() == before


@pytest.mark.parametrize("which", ["csv", "test"])
def test_frontier_refuses_to_overwrite_its_inputs(small_csv, tmp_path, which):
    held_out = tmp_path / "test.csv"
    held_out.write_bytes(small_csv.read_bytes())
    target = small_csv if which == "csv" else held_out
    before = target.read_bytes()
    with pytest.raises(SystemExit, match="is the input file"):
        main(["frontier", str(small_csv), "--target", "y", "--max-leaves", "3", "--test", str(held_out),
              "--output", str(target)])
    assert target.read_bytes() == before


def test_frontier_refuses_the_same_file_through_another_name(small_csv, tmp_path):
    link = tmp_path / "link.csv"
    link.symlink_to(small_csv)
    with pytest.raises(SystemExit, match="is the input file"):
        main(["frontier", str(small_csv), "--target", "y", "--output", str(link)])


# -- item 11: output paths checked before the search ---------------------------------------------
@pytest.mark.parametrize("make_path,message", [
    (lambda tmp: tmp / "no" / "such" / "dir" / "t.json", "does not exist"),
    (lambda tmp: tmp, "is a directory"),
    (lambda tmp: Path("/proc/version"), "cannot write"),
])
def test_bad_output_paths_are_refused_before_the_search(small_csv, tmp_path, monkeypatch, make_path, message):
    import treeopt.cli.commands as commands
    searched = []
    monkeypatch.setattr(commands, "_fit", lambda *a: searched.append(1) or 0.0)
    with pytest.raises(SystemExit, match=message):
        main(["fit", str(small_csv), "--target", "y", "--json", str(make_path(tmp_path))])
    assert not searched, "the output path was checked only after the search"


def test_a_good_output_path_is_left_as_it_was_until_written(small_csv, tmp_path, capsys):
    out_json = tmp_path / "t.json"
    assert main(["fit", str(small_csv), "--target", "y", "--json", str(out_json)]) == 0
    assert Tree.from_dict(json.loads(out_json.read_text())).n_leaves >= 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "t.json"]      # no temporary left


# -- items 12, 13: bad files give one line and a non-zero exit ---------------------------------------
BAD_FILES = {
    "empty": (b"", "is empty"),
    "latin-1": ("café,y\n1,0\n2,1\n".encode("latin-1"), "not UTF-8"),
    "binary": (bytes(range(256)) * 4, "not UTF-8|not a text file"),
    "ragged": (b"a,b,y\n1,2,0\n1,2,3,4,5\n", "line 3 has 5 fields"),
}


@pytest.mark.parametrize("kind", sorted(BAD_FILES))
@pytest.mark.parametrize("sep", [None, ","])
def test_bad_files_give_one_line_not_a_traceback(tmp_path, kind, sep):
    content, message = BAD_FILES[kind]
    path = tmp_path / "bad.csv"
    path.write_bytes(content)
    argv = ["fit", str(path), "--target", "y"] + ([] if sep is None else ["--sep", sep])
    with pytest.raises(SystemExit, match=message) as error:
        main(argv)
    assert str(error.value).startswith("treeopt: ") and "\n" not in str(error.value)


def test_a_directory_as_input_gives_one_line(tmp_path):
    with pytest.raises(SystemExit, match="is a directory"):
        main(["fit", str(tmp_path), "--target", "y"])


def test_demo_with_zero_regularization_gives_one_line():
    with pytest.raises(SystemExit, match="regularization"):
        main(["demo", "--regularization", "0"])


def test_bad_file_through_the_console_script_exits_1_without_traceback(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_bytes(b"")
    done = subprocess.run(_treeopt_command() + ["fit", str(path), "--target", "y"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().count("\n") == 0 and "Traceback" not in done.stderr


def test_a_utf8_bom_is_not_part_of_the_first_column_name(tmp_path, capsys):
    path = tmp_path / "bom.csv"
    path.write_bytes("\ufeffy;a\n0;1\n1;2\n0;3\n1;4\n".encode("utf-8"))
    for sep in ([], ["--sep", ";"]):
        assert main(["fit", str(path), "--target", "y", "--regularization", "0.1"] + sep) == 0

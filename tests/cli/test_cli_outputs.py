"""Output files written as a careful tool would: through symlinks, into FIFOs, ``-`` as stdout."""

from __future__ import annotations

import io
import json
import os
import stat
import threading

import numpy as np
import pandas as pd
import pytest

from treeopt.cli import main
from treeopt.cli.outputs import check_output, write_output
from treeopt.tree import Tree


@pytest.fixture
def small_csv(tmp_path):
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"a": rng.integers(0, 2, 40), "b": rng.integers(0, 4, 40)})
    frame["y"] = (frame.a ^ (frame.b > 1)).astype(int)
    path = tmp_path / "d.csv"
    frame.to_csv(path, index=False)
    return path


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_output(str(link), "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new"                       # the target is current, not stale
    assert stat.S_IMODE(target.stat().st_mode) == 0o640        # and keeps its permissions
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.json", "real.json"]


def test_a_dangling_symlink_is_checked_without_losing_the_link(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "later.json")
    check_output(str(link), [], "--json")
    assert link.is_symlink() and not (tmp_path / "later.json").exists()
    write_output(str(link), "{}")
    assert link.is_symlink() and (tmp_path / "later.json").read_text() == "{}"


def _read_fifo(path, into):
    with open(path, encoding="utf-8") as handle:
        into.append(handle.read())


def test_a_fifo_is_written_into_not_replaced(tmp_path, small_csv, capsys):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=_read_fifo, args=(fifo, received), daemon=True)
    reader.start()
    code = main(["fit", str(small_csv), "--target", "y", "--regularization", "0.05", "--json", str(fifo)])
    reader.join(30)
    assert code == 0
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)                # still the FIFO, not a regular file
    assert Tree.from_json(received[0]).n_leaves >= 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "pipe"]


def test_a_symlink_to_a_fifo_is_written_into(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "out"
    link.symlink_to(fifo)                                    # what /dev/stdout is when stdout is a pipe
    received = []
    reader = threading.Thread(target=_read_fifo, args=(fifo, received), daemon=True)
    reader.start()                                           # first: an open of the FIFO never waits forever
    check_output(str(link), [], "--json")                    # only asks; opening would end the reader's read
    write_output(str(link), "through")
    reader.join(30)
    assert received == ["through"] and link.is_symlink() and stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_json_dash_is_stdout_and_the_report_goes_to_stderr(tmp_path, small_csv, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["fit", str(small_csv), "--target", "y", "--regularization", "0.05", "--json", "-"]) == 0
    captured = capsys.readouterr()
    document = json.loads(captured.out)                      # stdout is the JSON and nothing else
    assert document["certificate"]["status"] == "optimal"
    assert "certified optimal" in captured.err and "predict" in captured.err
    assert not (tmp_path / "-").exists()


def test_frontier_output_dash_is_the_csv_on_stdout(tmp_path, small_csv, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["frontier", str(small_csv), "--target", "y", "--max-leaves", "3", "--output", "-"]) == 0
    captured = capsys.readouterr()
    table = pd.read_csv(io.StringIO(captured.out))
    assert {"leaves", "accuracy", "certified"} <= set(table.columns) and len(table) >= 1
    assert "complete frontier" in captured.err
    assert not (tmp_path / "-").exists()


def test_a_write_that_fails_after_the_search_is_one_line_and_keeps_the_old_file(tmp_path, small_csv, monkeypatch):
    import treeopt.cli.outputs as outputs

    path = tmp_path / "tree.json"
    path.write_text("old")

    class FullDisk(io.StringIO):
        def write(self, text):
            raise OSError(28, "No space left on device")

    real_open = open
    monkeypatch.setattr(outputs, "open", lambda file, mode="r", **kw: FullDisk() if "w" in mode else
                        real_open(file, mode, **kw), raising=False)
    with pytest.raises(SystemExit) as info:
        main(["fit", str(small_csv), "--target", "y", "--json", str(path)])
    assert str(info.value.code) == (f"treeopt: writing --json {path} failed (No space left on device); the report "
                                    "above is complete, the file is not.")
    assert path.read_text() == "old" and sorted(os.listdir(tmp_path)) == sorted(["tree.json", small_csv.name])

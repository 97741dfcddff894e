"""The offline replay page (widgets/replay.py): its embedded frames are the recording's frames.

Headless: the page's JSON is read back out of the saved HTML and compared with
the :class:`~widgets.recording.Frame` objects it was built from. The page in a
real browser is tested in ``test_replay_browser.py``.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from treeopt import make_solver
from treeopt.data import Dataset
from treeopt.datasets import load_monk
from treeopt.registry import SOLVERS
from treeopt.solvers import GOSDT
from treeopt.widgets import record_replay, save_replay
from treeopt.widgets.replay import record, replay_data, replay_html

DATA_ELEMENT = re.compile(r'<script type="application/json" id="treeopt-replay-data">(.*?)</script>', re.S)


def embedded(page: str) -> dict:
    """The replay data stored in a saved page, as the page's script reads it."""
    found = DATA_ELEMENT.findall(page)
    assert len(found) == 1, "the page must hold exactly one data element"
    return json.loads(found[0])


def bound(value: float):
    return float(value) if math.isfinite(value) else None


def assert_frames_equal(data: dict, frames: list) -> None:
    """Every stored frame says what the recorded frame says (bounds, status, tree, queue, prunes, trace)."""
    assert len(data["frames"]) == len(frames)
    for k, (stored, frame) in enumerate(zip(data["frames"], frames)):
        s = frame.snapshot
        assert stored["expansions"] == s.expansions, k
        assert stored["lower"] == bound(s.lower_bound) and stored["upper"] == bound(s.upper_bound), k
        assert stored["status"] == s.status and stored["queue_size"] == s.queue_size, k
        assert stored["improved"] == frame.improved, k
        if s.best_tree is None:
            assert stored["tree"] is None, k
        else:
            tree = data["trees"][stored["tree"]]
            assert tree["rules"] == s.best_tree.rules() and tree["leaves"] == s.best_tree.n_leaves, k
            assert tree["svg"].startswith("<svg") and tree["svg"].count("<rect") >= s.best_tree.n_leaves, k
        assert stored["queue"] == [[bound(e.lower_bound), bound(e.upper_bound), float(e.support), e.rule]
                                   for e in s.queue], k
        assert dict(zip(data["prune_names"], stored["prunes"])) == {
            name: s.prune_counts.get(name, 0) for name in data["prune_names"]}, k
        assert set(s.prune_counts) <= set(data["prune_names"]), k
        trace, length = data["traces"][stored["trace"][0]], stored["trace"][1]
        assert length == frame.trace_length, k
        assert trace[:length] == [[p.elapsed, p.expansions, bound(p.lower_bound), bound(p.upper_bound)]
                                  for p in frame.trace[:frame.trace_length]], k


@pytest.fixture(scope="module")
def monk_recording():
    return record(make_solver(*load_monk(1), regularization=0.02), max_frames=60)


def test_the_saved_page_holds_the_recordings_frames(monk_recording, tmp_path):
    path = save_replay(monk_recording, tmp_path / "search.html", title="monk 1")
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<h1>monk 1</h1>" in page
    assert_frames_equal(embedded(page), monk_recording.frames)


def test_record_replay_saves_a_search_driven_from_plain_python(tmp_path):
    solver = make_solver(*load_monk(1), regularization=0.02)
    recording = record_replay(solver, tmp_path / "search.html", max_frames=30)
    assert 2 <= len(recording) <= 30
    assert recording[0].snapshot.expansions == 0
    assert recording[-1].snapshot.status == "optimal" and recording[-1].snapshot.expansions == solver.expansions
    steps = [f.snapshot.expansions for f in recording]
    assert steps == sorted(steps) and len(set(steps)) == len(steps)
    assert_frames_equal(embedded((tmp_path / "search.html").read_text(encoding="utf-8")), recording.frames)


def test_recording_a_long_search_keeps_frames_spread_over_all_of_it():
    solver = make_solver(*load_monk(1), regularization=0.005)
    snapshots = []
    take = solver.snapshot
    solver.snapshot = lambda top_k=10: snapshots.append(top_k) or take(top_k)
    recording = record(solver, max_frames=20)
    steps = [f.snapshot.expansions for f in recording]
    assert len(recording) <= 20 and steps[-1] == solver.expansions > 100
    # Frames cover the whole search, not only its start: no stretch without a frame is longer than a
    # fifth of it.
    assert max(b - a for a, b in zip(steps, steps[1:])) <= solver.expansions / 5
    # The units between frames grow as the recording thins, so most units of work take no snapshot.
    assert len(snapshots) < solver.expansions / 4


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_every_registered_solvers_search_saves_as_a_replay(name, tmp_path):
    recording = record_replay(make_solver(*load_monk(1), solver=name, regularization=0.05),
                              tmp_path / f"{name}.html", max_frames=30, time_limit=30)
    data = embedded((tmp_path / f"{name}.html").read_text(encoding="utf-8"))
    assert data["solver"] == recording[-1].snapshot.solver
    assert_frames_equal(data, recording.frames)


def test_each_tree_is_stored_once(monk_recording):
    data = replay_data(monk_recording)
    drawn = {f.snapshot.best_tree.rules() for f in monk_recording if f.snapshot.best_tree is not None}
    assert len(data["trees"]) == len(drawn) < sum(f["tree"] is not None for f in data["frames"])


def test_the_page_names_no_url_and_loads_nothing(monk_recording):
    page = replay_html(monk_recording)
    assert "http://" not in page and "https://" not in page and "//" not in re.sub(r"<script.*?</script>", "",
                                                                                   page, flags=re.S)
    assert not re.search(r"\b(src|href)\s*=", page), "the page must not refer to another file"
    assert page.count("<script") == 2                    # the data and the inline player


def test_a_feature_name_cannot_end_the_script_early(tmp_path):
    # A column named like markup: it must reach the page's data intact and never close the <script> element.
    X = pd.DataFrame({"</script><script>alert(1)</script>": [0, 1] * 6, "b & <c>": [0, 0, 1, 1] * 3})
    y = np.array([0, 1] * 6)
    recording = record(make_solver(X, y, regularization=0.05))
    page = replay_html(recording)
    assert page.count("</script>") == 2
    data = embedded(page)
    rules = data["trees"][data["frames"][-1]["tree"]]["rules"]
    assert "</script><script>alert(1)</script>" in rules and rules == recording[-1].snapshot.best_tree.rules()


def test_a_search_stopped_at_a_time_limit_says_so():
    from treeopt.datasets import load_tic_tac_toe
    solver = make_solver(*load_tic_tac_toe(), regularization=0.01, depth_budget=5)
    recording = record(solver, time_limit=0.3)
    assert recording[-1].snapshot.status == "time_limit" and replay_data(recording)["frames"][-1]["status"] == \
        "time_limit"


def test_the_players_save_writes_its_recording_as_a_replay(tmp_path):
    from treeopt.widgets import explore
    player = explore(*load_monk(1), regularization=0.02)
    for _ in range(6):
        player.step(3)
    path = player.save(tmp_path / "player.html", title="six steps")
    page = path.read_text(encoding="utf-8")
    assert "<h1>six steps</h1>" in page
    assert_frames_equal(embedded(page), player.recording.frames)
    static = player.save(tmp_path / "static.html", replay=False).read_text(encoding="utf-8")
    assert "<script" not in static and "objective" in static
    assert "<script" not in player.to_html() and player.to_html(replay=True) == replay_html(player.recording)


def test_bad_input_is_refused_before_the_search_starts(tmp_path):
    solver = GOSDT(Dataset.from_binary(np.array([[0], [1]] * 3), [0, 1] * 3), regularization=0.1)
    with pytest.raises(ValueError, match=r"\.html path"):
        record_replay(solver, tmp_path / "search.png")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        record_replay(solver, tmp_path / "missing" / "search.html")
    with pytest.raises(ValueError, match="max_frames"):
        record_replay(solver, tmp_path / "search.html", max_frames=1)
    with pytest.raises(ValueError, match="time_limit"):
        record_replay(solver, tmp_path / "search.html", time_limit=0)
    assert solver.expansions == 0 and not (tmp_path / "search.html").exists()
    with pytest.raises(TypeError, match="stepwise solver"):
        record_replay(object(), tmp_path / "search.html")
    with pytest.raises(TypeError, match="record_replay"):
        replay_html([])

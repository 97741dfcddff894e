"""Playing: slices bounded by time, "running" at once, Play from a replayed frame goes live.

Time is faked: the solver's ``step`` advances a fake clock by a fixed cost per
unit of work and the player reads that clock, so the tests check where a
slice stops without measuring (or waiting for) real time.
"""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("ipywidgets")

from treeopt.datasets import load_monk  # noqa: E402
from treeopt.widgets import TraceView, TreeView, explore  # noqa: E402


class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def costly(player, seconds_per_unit: float) -> FakeClock:
    """Make each unit of the player's solver 'cost' ``seconds_per_unit`` on a fake clock the player reads."""
    clock = FakeClock()
    solver, real_step = player.solver, player.solver.step

    def step(n=1):
        clock.now += seconds_per_unit * n
        return real_step(n)

    solver.step = step
    player._clock = clock
    return clock


@pytest.fixture(scope="module")
def monk2():
    return load_monk(2)


def first_slices(player, n_slices: int) -> list:
    """Play, pause after ``n_slices`` slices; the step counts after each slice and the status seen at Play."""
    seen = []

    def hook(p):
        seen.append(p.n_steps)
        if len(seen) == n_slices:
            p.pause()

    player.on_step(hook)

    async def scenario():
        task = player.play()
        status = (player.status, player.running, "running" in player.controls.status_label.value)
        await task
        return status

    return asyncio.run(scenario()), seen


def test_a_slice_of_expensive_steps_ends_on_time_not_on_count(monk2):
    X, y = monk2
    player = explore(X, y, regularization=0.001, views=None, speed=200, slice_seconds=0.05)
    costly(player, 0.03)                          # an OSDT step on AUC costs about 30 ms
    status_at_play, seen = first_slices(player, 3)
    assert status_at_play == ("running", True, True)   # the label says "running" before any work
    # 0.03 s < 0.05 s after one unit, 0.06 s after two: each slice stops at 2 units, not at speed=200.
    assert seen == [2, 4, 6]
    assert player.status == "paused" and player.n_steps == 6


def test_a_slice_of_cheap_steps_ends_at_speed_and_chunks_grow(monk2):
    X, y = monk2
    player = explore(X, y, regularization=0.001, views=None, speed=50, slice_seconds=0.05)
    calls = []
    clock = costly(player, 1e-5)
    real = player.solver.step

    def counting(n=1):
        calls.append(n)
        return real(n)

    player.solver.step = counting
    _, seen = first_slices(player, 2)
    assert seen == [50, 100]                      # 50 units = 0.5 ms: the count bounds these slices
    assert len(calls) < 20 and max(calls) > 1     # in chunks sized from the measured cost, not unit by unit
    assert clock.now == pytest.approx(100 * 1e-5)


def test_a_slow_slice_is_split_by_time_whatever_the_speed(monk2):
    X, y = monk2
    player = explore(X, y, regularization=0.001, views=None, speed=5000, slice_seconds=0.05)
    clock = costly(player, 0.001)
    _, seen = first_slices(player, 4)
    # 1 ms per unit: about 50 units per slice (at most a quarter slice over), never the 5000 asked for.
    assert all(0 < b - a <= 63 for a, b in zip([0] + seen, seen)), seen
    assert clock.now <= 4 * 0.05 * 1.25 + 1e-9


def test_play_from_a_replayed_frame_returns_every_view_to_live(monk2):
    X, y = monk2
    player = explore(X, y, regularization=0.005, views=[TraceView, TreeView])
    trace, tree = player.views
    for _ in range(4):
        player.step(200)
    player.show(1)
    assert not player.live and trace.data["x"][-1] == 200

    async def play_a_little():
        task = player.play()
        assert player.live and player.frame is player.recording[-1]   # live at once, before any new work
        await asyncio.sleep(0)
        player.pause()
        await task

    asyncio.run(play_a_little())
    assert player.live and player.frame is player.recording[-1]
    assert trace.data["x"][-1] == player.n_steps > 800
    assert tree.tree is player.frame.snapshot.best_tree
    # A finished search scrubbed back: Play has no work left but still shows the live (final) state.
    while player.step(10**5):
        pass
    player.show(0)
    assert trace.data["x"][-1] == 0
    assert asyncio.run(player.play_until_done()) == "optimal"
    assert player.live and trace.data["x"][-1] == player.n_steps and player.frame.snapshot.status == "optimal"


def test_slow_motion_plays_single_steps_and_draws_each(monk2):
    X, y = monk2
    player = explore(X, y, regularization=0.001, views=[TraceView], rate=20.0)
    assert player.controls.rate_box.value == 20.0
    player.rate = 50.0                               # the trait and the control agree
    assert player.controls.rate_box.value == 50.0
    player.controls.rate_box.value = 5.0
    assert player.rate == 5.0
    trace = player.views[0]
    _, seen = first_slices(player, 3)
    assert seen == [1, 2, 3]                         # at 5 steps/s a slice is one step...
    assert trace.data["x"][-1] == 3 and len(player.recording) == 4   # ...and every step is drawn
    with pytest.raises(ValueError, match="rate"):
        explore(X, y, regularization=0.001, views=None, rate=0)


def test_the_rate_control_shows_max_when_unlimited(monk2):
    X, y = monk2
    player = explore(X, y, regularization=0.001, views=None)
    assert player.rate is None and player.controls.rate_box.label == "max"
    player.rate = 2.0
    assert player.controls.rate_box.label == "2"
    player.controls.rate_box.value = 0.0
    assert player.rate is None

"""Plot views keep one FigureWidget and update it in place.

A new ``FigureWidget`` per redraw re-sends plotly's JavaScript bundle (about
5 MB) to the browser; these tests pin that every plot view creates its
figure once, that its data follow the search, and that a redraw sends
kilobytes, counted in bytes (not seconds) with ``count_traffic``.
"""

from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")
pytest.importorskip("anywidget")

from treeopt.datasets import load_monk  # noqa: E402
from treeopt.widgets import BoundsView, RocView, TraceView, explore  # noqa: E402
from treeopt.widgets.live_figure import LiveFigure  # noqa: E402
from treeopt.widgets.traffic import count_traffic  # noqa: E402


@pytest.fixture(scope="module")
def monk2():
    return load_monk(2)


def _plot_views(player):
    return [v for v in player.views if hasattr(v, "figure")]


def test_every_plot_view_keeps_its_figure_and_its_data_follow_the_search(monk2):
    X, y = monk2
    player = explore(X, y, regularization=0.005, views=[TraceView, BoundsView, RocView])
    views = _plot_views(player)
    assert len(views) == 3
    figures = [v.figure for v in views]
    before = [[list(t.x) for t in f.data] for f in figures]
    for _ in range(6):
        player.step(150)
    assert all(v.figure is f for v, f in zip(views, figures))
    after = [[list(t.x) for t in f.data] for f in figures]
    trace, bounds, roc = views
    assert after[0] != before[0] and list(trace.figure.data[0].x) == trace.data["x"]
    assert after[1] != before[1] and list(bounds.figure.data[0].x) == list(bounds.counts.values())
    assert list(roc.figure.data[2].x) == [p[0] for p in roc.hull]
    assert trace.figure.data[0].x[-1] == player.n_steps
    # Replaying an old frame is a redraw too: same figures, older data.
    player.show(1)
    assert all(v.figure is f for v, f in zip(views, figures))
    assert trace.figure.data[0].x[-1] == player.recording[1].snapshot.expansions


def test_a_redraw_sends_kilobytes_not_a_new_figure(monk2):
    X, y = monk2
    player = explore(X, y, regularization=0.005)
    player.step(50)
    with count_traffic() as traffic:
        for _ in range(5):
            player.step(200)
    assert traffic.n_opened == 0                         # no widget (no figure) was created
    assert 0 < traffic.by_class.get("FigureWidget", 0) < 5 * 20_000
    assert traffic.total < 5 * 100_000                   # a new figure alone would be ~5 MB


def test_live_figure_adds_removes_and_retypes_traces_on_the_same_figure():
    live = LiveFigure([dict(type="scatter", x=[0], y=[0], name="a")], dict(title=dict(text="one")))
    fig = live.figure
    live.draw([dict(type="scatter", x=[0, 1], y=[1, 2], name="a"), dict(type="scatter", x=[3], y=[4], name="b")])
    assert [t.name for t in fig.data] == ["a", "b"] and list(fig.data[0].y) == [1, 2]
    live.draw([dict(type="bar", x=["u"], y=[5])], dict(title=dict(text="two")))
    assert live.figure is fig and [t.type for t in fig.data] == ["bar"] and fig.layout.title.text == "two"
    assert live.draw([dict(type="bar", x=["u"], y=[5])], dict(title=dict(text="two"))) is False
    assert live.updates == 2


def test_a_new_view_creates_its_figure_from_its_first_frame(monk2):
    # A page that connects late (Voila runs every cell first) draws the data a figure was *created*
    # with, so a view's figure is created from the frame it first shows, not updated into it.
    X, y = monk2
    player = explore(X, y, regularization=0.005, views=None)
    player.step(40)
    for view in (TraceView(player), BoundsView(player), RocView(player)):
        assert view._live.updates == 0
    trace = TraceView(player)
    assert list(trace.figure.data[0].x) == trace.data["x"] and trace.data["x"][-1] == 40


def test_the_tree_is_redrawn_at_most_once_a_second_while_playing_and_when_it_stops(monk2):
    import asyncio

    from treeopt.widgets import TreeView

    X, y = monk2
    player = explore(X, y, regularization=0.005, views=[TreeView], refresh_interval=0.0, speed=20)
    view = player.views[0]
    view.min_interval = 3600.0                         # nothing but the first redraw while playing
    pictures = []
    view._picture.observe(lambda change: pictures.append(change["new"]), names="value")

    async def play_some():
        task = player.play()
        while player.n_steps < 400:
            await asyncio.sleep(0)
        player.pause()
        await task

    asyncio.run(play_some())
    assert len(player.recording) > 3                   # many frames were shown...
    assert len(pictures) <= 2                          # ...but the tree sent at most once, plus at Pause
    assert view.tree is player.frame.snapshot.best_tree and view.svg == pictures[-1]

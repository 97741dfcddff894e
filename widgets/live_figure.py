"""``LiveFigure``: a plotly figure that is rebuilt, not patched, when its data change.

Checked on this machine (Voila 0.5, plotly 7.1 on anywidget 0.11): changes
made to a ``FigureWidget`` after it is displayed (``fig.data[0].x = ...``,
``batch_update``, ``update_traces``, ``layout`` edits) never reach the
browser's plot, whether made in a button callback or an asyncio task; only
the data a FigureWidget is *created* with are drawn ("pass the
traces to the constructor"). So a live view builds a fresh FigureWidget from
the whole data and swaps it into a box, closing the old one. Rebuilding costs
tens of milliseconds, so while the player runs a figure is rebuilt at most
every ``min_interval`` seconds; the latest data are drawn when it stops.
"""

from __future__ import annotations

import time

import ipywidgets as widgets

__all__ = ["LiveFigure", "figure_widget"]


def figure_widget(**kwargs):
    """A ``plotly.graph_objects.FigureWidget`` (imported lazily, with an actionable error)."""
    try:
        import plotly.graph_objects as go
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("the plot views require plotly and anywidget: pip install 'treeopt[widgets]'") from error
    return go.FigureWidget(**kwargs)


class LiveFigure:
    """A box holding the newest FigureWidget built from ``data`` and ``layout``.

    Parameters
    ----------
    data : list of dict
        Plotly traces.
    layout : dict
    min_interval : float, default=2.5
        Minimum seconds between rebuilds when ``throttle=True`` is passed to :meth:`draw`.

    Attributes
    ----------
    box : ipywidgets.Box
        Put this in a layout; its child is the current figure.
    figure : FigureWidget
        The figure currently shown (its ``data`` are what the browser draws).

    Examples
    --------
    >>> live = LiveFigure([dict(type="scatter", x=[0], y=[0])], dict(height=200))
    >>> live.draw([dict(type="scatter", x=[0, 1], y=[2, 3])])
    True
    >>> list(live.figure.data[0].y)
    [2, 3]
    """

    def __init__(self, data: list, layout: dict, min_interval: float = 2.5):
        self.min_interval = min_interval
        self._data, self._layout = data, layout
        self._drawn = repr((data, layout))
        self._last = 0.0
        self.figure = figure_widget(data=data, layout=layout)
        self.box = widgets.Box([self.figure])

    def draw(self, data: list | None = None, layout: dict | None = None, *, throttle: bool = False) -> bool:
        """Show new data (and layout); returns whether the figure was rebuilt now.

        With ``throttle=True`` a rebuild within ``min_interval`` of the last
        one is postponed until the next :meth:`draw` or :meth:`flush`.
        """
        if data is not None:
            self._data = data
        if layout is not None:
            self._layout = layout
        if throttle and time.perf_counter() - self._last < self.min_interval:
            return False
        return self.flush()

    def flush(self) -> bool:
        """Rebuild if the data or layout changed since the last rebuild."""
        state = repr((self._data, self._layout))
        if state == self._drawn:
            return False
        old = self.figure
        self.figure = figure_widget(data=self._data, layout=self._layout)
        self.box.children = [self.figure]
        old.close()
        self._drawn = state
        self._last = time.perf_counter()
        return True

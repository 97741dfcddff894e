"""``LiveFigure``: one plotly ``FigureWidget`` per view, updated in place.

A ``FigureWidget`` carries plotly's whole JavaScript bundle (megabytes, its
anywidget ``_esm`` trait) when it is created, so a view that built a new
figure per redraw sent megabytes per redraw and kept the browser busy parsing
them. Here a view creates its figure once; every redraw changes
that figure's traces and layout under ``fig.batch_update()``, which plotly
sends as one small ``update`` message holding only the properties whose
values changed (a few KB: the new ``x``/``y`` arrays, a new title).

When the number or kind of traces changes, existing traces are updated,
surplus ones removed and new ones added, on the same figure.

A browser view that connects late (in Voila every cell runs before the page
opens) starts from the data the figure was *created* with, not from later
in-place changes. So the figure is created lazily, from the data of the
first :meth:`~LiveFigure.draw` (a view draws its first frame when it is
built), or when :attr:`~LiveFigure.figure` is first read; after that, the
next redraw assigns whole ``x``/``y`` arrays again and so repairs a late view
(checked in a real browser by ``tests/jupyter/test_browser.py``). While the player runs, redraws are throttled to one per
``min_interval`` seconds; the latest data are drawn when it stops.
"""

from __future__ import annotations

import time

import ipywidgets as widgets
import numpy as np

__all__ = ["LiveFigure", "figure_widget"]


def figure_widget(**kwargs):
    """A ``plotly.graph_objects.FigureWidget`` (imported lazily, with an actionable error)."""
    try:
        import plotly.graph_objects as go
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("the plot views require plotly and anywidget: pip install 'treeopt[widgets]'") from error
    return go.FigureWidget(**kwargs)


def _fingerprint(value):
    """A comparable, complete copy of plain plotly specs (``repr`` would elide long numpy arrays)."""
    if isinstance(value, dict):
        return tuple((k, _fingerprint(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_fingerprint(v) for v in value)
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape, value.tobytes())
    return value


class LiveFigure:
    """A box holding one FigureWidget whose traces and layout follow :meth:`draw`.

    Parameters
    ----------
    data : list of dict
        Plotly traces (each with its ``type``).
    layout : dict
    min_interval : float, default=0.2
        Minimum seconds between updates when ``throttle=True`` is passed to :meth:`draw`.

    Attributes
    ----------
    box : ipywidgets.Box
        Put this in a layout; its child is :attr:`figure` once created.
    figure : FigureWidget
        The figure, created once (on the first draw or read): its ``data`` are what the browser draws.
    updates : int
        How many times the figure was changed after it was created.

    Examples
    --------
    >>> live = LiveFigure([dict(type="scatter", x=[0], y=[0])], dict(height=200))
    >>> live.draw([dict(type="scatter", x=[0, 1], y=[1, 1])])      # creates the figure with these data
    True
    >>> first = live.figure
    >>> live.updates
    0
    >>> live.draw([dict(type="scatter", x=[0, 1], y=[2, 3]), dict(type="bar", x=["a"], y=[1])])
    True
    >>> live.figure is first, list(live.figure.data[0].y), [t.type for t in live.figure.data]
    (True, [2, 3], ['scatter', 'bar'])
    >>> live.draw([dict(type="scatter", x=[0, 1], y=[2, 3]), dict(type="bar", x=["a"], y=[1])])
    False
    """

    def __init__(self, data: list, layout: dict, min_interval: float = 0.2):
        self.min_interval = min_interval
        self._data, self._layout = data, layout
        self._drawn = None
        self._last = 0.0
        self.updates = 0
        self._figure = None
        self.box = widgets.Box([])

    @property
    def figure(self):
        """The FigureWidget (created from the newest data the first time it is needed)."""
        if self._figure is None:
            self._figure = figure_widget(data=self._data, layout=self._layout)
            self._drawn = _fingerprint((self._data, self._layout))
            self._last = time.perf_counter()
            self.box.children = [self._figure]
        return self._figure

    def draw(self, data: list | None = None, layout: dict | None = None, *, throttle: bool = False) -> bool:
        """Show new data (and layout); returns whether the figure changed now.

        With ``throttle=True`` an update within ``min_interval`` of the last
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
        """Update the figure in place if the data or layout changed since the last update."""
        if self._figure is None:
            self.figure                                # created with the data as they are now
            return True
        state = _fingerprint((self._data, self._layout))
        if state == self._drawn:
            return False
        fig = self.figure
        kinds = [spec.get("type", "scatter") for spec in self._data]
        keep = 0                                       # leading traces whose kind is unchanged
        while keep < min(len(kinds), len(fig.data)) and fig.data[keep].type == kinds[keep]:
            keep += 1
        if keep < len(fig.data):
            fig.data = fig.data[:keep]                 # plotly's way to delete traces
        if keep < len(kinds):
            fig.add_traces(self._data[keep:])
        with fig.batch_update():
            for trace, spec in zip(fig.data[:keep], self._data[:keep]):
                trace.update({k: v for k, v in spec.items() if k != "type"}, overwrite=True)
            fig.layout.update(self._layout, overwrite=True)
        self._drawn = state
        self._last = time.perf_counter()
        self.updates += 1
        return True

"""``count_traffic``: how many bytes widgets send to the browser.

Every change a kernel makes to a widget travels to the browser as a comm
message: a widget's whole state when it is created (for a plotly
``FigureWidget`` that includes plotly's JavaScript bundle, megabytes), then
one ``update`` message per change. Inside ``with count_traffic() as t:`` every
such message is counted where ipywidgets hands it to the comm
(``Widget.open`` and ``Widget._send``), as the size of its JSON plus its
binary buffers: close to what crosses the websocket, with or without a
browser attached. Used by the tests (bytes per redraw, not seconds) and by
``benchmarks/player_bench.py``.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass, field

import ipywidgets as widgets

__all__ = ["Traffic", "count_traffic"]


def _size(data, buffers) -> int:
    text = json.dumps(data, default=str, separators=(",", ":"))
    return len(text.encode("utf-8")) + sum(memoryview(b).nbytes for b in buffers or ())


@dataclass
class Traffic:
    """Bytes sent to the front end while counting.

    Attributes
    ----------
    opened : int
        Bytes of the initial states of widgets created (comm ``open`` messages).
    updated : int
        Bytes of state updates of existing widgets.
    n_opened, n_updates : int
        How many messages of each kind.
    by_class : dict of str to int
        Bytes (both kinds) per widget class name.
    """

    opened: int = 0
    updated: int = 0
    n_opened: int = 0
    n_updates: int = 0
    by_class: dict = field(default_factory=dict)

    @property
    def total(self) -> int:
        """All bytes counted."""
        return self.opened + self.updated

    def _add(self, widget, size: int, opening: bool) -> None:
        if opening:
            self.opened += size
            self.n_opened += 1
        else:
            self.updated += size
            self.n_updates += 1
        name = type(widget).__name__
        self.by_class[name] = self.by_class.get(name, 0) + size


@contextmanager
def count_traffic():
    """Count the bytes of every widget message sent inside the ``with`` block.

    Yields
    ------
    Traffic

    Examples
    --------
    >>> import ipywidgets as widgets
    >>> with count_traffic() as traffic:
    ...     label = widgets.HTML("a")
    ...     label.value = "b" * 1000
    >>> traffic.n_opened >= 1, traffic.updated > 1000
    (True, True)
    """
    traffic = Traffic()
    original_open, original_send = widgets.Widget.open, widgets.Widget._send

    def open_(self):
        if self.comm is None:
            state, _, buffers = widgets.widget._remove_buffers(self.get_state())
            traffic._add(self, _size({"state": state}, buffers), opening=True)
        return original_open(self)

    def send(self, msg, buffers=None):
        traffic._add(self, _size(msg, buffers), opening=False)
        return original_send(self, msg, buffers=buffers)

    widgets.Widget.open, widgets.Widget._send = open_, send
    try:
        yield traffic
    finally:
        widgets.Widget.open, widgets.Widget._send = original_open, original_send

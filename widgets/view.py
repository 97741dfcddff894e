"""``PlayerView``: what every view of a search has in common.

A view is an ipywidgets box that observes one :class:`~widgets.player.SolverPlayer`
(its ``frame`` trait) and redraws itself from the frame it is given, so the
same code shows the live search and a replayed moment. Views never call each
other; compose them freely in a notebook.

Every view has a static picture for saved notebooks: ``_repr_mimebundle_``
adds ``text/html`` (and ``image/svg+xml`` where the view can draw one) next
to the live widget, and ``save(path)`` writes ``.svg`` or ``.html``.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

import ipywidgets as widgets

from .player import as_player

__all__ = ["PlayerView"]


class PlayerView(widgets.VBox):
    """Base class of the views: observe a player, redraw from its frame.

    Parameters
    ----------
    player : SolverPlayer or Solver
        A solver gets its own player without views.

    Subclasses implement ``_build()`` (create child widgets), ``update(frame)``
    and ``to_svg()`` (or ``to_html()``).
    """

    title = "view"

    def __init__(self, player, **kwargs):
        super().__init__(**kwargs)
        self.player = as_player(player)
        self.frame = None
        # In the player's wrapping row: at least 420 px, growing to share the row (trace and tree side
        # by side from about 1000 px); an explicit min-width keeps a wide tree from widening its view.
        self.layout.min_width = self.layout.min_width or "420px"
        self.layout.flex = self.layout.flex or "1 1 440px"
        self._build()
        self.player.observe(self._on_frame, names="frame")
        self.player.observe(self._on_running, names="running")
        if self.player.frame is not None:
            self.update(self.player.frame)

    def _build(self) -> None:
        raise NotImplementedError

    def _on_frame(self, change) -> None:
        if change["new"] is not None:
            self.update(change["new"])

    def update(self, frame) -> None:
        """Redraw from a recorded frame."""
        raise NotImplementedError

    @property
    def _throttle(self) -> bool:
        """Whether figure updates should be rate-limited (while the player runs)."""
        return bool(self.player.running)

    def _on_running(self, change) -> None:
        if not change["new"]:
            for live in getattr(self, "_live_figures", ()):
                live.flush()

    def close(self) -> None:
        """Stop observing the player and close the widgets."""
        self.player.unobserve(self._on_frame, names="frame")
        self.player.unobserve(self._on_running, names="running")
        super().close()

    # -- static output -----------------------------------------------------------
    def to_svg(self) -> str | None:
        """A static SVG picture of the current state (None if the view has none)."""
        return None

    def to_html(self) -> str:
        """A static HTML rendering of the current state (no JavaScript)."""
        svg = self.to_svg()
        body = svg if svg is not None else f"<pre>{escape(repr(self))}</pre>"
        return f"<div class='treeopt-static'><b>{escape(self.title)}</b><br>{body}</div>"

    def save(self, path) -> Path:
        """Save the current state: ``.svg`` (where available) or ``.html``.

        Returns
        -------
        Path
        """
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix == ".svg":
            svg = self.to_svg()
            if svg is None:
                raise ValueError(f"{type(self).__name__} has no SVG picture; save it as .html instead.")
            path.write_text(svg, encoding="utf-8")
        elif suffix in (".html", ".htm"):
            path.write_text(f"<!DOCTYPE html><html><meta charset='utf-8'><body>{self.to_html()}</body></html>",
                            encoding="utf-8")
        else:
            raise ValueError(f"cannot save {type(self).__name__} as {suffix or 'a file without suffix'!r}; "
                             f"use {self._save_suffixes()}.")
        return path

    def _save_suffixes(self) -> str:
        return ".svg or .html" if self.to_svg() is not None else ".html"

    def _repr_mimebundle_(self, **kwargs):
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        svg = self.to_svg()
        if svg is not None:
            bundle["image/svg+xml"] = svg
        bundle["text/html"] = self.to_html()
        return bundle

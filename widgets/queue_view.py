"""``QueueView``: the top of the solver's queue, one row per subproblem.

Each row is a :class:`~treeopt.solvers.QueueEntry`: the rule that leads to
the subproblem (or a partial tree's leaves, for OSDT), its support (training
weight), its lower and upper bound and the key the queue orders by. Click a
row to see that subproblem in detail (the entry's fields and whatever plain
numbers the solver keeps in its ``payload``, as
:meth:`~treeopt.solvers.QueueEntry.details` lists them for every solver).
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from .labels import gap_label, is_guessed, lower_bound_label, queue_text
from .view import PlayerView

__all__ = ["QueueView"]

_STYLE = """<style>
.treeopt-queue select { font-family: monospace; font-size: 12px; }
.treeopt-queue .treeopt-queue-header { font-family: monospace; font-size: 12px; white-space: pre; }
</style>"""


def _short(value) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, tuple):
        return "(" + ", ".join(_short(v) for v in value) + ")"
    return str(value)


class QueueView(PlayerView):
    """Table of the top queue entries; click a row for the subproblem's detail.

    Parameters
    ----------
    player : SolverPlayer or Solver

    Attributes
    ----------
    rows : list of dict
        ``rank``, ``rule``, ``support``, ``lower_bound``, ``upper_bound``, ``priority`` of the shown entries.
    selected : dict or None
        The row whose detail is shown.

    Examples
    --------
    >>> from treeopt.datasets import load_monk
    >>> from treeopt.widgets import explore
    >>> player = explore(*load_monk(1), regularization=0.02, views=[QueueView])
    >>> _ = player.step(5)
    >>> rows = player.views[0].rows
    >>> len(rows) > 0 and all(r["lower_bound"] <= r["upper_bound"] for r in rows)
    True
    """

    title = "queue"

    def _build(self) -> None:
        self.rows: list[dict] = []
        self.selected: dict | None = None
        self._entries: list = []
        self._summary = widgets.HTML()
        self._header = widgets.HTML()
        self._header.add_class("treeopt-queue-header")
        self._select = widgets.Select(options=[], rows=10, layout=widgets.Layout(width="100%"))
        self._select.observe(self._on_select, names="value")
        self._detail = widgets.HTML()
        self._detail.add_class("treeopt-queue-detail")
        self.add_class("treeopt-queue")
        self.children = [widgets.HTML(_STYLE), self._summary, self._header, self._select, self._detail]

    def update(self, frame) -> None:
        self.frame = frame
        snapshot = frame.snapshot
        self._entries = list(snapshot.queue)
        self.rows = [{"rank": i + 1, "rule": e.rule, "support": float(e.support),
                      "lower_bound": float(e.lower_bound), "upper_bound": float(e.upper_bound),
                      "priority": tuple(e.priority)} for i, e in enumerate(self._entries)]
        guessed = " · lower bounds guessed (not proofs)" if is_guessed(frame) else ""
        why = queue_text(snapshot.queue_size, snapshot.status, is_guessed(frame))
        why = why[why.index("(") - 1:] if "(" in why else ""
        self._summary.value = (f"<b>queue</b>: {snapshot.queue_size} entries, top {len(self.rows)} shown "
                               f"(after {snapshot.expansions} expansions){guessed}{escape(why)}")
        self._header.value = f"{'#':>3}  {'lower':>9}  {'upper':>9}  {'support':>8}  rule"
        options = [(self._format(r), i) for i, r in enumerate(self.rows)]
        self._select.unobserve(self._on_select, names="value")
        try:
            self._select.options = options
            self._select.value = None
        finally:
            self._select.observe(self._on_select, names="value")

    @staticmethod
    def _format(row: dict) -> str:
        return (f"{row['rank']:>3}  {row['lower_bound']:>9.5f}  {row['upper_bound']:>9.5f}  "
                f"{row['support']:>8g}  {row['rule']}")

    def _on_select(self, change) -> None:
        if change["new"] is not None:
            self.select(change["new"])

    def select(self, index: int) -> dict:
        """Show the detail of shown row ``index`` (0 = the first); returns that row."""
        if not 0 <= index < len(self.rows):
            raise IndexError(f"row {index} out of range: {len(self.rows)} rows shown.")
        row, entry = self.rows[index], self._entries[index]
        guessed = is_guessed(self.frame)
        self.selected = row
        items = [("rule", escape(row["rule"])), ("support (weight)", f"{row['support']:g}"),
                 (lower_bound_label(guessed), f"{row['lower_bound']:.6g}"),
                 ("upper bound", f"{row['upper_bound']:.6g}"),
                 (gap_label(guessed), f"{row['upper_bound'] - row['lower_bound']:.3g}"),
                 ("priority key", escape(_short(row["priority"])))]
        extra = entry.details()
        if extra:
            items.append(("<i>solver state now</i>", ""))
            items.extend((escape(k), escape(v)) for k, v in extra)
        table = "".join(f"<tr><td style='padding-right:12px'>{k}</td><td>{v}</td></tr>" for k, v in items)
        self._detail.value = f"<b>subproblem #{row['rank']}</b><table>{table}</table>"
        return row

    def to_html(self) -> str:
        head = "".join(f"<th>{h}</th>" for h in ("#", "lower", "upper", "support", "rule", "priority"))
        body = "".join(
            f"<tr><td>{r['rank']}</td><td>{r['lower_bound']:.6g}</td><td>{r['upper_bound']:.6g}</td>"
            f"<td>{r['support']:g}</td><td>{escape(r['rule'])}</td><td>{escape(_short(r['priority']))}</td></tr>"
            for r in self.rows)
        size = self.frame.snapshot.queue_size if self.frame is not None else 0
        why = queue_text(size, self.frame.snapshot.status, is_guessed(self.frame)) if self.frame is not None else ""
        why = escape(why[why.index("(") - 1:]) if "(" in why else ""
        return (f"<div class='treeopt-static'><b>queue</b>: {size} entries{why}<table class='treeopt-queue-table'>"
                f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>")

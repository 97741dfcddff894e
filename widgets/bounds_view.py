"""``BoundsView``: which bound does the work, and what happens without it.

A bar chart of the solver's prune counters (one bar per switchable bound,
its paper reference in the hover text), and a switch per bound. "Rerun"
restarts the search with the switched-off bounds disabled, and every search
that finishes (or stops at the time limit) adds a row to an ablation table:
bounds off, expansions, seconds, objective, status. This is the per-bound
ablation of the OSDT thesis (Table 6.2), live.
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from .labels import WAITING, is_guessed, status_text, waiting_annotation
from .static_charts import bar_chart_svg
from .live_figure import LiveFigure
from .view import PlayerView

__all__ = ["BoundsView"]


class BoundsView(PlayerView):
    """Prune counts per bound, switches to rerun without a bound, and the ablation table.

    Parameters
    ----------
    player : SolverPlayer or Solver

    Attributes
    ----------
    counts : dict
        Prune count of each bound in the shown frame.
    switches : dict of str to ipywidgets.Checkbox
        One per bound of the solver (checked = on).
    runs : list of dict
        One row per finished search: ``bounds_off``, ``expansions``,
        ``elapsed``, ``objective``, ``lower_bound``, ``lower_bound_guessed``
        (the lower bound came from a reference model, McTavish et al. 2022
        section 4.3: the table's status then says the bound was guessed),
        ``status``.

    Examples
    --------
    >>> from treeopt.datasets import load_monk
    >>> from treeopt.widgets import explore
    >>> player = explore(*load_monk(1), regularization=0.05, views=[BoundsView])
    >>> view = player.views[0]
    >>> _ = player.step(10**6)
    >>> view.switches["lookahead"].value = False
    >>> view.rerun(play=False)
    >>> _ = player.step(10**6)
    >>> [r["bounds_off"] for r in view.runs], view.runs[0]["objective"] == view.runs[1]["objective"]
    ([[], ['lookahead']], True)
    """

    title = "bounds"

    def _build(self) -> None:
        self.counts: dict = {}
        self.runs: list[dict] = []
        self.switches: dict = {}
        self._references = self._citations()
        self._live = LiveFigure(self._traces(), self._figure_layout())
        self._live_figures = [self._live]
        self._switch_box = widgets.VBox()
        self._rerun_button = widgets.Button(description="Rerun with these bounds", button_style="info",
                                            layout=widgets.Layout(width="auto"))
        self._rerun_button.on_click(lambda _: self.rerun())
        self._table = widgets.HTML()
        self._make_switches(getattr(self.player.solver, "bounds", {}) or {})
        self.player.on_finish(self._on_finish)
        self.add_class("treeopt-bounds")
        self.children = [self._live.box, widgets.HTML("<b>switch bounds off and rerun</b>"), self._switch_box,
                         self._rerun_button, self._table]

    def _citations(self) -> dict:
        # The instance's switches: a plug-in bound (treeopt.lower_bound) has a bar and a switch too.
        solver = self.player.solver
        switches = getattr(solver, "switches", None)
        if switches is not None and hasattr(switches, "citations"):
            return dict(switches.citations())
        return dict(getattr(type(solver), "BOUNDS", {}) or {})

    @property
    def figure(self):
        """The plotly ``FigureWidget`` (created once, updated in place)."""
        return self._live.figure

    def _traces(self) -> list:
        names = list(self.counts) or list(self._references)
        return [dict(type="bar", orientation="h", x=[self.counts.get(n, 0) for n in names], y=names,
                     hovertext=[self._references.get(n, n) for n in names], marker=dict(color="#1f77b4"))]

    def _figure_layout(self) -> dict:
        # No prune yet: a 0..1 axis and a word on why the bars are empty (not a bare -1..1 axis).
        empty = not any(self.counts.values())
        started = self.frame is not None and self.frame.snapshot.expansions > 0
        note = "no prunes yet" if started else WAITING
        return dict(height=max(160, 60 + 26 * max(1, len(self._references))), width=460,
                    margin=dict(l=170, r=10, t=30, b=30),
                    title=dict(text="prunes per bound", font=dict(size=13)), yaxis=dict(autorange="reversed"),
                    xaxis=dict(range=[0, 1], autorange=False) if empty else dict(autorange=True),
                    annotations=[waiting_annotation(note)] if empty else [])

    def _make_switches(self, bounds: dict) -> None:
        self.switches = {}
        solver = self.player.solver
        # OSDT(top_k=k > 1): the bounds that only prove a tree is not *the* optimum stay off (greyed out).
        locked = set(getattr(solver, "NOT_FOR_TOP_K", ())) if getattr(solver, "top_k", 1) > 1 else set()
        for name in self._references or bounds:
            switch = getattr(solver, "switches", {}).get(name)
            tooltip = self._references.get(name, "")
            if switch is not None and switch.kind != "bound":
                tooltip = f"{switch.kind.replace('_', ' ')}: {tooltip}"
            if name in locked:
                tooltip += " (off: unsound for the k best trees)"
            box = widgets.Checkbox(value=bool(bounds.get(name, True)), description=name, indent=False,
                                   tooltip=tooltip, layout=widgets.Layout(width="auto"), disabled=name in locked)
            self.switches[name] = box
        self._switch_box.children = [widgets.HBox(list(self.switches.values())[i:i + 3])
                                     for i in range(0, len(self.switches), 3)]

    def update(self, frame) -> None:
        self.frame = frame
        counts = frame.snapshot.prune_counts
        names = list(self._references) or list(counts)
        self.counts = {name: counts.get(name, 0) for name in names}
        self._live.draw(self._traces(), self._figure_layout(), throttle=self._throttle)

    def rerun(self, play: bool = True) -> None:
        """Restart the search with the bounds as switched; start playing if ``play`` (needs an event loop)."""
        self.player.reset(bounds={name: box.value for name, box in self.switches.items()})
        if play:
            try:
                self.player.play()
            except RuntimeError:              # no event loop (a script): the caller steps it
                pass

    def _on_finish(self, player) -> None:
        solver = player.solver
        bounds = dict(getattr(solver, "bounds", {}) or {})
        self.runs.append({"bounds_off": sorted(k for k, v in bounds.items() if not v),
                          "expansions": int(solver.expansions), "elapsed": float(solver.elapsed),
                          "objective": float(solver.upper_bound), "lower_bound": float(solver.lower_bound),
                          "lower_bound_guessed": is_guessed(solver), "status": player.status})
        self._table.value = self._runs_html()

    def _runs_html(self) -> str:
        if not self.runs:
            return ""
        rows = "".join(
            f"<tr><td>{escape(', '.join(r['bounds_off']) or '(none)')}</td><td>{r['expansions']}</td>"
            f"<td>{r['elapsed']:.2f}</td><td>{r['objective']:.6g}</td>"
            f"<td>{escape(status_text(r['status'], r.get('lower_bound_guessed', False)))}</td></tr>"
            for r in self.runs)
        return ("<b>runs</b><table><tr><th>bounds off</th><th>expansions</th><th>seconds</th><th>objective</th>"
                f"<th>status</th></tr>{rows}</table>")

    def to_svg(self) -> str:
        return bar_chart_svg(list(self.counts), list(self.counts.values()), title="prunes per bound")

    def to_html(self) -> str:
        return super().to_html() + self._runs_html()

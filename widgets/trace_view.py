"""``TraceView``: the incumbent's objective and the lower bound closing in on each other.

A plotly ``FigureWidget`` with three traces: the certified lower bound, the
objective of the incumbent tree (the upper bound) with the optimality gap
shaded between them, and a marker at every improvement of the incumbent.
The x axis is expansions or seconds of search. With lower-bound guessing
(McTavish et al. 2022, section 4.3) the lower bound is a guess and the
legend and title say "lower bound (guessed)".

The figure is created once and updated in place
(:class:`~widgets.live_figure.LiveFigure`); every update assigns whole
``x``/``y`` arrays, so a view that connected late (Voila) is repaired by the
next update. A long trace is thinned to at most ``max_points`` points (every
improvement of the incumbent and the last point are kept), so an update stays
a few kilobytes however long the search runs.
"""

from __future__ import annotations

import ipywidgets as widgets

from .labels import WAITING, is_guessed, lower_bound_label, waiting_annotation
from .live_figure import LiveFigure
from .static_charts import line_chart_svg
from .view import PlayerView

__all__ = ["TraceView", "thin_points"]


def thin_points(points: list, max_points: int) -> list:
    """At most about ``max_points`` of ``points``, evenly spaced, keeping the first, the last and every
    point where the upper bound (index 3) drops.

    Examples
    --------
    >>> pts = [(i, i, 0.0, 1.0 if i < 50 else 0.5) for i in range(1000)]
    >>> kept = thin_points(pts, 10)
    >>> kept[0][1], kept[-1][1], (50, 50, 0.0, 0.5) in kept, len(kept) <= 12
    (0, 999, True, True)
    """
    n = len(points)
    if n <= max_points:
        return list(points)
    every = -(-n // max_points)
    return [p for i, p in enumerate(points)
            if i % every == 0 or i == n - 1 or (i and p[3] < points[i - 1][3])]


class TraceView(PlayerView):
    """Plot of the objective (incumbent) and the lower bound over the search.

    Parameters
    ----------
    player : SolverPlayer or Solver
    x : {"expansions", "time"}, default="expansions"
    max_points : int, default=500
        Longer traces are thinned to about this many points (see :func:`thin_points`).

    Attributes
    ----------
    data : dict
        ``x``, ``lower_bound``, ``upper_bound`` (lists) and ``improvements``
        (list of (x, objective)) as drawn.
    lower_bound_name : str
        The lower bound's legend entry: ``"lower bound"``, or
        ``"lower bound (guessed)"`` when the solver guesses lower bounds.
    figure : plotly.graph_objects.FigureWidget

    Examples
    --------
    >>> from treeopt.datasets import load_monk
    >>> from treeopt.widgets import explore
    >>> player = explore(*load_monk(1), regularization=0.02, views=[TraceView])
    >>> _ = player.step(100)
    >>> d = player.views[0].data
    >>> all(a <= b for a, b in zip(d["upper_bound"][1:], d["upper_bound"]))   # never increases
    True
    """

    title = "trace"

    def __init__(self, player, *, x: str = "expansions", max_points: int = 500, **kwargs):
        if x not in ("expansions", "time"):
            raise ValueError(f"x must be 'expansions' or 'time', got {x!r}.")
        if isinstance(max_points, bool) or not isinstance(max_points, int) or max_points < 2:
            raise ValueError(f"max_points must be an integer of at least 2, got {max_points!r}.")
        self._x = x
        self._max_points = max_points
        super().__init__(player, **kwargs)

    def _build(self) -> None:
        self.data = {"x": [], "lower_bound": [], "upper_bound": [], "improvements": []}
        self.lower_bound_name = lower_bound_label(is_guessed(getattr(self.player, "solver", None)))
        self._live = LiveFigure(self._traces(), self._figure_layout())
        self._live_figures = [self._live]
        self._axis = widgets.ToggleButtons(options=["expansions", "time"], value=self._x,
                                           style={"button_width": "90px"})
        self._axis.observe(self._on_axis, names="value")
        self.add_class("treeopt-trace")
        self.children = [self._axis, self._live.box]

    @property
    def figure(self):
        """The plotly ``FigureWidget`` (created once, updated in place)."""
        return self._live.figure

    @property
    def waiting(self) -> bool:
        """Whether the search shown has done no work yet (the plot then says "press Play")."""
        return self.frame is None or self.frame.snapshot.expansions == 0

    def _traces(self) -> list:
        d = self.data
        mode = "lines+markers" if self.waiting else "lines"        # one point: the root's bounds
        return [
            dict(type="scatter", x=d["x"], y=d["lower_bound"], name=self.lower_bound_name, mode=mode,
                 line_shape="hv", line=dict(color="#1f77b4")),
            dict(type="scatter", x=d["x"], y=d["upper_bound"], name="objective (incumbent)", mode=mode,
                 line_shape="hv", fill="tonexty", fillcolor="rgba(31,119,180,0.15)", line=dict(color="#d62728")),
            dict(type="scatter", x=[m[0] for m in d["improvements"]], y=[m[1] for m in d["improvements"]],
                 name="improvement", mode="markers", marker=dict(color="#d62728", size=8, symbol="circle")),
        ]

    def _figure_layout(self) -> dict:
        waiting = self.waiting
        # Before any work: the root's bounds at x = 0 on a 0..1 axis and "press Play" (not an empty -1..1 plot).
        xaxis = dict(title=dict(text=self._x_title()), range=[-0.05, 1], autorange=False) if waiting else \
            dict(title=dict(text=self._x_title()), autorange=True)
        return dict(height=320, width=470, margin=dict(l=50, r=10, t=30, b=40),
                    title=dict(text=self._title(), font=dict(size=13)),
                    xaxis=xaxis, yaxis=dict(title=dict(text="objective")),
                    legend=dict(orientation="h", y=-0.25),
                    annotations=[waiting_annotation(f"{WAITING}<br>(root: {self.lower_bound_name} "
                                                    f"{self.data['lower_bound'][0]:.4g}, objective "
                                                    f"{self.data['upper_bound'][0]:.4g})")]
                    if waiting and self.data["x"] else [])

    def _title(self) -> str:
        return f"objective and {self.lower_bound_name}"

    def _x_title(self) -> str:
        return "expansions" if self._x == "expansions" else "seconds of search"

    def _on_axis(self, change) -> None:
        self._x = change["new"]
        if self.frame is not None:
            self.update(self.frame)

    def update(self, frame) -> None:
        self.frame = frame
        points = thin_points(frame.points, self._max_points)
        column = 1 if self._x == "expansions" else 0
        xs = [p[column] for p in points]
        lower = [p[2] for p in points]
        upper = [p[3] for p in points]
        marks = [(xs[i], upper[i]) for i in range(1, len(points)) if upper[i] < upper[i - 1]]
        self.data = {"x": xs, "lower_bound": lower, "upper_bound": upper, "improvements": marks}
        self.lower_bound_name = lower_bound_label(is_guessed(frame))
        self._live.draw(self._traces(), self._figure_layout(), throttle=self._throttle)

    def to_svg(self) -> str:
        d = self.data
        marks = [i for i in range(1, len(d["x"])) if d["upper_bound"][i] < d["upper_bound"][i - 1]]
        return line_chart_svg(
            [{"x": d["x"], "y": d["lower_bound"], "name": self.lower_bound_name, "step": True, "color": "#1f77b4"},
             {"x": d["x"], "y": d["upper_bound"], "name": "objective (incumbent)", "step": True,
              "color": "#d62728", "markers": marks}],
            title=self._title(), x_label=self._x_title(), y_label="objective",
            fill_between=(0, 1))

    def save(self, path):
        """Save as ``.svg`` or ``.html`` (static), ``.json`` (plotly figure) or ``.png`` (needs kaleido)."""
        from pathlib import Path
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix == ".json":
            path.write_text(self.figure.to_json(), encoding="utf-8")
            return path
        if suffix == ".png":
            try:
                self.figure.write_image(str(path))
            except (ImportError, ValueError, RuntimeError) as error:
                raise ImportError(f"PNG export needs kaleido and a Chromium ({error}); save as .svg instead.") \
                    from error
            return path
        return super().save(path)

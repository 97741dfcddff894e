"""``FrontierExplorer``: the accuracy–sparsity frontier, explored by pointing and sliding.

A plot of training (and held-out) accuracy against the number of leaves,
one point per frontier tree; a λ slider that moves along the lower convex
hull (each λ selects the tree that is optimal for it); and the selected tree
drawn beside the plot with the same renderer as the player's tree view
(graphviz when its ``dot`` runs, the pure-Python SVG otherwise). Clicking a
point selects its tree.

The frontier fills in while its search runs: the explorer holds a
:class:`~widgets.player.SolverPlayer` (play, pause, step) around a
:class:`~treeopt.frontier.search.FrontierSearch` and redraws on every
frame; points not yet certified are drawn hollow.

Following :mod:`widgets.live_figure`: edits to a displayed
plotly ``FigureWidget`` do not reach the browser under Voila, so the plot is a
:class:`~widgets.live_figure.LiveFigure`, rebuilt from whole arrays when the
frontier or the selection changes (throttled while the search plays).

Given a cross-validated frontier (``cv=``, a :class:`~treeopt.CVFrontier` or a
fitted :class:`~treeopt.OptimalTreeClassifierCV`), a second plot shows the
validation score against λ: the mean over folds, a step function of λ, with
± one standard deviation error bars, the λ that
:class:`~treeopt.OptimalTreeClassifierCV` chooses, and the slider's λ. That
figure is built once and updated in place under ``batch_update()`` with whole
arrays (the plotly rule of the project's Jupyter notes: a new FigureWidget per
update re-sends plotly's JavaScript bundle).
"""

from __future__ import annotations

import math
import warnings
from html import escape

import ipywidgets as widgets
from traitlets import Bool, Float, Int

from treeopt.frontier.result import Frontier, frontier_traces
from treeopt.frontier.search import FrontierSearch

from .live_figure import LiveFigure, figure_widget
from .player import SolverPlayer
from .tree_view import render_tree_svg

__all__ = ["FrontierExplorer"]

_SELECTED_COLOR = "#d62728"


_LAYOUT = dict(height=360, width=520, margin=dict(l=55, r=10, t=35, b=45),
               title=dict(text="accuracy–sparsity frontier", font=dict(size=13)),
               xaxis=dict(title=dict(text="leaves"), dtick=1),
               yaxis=dict(title=dict(text="accuracy")), legend=dict(orientation="h", y=-0.2))

_CV_LAYOUT = dict(height=320, width=520, margin=dict(l=55, r=10, t=35, b=45),
                  title=dict(text="cross-validated score against λ", font=dict(size=13)),
                  xaxis=dict(title=dict(text="λ"), type="log"),
                  yaxis=dict(title=dict(text="validation score")), legend=dict(orientation="h", y=-0.25))

_CHOSEN_COLOR = "#2ca02c"


class FrontierExplorer(widgets.VBox):
    """Explore every optimal tree for every λ: accuracy against leaves, a λ slider, the tree.

    Parameters
    ----------
    source : FrontierSearch or Frontier
        The search to watch (it may be unstarted: press Play), or a finished
        :class:`~treeopt.Frontier`.
    X_test, y_test : optional
        Held-out data: plotted as a second curve (same format as the training data).
    backend : {"auto", "graphviz", "python"}, default="auto"
        How the tree is drawn (see :func:`treeopt.widgets.render_tree_svg`).
    speed : int, default=200
        Units of work per slice of the player.
    cv : CVFrontier or fitted OptimalTreeClassifierCV, optional
        A cross-validated frontier of the same data: adds the plot of the
        validation score against λ and a button that moves the slider to the
        chosen λ (see :meth:`show_cv`).
    rule : {"best", "one_se"}, default="best"
        Which λ of a :class:`~treeopt.CVFrontier` is marked as chosen (a
        fitted estimator marks its own ``regularization_``).

    Attributes
    ----------
    selected : int
        Row of the frontier's ``table`` whose tree is shown.
    regularization : float
        λ of the slider.
    certified_leaves : int
    complete : bool
    frontier : Frontier
        The table behind the plot (refreshed on every frame).
    player : SolverPlayer
    figure : plotly.graph_objects.FigureWidget
    svg : str
        The selected tree as drawn.
    cv_regularization : float or None
        The chosen λ of the cross-validated frontier (None without ``cv``).
    cv_figure : plotly.graph_objects.FigureWidget or None
        Validation score against λ (traces ``cross-validated``, ``mean ± std``,
        ``chosen λ``, ``slider λ``), updated in place.

    Examples
    --------
    >>> from treeopt.datasets import load_monk
    >>> from treeopt import Dataset
    >>> X, y = load_monk(1)
    >>> explorer = FrontierExplorer(FrontierSearch(Dataset.from_arrays(X, y), max_leaves=8))
    >>> explorer.player.step(10**6)
    False
    >>> explorer.complete, explorer.figure.data[0].x
    (True, (1, 2, 4, 6, 7))
    >>> explorer.regularization = 0.02                  # the slider: λ = 0.02 selects the 7-leaf tree
    >>> explorer.frontier.table.at[explorer.selected, "leaves"]
    np.int64(7)
    >>> explorer.select(1)                              # as a click on the 2-leaf point
    >>> explorer.frontier.tree(explorer.selected).n_leaves, explorer.lambda_label.value.startswith("λ in")
    (2, True)

    With a cross-validated frontier, the chosen λ is one click away:

    >>> from sklearn.model_selection import KFold
    >>> from treeopt import cross_validate_frontier
    >>> cvf = cross_validate_frontier(X, y, cv=KFold(3, shuffle=True, random_state=0), max_leaves=8)
    >>> explorer.show_cv(cvf)
    >>> explorer.use_chosen.click()
    >>> explorer.regularization == cvf.best_regularization, explorer.frontier.tree(explorer.selected).n_leaves
    (True, 7)
    >>> [trace.name for trace in explorer.cv_figure.data]
    ['cross-validated', 'mean ± std', 'chosen λ', 'slider λ']
    """

    selected = Int(0)
    regularization = Float(0.01)
    certified_leaves = Int(0)
    complete = Bool(False)
    cv_regularization = Float(None, allow_none=True)

    def __init__(self, source, *, X_test=None, y_test=None, backend: str = "auto", speed: int = 200, cv=None,
                 rule: str = "best", **kwargs):
        if isinstance(source, Frontier):
            search = source.search
        elif isinstance(source, FrontierSearch):
            search = source
        else:
            raise TypeError(f"FrontierExplorer needs a FrontierSearch or a Frontier, got {type(source).__name__}; "
                            "build one with treeopt.frontier(X, y, max_leaves=...) or "
                            "FrontierSearch(Dataset.from_arrays(X, y), max_leaves=...).")
        if (X_test is None) != (y_test is None):
            raise ValueError("give both X_test and y_test, or neither.")
        if backend not in ("auto", "graphviz", "python"):
            raise ValueError(f"backend must be 'auto', 'graphviz' or 'python', got {backend!r}.")
        super().__init__(**kwargs)
        self._backend = backend
        self._test = (X_test, y_test) if X_test is not None else None
        self._moving = False
        self.svg = ""
        self.backend_used = ""
        self.cv = None
        self.cv_figure = None
        self.cv_label = widgets.HTML()
        self.use_chosen = widgets.Button(description="chosen λ", tooltip="move the slider to the cross-validated λ",
                                         layout=widgets.Layout(display="none"))
        self.use_chosen.on_click(lambda _: self._use_chosen())
        self._cv_box = widgets.VBox([])

        self.player = SolverPlayer(search, views=None, speed=speed)
        self._search = None
        self.frontier = self._frontier_of(search)
        self._n_curves = len(frontier_traces(self.frontier.table))
        self._live = LiveFigure(self._traces(), _LAYOUT, min_interval=1.0)
        self._wire_clicks()
        self.lambda_slider = widgets.FloatLogSlider(value=0.01, base=10, min=-4, max=0, step=0.01,
                                                    description="λ", readout_format=".4f",
                                                    continuous_update=True, layout=widgets.Layout(width="480px"))
        widgets.link((self.lambda_slider, "value"), (self, "regularization"))
        self.lambda_label = widgets.HTML()
        self.caption = widgets.HTML()
        self.picture = widgets.HTML()
        self.picture.add_class("treeopt-tree-svg")
        self.picture.layout = widgets.Layout(overflow="auto", max_height="520px", min_width="360px")
        self.add_class("treeopt-frontier-explorer")
        left = widgets.VBox([self._live.box, widgets.HBox([self.lambda_slider, self.use_chosen]), self.lambda_label,
                             self._cv_box])
        right = widgets.VBox([self.caption, self.picture])
        self.children = [self.player, widgets.HBox([left, right])]
        self.observe(self._on_regularization, names="regularization")
        self.observe(self._on_selected, names="selected")
        self.player.observe(self._on_frame, names="frame")
        if cv is not None:
            self.show_cv(cv, rule=rule)
        self._refresh()

    # -- the plot ---------------------------------------------------------------------
    @property
    def figure(self):
        """The plotly ``FigureWidget`` currently shown (rebuilt when the data change)."""
        return self._live.figure

    def _traces(self, row: int | None = None) -> list:
        table = self.frontier.table
        traces = [dict(type="scatter", **t) for t in frontier_traces(table)]
        if row is None or not 0 <= row < len(table):
            x, y = [], []
        else:
            x, y = [int(table.at[row, "leaves"])], [float(table.at[row, "accuracy"])]
        traces.append(dict(type="scatter", x=x, y=y, mode="markers", name="selected", hoverinfo="skip",
                           marker=dict(size=20, symbol="circle-open", color=_SELECTED_COLOR, line=dict(width=3))))
        return traces

    def _draw(self, throttle: bool = False) -> None:
        if self._live.draw(self._traces(self.selected), throttle=throttle):
            self._wire_clicks()

    def _wire_clicks(self) -> None:
        for curve in self._live.figure.data[: self._n_curves]:
            curve.on_click(self._on_click)

    # -- state ------------------------------------------------------------------------
    def _frontier_of(self, search) -> Frontier:
        if search is not self._search:
            self._search = search
            self.frontier = Frontier.from_search(search)
            if self._test is not None:
                self.frontier.evaluate(*self._test, "test")
        else:
            self.frontier.refresh()
        return self.frontier

    def _on_frame(self, change) -> None:
        if change["new"] is not None:
            self._refresh()

    def _refresh(self) -> None:
        front = self._frontier_of(self.player.solver)
        table = front.table
        self.certified_leaves = int(front.certified_leaves)
        self.complete = bool(front.complete)
        lows = table["lambda_min"][table["on_hull"]]
        low = max(1e-4, float(lows[lows > 0].min()) / 2) if (lows > 0).any() else 1e-4
        self.lambda_slider.min = math.log10(low)
        self._n_curves = len(frontier_traces(table))
        # Keep the λ on the slider: the selection follows it as the frontier fills in.
        self._select_for(self.regularization, throttle=bool(self.player.running))

    def _select_for(self, lam: float, throttle: bool = False) -> None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            row = self.frontier.row_for(lam)
        self._moving = True
        try:
            self.selected = row
        finally:
            self._moving = False
        self._show(throttle)

    # -- interaction ---------------------------------------------------------------------
    def select(self, row: int) -> None:
        """Select the tree of table row ``row`` (what a click on its point does)."""
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < len(self.frontier.table):
            raise ValueError(f"row must be between 0 and {len(self.frontier.table) - 1}, got {row!r}.")
        self.selected = row
        self._show()

    def _on_click(self, trace, points, selector=None) -> None:
        if points.point_inds:
            self.select(int(points.point_inds[0]))

    def _on_selected(self, change) -> None:
        if self._moving:
            return
        row = change["new"]
        table = self.frontier.table
        if bool(table.at[row, "on_hull"]):
            lo, hi = table.at[row, "lambda_min"], table.at[row, "lambda_max"]
            lo = max(lo, 10 ** self.lambda_slider.min)
            hi = min(hi, 1.0)
            if not lo <= self.regularization <= hi:
                self._moving = True
                try:
                    self.regularization = math.sqrt(lo * hi) if hi >= lo else lo
                finally:
                    self._moving = False

    def _on_regularization(self, change) -> None:
        if not self._moving:
            self._select_for(change["new"])

    # -- drawing ---------------------------------------------------------------------------
    def _show(self, throttle: bool = False) -> None:
        front = self.frontier
        table = front.table
        row = min(self.selected, len(table) - 1)
        tree = front.tree(row)
        self.svg, self.backend_used = render_tree_svg(tree, backend=self._backend)
        self.picture.value = self.svg
        self._draw(throttle)
        parts = [f"<b>{tree.n_leaves} leaves</b>, training accuracy {table.at[row, 'accuracy']:.4f}"]
        if "test_accuracy" in table:
            parts.append(f"held-out accuracy {table.at[row, 'test_accuracy']:.4f}")
        if not table.at[row, "certified"]:
            parts.append("<i>not yet certified</i>")
        if self.backend_used != "graphviz":
            parts.append("drawn without graphviz")
        self.caption.value = " · ".join(parts)
        lam = self.regularization
        if table.at[row, "on_hull"]:
            lo, hi = table.at[row, "lambda_min"], table.at[row, "lambda_max"]
            text = f"λ in [{lo:.4g}, {hi:.4g}]: this tree is optimal for loss + λ × leaves"
        else:
            text = "inside the hull: optimal for its number of leaves, but for no λ"
        if lam < front.min_certified_regularization:
            text += (f" · λ = {lam:.4g} is below the certified range (λ >= "
                     f"{front.min_certified_regularization:.4g}): a larger tree might be better")
        self.lambda_label.value = escape(text).replace("&gt;=", "≥")
        self._show_cv_marker()

    # -- the cross-validated curve ---------------------------------------------------------
    def show_cv(self, cv, rule: str = "best") -> None:
        """Show a cross-validated frontier: its score against λ, and its chosen λ.

        Parameters
        ----------
        cv : CVFrontier or fitted OptimalTreeClassifierCV
            Anything with a ``table`` of λ intervals and scores (a
            :class:`~treeopt.CVFrontier`), or a fitted estimator with
            ``frontier_`` and ``regularization_``.
        rule : {"best", "one_se"}, default="best"
            The λ marked as chosen for a ``CVFrontier``.

        The first call builds :attr:`cv_figure`; later calls update it in place.
        """
        if hasattr(cv, "frontier_") and hasattr(cv, "regularization_"):
            front, chosen = cv.frontier_, float(cv.regularization_)
        elif hasattr(cv, "table") and hasattr(cv, "regularization"):
            front, chosen = cv, float(cv.regularization(rule))
        else:
            raise TypeError(f"cv must be a CVFrontier (treeopt.cross_validate_frontier) or a fitted "
                            f"OptimalTreeClassifierCV, got {type(cv).__name__}.")
        self.cv = front
        self.cv_regularization = chosen
        traces = self._cv_traces()
        if self.cv_figure is None:
            self.cv_figure = figure_widget(data=traces, layout=_CV_LAYOUT)
            self._cv_box.children = [self.cv_figure, self.cv_label]
            self.use_chosen.layout.display = None
        else:
            with self.cv_figure.batch_update():
                for trace, new in zip(self.cv_figure.data, traces):
                    trace.x, trace.y = new["x"], new["y"]
                    if "error_y" in new:
                        trace.error_y.array = new["error_y"]["array"]
                    trace.marker.symbol = new["marker"]["symbol"]
        self._show_cv_marker()

    def _floor(self) -> float:
        """Where the curve stops on the left: a log axis cannot reach λ = 0."""
        lows = self.cv.table["lambda_min"]
        lows = lows[lows > 0]
        return min(1e-4, float(lows.min()) / 2) if len(lows) else 1e-4

    def _cv_row(self, lam: float):
        table = self.cv.table
        inside = table[(table["lambda_min"] <= lam) & (lam <= table["lambda_max"])]
        return inside.iloc[0] if len(inside) else table.iloc[-1]

    def _cv_traces(self) -> list:
        """The curve (a step function of λ), the points with error bars, the chosen λ, the slider's λ."""
        table, floor = self.cv.table, self._floor()
        step_x, step_y = [], []
        for lo, hi, mean in zip(table["lambda_min"], table["lambda_max"], table["mean_test_score"]):
            step_x += [min(hi, 1.0), max(lo, floor)]
            step_y += [float(mean), float(mean)]
        low = float((table["mean_test_score"] - table["std_test_score"]).min())
        high = float((table["mean_test_score"] + table["std_test_score"]).max())
        chosen = self.cv_regularization
        return [
            dict(type="scatter", x=step_x, y=step_y, mode="lines", name="cross-validated",
                 line=dict(color="#1f77b4"), marker=dict(symbol="circle"), hoverinfo="skip"),
            dict(type="scatter", x=table["regularization"].tolist(), y=table["mean_test_score"].tolist(),
                 mode="markers", name="mean ± std",
                 error_y=dict(type="data", array=table["std_test_score"].tolist(), visible=True),
                 marker=dict(symbol=["circle" if c else "circle-open" for c in table["certified"]], size=8,
                             color="#1f77b4")),
            dict(type="scatter", x=[chosen, chosen], y=[low, high], mode="lines", name="chosen λ",
                 line=dict(color=_CHOSEN_COLOR, dash="dash", width=2), marker=dict(symbol="circle")),
            dict(type="scatter", x=[], y=[], mode="markers", name="slider λ", hoverinfo="skip",
                 marker=dict(symbol="circle-open", size=18, color=_SELECTED_COLOR, line=dict(width=3))),
        ]

    def _show_cv_marker(self) -> None:
        if self.cv_figure is None:
            return
        lam = self.regularization
        row = self._cv_row(lam)
        with self.cv_figure.batch_update():
            self.cv_figure.data[-1].x = [lam]
            self.cv_figure.data[-1].y = [float(row["mean_test_score"])]
        chosen = self._cv_row(self.cv_regularization)
        text = (f"cross-validated ({self.cv.n_splits} folds) {self.cv.scoring} at this λ: "
                f"{row['mean_test_score']:.4f} ± {row['std_test_score']:.4f}")
        if not row["certified"]:
            text += " (not every fold certified here)"
        text += (f" · chosen λ = {self.cv_regularization:.4g}: {chosen['mean_test_score']:.4f} ± "
                 f"{chosen['std_test_score']:.4f}")
        self.cv_label.value = escape(text)

    def _use_chosen(self) -> None:
        if self.cv_regularization is not None:
            self.regularization = self.cv_regularization

    def to_html(self) -> str:
        """A static rendering (table and tree) for saved notebooks."""
        cv = "" if self.cv is None else f"<p>{self.cv_label.value}</p>"
        return (f"<div class='treeopt-static'><b>frontier</b>{self.frontier.table.to_html()}"
                f"{self.caption.value}<br>{cv}{self.svg}</div>")

    def _repr_mimebundle_(self, **kwargs):
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        bundle["text/html"] = self.to_html()
        bundle["text/plain"] = (f"FrontierExplorer({len(self.frontier.table)} trees, certified up to "
                                f"{self.certified_leaves} leaves)")
        return bundle

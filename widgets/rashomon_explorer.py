"""``RashomonExplorer``: browse a Rashomon set (every near-optimal tree) in a classroom.

Three plots of the (filtered) set, all exact, none built by listing the trees:

* an **icicle** of the trees grouped by their root split, then by the first split of each side
  (TimberTrek's view, Wang et al. 2022); clicking a group draws its best tree beside the plots
  (the group menu makes the same choice from the keyboard). plotly's ``FigureWidget`` sends hover
  and click events through one synchronised value, which ipywidgets merges while an earlier
  message is on its way to the kernel: a click in the very instant the pointer arrives can be
  replaced by the hover that follows it. A pointer that rests on the group first, as a person's
  does, always gets through (``tests/rashomon/test_rashomon_browser.py``);
* a **histogram** of objectives (number of trees at each objective value);
* the **importance ranges**: for each feature, the share of trees that split on it and the range
  (least to greatest over the set) of the share of training weight whose path tests it, in the spirit
  of model class reliance.

Filters (must use, avoid, maximum depth and leaves, a tighter ε) make a new
:class:`~treeopt.rashomon.RashomonSet` with :meth:`~treeopt.rashomon.RashomonSet.filter`. Each plotly
``FigureWidget`` is created once and updated in place (whole arrays under ``batch_update``), so a
redraw sends the changed arrays, not a new figure.
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets
import numpy as np
from traitlets import Int, Unicode

from .live_figure import figure_widget
from .tree_view import render_tree_svg

__all__ = ["RashomonExplorer"]

_ROOT = "all trees"


class RashomonExplorer(widgets.VBox):
    """Explore a Rashomon set: groups by splits, objectives, importance ranges, filters, best tree per group.

    Parameters
    ----------
    rashomon_set : RashomonSet
        From :func:`treeopt.rashomon_set`.
    backend : {"auto", "graphviz", "python"}, default="auto"
        How trees are drawn (see :func:`treeopt.widgets.render_tree_svg`).

    Attributes
    ----------
    count : int
        Trees in the filtered set.
    selected_group : str
        Id of the icicle group whose best tree is drawn (``""``: the best tree of the set).
    current : RashomonSet
        The filtered set.
    icicle, histogram, importance : plotly.graph_objects.FigureWidget
        Created once; their traces are updated in place.
    svg : str
        The tree drawn.

    Examples
    --------
    >>> from treeopt import rashomon_set
    >>> from treeopt.datasets import load_monk
    >>> X, y = load_monk(1)
    >>> explorer = RashomonExplorer(rashomon_set(X, y, regularization=0.02, epsilon=0.2), backend="python")
    >>> explorer.count
    468
    >>> explorer.avoid.value = ("jacket_color = red",)       # a filter: trees that never test it
    >>> explorer.count, explorer.current.filters["avoid"]
    (0, ['jacket_color = red'])
    >>> explorer.avoid.value = ()
    >>> explorer.select_group(explorer.icicle.data[0].ids[1])   # as a click on the first root split
    >>> explorer.svg.startswith("<svg")
    True
    >>> explorer.group.value == explorer.icicle.data[0].ids[1]  # the group control follows the selection
    True
    """

    count = Int(0)
    selected_group = Unicode("")

    def __init__(self, rashomon_set, *, backend: str = "auto", **kwargs):
        if not hasattr(rashomon_set, "split_groups") or not hasattr(rashomon_set, "filter"):
            raise TypeError(f"RashomonExplorer needs a RashomonSet, got {type(rashomon_set).__name__}; build one with "
                            "treeopt.rashomon_set(X, y, regularization=..., epsilon=...).")
        if backend not in ("auto", "graphviz", "python"):
            raise ValueError(f"backend must be 'auto', 'graphviz' or 'python', got {backend!r}.")
        super().__init__(**kwargs)
        self.base = self.current = rashomon_set
        self._backend = backend
        self._groups = {}
        self.svg = ""
        names = list(rashomon_set.feature_names)
        epsilon = rashomon_set.bound / rashomon_set.optimum - 1 if rashomon_set.optimum > 0 else 0.0
        frame_depth = max(1, min(12, int(rashomon_set.bound / rashomon_set.regularization)))
        layout = widgets.Layout(width="230px")
        self.must_use = widgets.SelectMultiple(options=names, description="must use", rows=5, layout=layout)
        self.avoid = widgets.SelectMultiple(options=names, description="avoid", rows=5, layout=layout)
        self.max_depth = widgets.Dropdown(options=[("any", None)] + [(str(d), d) for d in range(frame_depth + 1)],
                                          value=None, description="max depth", layout=widgets.Layout(width="180px"))
        self.max_leaves = widgets.Dropdown(options=[("any", None)] + [(str(k), k) for k in range(1, frame_depth + 2)],
                                           value=None, description="max leaves", layout=widgets.Layout(width="180px"))
        self.epsilon = widgets.FloatSlider(value=max(epsilon, 0.0), min=0.0, max=max(epsilon, 1e-9),
                                           step=max(epsilon, 1e-9) / 100, description="ε", readout_format=".4f",
                                           continuous_update=False, layout=widgets.Layout(width="320px"))
        self.must_use.add_class("treeopt-rashomon-must-use")
        self.avoid.add_class("treeopt-rashomon-avoid")
        self.caption = widgets.HTML()
        self.caption.add_class("treeopt-rashomon-caption")
        self.tree_caption = widgets.HTML()
        self.tree_caption.add_class("treeopt-rashomon-tree-caption")
        # The same choice as a click on the icicle, as a control: keyboards and screen readers reach
        # it, and it works where a click in the page does not reach the kernel.
        self.group = widgets.Dropdown(options=[("all trees", "")], value="", description="group",
                                      layout=widgets.Layout(width="340px"))
        self.group.add_class("treeopt-rashomon-group")
        self.picture = widgets.HTML()
        self.picture.add_class("treeopt-tree-svg")
        self.picture.layout = widgets.Layout(overflow="auto", max_height="520px", min_width="340px")

        # The figures are built with the set's data (a view opening later, as in Voila, draws what the
        # constructor got) and afterwards only updated in place.
        self.current = rashomon_set
        self.count = rashomon_set.count
        icicle, histogram, importance = self._figure_data()
        self.icicle = figure_widget(
            data=[dict(type="icicle", branchvalues="total", maxdepth=3,
                       hovertemplate="%{label}<br>%{value} trees<extra></extra>", **icicle)],
            layout=dict(height=330, width=520, margin=dict(l=5, r=5, t=35, b=5),
                        title=dict(text="trees by root split, then first splits (left | right)", font=dict(size=13))))
        self.histogram = figure_widget(
            data=[dict(type="bar", name="trees", marker=dict(color="#4c78a8"), **histogram)],
            layout=dict(height=260, width=420, margin=dict(l=55, r=10, t=35, b=45), bargap=0.1,
                        title=dict(text="objectives in the set", font=dict(size=13)),
                        xaxis=dict(title=dict(text="objective")), yaxis=dict(title=dict(text="trees"))))
        span, mean, share = importance
        self.importance = figure_widget(
            data=[dict(type="bar", orientation="h", name="reach: min to max",
                       marker=dict(color="rgba(76,120,168,0.45)"), **span),
                  dict(type="scatter", mode="markers", name="reach: mean", marker=dict(color="#4c78a8"), **mean),
                  dict(type="scatter", mode="markers", name="share of trees using it",
                       marker=dict(symbol="diamond", color="#e45756", size=9), **share)],
            layout=dict(height=max(260, 22 * len(names) + 90), width=520, margin=dict(l=140, r=10, t=35, b=45),
                        title=dict(text="feature importance over the set", font=dict(size=13)),
                        xaxis=dict(range=[0, 1.02], title=dict(text="share")), legend=dict(orientation="h", y=-0.15),
                        yaxis=dict(autorange="reversed")))
        self.icicle.data[0].on_click(self._on_click)

        filters = widgets.HBox([self.must_use, self.avoid,
                                widgets.VBox([self.max_depth, self.max_leaves, self.epsilon])])
        boxes = []
        for figure, name in ((self.icicle, "icicle"), (self.histogram, "histogram"), (self.importance, "importance")):
            box = widgets.Box([figure])
            box.add_class(f"treeopt-rashomon-{name}")
            boxes.append(box)
        self.children = [filters, self.caption,
                         widgets.HBox([boxes[0], widgets.VBox([self.group, self.tree_caption, self.picture])]),
                         widgets.HBox(boxes[1:])]
        self.add_class("treeopt-rashomon-explorer")
        for control in (self.must_use, self.avoid, self.max_depth, self.max_leaves, self.epsilon):
            control.observe(self._on_filter, names="value")
        self.observe(self._on_selected, names="selected_group")
        self.group.observe(self._on_group_chosen, names="value")
        self._apply()

    # -- filters ------------------------------------------------------------------------
    def _on_filter(self, change) -> None:
        self._apply()

    def _apply(self) -> None:
        base = self.base
        clash = set(self.must_use.value) & set(self.avoid.value)
        if clash:
            self.caption.value = (f"<span style='color:#b00'>{escape(', '.join(sorted(clash)))}: both required and "
                                  "avoided; the filters were not applied.</span>")
            return
        bound = min(base.bound, (1 + self.epsilon.value) * base.optimum)
        self.current = base.filter(must_use=list(self.must_use.value) or None, avoid=list(self.avoid.value) or None,
                                   max_depth=self.max_depth.value, max_leaves=self.max_leaves.value,
                                   bound=bound if bound < base.bound else None)
        self.count = self.current.count
        self._redraw()

    # -- drawing ------------------------------------------------------------------------
    def _icicle_data(self) -> tuple:
        groups = self.current.split_groups() if self.count else None
        ids, labels, parents, values = [_ROOT], [f"{_ROOT}"], [""], [float(self.count)]
        self._groups = {}
        if groups is not None:
            totals: dict = {}
            for root, count in zip(groups["root"], groups["count"]):
                totals[root] = totals.get(root, 0) + count
            for root, total in totals.items():
                node = f"{root}"
                ids.append(node)
                labels.append(root if root != "leaf" else "single leaf")
                parents.append(_ROOT)
                values.append(float(total))
                self._groups[node] = (root, None, None)
            for root, left, right, count in zip(groups["root"], groups["left"], groups["right"], groups["count"]):
                if root == "leaf":
                    continue
                node = f"{root}/{left}|{right}"
                ids.append(node)
                labels.append(f"{left} | {right}")
                parents.append(f"{root}")
                values.append(float(count))
                self._groups[node] = (root, left, right)
        return ids, labels, parents, values

    def _figure_data(self) -> tuple:
        """Whole arrays of every trace: the icicle's, the histogram's and the three importance traces'."""
        ids, labels, parents, values = self._icicle_data()
        icicle = dict(ids=ids, labels=labels, parents=parents, values=values)
        histogram = dict(x=[], y=[])
        span, mean, share = dict(x=[], y=[], base=[]), dict(x=[], y=[]), dict(x=[], y=[])
        if self.count:
            grouped = self.current.objective_counts().groupby("objective", sort=True)["count"].sum()
            histogram = dict(x=[float(v) for v in grouped.index], y=[float(v) for v in grouped.to_numpy()])
            importance = self.current.variable_importance()
            names = list(importance.index)
            low = importance["reach_min"].to_numpy(dtype=float)
            high = importance["reach_max"].to_numpy(dtype=float)
            span = dict(y=names, base=low.tolist(), x=np.maximum(high - low, 0.004).tolist())
            mean = dict(y=names, x=importance["reach_mean"].tolist())
            share = dict(y=names, x=importance["share"].tolist())
        return icicle, histogram, [span, mean, share]

    def _redraw(self) -> None:
        current = self.current
        icicle, histogram, importance = self._figure_data()
        for figure, updates in ((self.icicle, [icicle]), (self.histogram, [histogram]), (self.importance, importance)):
            with figure.batch_update():
                for trace, values in zip(figure.data, updates):
                    trace.update(values)
        filters = {k: v for k, v in current.filters.items() if v}
        shown = "; ".join(f"{k} = {v}" for k, v in filters.items())
        self.caption.value = (f"<b>{self.count:,} trees</b> within objective {current.bound:.4f} "
                              f"(optimum {current.optimum:.4f}, λ = {current.regularization:g})"
                              + (f" · filters: {escape(shown)}" if shown else ""))
        options = self._group_options()
        if list(self.group.options) != options:
            keep = self.selected_group if self.selected_group in self._groups else ""
            with self.group.hold_trait_notifications():
                self.group.options = options
                self.group.value = keep
        if self.selected_group in self._groups or self.selected_group == "":
            self._show()
        else:
            self.selected_group = ""

    # -- selection ----------------------------------------------------------------------
    def select_group(self, group: str) -> None:
        """Draw the best tree of an icicle group (its id; ``"all trees"`` or ``""``: the best tree of the set)."""
        group = "" if group == _ROOT else group
        if group and group not in self._groups:
            raise ValueError(f"unknown group {group!r}; the groups are the icicle's ids, e.g. "
                             f"{list(self._groups)[:3]}.")
        if group == self.selected_group:
            self._show()
        self.selected_group = group

    def _on_click(self, trace, points, selector=None) -> None:
        if points.point_inds:
            self.select_group(trace.ids[points.point_inds[0]])

    def _on_selected(self, change) -> None:
        if self.group.value != change["new"] and change["new"] in dict(self._group_options()).values():
            self.group.value = change["new"]
        self._show()

    def _on_group_chosen(self, change) -> None:
        if change["new"] != self.selected_group:
            self.select_group(change["new"])

    def _group_options(self) -> list:
        return [("all trees", "")] + [(group.replace("/", " → "), group) for group in self._groups]

    def _show(self) -> None:
        if not self.count:
            self.svg = ""
            self.picture.value = ""
            self.tree_caption.value = "<i>no tree satisfies the filters</i>"
            return
        group = self.selected_group
        if group:
            root, left, right = self._groups[group]
            tree = self.current.representative(root, left, right)
            title = f"best tree of group {escape(group.replace('/', ' → '))}"
        else:
            tree = self.current[0]
            title = "best tree of the set"
        self.svg, used = render_tree_svg(tree, backend=self._backend)
        self.picture.value = self.svg
        objective = sum(leaf.loss for _, leaf in tree.leaves()) + self.current.regularization * tree.n_leaves
        self.tree_caption.value = (f"<b>{title}</b>: objective {objective:.4f}, {tree.n_leaves} leaves, "
                                   f"depth {tree.depth}" + ("" if used == "graphviz" else " · drawn without graphviz"))

    # -- static fallback -------------------------------------------------------------------
    def to_html(self) -> str:
        """A static rendering (counts by group, importance, tree) for saved notebooks."""
        parts = [f"<div class='treeopt-static'>{self.caption.value}"]
        if self.count:
            parts.append(self.current.split_groups().head(20).to_html(index=False))
            parts.append(self.current.variable_importance().round(4).to_html())
        parts.append(f"{self.tree_caption.value}<br>{self.svg}</div>")
        return "".join(parts)

    def _repr_mimebundle_(self, **kwargs):
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        bundle["text/html"] = self.to_html()
        bundle["text/plain"] = f"RashomonExplorer({self.count} trees, optimum {self.current.optimum:.6g})"
        return bundle

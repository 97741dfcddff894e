"""``RocView``: the ROC convex hull of the incumbent tree, updated live.

A tree scores a row by the fraction of positives in its leaf. Ranking the
leaves by that fraction and adding them one by one traces the tree's ROC
curve, which is the convex hull of its leaves' ROC points: this is the
curve whose area the AUC objective of the GOSDT paper (section 5, "AUC of the
ROC convex hull") maximises, and whose left part up to a false-positive rate
θ the partial-AUC objective measures (the region is shaded).

For comparison a greedy tree (scikit-learn's CART on the same binary
features and weights, ``compare="cart"``) or any other tree can be drawn.
"""

from __future__ import annotations

import numpy as np

from treeopt.roc import roc_hull

from .labels import WAITING, waiting_annotation
from .static_charts import line_chart_svg
from .live_figure import LiveFigure
from .view import PlayerView

__all__ = ["RocView", "hull_points", "is_auc_objective"]


def hull_points(leaf_counts) -> list[tuple[float, float]]:
    """Vertices (FPR, TPR) of the ROC convex hull of leaves given their (negative, positive) weights.

    Uses :func:`treeopt.roc.roc_hull`; when one class has no weight the
    hull is undefined and the chance diagonal is returned.

    Examples
    --------
    >>> hull_points([(4, 1), (0, 3), (2, 2)])
    [(0.0, 0.0), (0.0, 0.5), (0.3333333333333333, 0.8333333333333334), (1.0, 1.0)]
    """
    table = np.asarray([tuple(c)[:2] for c in leaf_counts], dtype=float).reshape(-1, 2)
    if len(table) == 0 or table.sum(axis=0).min() <= 0:
        return [(0.0, 0.0), (1.0, 1.0)]
    hull = roc_hull(table)
    return [(float(x), float(y)) for x, y in zip(hull.fpr, hull.tpr)]


def _objective_max_fpr(objective) -> float | None:
    for name in ("theta", "max_fpr", "fpr_max", "fpr_limit"):
        value = getattr(objective, name, None)
        if isinstance(value, (int, float)) and 0 < value < 1:
            return float(value)
    return None


def is_auc_objective(objective) -> bool:
    """Whether an objective is an AUC-type objective (its name mentions AUC)."""
    return "auc" in str(getattr(objective, "name", "")).lower()


class RocView(PlayerView):
    """ROC convex hull of the incumbent (binary labels), with an optional greedy tree for comparison.

    Parameters
    ----------
    player : SolverPlayer or Solver
    max_fpr : float, optional
        Shade the partial-AUC region ``FPR <= max_fpr`` (default: the
        objective's ``theta``/``max_fpr`` when it has one).
    compare : "cart", Tree or None, default=None
        A second tree to draw: ``"cart"`` fits scikit-learn's greedy tree of
        depth ``compare_depth`` on the same binary features and weights.
    compare_depth : int, default=3

    Attributes
    ----------
    hull : list of (float, float)
        The incumbent's ROC convex hull.
    auc : float
        Its area, or with ``max_fpr`` the partial AUC (area for ``FPR <= max_fpr``
        divided by ``max_fpr``, GOSDT appendix C.5), from :mod:`treeopt.roc`.
    compare_hull : list or None

    Examples
    --------
    >>> from treeopt.datasets import load_monk
    >>> from treeopt.widgets import explore
    >>> player = explore(*load_monk(3), regularization=0.02, views=[RocView])
    >>> _ = player.step(500)
    >>> view = player.views[0]
    >>> view.hull[0], view.hull[-1], 0.5 <= view.auc <= 1.0
    ((0.0, 0.0), (1.0, 1.0), True)
    """

    title = "ROC convex hull"

    def __init__(self, player, *, max_fpr: float | None = None, compare=None, compare_depth: int = 3, **kwargs):
        if max_fpr is not None and not 0 < max_fpr <= 1:
            raise ValueError(f"max_fpr must be in (0, 1], got {max_fpr!r}.")
        if not (compare is None or compare == "cart" or hasattr(compare, "leaves")):
            raise ValueError(f"compare must be None, 'cart' or a Tree, got {compare!r}.")
        self._max_fpr = max_fpr
        self._compare_with = compare
        self._compare_depth = compare_depth
        super().__init__(player, **kwargs)

    def _build(self) -> None:
        self.hull: list = []
        self.auc = float("nan")
        self.compare_hull = None
        self._compare_key = None
        self._live = LiveFigure(self._traces(None), self._figure_layout(None))
        self._live_figures = [self._live]
        self.add_class("treeopt-roc")
        self.children = [self._live.box]

    @property
    def figure(self):
        """The plotly ``FigureWidget`` (created once, updated in place)."""
        return self._live.figure

    def _traces(self, max_fpr) -> list:
        label = f"partial AUC (FPR ≤ {max_fpr:g})" if max_fpr else "AUC"
        hull = self.hull or [(0.0, 0.0), (1.0, 1.0)]
        compare = self.compare_hull or [(0.0, 0.0), (1.0, 1.0)]
        return [
            dict(type="scatter", x=[0, 1], y=[0, 1], name="chance", mode="lines",
                 line=dict(color="#aaaaaa", dash="dot")),
            dict(type="scatter", x=[p[0] for p in compare], y=[p[1] for p in compare], name="greedy tree",
                 mode="lines", line=dict(color="#2ca02c", dash="dash"), visible=self.compare_hull is not None),
            dict(type="scatter", x=[p[0] for p in hull], y=[p[1] for p in hull],
                 name=f"incumbent ({label} {self.auc:.4f})", mode="lines+markers", line=dict(color="#d62728")),
        ]

    def _figure_layout(self, max_fpr, title: str = "ROC convex hull", note: str | None = None) -> dict:
        shapes = [dict(type="rect", x0=0, x1=max_fpr, y0=0, y1=1, fillcolor="#bcbd22", opacity=0.15,
                       line=dict(width=0), layer="below")] if max_fpr else []
        return dict(height=340, width=380, margin=dict(l=50, r=10, t=30, b=40),
                    title=dict(text=title, font=dict(size=13)),
                    xaxis=dict(title=dict(text="false positive rate"), range=[0, 1]),
                    yaxis=dict(title=dict(text="true positive rate"), range=[0, 1.02]),
                    legend=dict(orientation="h", y=-0.25), shapes=shapes,
                    annotations=[waiting_annotation(note)] if note else [])

    def _max(self, frame) -> float | None:
        return self._max_fpr if self._max_fpr is not None else _objective_max_fpr(frame.objective)

    def update(self, frame) -> None:
        self.frame = frame
        tree = frame.snapshot.best_tree
        if tree is None:
            self.hull, self.auc = [], float("nan")
            self._live.draw(self._traces(None), self._figure_layout(None, note=WAITING))
            return
        if len(tree.classes) != 2:
            self.hull, self.auc = [], float("nan")
            self._live.draw(self._traces(None), self._figure_layout(None, "ROC convex hull (needs two classes)"))
            return
        table = np.asarray([tuple(leaf.counts)[:2] for _, leaf in tree.leaves()], dtype=float).reshape(-1, 2)
        max_fpr = self._max(frame)
        if table.sum(axis=0).min() > 0:
            hull = roc_hull(table)
            self.hull = [(float(x), float(y)) for x, y in zip(hull.fpr, hull.tpr)]
            self.auc = hull.partial_auc(max_fpr) if max_fpr else hull.auc
        else:                                   # one class has no weight: no ROC curve
            self.hull, self.auc = [(0.0, 0.0), (1.0, 1.0)], float("nan")
        self.compare_hull = self._compare_points(frame)
        self._live.draw(self._traces(max_fpr), self._figure_layout(max_fpr), throttle=self._throttle)

    def _compare_points(self, frame):
        if self._compare_with is None:
            return None
        if self._compare_with != "cart":
            return hull_points([leaf.counts for _, leaf in self._compare_with.leaves()])
        dataset = frame.dataset
        if dataset is None:
            return None
        if self._compare_key is not dataset:
            self._compare_key = dataset
            self._cart_hull = self._fit_cart(dataset)
        return self._cart_hull

    def _fit_cart(self, dataset):
        from sklearn.tree import DecisionTreeClassifier
        points, counts = np.asarray(dataset.points, dtype=float), np.asarray(dataset.counts, dtype=float)
        X = np.vstack([points, points])
        y = np.repeat([0, 1], len(points))
        w = np.concatenate([counts[:, 0], counts[:, 1]])
        keep = w > 0
        X, y, w = X[keep], y[keep], w[keep]
        cart = DecisionTreeClassifier(max_depth=self._compare_depth, random_state=0).fit(X, y, sample_weight=w)
        leaf = cart.apply(X)
        ids = np.unique(leaf)
        leaf_counts = [(w[(leaf == i) & (y == 0)].sum(), w[(leaf == i) & (y == 1)].sum()) for i in ids]
        return hull_points(leaf_counts)

    def to_svg(self) -> str:
        series = [{"x": [0, 1], "y": [0, 1], "name": "chance", "color": "#aaaaaa", "dash": True}]
        if self.compare_hull is not None:
            series.append({"x": [p[0] for p in self.compare_hull], "y": [p[1] for p in self.compare_hull],
                           "name": "greedy tree", "color": "#2ca02c", "dash": True})
        series.append({"x": [p[0] for p in self.hull], "y": [p[1] for p in self.hull],
                       "name": f"incumbent (AUC {self.auc:.4f})", "color": "#d62728",
                       "markers": list(range(len(self.hull)))})
        max_fpr = self._max(self.frame) if self.frame is not None else None
        return line_chart_svg(series, title="ROC convex hull", x_label="false positive rate",
                              y_label="true positive rate", x_range=(0, 1), y_range=(0, 1),
                              shade_x=(0, max_fpr) if max_fpr else None, width=380, height=340)

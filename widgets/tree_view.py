"""``TreeView``: the incumbent tree, drawn with graphviz or without it.

The tree's DOT text (:meth:`Tree.to_dot`) is rendered to SVG by graphviz's
``dot`` binary when it is installed; when it is not (or the Python
``graphviz`` package is missing), :func:`treeopt.render.tree_svg` draws it in
pure Python instead, so the view never fails. Leaves show
their class counts; subtrees below a chosen depth collapse into one box; the
path of one training row can be highlighted. When the solver keeps its k best
trees (``OSDT(top_k=k)``, ``explore(..., solver="osdt", top_k=k)``), a
dropdown flips through them: "tree 2 of 3: objective ...".

A legend under the caption says what a leaf box shows. With an AUC-type
objective a tree ranks rows by the share of positives in their leaf (GOSDT
paper, section 5); its leaves' labels (majority classes) say little about
that ranking (with a rare positive class they can all read negative), so
each leaf shows its positive rate instead, ``P(yes) = 0.29``.
"""

from __future__ import annotations

from html import escape

import time

import ipywidgets as widgets
import numpy as np

from treeopt.render import tree_svg

from .labels import leaf_legend
from .view import PlayerView

__all__ = ["TreeView", "render_tree_svg", "leaf_legend"]

# "fit width": a large tree's SVG (graphviz's and ours both have a viewBox) shrinks to the view's width.
_STYLE = """<style>
.treeopt-tree-svg.treeopt-fit svg { max-width: 100%; height: auto; }
</style>"""


def render_tree_svg(tree, *, highlight_path=None, max_depth=None, backend: str = "auto",
                    leaf_label="class") -> tuple[str, str]:
    """SVG of a tree and the backend that drew it.

    Parameters
    ----------
    tree : Tree
    highlight_path : list of int, optional
        Node ids from :meth:`Tree.decision_path`.
    max_depth : int, optional
        Collapse subtrees below this depth.
    backend : {"auto", "graphviz", "python"}, default="auto"
        ``auto``: graphviz when its ``dot`` binary runs, else pure Python.
    leaf_label : {"class", "positive_rate"} or callable, default="class"
        The first line of each leaf's box (:func:`treeopt.render.leaf_title`):
        ``"positive_rate"`` for a tree that ranks rows (AUC).

    Returns
    -------
    (str, str)
        The ``<svg>`` text and ``"graphviz"`` or ``"python"``.

    Examples
    --------
    >>> from treeopt.binarize import BinaryFeature
    >>> from treeopt.tree import Leaf, Split, Tree
    >>> t = Tree(Split(0, Leaf(0, (4, 1)), Leaf(1, (0, 3))), [BinaryFeature("a", 0, "binary", 1, "a")], [0, 1])
    >>> svg, used = render_tree_svg(t, backend="python")
    >>> used, svg.startswith("<svg")
    ('python', True)
    """
    if backend not in ("auto", "graphviz", "python"):
        raise ValueError(f"backend must be 'auto', 'graphviz' or 'python', got {backend!r}.")
    if backend != "python":
        try:
            import graphviz
        except ImportError:
            graphviz = None
            if backend == "graphviz":
                raise ImportError("the graphviz backend needs the graphviz package: pip install graphviz") from None
        if graphviz is not None:
            dot = tree.to_dot(highlight_path=highlight_path, max_depth=max_depth, leaf_label=leaf_label)
            try:
                svg = graphviz.Source(dot).pipe(format="svg", encoding="utf-8")
            except (graphviz.ExecutableNotFound, graphviz.CalledProcessError):
                if backend == "graphviz":
                    raise
            else:
                return svg[svg.find("<svg"):], "graphviz"
    return tree_svg(tree, highlight_path=highlight_path, max_depth=max_depth, leaf_label=leaf_label), "python"


class TreeView(PlayerView):
    """The incumbent tree as SVG: class counts at leaves, collapsible, row path highlighted.

    Parameters
    ----------
    player : SolverPlayer or Solver
    max_depth : int, optional
        Collapse subtrees below this depth (None: draw everything).
    backend : {"auto", "graphviz", "python"}, default="auto"

    Attributes
    ----------
    svg : str
        The SVG currently shown.
    backend_used : str
        ``"graphviz"`` or ``"python"`` (the pure-Python fallback).
    tree : Tree
        The tree shown.
    highlight_row : int or None
        Training row whose path is highlighted.
    tree_index : int
        Which of the snapshot's ``top_trees`` is shown (0: the incumbent);
        set it with :meth:`show_tree` or the dropdown, shown only when the
        search keeps more than one tree.

    Examples
    --------
    >>> from treeopt.datasets import load_monk
    >>> from treeopt.widgets import explore
    >>> player = explore(*load_monk(1), regularization=0.05, views=[TreeView])
    >>> _ = player.step(1000)
    >>> view = player.views[0]
    >>> "jacket_color = red" in view.svg
    True

    The three best trees (``top_k=3``), second one shown:

    >>> player = explore(*load_monk(1), regularization=0.1, solver="osdt", top_k=3, views=[TreeView])
    >>> _ = player.step(10**6)
    >>> view = player.views[0]
    >>> view.show_tree(1).n_leaves >= view.trees[0][1].n_leaves, len(view.trees)
    (True, 3)
    """

    title = "incumbent tree"

    #: While the player runs, the tree (an SVG of tens of KB, sent whole) is redrawn at most this often
    #: (seconds); the newest tree is drawn when the player stops.
    min_interval = 1.0

    def __init__(self, player, *, max_depth: int | None = None, backend: str = "auto", **kwargs):
        if backend not in ("auto", "graphviz", "python"):
            raise ValueError(f"backend must be 'auto', 'graphviz' or 'python', got {backend!r}.")
        if max_depth is not None and (not isinstance(max_depth, int) or max_depth < 0):
            raise ValueError(f"max_depth must be a non-negative integer or None, got {max_depth!r}.")
        self._backend = backend
        self._max_depth = max_depth
        super().__init__(player, **kwargs)

    def _build(self) -> None:
        self.svg = ""
        self.backend_used = ""
        self.tree = None
        self.highlight_row: int | None = None
        self._cache: dict = {}
        self._drawn_at, self._pending = 0.0, False
        self._depth_box = widgets.BoundedIntText(value=self._max_depth or 0, min=0, max=64,
                                                 description="collapse below depth",
                                                 tooltip="draw subtrees below this depth as one box (0 = none)",
                                                 style={"description_width": "initial"},
                                                 layout=widgets.Layout(width="200px"))
        self._depth_box.observe(self._on_depth, names="value")
        self._row_box = widgets.IntText(value=-1, description="highlight row", tooltip="-1 = none",
                                        style={"description_width": "initial"}, layout=widgets.Layout(width="170px"))
        self._fit = widgets.ToggleButton(value=True, description="fit width",
                                         tooltip="shrink a large tree to the view's width (off: actual size, scroll)",
                                         layout=widgets.Layout(width="auto"))
        self._fit.observe(self._on_fit, names="value")
        self._row_box.observe(self._on_row, names="value")
        self.tree_index = 0
        self.trees: list = []
        self._tree_choice = widgets.Dropdown(options=[], description="k best trees",
                                             style={"description_width": "initial"},
                                             layout=widgets.Layout(width="420px", display="none"))
        self._tree_choice.observe(self._on_choice, names="value")
        self._syncing = False
        self._caption = widgets.HTML()
        self._picture = widgets.HTML()
        self._picture.add_class("treeopt-tree-svg")
        self._picture.add_class("treeopt-fit")
        self._picture.layout = widgets.Layout(overflow="auto", max_height="520px")
        self.add_class("treeopt-treeview")
        controls = widgets.HBox([self._depth_box, self._row_box, self._fit],
                                layout=widgets.Layout(flex_flow="row wrap"))
        self.children = [widgets.HTML(_STYLE), controls, self._tree_choice, self._caption, self._picture]

    def _on_fit(self, change) -> None:
        if change["new"]:
            self._picture.add_class("treeopt-fit")
        else:
            self._picture.remove_class("treeopt-fit")

    def _on_depth(self, change) -> None:
        self._max_depth = change["new"] or None
        self._redraw()

    def _on_choice(self, change) -> None:
        if not self._syncing and change["new"] is not None:
            self.show_tree(change["new"])

    def show_tree(self, index: int):
        """Show the ``index``-th best tree of the search (0: the incumbent); returns it.

        Raises
        ------
        IndexError
            When the search keeps fewer trees (fit with a larger ``top_k``).
        """
        trees = self.trees or ([(None, self.tree)] if self.tree is not None else [])
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < len(trees):
            raise IndexError(f"tree {index!r} out of range: the search keeps {len(trees)} tree(s) "
                             "(use top_k=k with solver='osdt' for the k best).")
        self.tree_index = int(index)
        if self.trees:
            self.tree = self.trees[self.tree_index][1]
        self._sync_choice()
        self._redraw()
        return self.tree

    def _sync_choice(self) -> None:
        """Show the dropdown only when there is more than one tree; keep it on ``tree_index``."""
        k = len(self.trees)
        self._syncing = True
        try:
            if k > 1:
                options = [(f"tree {i + 1} of {k}: objective {value:.6g}", i)
                           for i, (value, _) in enumerate(self.trees)]
                if list(self._tree_choice.options) != options:
                    self._tree_choice.options = options
                self._tree_choice.value = self.tree_index
                self._tree_choice.layout.display = ""
            else:
                self._tree_choice.layout.display = "none"
        finally:
            self._syncing = False

    def _on_row(self, change) -> None:
        row = change["new"]
        self.highlight(None if row is None or row < 0 else row)

    def highlight(self, row: int | None) -> list:
        """Highlight the path of training row ``row`` (None to clear); returns the node ids on it."""
        dataset = self.frame.dataset if self.frame is not None else None
        if row is not None:
            if dataset is None:
                raise ValueError("this solver exposes no dataset, so rows cannot be highlighted.")
            if not 0 <= row < dataset.n_rows:
                raise IndexError(f"row {row} out of range: the data has {dataset.n_rows} rows.")
        self.highlight_row = row
        self._redraw()
        return self._path()

    def _path(self) -> list:
        if self.highlight_row is None or self.tree is None:
            return []
        dataset = self.frame.dataset
        z = dataset.points[dataset.row_point[self.highlight_row]]
        return self.tree.decision_path(np.asarray(z, dtype=bool), binarized=True)

    def update(self, frame) -> None:
        self.frame = frame
        self.trees = list(getattr(frame.snapshot, "top_trees", None) or [])
        if self.tree_index >= len(self.trees):
            self.tree_index = 0
        self.tree = self.trees[self.tree_index][1] if self.trees else frame.snapshot.best_tree
        self._sync_choice()
        if self._throttle and time.perf_counter() - self._drawn_at < self.min_interval:
            self._pending = True
            return
        self._redraw()

    def _on_running(self, change) -> None:
        super()._on_running(change)
        if not change["new"] and self._pending:
            self._redraw()

    def _redraw(self) -> None:
        self._drawn_at, self._pending = time.perf_counter(), False
        tree = self.tree
        if tree is None:
            return
        path = self._path()
        ranking = self.ranking
        leaf_label = "positive_rate" if ranking else "class"
        key = (tree.to_dot(highlight_path=path, max_depth=self._max_depth, leaf_label=leaf_label), self._backend)
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = render_tree_svg(tree, highlight_path=path, max_depth=self._max_depth,
                                               backend=self._backend, leaf_label=leaf_label)
        self.svg, self.backend_used = self._cache[key]
        s = self.frame.snapshot
        note = "" if self.backend_used == "graphviz" else " · drawn without graphviz (install it for nicer layout)"
        row = "" if self.highlight_row is None else f" · path of row {self.highlight_row} in red"
        if len(self.trees) > 1:
            certified = "certified" if s.status == "optimal" else "best found so far, not certified"
            which = f"<b>tree {self.tree_index + 1} of {len(self.trees)}</b> ({certified})"
            objective = self.trees[self.tree_index][0]
        else:
            which, objective = "<b>incumbent</b>", s.upper_bound
        self._caption.value = (f"{which}: {tree.n_leaves} leaves, depth {tree.depth}, objective "
                               f"{objective:.6g}{row}{escape(note)}<br><span class='treeopt-leaf-legend' "
                               f"style='color:#555'>{escape(leaf_legend(tree, ranking))}</span>")
        self._picture.value = self.svg

    @property
    def ranking(self) -> bool:
        """Whether the tree ranks rows (an AUC-type objective on two classes): leaves then show positive rates."""
        from .roc_view import is_auc_objective
        tree = self.tree
        return (tree is not None and len(tree.classes) == 2 and self.frame is not None
                and is_auc_objective(self.frame.objective))

    def to_svg(self) -> str:
        return self.svg

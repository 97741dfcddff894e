"""Decision trees as plain data: predict, print as rules, serialise, draw as DOT.

A :class:`Tree` holds a root node and the meaning of its features. Internal
nodes are :class:`Split` (binary test on one binary feature: ``left`` is the
branch where the feature is *false*, ``right`` where it is *true*) or
:class:`MultiwaySplit` (one child per category of an original categorical
column, as in Branches section 3 and C4.5); leaves are :class:`Leaf`
(predicted class index, weighted class counts, loss).

Every solver in treeopt returns a ``Tree``; a tree fitted through a
:class:`~treeopt.binarize.Binarizer` predicts on the original table. A tree with multiway splits always routes
on the original table (its binary splits, if any, evaluate their
:class:`~treeopt.binarize.BinaryFeature` on the original column).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

from .binarize import format_threshold, is_missing_value
from .code_export import tree_to_latex, tree_to_python
from .model_json import tree_fields_from_dict, tree_fields_from_json, tree_to_dict, tree_to_json
from .nodes import Leaf, MultiwaySplit, Node, Split, children_in_display_order
from .objectives import get_objective
from .roc import leaf_class_counts
from .table_columns import FittedColumns, read_columns

__all__ = ["Leaf", "Split", "MultiwaySplit", "Tree"]


@dataclass
class Tree:
    """A decision tree with the meaning of its features.

    Parameters
    ----------
    root : Leaf or Split
    features : list of BinaryFeature
        Feature ``j`` of every :class:`Split` is ``features[j]``.
    classes : array_like
        Original label values; leaf prediction ``k`` means ``classes[k]``.
    binarizer : Binarizer, optional
        When set, :meth:`predict` accepts the original (unbinarized) table.
    columns_in : list of str, optional
        Names of the original columns the tree was fitted on (default: the
        binarizer's). Kept in :meth:`to_dict`, so a tree read back from JSON
        knows whether a table is the original one or the binary matrix.
    columns_named : bool, optional
        Whether those columns were named (fitted on a DataFrame): then a
        DataFrame is read by column name. Default: the binarizer's, else
        named unless the names are ``x0, x1, ...``.

    Notes
    -----
    How ``X`` is read. A tree fitted on a DataFrame reads the original table
    by column name (any order; a missing, renamed or extra column is a
    ``ValueError`` listing the difference), a tree fitted on an array by
    position (:func:`~treeopt.table_columns.read_columns`).

    What ``X`` is. A tree fitted through a binarizer tests original columns
    (``age <= 30``); its binary matrix has one column per feature. Without
    ``binarized=``, a tree that has its binarizer reads the original table; a
    tree read from JSON decides from ``X``: a DataFrame by its column names,
    an array by its number of columns, and it refuses an array whose column
    count matches both, unless it is boolean (then it is the binary matrix;
    say which with ``binarized=``). A tree fitted on a
    0/1 matrix directly (``Dataset.from_binary``) reads both alike.

    Examples
    --------
    >>> from treeopt.binarize import BinaryFeature
    >>> f = [BinaryFeature("age", 0, "threshold", 30.0, "age <= 30")]
    >>> t = Tree(Split(0, Leaf(1, (1, 3)), Leaf(0, (5, 1))), f, ["no", "yes"])
    >>> t.n_leaves, t.depth, t.n_splits
    (2, 1, 1)
    >>> print(t.rules())
    if age <= 30:
        predict no  (counts: no=5, yes=1)
    else:  # age > 30
        predict yes  (counts: no=1, yes=3)
    >>> t.predict(np.array([[True], [False]])).tolist()
    ['no', 'yes']
    >>> Tree.from_dict(t.to_dict()) == t
    True

    A multiway tree predicts on the original table:

    >>> m = Tree(MultiwaySplit("color", 0, ["red", "blue"], [Leaf(0, (3, 1)), Leaf(1, (0, 5))]), [], ["no", "yes"])
    >>> m.predict([["red"], ["blue"], ["green"]]).tolist()   # green is unseen: heaviest child
    ['no', 'yes', 'yes']
    >>> m.n_leaves, m.n_splits, m.depth
    (2, 1, 1)
    """

    root: Node
    features: list
    classes: list
    binarizer: object = field(default=None, compare=False, repr=False)
    columns_in: list | None = field(default=None, compare=False, repr=False)
    columns_named: bool | None = field(default=None, compare=False, repr=False)

    def __post_init__(self):
        self.classes = list(np.asarray(self.classes).tolist())
        if self.columns_in is None and getattr(self.binarizer, "feature_names_in_", None) is not None:
            self.columns_in = [str(c) for c in self.binarizer.feature_names_in_]
        fitted = getattr(self.binarizer, "fitted_columns_", None)
        if self.columns_named is None and fitted is not None:
            self.columns_named = fitted.named
        if self.columns_named is None and self.columns_in is not None:
            self.columns_named = list(self.columns_in) != [f"x{i}" for i in range(len(self.columns_in))]

    @property
    def fitted_columns(self) -> FittedColumns | None:
        """The columns of the table the tree was fitted on (None when unknown: an older JSON file)."""
        fitted = getattr(self.binarizer, "fitted_columns_", None)
        if fitted is not None:
            return fitted
        if self.columns_in is None:
            return None
        tested = {f.column for f in self.features if f.kind == "threshold"}
        numeric = tuple(True if name in tested else None for name in self.columns_in)
        return FittedColumns(tuple(self.columns_in), numeric, named=bool(self.columns_named))

    def _read_original(self, X):
        """The original table ``X`` with its columns in fitted order (see the class Notes)."""
        fitted = self.fitted_columns
        return X if fitted is None else read_columns(X, fitted)

    # -- shape ----------------------------------------------------------------
    @property
    def n_leaves(self) -> int:
        """Number of leaves."""
        return sum(1 for _ in self.leaves())

    @property
    def n_splits(self) -> int:
        """Number of internal nodes."""
        return sum(1 for node in self._nodes(self.root) if isinstance(node, (Split, MultiwaySplit)))

    @property
    def depth(self) -> int:
        """Splits on the longest root-to-leaf path (a single leaf has depth 0, as in gosdt)."""
        deepest, stack = 0, [(self.root, 0)]         # a stack, not recursion: trees may be deep
        while stack:
            node, depth = stack.pop()
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in children_in_display_order(node))
        return deepest

    def _nodes(self, node) -> Iterator[Node]:
        """The nodes below ``node`` in pre-order (left before right), walked with a stack."""
        stack = [node]
        while stack:
            node = stack.pop()
            yield node
            if isinstance(node, Split):
                stack.extend((node.right, node.left))
            elif isinstance(node, MultiwaySplit):
                stack.extend(reversed(node.children))

    @property
    def has_multiway(self) -> bool:
        """Whether the tree has a :class:`MultiwaySplit` (then it routes on the original table)."""
        return any(isinstance(node, MultiwaySplit) for node in self._nodes(self.root))

    def leaves(self) -> Iterator[tuple[list, Leaf]]:
        """Yield ``(path, leaf)`` in left-to-right order; ``path`` is a list of (feature, value).

        A binary split contributes ``(feature index, bool)``; a multiway split
        contributes ``(column name, category)``.
        """
        stack = [(self.root, [])]
        out = []
        while stack:
            node, path = stack.pop()
            if isinstance(node, Leaf):
                out.append((path, node))
            elif isinstance(node, MultiwaySplit):
                for value, child in reversed(list(zip(node.values, node.children))):
                    stack.append((child, path + [(node.column, value)]))
            else:
                stack.append((node.right, path + [(node.feature, True)]))
                stack.append((node.left, path + [(node.feature, False)]))
        yield from out

    # -- prediction -----------------------------------------------------------
    @property
    def _features_are_columns(self) -> bool:
        """Whether binary feature ``j`` is original 0/1 column ``j`` (then both readings of X agree)."""
        # A tree without binary features (a leaf, multiway splits) reads the original table.
        return bool(self.features) and all(f.kind == "binary" and f.column_index == j
                                           for j, f in enumerate(self.features))

    def _reads_binarized(self, X) -> bool:
        """Whether ``X`` (given without ``binarized=``) is the binary matrix rather than the original table.

        See the class Notes: decided by the binarizer when the tree has one, else from ``X``.
        """
        if self.binarizer is None and self._features_are_columns and hasattr(X, "columns") \
                and self.fitted_columns is not None:
            return False                            # the same table: read it by its names
        if self.binarizer is not None or self._features_are_columns:
            return self.binarizer is None
        n_features = len(self.features)
        feature_columns = {f.column for f in self.features}
        if hasattr(X, "columns") and self.columns_named is not False:     # a DataFrame: by its column names
            names = {str(c) for c in X.columns}
            if feature_columns <= names:
                return False
            if {f.name for f in self.features} <= names:
                return True
            if self.fitted_columns is not None:
                return False                        # read_columns lists the difference
            raise ValueError(f"X's columns {sorted(names)[:8]} are neither the original columns the tree tests "
                             f"{sorted(feature_columns)[:8]} nor its binary features; pass the table the tree was "
                             "fitted on (or binarized=True with the binary feature matrix).")
        array = np.asarray(X)
        if array.ndim != 2:
            raise ValueError(f"X must be 2-dimensional (rows × columns), got shape {array.shape}.")
        n_columns = array.shape[1]
        if array.dtype == bool and n_columns == n_features:
            return True                             # booleans: the binary feature matrix
        if self.columns_in is not None:
            n_original = len(self.columns_in)
            original_fits = n_columns == n_original
        else:                                       # older JSON: at least the columns the features test
            n_original = 1 + max((f.column_index for f in self.features), default=-1)
            original_fits = n_columns >= n_original
        if original_fits and n_columns == n_features:
            known = f" {self.columns_in}" if self.columns_in is not None else ""
            raise ValueError(
                f"X has {n_columns} columns: as many as the tree's original columns{known} and as its "
                f"{n_features} binary features, so it is ambiguous which X is. Pass binarized=False for the "
                "original table (the data the tree was fitted on), binarized=True for the binary feature "
                "matrix (e.g. clf.binarizer_.transform(X)), or a DataFrame with the original column names.")
        if original_fits:
            return False
        if n_columns == n_features:
            return True
        raise ValueError(f"X has {n_columns} columns; the tree was fitted on "
                         f"{n_original if self.columns_in is not None else f'at least {n_original}'} original "
                         f"columns ({n_features} binary features). Pass the table the tree was fitted on.")

    def _binary(self, X, binarized: bool | None) -> np.ndarray:
        if binarized is None:
            binarized = self._reads_binarized(X)
        if binarized:
            Z = np.asarray(X)
            if hasattr(X, "to_numpy"):
                Z = X.to_numpy()
            Z = np.asarray(Z).astype(bool)
            if Z.ndim != 2 or Z.shape[1] != len(self.features):
                raise ValueError(f"binarized X must have {len(self.features)} columns, got shape {Z.shape}.")
            return Z
        if self.binarizer is None:
            return self._evaluate_features(X)
        return self.binarizer.transform(X)

    def _evaluate_features(self, X) -> np.ndarray:
        """Binary features computed from the original table by the features alone (trees read from JSON)."""
        X = self._read_original(X)
        frame = X if hasattr(X, "iloc") else None
        array = None if frame is not None else np.asarray(X, dtype=object)
        if array is not None and array.ndim != 2:
            raise ValueError(f"X must be 2-dimensional (rows × columns), got shape {array.shape}.")
        n_rows = len(frame) if frame is not None else array.shape[0]
        Z = np.zeros((n_rows, len(self.features)), dtype=bool)
        for j, feature in enumerate(self.features):
            if frame is not None and self.fitted_columns is None and feature.column in frame.columns:
                values = frame[feature.column].to_numpy()
            else:
                values = (frame.iloc[:, feature.column_index] if frame is not None
                          else array[:, feature.column_index])
                values = np.asarray(values)
            Z[:, j] = feature.evaluate(values)
        return Z

    def apply(self, X, binarized: bool | None = None) -> np.ndarray:
        """Index of the leaf (in :meth:`leaves` order) that each row reaches.

        Parameters
        ----------
        X : array_like or DataFrame
            The original table (when the tree has a binarizer) or the binary matrix.
        binarized : bool, optional
            Force the interpretation of ``X``; default: the original table if
            the tree has a binarizer, else decided from ``X`` (see the class
            Notes: an ambiguous ``X`` is refused).
        """
        leaf_ids = {}
        for i, (_, leaf) in enumerate(self.leaves()):
            leaf_ids[id(leaf)] = i
        if self.has_multiway:
            if binarized:
                raise ValueError("this tree has multiway splits on original columns; pass the original table "
                                 "(binarized=False), not a binary feature matrix.")
            table = self._original_table(X)
            out = np.empty(len(table), dtype=int)
            self._route_original(self.root, table, np.arange(len(table)), out, leaf_ids)
            return out
        Z = self._binary(X, binarized)
        out = np.empty(len(Z), dtype=int)
        self._route(self.root, Z, np.arange(len(Z)), out, leaf_ids)
        return out

    def _original_table(self, X) -> np.ndarray:
        X = self._read_original(X)
        table = X.to_numpy(dtype=object) if hasattr(X, "to_numpy") else np.asarray(X, dtype=object)
        if table.ndim != 2:
            raise ValueError(f"X must be a 2-dimensional table of original columns, got shape {table.shape}.")
        needed = 1 + max([n.column_index for n in self._nodes(self.root) if isinstance(n, MultiwaySplit)]
                         + [self.features[n.feature].column_index for n in self._nodes(self.root)
                            if isinstance(n, Split)])
        if table.shape[1] < needed:
            raise ValueError(f"X has {table.shape[1]} columns but the tree tests column {needed - 1}; "
                             "pass the original table the tree was fitted on.")
        return table

    def _route_original(self, node, table, rows, out, leaf_ids):
        stack = [(node, rows)]                      # a stack, not recursion: trees may be deep
        while stack:
            node, rows = stack.pop()
            if isinstance(node, Leaf):
                out[rows] = leaf_ids[id(node)]
            elif isinstance(node, Split):
                feature = self.features[node.feature]
                mask = np.asarray(feature.evaluate(table[rows, feature.column_index]), dtype=bool)
                stack.extend(((node.left, rows[~mask]), (node.right, rows[mask])))
            else:
                child = _multiway_child_index(node, table[rows, node.column_index])
                stack.extend((subtree, rows[child == i]) for i, subtree in enumerate(node.children))

    def _route(self, node, Z, rows, out, leaf_ids):
        stack = [(node, rows)]
        while stack:
            node, rows = stack.pop()
            if isinstance(node, Leaf):
                out[rows] = leaf_ids[id(node)]
            else:
                mask = Z[rows, node.feature]
                stack.extend(((node.left, rows[~mask]), (node.right, rows[mask])))

    def predict_index(self, X, binarized: bool | None = None) -> np.ndarray:
        """Predicted class index of each row."""
        preds = np.array([leaf.prediction for _, leaf in self.leaves()], dtype=int)
        return preds[self.apply(X, binarized)]

    def predict(self, X, binarized: bool | None = None) -> np.ndarray:
        """Predicted label (original class value) of each row."""
        return np.asarray(self.classes, dtype=object if _mixed(self.classes) else None)[
            self.predict_index(X, binarized)]

    def leaf_probabilities(self, smoothing: float = 0.0) -> np.ndarray:
        """Class probabilities of each leaf (leaves in :meth:`leaves` order × classes).

        A leaf's probability of class ``c`` is its share of the leaf's
        *training weight*: ``n_c / n``, where ``n_c`` is the weighted count
        of class ``c`` in the leaf (a row of sample weight 2 counts twice)
        and ``n = Σ n_c``. With additive (Laplace) smoothing ``α > 0`` it is
        ``(n_c + α) / (n + α K)`` for ``K`` classes, which pulls small
        leaves towards uniform; α is in units of sample weight (a pseudo-row
        of each class). Smoothing never changes which class is most probable.
        A leaf without training weight (or without stored counts) predicts
        its own class with probability 1 when ``α = 0`` and is uniform when
        ``α > 0``.

        Parameters
        ----------
        smoothing : float, default=0.0
            α, non-negative.

        Returns
        -------
        ndarray of shape (n_leaves, n_classes)

        Examples
        --------
        >>> t = Tree(Split(0, Leaf(1, (1, 3)), Leaf(0, (4, 0))), [], ["no", "yes"])
        >>> t.leaf_probabilities().tolist()
        [[0.25, 0.75], [1.0, 0.0]]
        >>> t.leaf_probabilities(smoothing=1.0).tolist()      # (n_c + 1) / (n + 2)
        [[0.3333333333333333, 0.6666666666666666], [0.8333333333333334, 0.16666666666666666]]
        """
        alpha = float(smoothing)
        if not np.isfinite(alpha) or alpha < 0:
            raise ValueError(f"smoothing must be a finite number >= 0 (0: plain leaf frequencies), got {smoothing!r}.")
        n_classes = len(self.classes)
        table = []
        for _, leaf in self.leaves():
            counts = np.asarray(leaf.counts, dtype=float)
            known = counts.size == n_classes and counts.sum() > 0
            if alpha > 0:
                counts = counts if counts.size == n_classes else np.zeros(n_classes)
                table.append((counts + alpha) / (counts.sum() + alpha * n_classes))
                continue
            if not known:
                counts = np.zeros(n_classes)
                counts[leaf.prediction] = 1.0
            table.append(counts / counts.sum())
        return np.asarray(table, dtype=float).reshape(-1, n_classes)

    def predict_proba(self, X, binarized: bool | None = None, smoothing: float = 0.0) -> np.ndarray:
        """Class probabilities of the leaf each row reaches (rows × classes).

        The leaf's training class frequencies, optionally smoothed: see
        :meth:`leaf_probabilities` for the semantics and ``smoothing``.
        """
        table = self.leaf_probabilities(smoothing)
        return table[self.apply(X, binarized)]

    # -- text -----------------------------------------------------------------
    def feature_name(self, feature: int, value: bool = True) -> str:
        """Readable test for a feature being true (or false)."""
        f = self.features[feature]
        return f.name if value else f.negated_name

    def rules(self, *, show_counts: bool = True) -> str:
        """The tree as nested if/else rules.

        A ``Split`` prints its true branch first (``if age <= 30:``) and the
        false branch under ``else``; a ``MultiwaySplit`` prints one
        ``if``/``elif column = value:`` per child.
        """
        lines: list[str] = []
        # A stack of lines still to print and (node, indent) still to expand: no recursion,
        # so a tree deeper than the interpreter's recursion limit prints too.
        stack: list = [(self.root, 0)]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                lines.append(item)
                continue
            node, indent = item
            pad = "    " * indent
            if isinstance(node, Leaf):
                text = f"{pad}predict {self.classes[node.prediction]}"
                if show_counts and len(node.counts) == len(self.classes):
                    counts = ", ".join(f"{c}={_fmt(n)}" for c, n in zip(self.classes, node.counts))
                    text += f"  (counts: {counts})"
                lines.append(text)
            elif isinstance(node, MultiwaySplit):
                default = node.default_child()
                todo: list = []
                for i, (value, child) in enumerate(zip(node.values, node.children)):
                    note = "  # and unseen values" if i == default and len(node.children) > 1 else ""
                    todo += [f"{pad}{'if' if i == 0 else 'elif'} {_category_test(node.column, value)}:{note}",
                             (child, indent + 1)]
                stack.extend(reversed(todo))
            else:
                stack.extend(reversed([f"{pad}if {self.feature_name(node.feature, True)}:", (node.right, indent + 1),
                                       f"{pad}else:  # {self.feature_name(node.feature, False)}",
                                       (node.left, indent + 1)]))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.rules()

    # -- serialisation --------------------------------------------------------
    def to_dict(self) -> dict:
        """A JSON-compatible dictionary (round-trips through :meth:`from_dict`).

        The schema is documented in :mod:`treeopt.model_json`.
        """
        return tree_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict, binarizer=None) -> "Tree":
        """Rebuild a tree from :meth:`to_dict` output (or the ``treeopt fit --json`` envelope around it).

        Every field is checked against the schema of :mod:`treeopt.model_json`; a bad one raises
        :class:`~treeopt.model_json.ModelJSONError` (a ``ValueError``) naming its JSON path.
        """
        return cls(**tree_fields_from_dict(data), binarizer=binarizer)

    def to_json(self, **kwargs) -> str:
        """:meth:`to_dict` as a JSON string."""
        return tree_to_json(self, **kwargs)

    @classmethod
    def from_json(cls, text: str, binarizer=None) -> "Tree":
        """Rebuild a tree from :meth:`to_json` output (see :meth:`from_dict`)."""
        return cls(**tree_fields_from_json(text), binarizer=binarizer)

    def to_python(self, function_name: str = "predict") -> str:
        """Source of a plain Python function ``predict(row)`` over one row of original values.

        ``row`` is a dict (or a pandas row) keyed by column name; the function
        returns the predicted class. See :func:`treeopt.code_export.tree_to_python`.

        Examples
        --------
        >>> from treeopt.binarize import BinaryFeature
        >>> t = Tree(Split(0, Leaf(1), Leaf(0)), [BinaryFeature("x", 0, "threshold", 2.5, "x <= 2.5")], ["a", "b"])
        >>> scope = {}
        >>> exec(t.to_python("classify"), scope)
        >>> scope["classify"]({"x": 1.0}), scope["classify"]({"x": 3.0})
        ('a', 'b')
        """
        return tree_to_python(self, function_name)

    def to_latex(self, *, show_counts: bool = True, standalone: bool = False) -> str:
        r"""The rules as plain LaTeX (indented if/else lines, no package needed).

        See :func:`treeopt.code_export.tree_to_latex`; ``standalone=True``
        gives a complete document.

        Examples
        --------
        >>> from treeopt.binarize import BinaryFeature
        >>> t = Tree(Split(0, Leaf(1), Leaf(0)), [BinaryFeature("x_1", 0, "threshold", 2.5, "x_1 <= 2.5")], ["a", "b"])
        >>> print(t.to_latex(show_counts=False).splitlines()[2])
        \textbf{if} \emph{x\_1} $\le 2.5$\textbf{:}\\
        """
        return tree_to_latex(self, show_counts=show_counts, standalone=standalone)

    def to_dot(self, *, highlight_path: list | None = None, max_depth: int | None = None,
               leaf_label="class") -> str:
        """Graphviz DOT source of the tree (no graphviz import needed).

        Parameters
        ----------
        highlight_path : list of int, optional
            Node ids (pre-order numbering) to draw in bold, e.g. from :meth:`decision_path`.
        max_depth : int, optional
            Draw subtrees below this depth as a single collapsed box.
        leaf_label : {"class", "positive_rate"} or callable, default="class"
            The first line of each leaf's box: the predicted class, the share of
            the last (positive) class, or ``leaf_label(tree, leaf)``; see
            :func:`treeopt.render.leaf_title`.
        """
        from .render import check_leaf_label, leaf_title

        check_leaf_label(leaf_label)
        highlight = set(highlight_path or [])
        lines = ["digraph Tree {", '  node [shape=box, style="rounded,filled", fontname="Helvetica", fillcolor="#f8f8f8"];',
                 '  edge [fontname="Helvetica"];']
        next_id = 0
        # A stack instead of recursion (trees may be deeper than the recursion limit). Its items
        # are nodes to draw, ("edge", text) lines to print once the children before them are
        # drawn, and ("skip", n) for collapsed nodes. A node's id is written into its ``slot``
        # so that the edge lines after its subtree can name it.
        stack: list = [("draw", self.root, 0, [])]
        while stack:
            item = stack.pop()
            if item[0] == "edge":
                _, parent, slot, label = item
                lines.append(f'  n{parent} -> n{slot[0]} [label="{_esc(label)}"];')
                continue
            if item[0] == "edges":                  # a binary split: both edges after both subtrees
                _, parent, right, left = item
                lines.append(f'  n{parent} -> n{right[0]} [label="yes"];')
                lines.append(f'  n{parent} -> n{left[0]} [label="no"];')
                continue
            _, node, depth, slot = item
            my_id = next_id
            next_id += 1
            slot.append(my_id)
            bold = ', penwidth=3, color="#d62728"' if my_id in highlight else ""
            if max_depth is not None and depth >= max_depth and isinstance(node, (Split, MultiwaySplit)):
                hidden = Tree(node, self.features, self.classes)
                lines.append(f'  n{my_id} [label="… {hidden.n_leaves} leaves", fillcolor="#eeeeee"{bold}];')
                next_id += sum(1 for _ in hidden._nodes(node)) - 1   # pre-order ids as in decision_path
            elif isinstance(node, Leaf):
                counts = " / ".join(_fmt(c) for c in node.counts) if node.counts else ""
                title = leaf_title(self, node, leaf_label)
                label = f"{title}\\n[{counts}]" if counts else title
                fill = _LEAF_COLORS[node.prediction % len(_LEAF_COLORS)]
                lines.append(f'  n{my_id} [label="{_esc(label)}", fillcolor="{fill}"{bold}];')
            elif isinstance(node, MultiwaySplit):
                lines.append(f'  n{my_id} [label="{_esc(str(node.column))}", fillcolor="#ffffff"{bold}];')
                todo: list = []
                for value, child in zip(node.values, node.children):
                    child_slot: list = []
                    edge = "is missing" if is_missing_value(value) else f"= {value}"
                    todo += [("draw", child, depth + 1, child_slot), ("edge", my_id, child_slot, edge)]
                stack.extend(reversed(todo))
            else:
                lines.append(f'  n{my_id} [label="{_esc(self.feature_name(node.feature))}", fillcolor="#ffffff"{bold}];')
                right, left = [], []
                stack.extend(reversed([("draw", node.right, depth + 1, right), ("draw", node.left, depth + 1, left),
                                       ("edges", my_id, right, left)]))
        lines.append("}")
        return "\n".join(lines)

    def decision_path(self, x, binarized: bool | None = None) -> list[int]:
        """Pre-order node ids (as numbered by :meth:`to_dot`) visited by one row ``x``.

        ``x`` is a sequence of values, a pandas row (a Series, e.g. ``X.iloc[0]``) or a mapping
        from column names to values (the row :meth:`to_python`'s function takes); a row of a
        table with mixed column types holds objects, so its values get their own types back
        (a bool column is read as bool, a number as a number) before the tree reads them. A
        Series or a mapping is read by column name, as a table is.
        """
        if isinstance(x, Mapping):
            import pandas as pd

            x = pd.Series(dict(x), dtype=object)
        if hasattr(x, "to_frame"):
            one_row = x.to_frame().T.infer_objects()
        else:
            one_row = np.asarray([x], dtype=object)
        if self.has_multiway:
            return self._decision_path_original(self._original_table(one_row)[0])
        Z = self._binary(one_row if hasattr(x, "to_frame") else np.asarray([x]), binarized)[0]
        path, node, node_id = [], self.root, 0
        while True:
            path.append(node_id)
            if isinstance(node, Leaf):
                return path
            if Z[node.feature]:
                node_id, node = node_id + 1, node.right
            else:
                node_id, node = node_id + 1 + self._size(node.right), node.left

    def _size(self, node) -> int:
        """Number of nodes in the subtree of ``node``, counted with a stack."""
        return sum(1 for _ in self._nodes(node))

    def _decision_path_original(self, row) -> list[int]:
        """:meth:`decision_path` for a tree routed on original values (pre-order as in :meth:`to_dot`)."""
        path, node, node_id = [], self.root, 0
        while True:
            path.append(node_id)
            if isinstance(node, Leaf):
                return path
            if isinstance(node, Split):
                feature = self.features[node.feature]
                chosen = 0 if bool(np.asarray(feature.evaluate(np.asarray([row[feature.column_index]],
                                                                          dtype=object)))[0]) else 1
            else:
                chosen = int(_multiway_child_index(node, np.asarray([row[node.column_index]], dtype=object))[0])
            children = children_in_display_order(node)
            node_id += 1 + sum(self._size(child) for child in children[:chosen])
            node = children[chosen]

    # -- evaluation -----------------------------------------------------------
    def leaf_counts(self, X, y, sample_weight=None, binarized: bool | None = None) -> np.ndarray:
        """Weighted class counts of the rows of ``(X, y)`` in each leaf (leaves in :meth:`leaves` order).

        Returns an array of shape (n_leaves, n_classes), the input of
        :meth:`treeopt.objectives.Objective.tree_loss` and :func:`treeopt.roc.roc_hull`.
        """
        return leaf_class_counts(self.apply(X, binarized), y, self.classes, sample_weight, n_leaves=self.n_leaves)

    def objective(self, X, y, regularization: float, objective=None, sample_weight=None,
                  binarized: bool | None = None, penalty: str = "leaf") -> float:
        """Recompute ``loss + λ × leaves`` (or ``× splits``) from the tree's predictions on data.

        This ignores the counts stored in the leaves: it is the independent
        check used by the tests against reference optima. ``penalty="split"``
        charges λ per internal node instead (the Branches convention).
        """
        if penalty not in ("leaf", "split"):
            raise ValueError(f"penalty must be 'leaf' or 'split', got {penalty!r}.")
        obj = get_objective(objective or "accuracy")
        counts = self.leaf_counts(X, y, sample_weight=sample_weight, binarized=binarized)
        leaf_list = [leaf for _, leaf in self.leaves()]
        # The objective's own formula on the recomputed counts (rank objectives ignore the labels).
        loss = obj.tree_loss(counts, predictions=np.array([leaf.prediction for leaf in leaf_list], dtype=int))
        return loss + regularization * (len(leaf_list) if penalty == "leaf" else self.n_splits)


_LEAF_COLORS = ["#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94"]


def _fmt(x) -> str:
    x = float(x)
    return str(int(x)) if x == int(x) else format_threshold(x)


def _esc(text: str) -> str:
    return text.replace('"', '\\"')


def _py(value):
    if isinstance(value, np.generic):
        return value.item()
    return value


def _multiway_child_index(node: MultiwaySplit, values: np.ndarray) -> np.ndarray:
    """Child index for each original value; unseen values go to the heaviest child."""
    lookup = {}
    for i, value in enumerate(node.values):
        lookup.setdefault(None if is_missing_value(value) else _py(value), i)
    default = node.default_child()
    return np.array([lookup.get(None if is_missing_value(v) else _py(v), default)
                     for v in np.asarray(values, dtype=object).tolist()], dtype=int)


def _category_test(column: str, value) -> str:
    """Readable test of a multiway child: ``color = red``, or ``color is missing`` for the missing category."""
    return f"{column} is missing" if is_missing_value(value) else f"{column} = {value}"


def _mixed(values) -> bool:
    return len({type(v) for v in values}) > 1

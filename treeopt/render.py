"""Draw a :class:`~treeopt.tree.Tree` as SVG in pure Python (no graphviz needed).

Graphviz's ``dot`` binary is the nicest way to draw a tree
(:meth:`Tree.to_dot`), but it is a system package that many machines lack
. This module is the fallback that always works: a
tidy top-down layout where every leaf gets its own column and every internal
node sits centred above its children, written straight to SVG text.

Node ids follow :meth:`Tree.to_dot` and :meth:`Tree.decision_path`: pre-order,
the *true* (``yes``) branch of a binary split before the *false* (``no``)
branch, so a path from ``decision_path`` can be highlighted here as there.
Nodes other than :class:`~treeopt.tree.Leaf` and :class:`~treeopt.tree.Split`
are drawn generically: any node with ``children`` (and optionally ``values``
and ``column``, like a multiway split) gets one edge per child.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

__all__ = ["tree_svg", "layout_tree", "NodeBox", "leaf_title"]

#: Fill colours of leaves, by predicted class (matches Tree.to_dot).
LEAF_COLORS = ["#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94"]
CHAR_WIDTH = 7.0       # average width of a 12px Helvetica character
LINE_HEIGHT = 15.0
PAD_X, PAD_Y = 8.0, 6.0
H_GAP, V_GAP = 14.0, 44.0
MARGIN = 10.0


@dataclass
class NodeBox:
    """One drawn box of the layout.

    Attributes
    ----------
    node_id : int
        Pre-order id (as in :meth:`Tree.to_dot`).
    lines : list of str
        Text lines of the box.
    kind : {"split", "leaf", "collapsed"}
    x, y : float
        Centre of the top edge of the box.
    width, height : float
    fill : str
    children : list of (str, NodeBox)
        Edge label and child box.
    """

    node_id: int
    lines: list
    kind: str
    fill: str
    x: float = 0.0
    y: float = 0.0
    width: float = 0.0
    height: float = 0.0
    children: list = field(default_factory=list)


def _is_leaf(node) -> bool:
    return hasattr(node, "prediction")


def _branches(tree, node) -> list:
    """(edge label, child) pairs in drawing (and pre-order numbering) order."""
    if hasattr(node, "left") and hasattr(node, "right"):
        return [("yes", node.right), ("no", node.left)]
    children = list(getattr(node, "children", []))
    values = list(getattr(node, "values", [])) or [str(i) for i in range(len(children))]
    return [(str(v), c) for v, c in zip(values, children)]


def _split_label(tree, node) -> str:
    if hasattr(node, "feature"):
        return tree.feature_name(node.feature)
    return str(getattr(node, "column", type(node).__name__))


def _subtree(tree, node):
    """The nodes below ``node`` (itself included) in pre-order, walked with a stack."""
    stack = [node]
    while stack:
        node = stack.pop()
        yield node
        if not _is_leaf(node):
            stack.extend(reversed([child for _, child in _branches(tree, node)]))


def _count_leaves(tree, node) -> int:
    return sum(1 for n in _subtree(tree, node) if _is_leaf(n))


def _size(tree, node) -> int:
    return sum(1 for _ in _subtree(tree, node))


def _fmt(value) -> str:
    value = float(value)
    return str(int(value)) if value == int(value) else f"{value:.3g}"


def _box_size(lines) -> tuple[float, float]:
    width = max(len(line) for line in lines) * CHAR_WIDTH + 2 * PAD_X
    return max(width, 40.0), len(lines) * LINE_HEIGHT + 2 * PAD_Y


def leaf_title(tree, leaf, leaf_label="class") -> str:
    """The first line of a leaf's box: its predicted class, its positive rate, or a caller's text.

    Used by :func:`tree_svg` and :meth:`treeopt.tree.Tree.to_dot`.

    Parameters
    ----------
    tree : Tree
    leaf : Leaf
    leaf_label : {"class", "positive_rate"} or callable, default="class"
        ``"class"``: the predicted class. ``"positive_rate"``: the share of
        the last class (the positive one) among the leaf's training rows,
        ``P(yes) = 0.75``; the score by which an AUC tree ranks rows (GOSDT
        paper, section 5). A callable gets ``(tree, leaf)`` and returns the text.

    Examples
    --------
    >>> from treeopt.binarize import BinaryFeature
    >>> from treeopt.tree import Leaf, Split, Tree
    >>> t = Tree(Split(0, Leaf(0, (4, 1)), Leaf(0, (1, 3))), [BinaryFeature("a", 0, "binary", 1, "a")], ["no", "yes"])
    >>> leaf_title(t, t.root.left), leaf_title(t, t.root.left, "positive_rate")
    ('no', 'P(yes) = 0.2')
    >>> leaf_title(t, t.root.right, lambda tree, leaf: f"{sum(leaf.counts)} rows")
    '4 rows'
    """
    if callable(leaf_label):
        return str(leaf_label(tree, leaf))
    if leaf_label == "class":
        return f"{tree.classes[leaf.prediction]}"
    if leaf_label == "positive_rate":
        positive = tree.classes[-1]
        counts = tuple(leaf.counts) if leaf.counts is not None else ()
        total = float(sum(counts)) if counts else 0.0
        return f"P({positive}) = {counts[-1] / total:.2g}" if total > 0 else f"P({positive}) = n/a"
    raise ValueError(f"leaf_label must be 'class', 'positive_rate' or a callable (tree, leaf) -> str, "
                     f"got {leaf_label!r}.")


def check_leaf_label(leaf_label) -> None:
    """Raise a clear ``ValueError`` for a bad ``leaf_label`` before anything is drawn."""
    if not callable(leaf_label) and leaf_label not in ("class", "positive_rate"):
        raise ValueError(f"leaf_label must be 'class', 'positive_rate' or a callable (tree, leaf) -> str, "
                         f"got {leaf_label!r}.")


def layout_tree(tree, *, max_depth: int | None = None, leaf_label="class") -> NodeBox:
    """Lay out a tree: every box gets its position and size.

    Parameters
    ----------
    tree : Tree
    max_depth : int, optional
        Draw subtrees below this depth as one collapsed box.
    leaf_label : {"class", "positive_rate"} or callable, default="class"
        The first line of each leaf's box (see :func:`leaf_title`).

    Returns
    -------
    NodeBox
        The root box; ``children`` link to the rest.

    Examples
    --------
    >>> from treeopt.binarize import BinaryFeature
    >>> from treeopt.tree import Leaf, Split, Tree
    >>> f = [BinaryFeature("age", 0, "threshold", 30.0, "age <= 30")]
    >>> root = layout_tree(Tree(Split(0, Leaf(1, (1, 3)), Leaf(0, (5, 1))), f, ["no", "yes"]))
    >>> root.lines, [(label, child.node_id) for label, child in root.children]
    (['age <= 30'], [('yes', 1), ('no', 2)])
    """
    check_leaf_label(leaf_label)
    # Every walk below uses a stack, not recursion: a tree may be deeper than the recursion limit.
    next_id = 0
    holder: list = []
    boxes: list[NodeBox] = []                        # pre-order: a box before its children
    stack: list = [(tree.root, 0, holder, "")]
    while stack:
        node, depth, siblings, label = stack.pop()
        node_id = next_id
        next_id += 1
        if _is_leaf(node):
            lines = [leaf_title(tree, node, leaf_label)]
            if len(node.counts) == len(tree.classes):
                lines.append(" / ".join(f"{c}: {_fmt(n)}" for c, n in zip(tree.classes, node.counts)))
            box = NodeBox(node_id, lines, "leaf", LEAF_COLORS[node.prediction % len(LEAF_COLORS)])
        elif max_depth is not None and depth >= max_depth:
            next_id += _size(tree, node) - 1           # keep pre-order ids of the hidden nodes
            box = NodeBox(node_id, [f"… {_count_leaves(tree, node)} leaves"], "collapsed", "#eeeeee")
        else:
            box = NodeBox(node_id, [_split_label(tree, node)], "split", "#ffffff")
            stack.extend((child, depth + 1, box.children, edge)
                         for edge, child in reversed(_branches(tree, node)))
        box.width, box.height = _box_size(box.lines)
        siblings.append((label, box))
        boxes.append(box)
    root = holder[0][1]

    spans: dict[int, float] = {}
    for box in reversed(boxes):                      # children before their parent
        inner = sum(spans[id(child)] for _, child in box.children)
        spans[id(box)] = max(box.width + H_GAP, inner) if box.children else box.width + H_GAP

    places = [(root, MARGIN, MARGIN)]
    while places:
        box, left, top = places.pop()
        total = spans[id(box)]
        box.x, box.y = left + total / 2, top
        if box.children:
            cursor = left + (total - sum(spans[id(child)] for _, child in box.children)) / 2
            for _, child in box.children:
                places.append((child, cursor, top + box.height + V_GAP))
                cursor += spans[id(child)]
    return root


def _boxes(box):
    """The boxes of a layout in pre-order, walked with a stack."""
    stack = [box]
    while stack:
        box = stack.pop()
        yield box
        stack.extend(reversed([child for _, child in box.children]))


def tree_svg(tree, *, highlight_path: list | None = None, max_depth: int | None = None,
             title: str | None = None, leaf_label="class") -> str:
    """SVG text of a tree, drawn without graphviz.

    Parameters
    ----------
    tree : Tree
    highlight_path : list of int, optional
        Node ids (from :meth:`Tree.decision_path`) drawn in red and bold.
    max_depth : int, optional
        Collapse subtrees below this depth into one box.
    title : str, optional
        A caption above the tree.
    leaf_label : {"class", "positive_rate"} or callable, default="class"
        The first line of each leaf's box (see :func:`leaf_title`).

    Returns
    -------
    str
        A standalone ``<svg>`` element.

    Examples
    --------
    >>> from treeopt.binarize import BinaryFeature
    >>> from treeopt.tree import Leaf, Split, Tree
    >>> f = [BinaryFeature("age", 0, "threshold", 30.0, "age <= 30")]
    >>> svg = tree_svg(Tree(Split(0, Leaf(1, (1, 3)), Leaf(0, (5, 1))), f, ["no", "yes"]))
    >>> svg.startswith("<svg") and "age &lt;= 30" in svg and svg.count("<rect") == 3
    True
    """
    highlight = set(highlight_path or [])
    root = layout_tree(tree, max_depth=max_depth, leaf_label=leaf_label)
    boxes = list(_boxes(root))
    offset = LINE_HEIGHT + 4 if title else 0.0
    width = max(b.x + b.width / 2 for b in boxes) + MARGIN
    height = max(b.y + b.height for b in boxes) + MARGIN + offset
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="treeopt-tree" width="{width:.0f}" '
           f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
           'font-family="Helvetica, Arial, sans-serif" font-size="12">']
    if title:
        out.append(f'<text x="{MARGIN}" y="{LINE_HEIGHT}" font-weight="bold">{escape(title)}</text>')
    out.append(f'<g transform="translate(0,{offset:.0f})">')
    for box in boxes:
        for label, child in box.children:
            on_path = box.node_id in highlight and child.node_id in highlight
            x1, y1 = box.x, box.y + box.height
            x2, y2 = child.x, child.y
            stroke = 'stroke="#d62728" stroke-width="3"' if on_path else 'stroke="#555555" stroke-width="1"'
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {stroke}/>')
            out.append(f'<text x="{(x1 + x2) / 2:.1f}" y="{(y1 + y2) / 2:.1f}" text-anchor="middle" '
                       f'fill="#555555" font-size="11">{escape(label)}</text>')
    for box in boxes:
        bold = box.node_id in highlight
        stroke = 'stroke="#d62728" stroke-width="3"' if bold else 'stroke="#333333" stroke-width="1"'
        out.append(f'<g class="node" id="node{box.node_id}">')
        out.append(f'<rect x="{box.x - box.width / 2:.1f}" y="{box.y:.1f}" width="{box.width:.1f}" '
                   f'height="{box.height:.1f}" rx="6" fill="{box.fill}" {stroke}/>')
        for i, line in enumerate(box.lines):
            y = box.y + PAD_Y + (i + 0.8) * LINE_HEIGHT
            out.append(f'<text x="{box.x:.1f}" y="{y:.1f}" text-anchor="middle">{escape(line)}</text>')
        out.append("</g>")
    out.append("</g></svg>")
    return "\n".join(out)

"""The nodes of a decision tree: :class:`Leaf`, :class:`Split` and :class:`MultiwaySplit`.

Plain data, shared by :mod:`treeopt.tree` (the :class:`~treeopt.tree.Tree` that holds them) and
the exporters (:mod:`treeopt.code_export`), which walk them without needing the tree class.
A :class:`Split` tests one binary feature (``left``: the feature is false, ``right``: true); a
:class:`MultiwaySplit` has one child per category of an original column (Branches section 3,
C4.5); a :class:`Leaf` predicts a class index and keeps its weighted class counts and loss.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

import numpy as np

__all__ = ["Leaf", "Split", "MultiwaySplit", "Node", "subtree_weight", "children_in_display_order", "nodes_equal",
           "node_repr"]


@dataclass
class Leaf:
    """A leaf: predicts ``prediction`` (a class index).

    Attributes
    ----------
    prediction : int
        Index into the tree's ``classes``.
    counts : tuple of float
        Weighted number of training rows of each class that reach the leaf.
    loss : float
        The leaf's contribution to the objective's loss (objective units).
    """

    prediction: int
    counts: tuple = ()
    loss: float = 0.0


@dataclass
class Split:
    """An internal node testing binary feature ``feature``.

    Attributes
    ----------
    feature : int
        Index into the tree's ``features``.
    left : Leaf or Split
        Subtree where the feature is false.
    right : Leaf or Split
        Subtree where the feature is true.
    """

    feature: int
    left: "Node"
    right: "Node"

    def __eq__(self, other) -> bool:
        return nodes_equal(self, other) if isinstance(other, Split) else NotImplemented

    def __repr__(self) -> str:
        return node_repr(self)


@dataclass
class MultiwaySplit:
    """An internal node with one child per category of an original column.

    A row goes to the child of its value of column ``column_index``. A row
    whose value is not among ``values`` (a category unseen in this node's
    training data) goes to the child with the most training weight (the sum
    of its leaves' counts; the first such child on ties), see
    :meth:`default_child`. The category of missing values (fitted with
    ``missing="indicator"``) is stored as ``None``: every missing value
    (NaN, None, ``pd.NA``) goes to it, and the rules print ``column is missing``.

    Attributes
    ----------
    column : str
        Original column name.
    column_index : int
        Position of the column in the original table.
    values : list
        The category of each child.
    children : list of Node
        One subtree per value, in the same order.

    Examples
    --------
    >>> node = MultiwaySplit("color", 0, ["red", "blue"], [Leaf(0, (3, 1)), Leaf(1, (0, 5))])
    >>> node.default_child()
    1
    >>> from treeopt.tree import Tree
    >>> Tree(MultiwaySplit("color", 0, [None, "red"], [Leaf(1, (0, 2)), Leaf(0, (3, 0))]), [], ["no", "yes"]
    ...      ).predict([[float("nan")], ["red"]]).tolist()
    ['yes', 'no']
    """

    column: str
    column_index: int
    values: list
    children: list

    def __eq__(self, other) -> bool:
        return nodes_equal(self, other) if isinstance(other, MultiwaySplit) else NotImplemented

    def __repr__(self) -> str:
        return node_repr(self)

    def default_child(self) -> int:
        """Index of the child that rows with an unseen category go to (most training weight)."""
        weights = [subtree_weight(child) for child in self.children]
        return int(np.argmax(weights)) if weights else 0


Node = Union[Leaf, Split, MultiwaySplit]


def subtree_weight(node) -> float:
    """Total training weight of the leaves below ``node`` (the sum of their counts), walked with a stack."""
    total, stack = 0.0, [node]
    while stack:
        node = stack.pop()
        if isinstance(node, Leaf):
            total += float(sum(node.counts))
        else:
            stack.extend(children_in_display_order(node))
    return total


def children_in_display_order(node) -> list:
    """Children of a node in display order (a binary split: right (true) then left)."""
    if isinstance(node, Split):
        return [node.right, node.left]
    if isinstance(node, MultiwaySplit):
        return list(node.children)
    return []


def nodes_equal(a, b) -> bool:
    """Whether two subtrees have the same shape, tests and leaves, compared with a stack.

    The equality of :class:`Split` and :class:`MultiwaySplit` (a dataclass's generated one would
    recurse, and fail on a tree deeper than the interpreter's recursion limit).

    Examples
    --------
    >>> nodes_equal(Split(0, Leaf(0), Leaf(1)), Split(0, Leaf(0), Leaf(1)))
    True
    >>> Split(0, Leaf(0), Leaf(1)) == Split(0, Leaf(1), Leaf(0))
    False
    """
    stack = [(a, b)]
    while stack:
        a, b = stack.pop()
        if a is b:
            continue
        if type(a) is not type(b):
            return False
        if isinstance(a, Split):
            if a.feature != b.feature:
                return False
            stack += [(a.left, b.left), (a.right, b.right)]
        elif isinstance(a, MultiwaySplit):
            if (a.column, a.column_index, list(a.values)) != (b.column, b.column_index, list(b.values)) \
                    or len(a.children) != len(b.children):
                return False
            stack.extend(zip(a.children, b.children))
        elif a != b:                                # leaves (and anything else) by their own equality
            return False
    return True


def node_repr(node) -> str:
    """The dataclass-style ``repr`` of a subtree, built with a stack (trees may be deep).

    Examples
    --------
    >>> node_repr(Split(2, Leaf(0), Leaf(1, (0, 3))))
    'Split(feature=2, left=Leaf(prediction=0, counts=(), loss=0.0), right=Leaf(prediction=1, counts=(0, 3), loss=0.0))'
    """
    parts: list[str] = []
    stack: list = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
        elif isinstance(item, Split):
            stack += [")", item.right, ", right=", item.left, f"Split(feature={item.feature!r}, left="]
        elif isinstance(item, MultiwaySplit):
            todo: list = [f"MultiwaySplit(column={item.column!r}, column_index={item.column_index!r}, "
                          f"values={item.values!r}, children=["]
            for i, child in enumerate(item.children):
                todo += [", "] * (i > 0) + [child]
            stack.extend(reversed(todo + ["])"]))
        else:
            parts.append(repr(item))
    return "".join(parts)

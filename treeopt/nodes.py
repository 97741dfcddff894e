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

__all__ = ["Leaf", "Split", "MultiwaySplit", "Node", "subtree_weight", "children_in_display_order"]


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

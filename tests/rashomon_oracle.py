"""Brute force over every tree on tiny 0/1 problems: the reference for the Rashomon set's tests.

Shares no code with ``treeopt.rashomon``: every tree shape of :func:`oracle.enumerate_trees` is
routed row by row, its leaves labelled by their weighted majority (ties: the smallest class), and
kept if it is a tree in TreeFARMS's sense (no empty side, no split of two same-class leaves).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from oracle import enumerate_trees


@dataclass
class BruteTree:
    """One tree: nested tuples ``("leaf", class index)`` / ``("split", j, left, right)`` and its numbers."""

    tree: tuple
    objective: float
    loss: float
    leaves: int
    depth: int
    features: frozenset
    reach: dict          # feature -> share of the training weight whose path tests it

    def predict(self, Z) -> np.ndarray:
        """Class index of every row of a 0/1 matrix."""
        def walk(node, z):
            while node[0] == "split":
                node = node[3] if z[node[1]] else node[2]
            return node[1]
        return np.array([walk(self.tree, z) for z in np.asarray(Z).astype(bool)])


def all_trees(X, y, regularization: float, sample_weight=None) -> list[BruteTree]:
    """Every valid tree on ``(X, y)`` with its objective, sorted by objective."""
    X = np.asarray(X).astype(int)
    y = np.asarray(y)
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
    key = (X.tobytes(), X.shape, y.tobytes(), None if w is None else w.tobytes())
    if key not in _SHAPES:
        if len(_SHAPES) > 32:                              # tests reuse a few problems across λ and filters
            _SHAPES.clear()
        _SHAPES[key] = _scored_shapes(X, y, w)
    out = [BruteTree(tree, loss + regularization * leaves, loss, leaves, depth, features, reach)
           for tree, loss, leaves, depth, features, reach in _SHAPES[key]]
    out.sort(key=lambda t: t.objective)
    return out


_SHAPES: dict = {}


def _scored_shapes(X, y, sample_weight) -> list:
    n, p = X.shape
    w = np.ones(n) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    classes = np.unique(y)
    y_index = np.searchsorted(classes, y)
    total = w.sum()

    def score(node, rows):
        """(tree with labels, loss, leaves, depth, features, reach) or None when not a valid tree."""
        if len(rows) == 0:
            return None
        if node[0] == "leaf":
            counts = [float(w[rows][y_index[rows] == k].sum()) for k in range(len(classes))]
            label = int(np.argmax(counts))
            return ("leaf", label), sum(counts) - counts[label], 1, 0, frozenset(), {}
        j = node[1]
        left = score(node[2], rows[X[rows, j] == 0])
        right = score(node[3], rows[X[rows, j] == 1])
        if left is None or right is None:
            return None
        if left[0][0] == "leaf" and right[0][0] == "leaf" and left[0][1] == right[0][1]:
            return None
        reach = {f: left[5].get(f, 0.0) + right[5].get(f, 0.0) for f in set(left[5]) | set(right[5])}
        reach[j] = reach.get(j, 0.0) + float(w[rows].sum()) / total
        return (("split", j, left[0], right[0]), left[1] + right[1], left[2] + right[2],
                1 + max(left[3], right[3]), left[4] | right[4] | {j}, reach)

    out = []
    for shape in enumerate_trees(p, p):
        s = score(shape, np.arange(n))
        if s is not None:
            tree, loss, leaves, depth, features, reach = s
            out.append((tree, loss / total, leaves, depth, features, reach))
    return out


def as_tuple(node) -> tuple:
    """A treeopt :class:`Leaf` / :class:`Split` tree (or a Tree's root) as the oracle's nested tuples."""
    node = getattr(node, "root", node)
    if hasattr(node, "prediction"):
        return ("leaf", node.prediction)
    return ("split", node.feature, as_tuple(node.left), as_tuple(node.right))

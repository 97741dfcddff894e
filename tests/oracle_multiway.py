"""A brute-force oracle for optimal trees with multiway splits on tiny categorical data.

Written to be obviously correct, sharing no code with the solvers: rows are
plain index tuples, labels plain Python values, no bitsets, no bounds.

A split on a column has one child per value of that column present in the
node's rows (a column with one value present cannot split), and a column is
used at most once on a path (Branches section 3.1). Objectives are in
objective units, accuracy loss (misclassified rows / all rows) plus

* ``penalty="split"``: λ × internal nodes (Branches), or
* ``penalty="leaf"``: λ × leaves (OSDT/GOSDT).

Two independent ways to the optimum:

* :func:`brute_force`: plain recursion, the definition of the optimum
  unrolled (best of the leaf and, for every unused column, the sum of the
  best subtrees of its children), memoised on (rows, used columns, depth).
* :func:`enumerate_trees`: every tree, listed explicitly, each scored from
  scratch by :func:`score`; only for a handful of rows and columns.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import lru_cache
from typing import Iterator

import numpy as np


def _leaf_loss(y, rows) -> int:
    counts = Counter(y[i] for i in rows)
    return len(rows) - max(counts.values())


def _children(X, rows, column) -> list:
    groups: dict = {}
    for i in rows:
        groups.setdefault(X[i][column], []).append(i)
    return [tuple(groups[v]) for v in sorted(groups, key=str)]


def brute_force(X, y, lam: float, penalty: str = "split", depth_budget: int | None = None) -> float:
    """Optimal objective by plain recursion (objective units).

    Parameters
    ----------
    X : sequence of sequences
        Rows of categorical values (any hashable values).
    y : sequence
        Labels.
    lam : float
    penalty : {"split", "leaf"}
    depth_budget : int, optional
        Maximum number of splits on a root-to-leaf path.
    """
    X = [tuple(row) for row in np.asarray(X, dtype=object).tolist()]
    y = list(y)
    n = len(y)
    n_columns = len(X[0]) if X else 0

    @lru_cache(maxsize=None)
    def solve(rows: tuple, used: frozenset, depth: int) -> float:
        best = _leaf_loss(y, rows) / n + (lam if penalty == "leaf" else 0.0)
        if depth_budget is not None and depth >= depth_budget:
            return best
        for column in range(n_columns):
            if column in used:
                continue
            parts = _children(X, rows, column)
            if len(parts) < 2:
                continue
            total = (lam if penalty == "split" else 0.0) + sum(solve(p, used | {column}, depth + 1)
                                                              for p in parts)
            best = min(best, total)
        return best

    return solve(tuple(range(n)), frozenset(), 0)


def enumerate_trees(X, rows: tuple, used: frozenset = frozenset()) -> Iterator:
    """Every tree over ``rows``: ``("leaf",)`` or ``("split", column, {value: subtree})``."""
    yield ("leaf",)
    n_columns = len(X[0]) if X else 0
    for column in range(n_columns):
        if column in used:
            continue
        parts = _children(X, rows, column)
        if len(parts) < 2:
            continue
        options = [list(enumerate_trees(X, part, used | {column})) for part in parts]
        for combo in itertools.product(*options):
            yield ("split", column, {X[part[0]][column]: sub for part, sub in zip(parts, combo)})


def score(tree, X, y, lam: float, penalty: str) -> float:
    """Objective of a tree from :func:`enumerate_trees`, recomputed by routing every row."""
    leaves: dict = {}
    n_splits = 0

    def count(node):
        nonlocal n_splits
        if node[0] == "split":
            n_splits += 1
            for child in node[2].values():
                count(child)

    count(tree)
    for i, row in enumerate(X):
        node, path = tree, []
        while node[0] == "split":
            path.append((node[1], row[node[1]]))
            node = node[2][row[node[1]]]
        leaves.setdefault(tuple(path), []).append(y[i])      # a leaf is identified by its path
    n_leaves = 1 + sum(len(node[2]) - 1 for node in _splits(tree))
    errors = sum(len(labels) - max(Counter(labels).values()) for labels in leaves.values())
    return errors / len(y) + lam * (n_leaves if penalty == "leaf" else n_splits)


def _splits(tree):
    if tree[0] == "split":
        yield tree
        for child in tree[2].values():
            yield from _splits(child)


def best_by_enumeration(X, y, lam: float, penalty: str = "split") -> float:
    """Optimal objective by listing every tree (tiny data only)."""
    X = [tuple(row) for row in np.asarray(X, dtype=object).tolist()]
    y = list(y)
    return min(score(t, X, y, lam, penalty) for t in enumerate_trees(X, tuple(range(len(y)))))

"""Exact size of a Rashomon set of binary-feature trees, by dynamic programming.

The idea follows "Exploring the Whole Rashomon Set of Sparse Decision Trees"
(TreeFARMS): every subproblem (a set of rows) keeps, for every split, the
children that can still fit in the budget, and sets are counted, never listed.
Here a subproblem's trees are summarised by a table ``(mistakes, leaves) ->
number of trees``; with unit weights the objective of a tree is
``mistakes / n + λ · leaves``, so the table determines every objective exactly
and a split's table is the convolution of its children's tables.

A tree is a distinct structure whose leaves predict their majority class
(ties: the smallest class). Splits that leave a child empty are not trees, and
a split whose two children are leaves predicting the same class is a trivial
extension of a leaf and is excluded.
"""
from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np


def rashomon_table(X, y, regularization: float, bound: float, unrank=None):
    """``(mistakes, leaves) -> count`` of all trees with objective ≤ ``bound``.

    Parameters
    ----------
    X : array of 0/1, shape (n, p)
    y : array of labels, shape (n,)
    regularization : float
        λ, the cost of one leaf (> 0).
    bound : float
        The largest objective kept.

    unrank : sequence of int, optional
        When given, return instead the trees at these positions of the
        objective order, as ``("leaf", label)`` / ``("split", j, left, right)``.

    Returns
    -------
    dict
        Keys ``(mistakes, leaves)``, values exact Python ints.

    Examples
    --------
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> y = [0, 0, 1, 1]
    >>> sorted(rashomon_table(X, y, 0.1, 0.45).items())   # x0; x1 then x0 twice
    [((0, 2), 1), ((0, 4), 1)]
    """
    if regularization <= 0:
        raise ValueError("regularization must be > 0 for a finite Rashomon set; pass e.g. 0.01")
    X = np.asarray(X).astype(bool)
    y = np.asarray(y)
    n, p = X.shape
    classes = np.unique(y)
    y_index = np.searchsorted(classes, y)
    max_leaves = int(np.floor(bound / regularization + 1e-12))
    columns = [sum(1 << i for i in range(n) if X[i, j]) for j in range(p)]
    class_masks = [sum(1 << i for i in range(n) if y_index[i] == k) for k in range(len(classes))]
    full = (1 << n) - 1
    eps = 1e-12 * max(1.0, bound)

    def fits(mistakes: int, leaves: int) -> bool:
        return mistakes / n + regularization * leaves <= bound + eps

    def leaf(mask: int) -> tuple[int, int]:
        counts = [bin(mask & c).count("1") for c in class_masks]
        label = int(np.argmax(counts))
        return bin(mask).count("1") - counts[label], label

    @lru_cache(maxsize=None)
    def table(mask: int) -> tuple:
        mistakes, _ = leaf(mask)
        out: Counter = Counter()
        if fits(mistakes, 1):
            out[(mistakes, 1)] += 1
        for col in columns:
            left, right = mask & ~col, mask & col
            if not left or not right:
                continue
            tl, tr = dict(table(left)), dict(table(right))
            for (ml, kl), cl in tl.items():
                for (mr, kr), cr in tr.items():
                    if kl + kr <= max_leaves and fits(ml + mr, kl + kr):
                        out[(ml + mr, kl + kr)] += cl * cr
            (mll, lab_l), (mrr, lab_r) = leaf(left), leaf(right)
            if lab_l == lab_r and (mll, 1) in tl and (mrr, 1) in tr and fits(mll + mrr, 2):
                out[(mll + mrr, 2)] -= 1          # the trivial extension
        return tuple((k, v) for k, v in out.items() if v)

    if unrank is None:
        return dict(table(full))
    return _unrank_all(table, leaf, columns, full, n, regularization, classes, unrank)


def _unrank_all(table, leaf, columns, full, n, regularization, classes, indices) -> list:
    """Trees at the given positions of the objective order (ties: by table cell, then split order)."""
    cells = sorted(dict(table(full)).items(), key=lambda kv: (kv[0][0] / n + regularization * kv[0][1], kv[0]))

    def build(mask: int, cell: tuple, rank: int) -> tuple:
        mistakes, label = leaf(mask)
        if cell == (mistakes, 1):
            if rank == 0:
                return ("leaf", classes[label].item() if hasattr(classes[label], "item") else classes[label])
            rank -= 1
        for j, col in enumerate(columns):
            left, right = mask & ~col, mask & col
            if not left or not right:
                continue
            (mll, lab_l), (mrr, lab_r) = leaf(left), leaf(right)
            trivial = lab_l == lab_r
            for lcell, cl in sorted(dict(table(left)).items()):
                rcell = (cell[0] - lcell[0], cell[1] - lcell[1])
                cr = dict(table(right)).get(rcell, 0)
                if not cr:
                    continue
                skip = trivial and lcell == (mll, 1) and rcell == (mrr, 1)
                block = cl * cr - skip
                if rank >= block:
                    rank -= block
                    continue
                rank += skip                      # the trivial pair is position 0 of this block
                return ("split", j, build(left, lcell, rank // cr), build(right, rcell, rank % cr))
        raise IndexError("rank beyond the cell")  # cannot happen when the tables are consistent

    out = []
    for index in indices:
        rank = index
        for cell, count in cells:
            if rank < count:
                out.append(build(full, cell, rank))
                break
            rank -= count
        else:
            raise IndexError(f"index {index} out of range for a set of {sum(c for _, c in cells)} trees")
    return out


def rashomon_count(X, y, regularization: float, bound: float) -> int:
    """Number of trees with objective ≤ ``bound`` (see :func:`rashomon_table`).

    Examples
    --------
    >>> rashomon_count([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 1, 1], 0.1, 0.45)
    2
    """
    return sum(rashomon_table(X, y, regularization, bound).values())

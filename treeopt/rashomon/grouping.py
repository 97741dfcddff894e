"""Trees of a Rashomon set grouped by their root split, then by the splits below it (TimberTrek's view).

Counts are exact and computed from the count tables, never by listing: the trees with root split
``j`` whose left and right subtrees start with ``f_l`` and ``f_r`` are the pairs of child trees
of the root's split ``j``, counted by the first split of each child (``None`` for a leaf). Trees of
a table cell are ordered leaf first, then by split feature, so the trees of one first split are a
block of consecutive ranks: the best tree of a group is found by unranking the block's first rank.
"""
from __future__ import annotations

import pandas as pd

from treeopt.nodes import Split

__all__ = ["split_groups", "group_representative"]


def _first_split_counts(view, key, cell) -> dict:
    """``first split (None: a leaf) -> number of trees`` of one child cell."""
    out: dict = {}
    if view.leaf_key(key) == cell:
        out[None] = 1
    for split, cell_l, cell_r, target in view.pairs(key):
        if target == cell:
            out[split[0]] = out.get(split[0], 0) + cell_l[4] * cell_r[4]
    return out


def _root_pairs(view):
    """The root's child pairs whose cell belongs to the set (within the bound, every required feature)."""
    wanted = {cell[1:4] for cell in view.root_cells()}
    for split, cell_l, cell_r, target in view.pairs(view.root):
        if target in wanted:
            yield split, cell_l, cell_r, target


def split_groups(view) -> pd.DataFrame:
    """Number of trees by root split and by the first split of each side, and the best objective of each group.

    Returns
    -------
    DataFrame
        Columns ``root``, ``left``, ``right`` (binary feature indices, ``-1`` for a leaf; a tree that is
        a single leaf has ``root = -1``), ``count`` (Python ints) and ``best`` (the smallest objective of
        the group), one row per group, largest count first.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.rashomon.search import RashomonGraph
    >>> from treeopt.rashomon.views import SetView
    >>> graph = RashomonGraph(Dataset.from_binary(np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), [0, 0, 1, 1]), 0.1)
    >>> _ = graph.solve_root(0.45)
    >>> split_groups(SetView(graph, 0.45))[["root", "left", "right", "count"]].values.tolist()
    [[0, -1, -1, 1], [1, 0, 0, 1]]
    """
    rows: dict = {}
    leaf = view.leaf_key(view.root)
    if leaf is not None and leaf in {cell[1:4] for cell in view.root_cells()}:
        rows[(-1, -1, -1)] = [1, view.graph.objective_of(leaf[0], 1)]
    for split, cell_l, cell_r, target in _root_pairs(view):
        j, left, right = split[:3]
        objective = view.graph.objective_of(target[0], target[1])
        for f_l, n_l in _first_split_counts(view, left, cell_l[1:4]).items():
            for f_r, n_r in _first_split_counts(view, right, cell_r[1:4]).items():
                key = (j, -1 if f_l is None else f_l, -1 if f_r is None else f_r)
                entry = rows.setdefault(key, [0, objective])
                entry[0] += n_l * n_r
                entry[1] = min(entry[1], objective)
    frame = pd.DataFrame([(*key, count, best) for key, (count, best) in rows.items()],
                         columns=["root", "left", "right", "count", "best"])
    frame["count"] = frame["count"].astype(object)
    order = sorted(range(len(frame)), key=lambda i: (-frame["count"].iloc[i], frame["best"].iloc[i]))
    return frame.iloc[order].reset_index(drop=True)


def group_representative(view, root: int, left: int | None = None, right: int | None = None):
    """Root node of the best tree (smallest objective) with root split ``root`` (``-1``: the single leaf).

    ``left`` / ``right`` (feature index, ``-1`` for a leaf, ``None`` for any) also fix the first split of
    each side. Raises ``LookupError`` when the group is empty.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.rashomon.search import RashomonGraph
    >>> from treeopt.rashomon.views import SetView
    >>> graph = RashomonGraph(Dataset.from_binary(np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), [0, 0, 1, 1]), 0.1)
    >>> _ = graph.solve_root(0.45)
    >>> group_representative(SetView(graph, 0.45), 1, 0, 0).feature     # root x1, then x0 on both sides
    1
    """
    if root == -1:
        leaf = view.leaf_key(view.root)
        if leaf is None or leaf not in {cell[1:4] for cell in view.root_cells()}:
            raise LookupError("the single leaf is not in the set")
        return view.graph.leaf_node(view.graph.root)
    best = None
    for split, cell_l, cell_r, target in _root_pairs(view):
        if split[0] != root:
            continue
        rank_l = _block_start(view, split[1], cell_l[1:4], left)
        rank_r = _block_start(view, split[2], cell_r[1:4], right)
        if rank_l is None or rank_r is None:
            continue
        objective = view.graph.objective_of(target[0], target[1])
        if best is None or objective < best[0]:
            best = (objective, split, cell_l, cell_r, rank_l, rank_r)
    if best is None:
        raise LookupError(f"no tree of the set has this root split and first splits ({root}, {left}, {right})")
    _, split, cell_l, cell_r, rank_l, rank_r = best
    return Split(split[0], view._build(split[1], cell_l[1:4], rank_l), view._build(split[2], cell_r[1:4], rank_r))


def _block_start(view, key, cell, first) -> int | None:
    """Rank of the first tree of ``cell`` whose first split is ``first`` (-1: the leaf; None: any)."""
    counts = _first_split_counts(view, key, cell)
    if first is None:
        return 0
    wanted = None if first == -1 else first
    if wanted not in counts:
        return None
    rank = 0
    if None in counts:
        if wanted is None:
            return 0
        rank = 1
    for split in view.splits(key):
        if split[0] == wanted:
            return rank
        rank += counts.get(split[0], 0)
    return None

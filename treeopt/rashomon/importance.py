"""Variable importance over a whole Rashomon set, by dynamic programming over its tables.

Two measures per binary feature, both exact over every tree of the set (no sampling):

* **share of trees** that split on the feature at least once (one minus the share of trees that
  avoid it; a tree avoids a feature when none of its splits uses it, a product over the children);
* **reach**: for one tree, the share of the training weight whose path tests the feature (the sum,
  over the tree's splits on the feature, of the weight reaching the split, divided by the total).
  It is additive over splits, so its minimum, maximum and mean over the set follow by the same
  dynamic programming. The range ``[min, max]`` over the set is in the spirit of model class
  reliance (Fisher, Rudin and Dominici, "All Models are Wrong, but Many are Useful", 2019) and of
  the Rashomon importance distribution (Donnelly et al. 2023): a feature whose minimum is 0 is
  dispensable to some good tree; one whose minimum is high is needed by all of them.
"""
from __future__ import annotations

import numpy as np

__all__ = ["importance_table"]


def importance_table(view) -> dict:
    """Per-feature arrays over the trees of ``view``.

    Returns
    -------
    dict
        ``count`` (int, the number of trees) and arrays of length ``n_features``: ``share``
        (share of trees using the feature), ``reach_mean``, ``reach_min``, ``reach_max``.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.rashomon.search import RashomonGraph
    >>> from treeopt.rashomon.views import SetView
    >>> graph = RashomonGraph(Dataset.from_binary(np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), [0, 0, 1, 1]), 0.1)
    >>> _ = graph.solve_root(0.45)
    >>> table = importance_table(SetView(graph, 0.45))
    >>> table["share"].tolist(), table["reach_min"].tolist(), table["reach_max"].tolist()
    ([1.0, 0.5], [1.0, 0.0], [1.0, 1.0])
    """
    graph = view.graph
    dataset = graph.dataset
    p = dataset.n_features
    total = float(dataset.total_weight)
    stats: dict = {}
    zeros, ones = np.zeros(p), np.ones(p)
    for key in view.postorder():
        table: dict = {}
        leaf = view.leaf_key(key)
        if leaf is not None:
            table[leaf] = [1, ones.copy(), zeros.copy(), zeros.copy(), zeros.copy()]
        reach = float(sum(dataset.class_counts(key[0]))) / total
        for split, cell_l, cell_r, cell in view.pairs(key):
            j, left, right = split[:3]
            n_l, avoid_l, sum_l, low_l, high_l = stats[left][cell_l[1:4]]
            n_r, avoid_r, sum_r, low_r, high_r = stats[right][cell_r[1:4]]
            n = n_l * n_r
            avoid = avoid_l * avoid_r
            avoid[j] = 0.0
            here = zeros.copy()
            here[j] = reach
            summed = sum_l * float(n_r) + sum_r * float(n_l) + here * float(n)
            low, high = low_l + low_r + here, high_l + high_r + here
            entry = table.get(cell)
            if entry is None:
                table[cell] = [n, avoid, summed, low, high]
            else:
                entry[0] += n
                entry[1] = entry[1] + avoid
                entry[2] = entry[2] + summed
                entry[3] = np.minimum(entry[3], low)
                entry[4] = np.maximum(entry[4], high)
        stats[key] = table
    count, avoid, summed = 0, zeros.copy(), zeros.copy()
    low, high = np.full(p, np.inf), np.full(p, -np.inf)
    for cell in view.root_cells():
        n, a, s, lo, hi = stats[view.root][cell[1:4]]
        count += n
        avoid, summed = avoid + a, summed + s
        low, high = np.minimum(low, lo), np.maximum(high, hi)
    if count == 0:
        nan = np.full(p, np.nan)
        return {"count": 0, "share": nan, "reach_mean": nan, "reach_min": nan, "reach_max": nan}
    return {"count": count, "share": 1.0 - avoid / float(count), "reach_mean": summed / float(count),
            "reach_min": low, "reach_max": high}

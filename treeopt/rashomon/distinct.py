"""How many trees of a Rashomon set predict differently on the training data.

Two trees are *prediction-distinct* when some training point (a distinct feature vector of the
data) gets a different class from them. The number of distinct prediction vectors does not
decompose over subproblems the way counts do (two different splits can make the same function),
so it is computed by building, per subproblem and cell, the set of prediction vectors its trees
make on the subproblem's points (packed into one int), and taking their union at the root. The
work grows with the number of distinct vectors, so it stops (returns ``None``) past a limit.
"""
from __future__ import annotations

from treeopt.data import bits_of

__all__ = ["count_prediction_distinct"]


def count_prediction_distinct(view, limit: int = 1_000_000) -> int | None:
    """Number of distinct prediction vectors on the training points; ``None`` past ``limit`` set operations.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.rashomon.search import RashomonGraph
    >>> from treeopt.rashomon.views import SetView
    >>> graph = RashomonGraph(Dataset.from_binary(np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), [0, 0, 1, 1]), 0.1)
    >>> _ = graph.solve_root(0.45)
    >>> count_prediction_distinct(SetView(graph, 0.45))   # two trees, one prediction vector
    1
    """
    graph = view.graph
    width = max(1, (graph.dataset.n_classes - 1).bit_length())
    work = 0
    functions: dict = {}
    for key in view.postorder():
        table: dict = {}
        leaf = view.leaf_key(key)
        if leaf is not None:
            label = view.node(key).label
            table[leaf] = {_packed(key[0], label, width)}
        for split, cell_l, cell_r, cell in view.pairs(key):
            left, right = split[1], split[2]
            fl, fr = functions[left][cell_l[1:4]], functions[right][cell_r[1:4]]
            work += len(fl) * len(fr)
            if work > limit:
                return None
            target = table.setdefault(cell, set())
            target.update(a | b for a in fl for b in fr)
        functions[key] = table
    root = functions.get(view.root, {})
    out: set = set()
    for cell in view.root_cells():
        out |= root[cell[1:4]]
    return len(out)


def _packed(support: int, label: int, width: int) -> int:
    if width == 1:
        return support if label else 0
    return sum(label << (i * width) for i in bits_of(support))

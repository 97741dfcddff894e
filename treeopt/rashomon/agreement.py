"""How the trees of a Rashomon set vote on given rows, by dynamic programming over the set.

For every subproblem and table cell, the number of its trees that predict each class on each row
is the sum, over the child pairs making the cell, of the counts of the child the row goes to
times the number of trees of the other child (a row follows one branch of each split). A leaf
votes for its class. Nothing is listed: the cost is (subproblems × cell pairs × rows), and the
votes are counted in floating point (fractions are exact to about 1e-16 relative).
"""
from __future__ import annotations

import numpy as np

__all__ = ["vote_counts"]


def vote_counts(view, Z, chunk: int = 2048) -> np.ndarray:
    """Number of trees of ``view`` predicting each class on each row of the binary matrix ``Z``.

    Parameters
    ----------
    view : SetView
    Z : ndarray of bool, shape (n_rows, n_features)
        Rows in the binary features of the set's dataset.
    chunk : int, default=2048
        Rows processed together (memory is subproblems × cells × classes × chunk floats).

    Returns
    -------
    ndarray of float, shape (n_rows, n_classes)

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.rashomon.search import RashomonGraph
    >>> from treeopt.rashomon.views import SetView
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> graph = RashomonGraph(Dataset.from_binary(X, [0, 0, 1, 1]), 0.1)
    >>> _ = graph.solve_root(0.45)
    >>> vote_counts(SetView(graph, 0.45), X.astype(bool)).tolist()   # both trees agree everywhere
    [[2.0, 0.0], [2.0, 0.0], [0.0, 2.0], [0.0, 2.0]]
    """
    Z = np.asarray(Z, dtype=bool)
    n_classes = view.graph.dataset.n_classes
    out = np.zeros((len(Z), n_classes))
    order = view.postorder()
    for start in range(0, len(Z), chunk):
        out[start:start + chunk] = _votes(view, order, Z[start:start + chunk], n_classes)
    return out


def _votes(view, order, Z, n_classes) -> np.ndarray:
    n = len(Z)
    votes: dict = {}
    for key in order:
        node = view.node(key)
        table: dict = {}
        leaf = view.leaf_key(key)
        if leaf is not None:
            vector = np.zeros((n_classes, n))
            vector[node.label] = 1.0
            table[leaf] = vector
        for split, cell_l, cell_r, cell in view.pairs(key):
            j, left, right = split[:3]
            goes_right = Z[:, j]
            contribution = np.where(goes_right, float(cell_l[4]) * votes[right][cell_r[1:4]],
                                    votes[left][cell_l[1:4]] * float(cell_r[4]))
            if cell in table:
                table[cell] += contribution
            else:
                table[cell] = contribution
        votes[key] = table
    total = np.zeros((n_classes, n))
    root = votes[view.root]
    for cell in view.root_cells():
        total += root[cell[1:4]]
    return total.T

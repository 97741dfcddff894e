"""The size of a Rashomon set on a 0/1 matrix, without building a :class:`RashomonSet`."""
from __future__ import annotations

from treeopt.data import Dataset
from treeopt.rashomon.search import RashomonGraph

__all__ = ["rashomon_count"]


def rashomon_count(X, y, regularization: float, bound: float, sample_weight=None) -> int:
    """Number of trees with objective ≤ ``bound`` on the 0/1 matrix ``X`` (see :mod:`treeopt.rashomon.search`).

    Examples
    --------
    >>> rashomon_count([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 1, 1], 0.1, 0.45)
    2
    """
    graph = RashomonGraph(Dataset.from_binary(X, y, sample_weight=sample_weight), regularization)
    root = graph.solve_root(bound)
    return 0 if root is None else sum(root.table[cell] for cell in root.table
                                      if graph.objective_of(*cell) <= bound + graph.tol * graph.scale)

"""Greedy induction: the lecture's C4.5 and CART, as baselines and warm starts.

:mod:`~treeopt.greedy.criteria` (impurities and gains), :mod:`~treeopt.greedy.grown_tree` (the
tree being grown), :mod:`~treeopt.greedy.prunings` (C4.5's pessimistic and CART's
cost-complexity pruning), :mod:`~treeopt.greedy.solver` (the stepwise solver) and
:mod:`~treeopt.greedy.estimator` (the scikit-learn estimators).
"""

from .solver import GreedyInduction

__all__ = ["GreedyInduction", "GreedyTreeClassifier", "GreedyTreeRegressor"]


def __getattr__(name: str):
    """The estimators, loaded on first use: they build through :func:`treeopt.make_solver`, whose
    registry imports this package's solver, so importing them here eagerly would be an import circle."""
    if name in ("GreedyTreeClassifier", "GreedyTreeRegressor"):
        from . import estimator
        return getattr(estimator, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

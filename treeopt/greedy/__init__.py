"""Greedy induction: the lecture's C4.5 and CART, as baselines and warm starts.

:mod:`~treeopt.greedy.criteria` (impurities and gains), :mod:`~treeopt.greedy.grown_tree` (the
tree being grown), :mod:`~treeopt.greedy.prunings` (C4.5's pessimistic and CART's
cost-complexity pruning) and :mod:`~treeopt.greedy.solver` (the stepwise solver). The scikit-learn
estimators built on them, :class:`~treeopt.GreedyTreeClassifier` and :class:`~treeopt.GreedyTreeRegressor`,
are front ends (``treeopt.greedy_estimators``): they build through :func:`treeopt.make_solver`, which sits
above this package.
"""

from .solver import GreedyInduction

__all__ = ["GreedyInduction"]

"""Greedy induction: the lecture's C4.5 and CART, as baselines and warm starts.

:mod:`~treeopt.greedy.criteria` (impurities and gains), :mod:`~treeopt.greedy.grown_tree` (the
tree being grown), :mod:`~treeopt.greedy.prunings` (C4.5's pessimistic and CART's
cost-complexity pruning), :mod:`~treeopt.greedy.solver` (the stepwise solver) and
:mod:`~treeopt.greedy.estimator` (the scikit-learn estimators).
"""

from .estimator import GreedyTreeClassifier, GreedyTreeRegressor
from .solver import GreedyInduction

__all__ = ["GreedyInduction", "GreedyTreeClassifier", "GreedyTreeRegressor"]

"""The continuous solver: the best tree of bounded depth over numeric columns kept as sorted values.

``terminal.py`` holds the depth-one and depth-two solvers over sorted values, ``intervals.py``
the interval bounds over thresholds, and ``search.py`` the depth-limited recursion and the stepwise
:class:`ContinuousSearch` (registered as ``solver="continuous"``). The data layer is
:mod:`treeopt.sorted_columns`.
"""

from .search import ContinuousSearch

__all__ = ["ContinuousSearch"]

"""The accuracy–sparsity frontier: every optimal tree for every λ from one search.

:mod:`~treeopt.frontier.search` is the stepwise search (a solver of the protocol),
:mod:`~treeopt.frontier.result` the :class:`Frontier` result and :func:`fit_frontier`, one search.

Note: ``treeopt.frontier`` at the top level is the *function* :func:`treeopt.frontiers.frontier`
(the public name users call); import this package's modules with
``from treeopt.frontier.result import Frontier``.
"""

from .result import Frontier, fit_frontier
from .search import FrontierSearch

__all__ = ["Frontier", "fit_frontier", "FrontierSearch"]

"""The accuracy–sparsity frontier: every optimal tree for every λ from one search.

:mod:`~treeopt.frontier.search` is the stepwise search (a solver of the protocol),
:mod:`~treeopt.frontier.result` the :class:`Frontier` result and the :func:`frontier` function.

Note: ``treeopt.frontier`` at the top level is the *function* :func:`treeopt.frontier.result.frontier`
(the public name users call); import this package's modules with
``from treeopt.frontier.result import Frontier``.
"""

from .result import Frontier, frontier
from .search import FrontierSearch

__all__ = ["Frontier", "frontier", "FrontierSearch"]

"""The accuracy–sparsity frontier: every optimal tree for every λ from one search.

:mod:`~treeopt.frontier.search` is the stepwise search (a solver of the protocol),
:mod:`~treeopt.frontier.result` the :class:`Frontier` result and
:mod:`~treeopt.frontier.cross_validation` the cross-validated frontier's fold loop. Building and
running one search through :func:`treeopt.make_solver` (``fit_frontier``) is a front end above this
package, in ``treeopt.frontier_fitting``.

Note: ``treeopt.frontier`` at the top level is the *function* :func:`treeopt.frontiers.frontier`
(the public name users call); import this package's modules with
``from treeopt.frontier.result import Frontier``.
"""

from .result import Frontier
from .search import FrontierSearch

__all__ = ["Frontier", "FrontierSearch"]

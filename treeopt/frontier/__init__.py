"""The accuracy–sparsity frontier: every optimal tree for every λ from one search.

:mod:`~treeopt.frontier.search` is the stepwise search (a solver of the protocol),
:mod:`~treeopt.frontier.result` the :class:`Frontier` result, :mod:`~treeopt.frontier.fitting`
:func:`fit_frontier` (one search, built by :func:`treeopt.make_solver`).

Note: ``treeopt.frontier`` at the top level is the *function* :func:`treeopt.frontiers.frontier`
(the public name users call); import this package's modules with
``from treeopt.frontier.result import Frontier``.
"""

from .result import Frontier
from .search import FrontierSearch

__all__ = ["Frontier", "fit_frontier", "FrontierSearch"]


def __getattr__(name: str):
    """``fit_frontier``, loaded on first use: it builds through :func:`treeopt.make_solver`, whose registry
    imports this package's search, so importing it here eagerly would be an import circle."""
    if name == "fit_frontier":
        from .fitting import fit_frontier
        return fit_frontier
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

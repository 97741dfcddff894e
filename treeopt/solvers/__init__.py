"""Stepwise solvers. Each speaks the protocol of :mod:`treeopt.solvers.base`.

``SOLVERS`` (:mod:`treeopt.registry`, above the solvers it lists) maps the names the estimator
accepts (``solver="gosdt"``) to classes; :func:`treeopt.make_solver` builds any of them from a table.
"""

from .base import QueueEntry, SearchResult, Snapshot, Solver, TracePoint
from .branches import Branches
from .capabilities import Capabilities
from .gosdt import GOSDT, DepthDeepening, Portfolio
from .osdt.search import OSDT

__all__ = ["Solver", "Snapshot", "QueueEntry", "SearchResult", "TracePoint", "Capabilities", "GOSDT", "DepthDeepening", "Portfolio", "OSDT",
           "Branches"]

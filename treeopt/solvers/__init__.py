"""Stepwise solvers. Each speaks the protocol of :mod:`treeopt.solvers.base`.

``SOLVERS`` maps the names the estimator accepts (``solver="gosdt"``) to classes.
"""

from .base import QueueEntry, SearchResult, Snapshot, Solver, TracePoint
from .branches import Branches
from .gosdt import GOSDT
from .osdt.search import OSDT

SOLVERS = {"gosdt": GOSDT, "osdt": OSDT, "branches": Branches}

__all__ = ["Solver", "Snapshot", "QueueEntry", "SearchResult", "TracePoint", "GOSDT", "OSDT", "Branches", "SOLVERS"]

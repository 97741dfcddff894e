"""Every solver by name: the one place a new solver is registered.

``SOLVERS`` maps the names that :func:`treeopt.make_solver`, ``OptimalTreeClassifier(solver=...)``,
the command line (``--solver``) and the widgets accept to solver classes. Adding a solver means
writing its class (a :class:`~treeopt.solvers.base.Solver` with ``BOUNDS`` and
``CAPABILITIES``) and adding one line here.

Examples
--------
>>> sorted(SOLVERS)
['branches', 'continuous', 'deepening', 'frontier', 'gosdt', 'greedy', 'osdt', 'portfolio', 'rashomon']
>>> solvers_that(lambda cls: cls.CAPABILITIES.objectives == "any")
['osdt']
"""

from __future__ import annotations

from typing import Callable

from .frontier.search import FrontierSearch
from .greedy.solver import GreedyInduction
from .solvers.branches import Branches
from .solvers.continuous import ContinuousSearch
from .solvers.gosdt import GOSDT, DepthDeepening, Portfolio
from .solvers.osdt.search import OSDT
from .rashomon.stepwise import RashomonSearch

__all__ = ["SOLVERS", "solvers_that"]

SOLVERS = {
    "gosdt": GOSDT,
    "osdt": OSDT,
    "branches": Branches,
    "greedy": GreedyInduction,
    "deepening": DepthDeepening,
    "portfolio": Portfolio,
    "rashomon": RashomonSearch,
    "frontier": FrontierSearch,
    "continuous": ContinuousSearch,
}


def solvers_that(predicate: Callable[[type], bool]) -> list:
    """Names of the registered solvers whose class satisfies ``predicate`` (for error messages)."""
    return sorted(name for name, cls in SOLVERS.items() if predicate(cls))

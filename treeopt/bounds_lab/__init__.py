"""The bounds lab: write a lower bound or a queue policy, plug it into OSDT (or a bound into GOSDT), check that it is safe.

- :func:`lower_bound` and :func:`queue_policy` wrap a function of a :class:`Subproblem` into a
  plug-in for ``OSDT(..., plugins=[...])``, and a lower bound for ``GOSDT(..., plugins=[...])``
  too (:mod:`~treeopt.solvers.plugins`, beside the solvers that call it);
- :func:`check_bound` runs a bound against a brute-force oracle on small random data and returns
  "safe on N cases" or the smallest counterexample, in OSDT or GOSDT (:mod:`~treeopt.bounds_lab.check`).
"""

from .check import BoundCheck, check_bound
from ..solvers.plugins import PluginBound, QueuePolicy, lower_bound, queue_policy
from ..solvers.subproblem import Subproblem

__all__ = ["lower_bound", "queue_policy", "check_bound", "BoundCheck", "Subproblem", "PluginBound", "QueuePolicy"]

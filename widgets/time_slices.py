"""Work in slices of bounded time, whatever one unit of work costs.

The player (``widgets/player.py``) must answer Pause, Step and the sliders within a fraction of
a second, but one unit of work costs microseconds for GOSDT on small data and tens of
milliseconds for OSDT on the AUC objective. :class:`TimedSlices` measures the cost of a unit as
it goes (an exponential average) and runs units in chunks sized from it, so a slice of
``seconds`` overshoots by little and never waits for a count of units.
"""

from __future__ import annotations

from typing import Callable

__all__ = ["TimedSlices"]


class TimedSlices:
    """Run a solver's units of work in time-bounded slices.

    Parameters
    ----------
    clock : callable
        Seconds now (``time.perf_counter``; a fake clock in tests).

    Attributes
    ----------
    unit_cost : float or None
        Measured seconds per unit of work (None before the first measurement).

    Examples
    --------
    >>> from treeopt.datasets import load_monk
    >>> from treeopt.data import Dataset
    >>> from treeopt.solvers import GOSDT
    >>> import time
    >>> slices = TimedSlices(time.perf_counter)
    >>> solver = GOSDT(Dataset.from_arrays(*load_monk(1)), regularization=0.05)
    >>> slices.run(solver, 10**6, seconds=0.05)     # False: the search ended within the slice
    False
    >>> solver.status, slices.unit_cost is not None
    ('optimal', True)
    """

    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self.unit_cost: float | None = None

    def forget(self) -> None:
        """Another search: measure its units afresh."""
        self.unit_cost = None

    def work(self, solver, n: int) -> bool:
        """Exactly ``n`` units (fewer if the search ends); False once it has ended."""
        start = self.clock()
        alive = solver.step(n)
        cost = max(self.clock() - start, 0.0) / n
        self.unit_cost = cost if self.unit_cost is None else 0.5 * self.unit_cost + 0.5 * cost
        return alive

    def run(self, solver, n: int, seconds: float | None = None) -> bool:
        """Up to ``n`` units, stopping once ``seconds`` have passed (at least one unit)."""
        if seconds is None:
            return self.work(solver, n)
        start = self.clock()
        done, alive = 0, True
        while alive and done < n:
            used = self.clock() - start
            if done and used >= seconds:
                break
            if self.unit_cost is None:
                chunk = 1                                 # nothing measured yet: one unit
            else:                                         # a quarter of what is left, so a chunk overshoots little
                chunk = int(0.25 * (seconds - used) / max(self.unit_cost, 1e-9))
            chunk = max(1, min(chunk, n - done))
            alive = self.work(solver, chunk)
            done += chunk
        return alive

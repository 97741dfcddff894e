"""Slices of long work: how a computation longer than a unit of work keeps to the unit budget.

The driver (:mod:`treeopt.solvers.base`) can stop, pause or answer a Ctrl-C only between two
units of work, and each unit keeps to the solver's ``unit_budget``. A computation that may take
longer is written as a generator that yields when its slice is spent (:class:`SliceClock`) and
returns its value; a search drives it with ``yield from`` so that each slice is a unit, and a
one-shot caller runs it whole with :func:`drain`. Where the slices fall depends on the machine,
the computation's result must not.
"""

from __future__ import annotations

import time

__all__ = ["SliceClock", "drain"]


class SliceClock:
    """When a sliced computation should yield: after ``seconds`` since its last slice began.

    ``SliceClock(None)`` never asks (the computation runs in one piece).

    Examples
    --------
    >>> clock = SliceClock(0.0)
    >>> clock.due(), SliceClock(None).due()
    (True, False)
    """

    __slots__ = ("seconds", "_began")

    def __init__(self, seconds: float | None):
        self.seconds = seconds
        self._began = time.perf_counter()

    def due(self) -> bool:
        """True when the slice is spent (and a new one begins at once: the caller yields now)."""
        if self.seconds is None:
            return False
        now = time.perf_counter()
        if now - self._began >= self.seconds:
            self._began = now
            return True
        return False


def drain(steps):
    """The value a slice generator returns, running all its slices at once.

    Examples
    --------
    >>> def halves():
    ...     yield
    ...     return 2
    >>> drain(halves())
    2
    """
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value

"""Keep Python's cyclic garbage collector off the search's memo during a unit of work.

A search allocates tens of thousands of long-lived objects (problems, their
parent lists, their splits), all reachable until the search ends. CPython's
generational collector still rescans the whole heap every time the number of
long-lived objects has grown by a quarter, and that heap also holds numpy,
pandas and, in Jupyter, the whole notebook: such full collections find nothing
to free in a growing memo, and can take a large share of a search's time
(``benchmarks/results.md``).

Several threads may each run a search: whoever finds objects already frozen
stands aside, so the worst case is a unit of work without the speed-up.

:class:`HeapFreeze` moves every object that exists when a unit of work starts
to the collector's permanent generation (:func:`gc.freeze`, constant time) and
returns them when the unit ends (:func:`gc.unfreeze`, constant time). Inside a
unit only the objects created by that unit are scanned; between units the heap
is exactly as without it, so nothing is kept from the collector for longer
than one unit of work and a paused or abandoned search leaves no trace.

It does nothing when the collector is disabled, or when someone else (a
pre-fork server, a nested search) already froze objects: unfreezing would
release theirs too.
"""

from __future__ import annotations

import gc

__all__ = ["HeapFreeze"]


class HeapFreeze:
    """Context manager: freeze the heap on entry, unfreeze on exit (see module docstring).

    Parameters
    ----------
    enabled : bool, default=True
        False makes it a no-op (to measure or rule it out).

    Examples
    --------
    >>> import gc
    >>> pause = HeapFreeze()
    >>> with pause:
    ...     frozen_inside = gc.get_freeze_count() > 0
    >>> frozen_inside, gc.get_freeze_count()
    (True, 0)
    >>> with HeapFreeze(enabled=False):
    ...     gc.get_freeze_count()
    0
    """

    __slots__ = ("enabled", "_active")

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self._active = False

    def __enter__(self) -> "HeapFreeze":
        if self.enabled and gc.isenabled():
            # get_freeze_count() walks the permanent generation: constant time when it is empty.
            # Objects frozen by someone else switch this instance off for good (no walk per unit).
            if gc.get_freeze_count() == 0:
                self._active = True
                gc.freeze()
            else:
                self.enabled = False
        return self

    def __exit__(self, *exc) -> bool:
        if self._active:
            self._active = False
            gc.unfreeze()
        return False

"""Holding Ctrl-C (SIGINT), SIGTERM and other handled signals until a unit of work is done, so a search can resume.

A ``KeyboardInterrupt`` raised inside a solver's generator ends that generator for good (Python
closes a generator an exception passes through), and a unit of work cut half way can leave the
search's bookkeeping half updated. The driver in :mod:`treeopt.solvers.base` therefore runs its
units of work inside a :class:`DeferredSignals`: a signal that arrives during a unit is noted, the
unit finishes, and the signal's own handler (for SIGINT normally Python's, which raises
``KeyboardInterrupt``) runs at the boundary between two units, where the search can stop and
later resume.

A second signal of the same kind while one is held is delivered at once: pressing Ctrl-C twice
aborts a unit of work that takes too long (the search then cannot resume; its incumbent and bounds
are still reported).

Only handlers written in Python are held, and only in the main thread (the one thread Python
delivers signals to): a signal left at its default action (SIGTERM kills the process unless a
handler is installed, as the ``treeopt`` command does) or ignored is left alone.

Examples
--------
>>> import signal
>>> seen = []
>>> previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append("handled"))
>>> with DeferredSignals():
...     signal.raise_signal(signal.SIGINT)      # Ctrl-C in the middle of a unit of work ...
...     seen.append("unit finished")            # ... which still runs to its end
>>> seen
['unit finished', 'handled']
>>> _ = signal.signal(signal.SIGINT, previous)
"""

from __future__ import annotations

import signal

from ..setup_signals import HELD_SIGNALS, restore_handlers, wrap_handlers

__all__ = ["DeferredSignals", "HELD_SIGNALS"]


class DeferredSignals:
    """Context manager: hold the Python handlers of :data:`HELD_SIGNALS` while :attr:`inside` a unit of work.

    While :attr:`inside` is true a signal only sets :attr:`pending`; call :meth:`deliver` at a
    point where stopping is safe (it runs the original handlers, which usually raise
    ``KeyboardInterrupt``). While it is false (e.g. between the events ``steps()`` yields, when
    the caller's code runs) signals go to their handlers at once. Leaving the block restores the
    handlers and delivers what is still pending: at once, or, when an exception (or the closing of
    a generator) is on its way out, by sending the signal again so that its handler runs right
    after, wherever that exception is handled. Only a ``KeyboardInterrupt`` or ``SystemExit`` on
    its way out (itself the answer to a signal) leaves the pending ones unsent.

    Attributes
    ----------
    pending : list of (int, frame)
        Signals received and not yet delivered (empty, so falsy, most of the time: cheap to test).
    inside : bool
        Whether a unit of work is running (default True: the whole block is one stretch of work).
    """

    __slots__ = ("pending", "inside", "_previous")

    def __init__(self):
        self.pending: list = []
        self.inside = True
        self._previous: dict = {}

    def __enter__(self) -> "DeferredSignals":
        self._previous = wrap_handlers(self._hold)     # signals reach the main thread only
        return self

    def _hold(self, signum, frame) -> None:
        previous = self._previous[signum]
        if not self.inside or any(held == signum for held, _ in self.pending):
            previous(signum, frame)         # between units, or asked twice: now
            return
        self.pending.append((signum, frame))

    def deliver(self) -> None:
        """Run the held signals' own handlers now (which may raise ``KeyboardInterrupt``)."""
        pending, self.pending = self.pending, []
        for signum, frame in pending:
            self._previous[signum](signum, frame)

    def __exit__(self, exc_type, exc, tb) -> None:
        # Restored only where this handler is still the installed one: with two searches' steps()
        # open at once, the later one's handler stays until it closes, and passes signals on.
        self.inside = False                 # a copy of _hold left installed by someone now passes signals on
        previous = self._previous
        restore_handlers(previous, self._hold)
        if not self.pending:
            return
        pending, self.pending = self.pending, []
        if exc_type is None:
            for signum, frame in pending:
                previous[signum](signum, frame)
        elif issubclass(exc_type, (Exception, GeneratorExit)):
            # Another exception is leaving (or the caller closed a steps() generator): whoever handles
            # it must still get the signal, so it is sent again, now to the handler just restored.
            for signum, _ in pending:
                signal.raise_signal(signum)
        # A KeyboardInterrupt or SystemExit leaving is itself the answer to the signals held.

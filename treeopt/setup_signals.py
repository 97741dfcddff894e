"""Ctrl-C during a fit's setup (binarizing, guessing thresholds, building the dataset): answered at once, never lost.

Before a search exists there is no unit of work to finish and nothing to resume, so a signal
need not wait: its handler (for SIGINT Python's own, which raises ``KeyboardInterrupt``) runs as
soon as Python can run it, and the front end keeps the best tree the setup allows (at worst the
single leaf).

One case loses it, though. Python runs a signal's handler at the next bytecode boundary, which
may fall inside a finalizer the garbage collector happens to call at that moment (an object's
``__del__``, a generator left suspended by earlier code and now closed). An exception raised
there cannot propagate: Python reports it as "Exception ignored in ..." and the code that was
running goes on as if no Ctrl-C had come. :class:`SetupSignals` notes every signal its handler
passes on, and forgets it only when the handler returned (it chose not to raise) or when the
block ends with an exception. A signal still noted at a checkpoint (:func:`answer_lost_signals`,
which the setup's deadline check ``treeopt.binarize.check_deadline`` calls between its
pieces) or when the block ends normally was swallowed on the way: its handler runs again there,
where its exception reaches the caller.

Examples
--------
>>> import signal
>>> class CtrlCInAFinalizer:
...     def __del__(self):
...         signal.raise_signal(signal.SIGINT)     # the handler runs inside __del__ ...
>>> previous = signal.signal(signal.SIGINT, signal.default_int_handler)
>>> try:
...     with SetupSignals():
...         dropped = CtrlCInAFinalizer()
...         del dropped                            # ... whose KeyboardInterrupt Python ignores
...         print("the setup went on")
... except KeyboardInterrupt:
...     print("answered when the setup ended")
the setup went on
answered when the setup ended
>>> _ = signal.signal(signal.SIGINT, previous)
"""

from __future__ import annotations

import signal
import threading

__all__ = ["HELD_SIGNALS", "SetupSignals", "answer_lost_signals", "wrap_handlers", "restore_handlers"]

#: The signals whose Python handlers treeopt wraps: Ctrl-C and SIGTERM, and the others a program
#: commonly handles in Python (a timer's SIGALRM, SIGHUP, SIGUSR1/2), whose handler may raise too
#: (``KeyboardInterrupt`` or a timeout exception). The search holds them until the end of a unit
#: of work (:mod:`treeopt.solvers.interrupts`); the setup passes them on at once (this module).
HELD_SIGNALS = tuple(s for s in (getattr(signal, name, None) for name in
                                 ("SIGINT", "SIGTERM", "SIGALRM", "SIGHUP", "SIGUSR1", "SIGUSR2")) if s)

def wrap_handlers(replacement) -> dict:
    """Install ``replacement`` for every signal of :data:`HELD_SIGNALS` that has a Python handler.

    Returns the handlers replaced, by signal number: ``replacement`` calls them to deliver a signal.
    Only the main thread receives signals, so elsewhere nothing is installed. Signals at their
    default action or ignored (``SIG_DFL``, ``SIG_IGN``) and handlers set from C are left alone.

    Examples
    --------
    >>> import signal
    >>> def ignore(signum, frame):
    ...     pass
    >>> before = signal.signal(signal.SIGINT, signal.default_int_handler)    # Python's own handler
    >>> replaced = wrap_handlers(ignore)
    >>> signal.getsignal(signal.SIGINT) is ignore
    True
    >>> restore_handlers(replaced, ignore)
    >>> signal.getsignal(signal.SIGINT) is signal.default_int_handler
    True
    >>> _ = signal.signal(signal.SIGINT, before)
    """
    previous: dict = {}
    if threading.current_thread() is not threading.main_thread():
        return previous
    for signum in HELD_SIGNALS:
        handler = signal.getsignal(signum)
        if callable(handler):
            previous[signum] = handler
            signal.signal(signum, replacement)
    return previous


def restore_handlers(previous: dict, replacement) -> None:
    """Put back the handlers :func:`wrap_handlers` replaced, where ``replacement`` is still installed.

    A handler someone installed meanwhile (a later block still open) stays.
    """
    for signum, handler in previous.items():
        try:
            if signal.getsignal(signum) == replacement:
                signal.signal(signum, handler)
        except ValueError:                  # pragma: no cover - closed from another thread
            pass


#: The :class:`SetupSignals` blocks open in the main thread, innermost last.
_OPEN: list = []


class SetupSignals:
    """Context manager: pass signals on at once during a setup, and deliver again any whose exception was lost.

    Only handlers written in Python are wrapped, and only in the main thread (the one thread
    Python delivers signals to); a signal at its default action or ignored is left alone.

    Attributes
    ----------
    unanswered : list of (int, frame)
        Signals whose handler raised an exception that has not (yet) left the block.
    """

    __slots__ = ("unanswered", "_previous")

    def __init__(self):
        self.unanswered: list = []
        self._previous: dict = {}

    def __enter__(self) -> "SetupSignals":
        if threading.current_thread() is not threading.main_thread():
            return self                     # signals reach the main thread only; nothing to watch here
        self._previous = wrap_handlers(self._pass_on)
        _OPEN.append(self)
        return self

    def _pass_on(self, signum, frame) -> None:
        entry = (signum, frame)
        self.unanswered.append(entry)
        self._previous[signum](signum, frame)      # raises (KeyboardInterrupt) unless the handler chose not to
        self.unanswered.remove(entry)              # it returned: nothing was raised, nothing can be lost

    def answer(self) -> None:
        """Run again the handler of a signal whose exception was swallowed (raises it here)."""
        while self.unanswered:
            signum, frame = self.unanswered.pop(0)
            self._previous[signum](signum, frame)

    def __exit__(self, exc_type, exc, tb) -> None:
        if self in _OPEN:
            _OPEN.remove(self)
        restore_handlers(self._previous, self._pass_on)
        if exc_type is not None:            # an exception is leaving the block: the signal's, or one
            self.unanswered.clear()         # that ends the setup anyway
            return
        self.answer()


def answer_lost_signals() -> None:
    """A setup's checkpoint: raise here what a signal handler raised where Python swallowed it.

    Cheap when nothing was lost (one list test); called between the pieces of a setup.

    Examples
    --------
    >>> answer_lost_signals()        # outside a setup, or with nothing lost: does nothing
    """
    if not _OPEN or threading.current_thread() is not threading.main_thread():
        return                  # a setup in another thread: the main thread's signals are not its own
    for block in _OPEN:
        if block.unanswered:
            block.answer()

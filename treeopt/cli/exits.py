"""Exit codes of the ``treeopt`` command, and SIGINT/SIGTERM as a request to stop and report.

========  ===============================================================================
code      meaning
========  ===============================================================================
0         done: the tree is certified optimal (or the search ran to its end: ``--solver
          greedy``, or lower-bound guessing with ``--reference``)
1         an error in the input or the options (one line on stderr names it and the fix);
          nothing was searched or written
2         the command line itself is wrong (argparse's usage message)
3         stopped by a limit (``--time-limit``, ``--cache-limit``, ``--memory-limit``) or by
          running out of memory before the tree was certified: the best tree, its gap and
          the ``--json``/``--output`` files are still written (the one-leaf tree when the
          limit or memory ran out while binarizing; nothing when ``--time-limit`` ran out
          while reading the CSV, since there are no data yet)
4         certified over guessed thresholds only (``--thresholds guess``, or ``auto`` on a
          table with more thresholds than it searches whole): the tree is optimal among the
          trees on the kept thresholds; the ``guarantee`` lines bound the distance to trees
          over all thresholds (McTavish et al. 2022, Theorem 4.1)
130, 143  stopped by SIGINT (Ctrl-C) or SIGTERM (``timeout``, ``kill``): 128 + the signal's
          number, as shells report it; the best tree, its gap and the files are still written
========  ===============================================================================

Examples
--------
>>> exit_code("optimal"), exit_code("time_limit"), exit_code("optimal_over_guessed_thresholds")
(0, 3, 4)
"""

from __future__ import annotations

import signal
import threading

from ..guessing.fitting import OPTIMAL_OVER_GUESSED_THRESHOLDS

__all__ = ["EXIT_OK", "EXIT_ERROR", "EXIT_USAGE", "EXIT_UNCERTIFIED", "EXIT_GUESSED_THRESHOLDS", "EXIT_INTERRUPTED",
           "exit_code",
           "StopSignals"]

EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_UNCERTIFIED = 3
#: Certified, but over guessed thresholds only (not over every threshold of the numeric columns).
EXIT_GUESSED_THRESHOLDS = 4
#: 128 + SIGINT; :func:`treeopt.cli.main` turns it into 143 when the signal was SIGTERM.
EXIT_INTERRUPTED = 128 + 2

#: Statuses of a search that did what was asked (certified, or a heuristic / guessed run to its end).
_DONE = ("optimal", "finished", "guessed")


def exit_code(status: str) -> int:
    """The exit code for a search that ended with ``status`` (see the module's table)."""
    if status in _DONE:
        return EXIT_OK
    if status == OPTIMAL_OVER_GUESSED_THRESHOLDS:
        return EXIT_GUESSED_THRESHOLDS
    if status == "interrupted":
        return EXIT_INTERRUPTED
    return EXIT_UNCERTIFIED


class StopSignals:
    """Context manager: SIGINT and SIGTERM raise ``KeyboardInterrupt`` and are remembered.

    SIGTERM's default action kills the process at once, losing the search; with this handler
    the solver's driver holds it until the end of a unit of work (like Ctrl-C,
    :mod:`treeopt.solvers.interrupts`), and the command prints and writes the best tree.
    A signal that is ignored when the block starts (``SIG_IGN``) is left ignored.

    Attributes
    ----------
    received : int or None
        The last signal received.
    """

    def __init__(self):
        self.received: int | None = None
        self._previous: dict = {}

    def __enter__(self) -> "StopSignals":
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGINT, getattr(signal, "SIGTERM", None)):
                # A signal the command was started with ignored (``nohup``, a shell's background job) stays
                # ignored, as Python itself leaves it.
                if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
                    self._previous[signum] = signal.signal(signum, self._stop)
        return self

    def _stop(self, signum, frame) -> None:
        self.received = signum
        raise KeyboardInterrupt(signal.Signals(signum).name)

    @property
    def name(self) -> str:
        """``"SIGTERM"``, or ``"Ctrl-C"`` (SIGINT, or no signal seen)."""
        return "SIGTERM" if self.received == getattr(signal, "SIGTERM", None) else "Ctrl-C"

    @property
    def exit_code(self) -> int:
        """128 + the signal's number (130 when no signal was seen)."""
        return 128 + (self.received or signal.SIGINT)

    def __exit__(self, *exc) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        self._previous = {}

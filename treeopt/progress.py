"""A one-line progress display for long searches, rewritten in place (terminals and Jupyter alike).

:class:`ProgressLine` is the ``progress`` callback of :meth:`treeopt.solvers.base.Solver.run`
(called about once a second); ``OptimalTreeClassifier(verbose=1)`` and the ``treeopt`` command
use it. It writes plain text with a carriage return, which a terminal and a notebook's output
area both show as one updating line.
"""

from __future__ import annotations

import sys

__all__ = ["ProgressLine"]


class ProgressLine:
    """Print a search's time, expansions, bounds, queue and cache on one updating line.

    Parameters
    ----------
    stream : file-like, optional
        Where to write (default: ``sys.stderr`` at call time).

    Examples
    --------
    >>> import io
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.solvers import GOSDT
    >>> solver = GOSDT(Dataset.from_binary(np.eye(4, dtype=int), [0, 1, 1, 0]), regularization=0.1)
    >>> stream = io.StringIO()
    >>> progress = ProgressLine(stream)
    >>> _ = solver.step(2)
    >>> progress(solver)              # what run(progress=progress) does about once a second
    >>> progress.close()
    >>> "expansions" in stream.getvalue() and stream.getvalue().endswith("\\n")
    True
    """

    def __init__(self, stream=None):
        self.stream = stream
        self.printed = False

    def _out(self):
        return sys.stderr if self.stream is None else self.stream

    def __call__(self, solver) -> None:
        # McTavish et al. section 4.3: a guessed lower bound is not a proof, so it is named as such.
        lower = "lower (guessed)" if getattr(solver, "lower_bound_guessed", False) else "lower"
        out = self._out()
        out.write(f"\r  {solver.elapsed:7.1f} s  expansions {solver.expansions:>9}  "
                  f"{lower} {solver.lower_bound:.6f}  upper {solver.upper_bound:.6f}  "
                  f"queue {solver.queue_size:>8}  cache {solver.cache_size:>9}")
        out.flush()
        self.printed = True

    def close(self) -> None:
        """End the line (if anything was printed), so later output starts on a fresh line."""
        if self.printed:
            self._out().write("\n")
            self._out().flush()
            self.printed = False

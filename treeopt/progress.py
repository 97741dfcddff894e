"""Progress displays for long searches (terminals and Jupyter alike).

Both are ``progress`` callbacks of :meth:`treeopt.solvers.base.Solver.run` (called about once a
second). :class:`ProgressLine` writes plain text with a carriage return, which a terminal and a
notebook's output area both show as one updating line; the ``treeopt`` command uses it.
:class:`TqdmProgress` is a ``tqdm`` bar (``tqdm.auto``: a widget in Jupyter, text in a terminal)
counting expansions with the bounds beside it. Both show the ``hint`` of
:class:`~treeopt.slow_certificate.SlowCertificateHint` once it is set. :func:`progress_display` picks the bar when the
optional ``tqdm`` package is installed and the line otherwise; ``OptimalTreeClassifier(verbose=1)``
uses it.
"""

from __future__ import annotations

import sys

__all__ = ["ProgressLine", "TqdmProgress", "progress_display"]


def _lower_label(solver) -> str:
    """McTavish et al. section 4.3: a guessed lower bound is not a proof, so it is named as such."""
    return "lower (guessed)" if getattr(solver, "lower_bound_guessed", False) else "lower"


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
        self.hint: str | None = None        # set by the slow-certificate hint, shown after the numbers

    def _out(self):
        return sys.stderr if self.stream is None else self.stream

    def __call__(self, solver) -> None:
        lower = _lower_label(solver)
        out = self._out()
        out.write(f"\r  {solver.elapsed:7.1f} s  expansions {solver.expansions:>9}  "
                  f"{lower} {solver.lower_bound:.6f}  upper {solver.upper_bound:.6f}  "
                  f"queue {solver.queue_size:>8}  cache {solver.cache_size:>9}"
                  + (f"  ({self.hint})" if self.hint else ""))
        out.flush()
        self.printed = True

    def close(self) -> None:
        """End the line (if anything was printed), so later output starts on a fresh line."""
        if self.printed:
            self._out().write("\n")
            self._out().flush()
            self.printed = False


class TqdmProgress:
    """A ``tqdm`` bar of a search: expansions as the count, time, bounds and gap as its postfix.

    Parameters
    ----------
    stream : file-like, optional
        Where a text bar writes (default: tqdm's, ``sys.stderr``); with a stream the bar is text
        (``tqdm.tqdm``), without one it is ``tqdm.auto`` (a widget in Jupyter).

    Examples
    --------
    >>> import io
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.solvers import GOSDT
    >>> solver = GOSDT(Dataset.from_binary(np.eye(4, dtype=int), [0, 1, 1, 0]), regularization=0.1)
    >>> stream = io.StringIO()
    >>> progress = TqdmProgress(stream)
    >>> _ = solver.step(2)
    >>> progress(solver)
    >>> progress.close()
    >>> "expansions" in stream.getvalue() and "upper=" in stream.getvalue()
    True
    """

    def __init__(self, stream=None):
        if stream is None:
            from tqdm.auto import tqdm
        else:
            from tqdm import tqdm
        self._tqdm = tqdm
        self.stream = stream
        self.bar = None
        self.hint: str | None = None        # set by the slow-certificate hint, shown in the postfix

    def __call__(self, solver) -> None:
        if self.bar is None:
            self.bar = self._tqdm(total=None, unit=" expansions", file=self.stream, dynamic_ncols=True,
                                  mininterval=0.5, desc="search")
        lower = _lower_label(solver)
        self.bar.n = int(solver.expansions)
        self.bar.set_postfix_str(f"{lower}={solver.lower_bound:.6f} upper={solver.upper_bound:.6f} "
                                 f"gap={solver.gap:.3g} queue={solver.queue_size}"
                                 + (f" ({self.hint})" if self.hint else ""), refresh=False)
        self.bar.refresh()

    def close(self) -> None:
        """Close the bar (if one was shown)."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def progress_display(stream=None):
    """The progress callback for ``verbose``: a :class:`TqdmProgress` bar if ``tqdm`` is installed,
    else a :class:`ProgressLine`.

    Examples
    --------
    >>> type(progress_display()).__name__ in ("TqdmProgress", "ProgressLine")
    True
    """
    try:
        import tqdm  # noqa: F401  (optional: pip install tqdm)
    except ImportError:
        return ProgressLine(stream)
    return TqdmProgress(stream)

"""The hint of a search that has not certified in good time: which settings shrink it, and why.

A newcomer's first fit is often a small table of numeric columns at a small λ without a depth
budget. Every threshold of every column is a binary feature, and without a depth budget the
search ranges over trees of any shape on them: it may run for minutes without a certificate,
while ``depth_budget=3`` certifies at once (the depth-two and depth-three subsolvers answer such a
budget directly). Nothing in a silent search says so; this hint does.

:class:`SlowCertificateHint` is a progress callback of :meth:`treeopt.solvers.base.Solver.run`
(called about once a second) wrapped around the ``verbose`` display, if any. When no certificate
has come within ``max(HINT_AFTER_SECONDS, HINT_SHARE_OF_TIME_LIMIT × time_limit)`` of the start
of ``fit`` it warns once with :class:`SlowCertificateWarning`, naming the data's size and the
settings that help, and shows a short form in the progress line. It stays silent with a depth
budget of at most :data:`SHALLOW_DEPTH` (the budget it would suggest) and when the search
certifies in time.
"""

from __future__ import annotations

import time
import warnings

__all__ = ["SlowCertificateWarning", "SlowCertificateHint", "HINT_AFTER_SECONDS", "HINT_SHARE_OF_TIME_LIMIT",
           "SHALLOW_DEPTH", "clock"]

#: Seconds without a certificate before the hint (unless the time limit makes it later).
HINT_AFTER_SECONDS = 5.0
#: With a ``time_limit``, the hint waits at least this share of it: a user who allowed an hour
#: expects a long search and is told later.
HINT_SHARE_OF_TIME_LIMIT = 0.1
#: The depth budget the hint suggests; with this budget or a smaller one it is not issued.
SHALLOW_DEPTH = 3
#: The threshold cap per numeric column the hint suggests.
SUGGESTED_MAX_THRESHOLDS = 8
#: The λ the hint suggests beside a threshold cap or guessed thresholds when λ = 0 (which needs every
#: threshold); also its "larger regularization" at λ = 0.
SUGGESTED_REGULARIZATION = 0.001


class SlowCertificateWarning(UserWarning):
    """The search has not certified its tree in good time; the message names settings that help.

    Unlike ``ConvergenceWarning`` it does not mean the search stopped: it is issued while the
    search still runs (or once it ended uncertified), at most once per ``fit``.
    """


def clock() -> float:
    """The time the hint measures (``time.perf_counter``), looked up at call time."""
    return time.perf_counter()


class SlowCertificateHint:
    """Progress callback of a ``fit``: forward to ``display`` and warn once if the certificate is late.

    Parameters
    ----------
    time_limit : float or None
        The fit's ``time_limit``: the hint waits at least :data:`HINT_SHARE_OF_TIME_LIMIT` of it.
    depth_budget : int or None
        The fit's ``depth_budget``: at most :data:`SHALLOW_DEPTH` and the hint is never issued.
    regularization : float
        λ, named in the message.
    display : callable, optional
        The ``verbose`` progress display (:func:`treeopt.progress.progress_display`); its ``hint``
        attribute receives the short form.

    Attributes
    ----------
    message : str or None
        The warning's text once it was issued.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.solvers import GOSDT
    >>> solver = GOSDT(Dataset.from_binary(np.eye(4, dtype=int), [0, 1, 1, 0]), regularization=0.1)
    >>> hint = SlowCertificateHint(time_limit=None, depth_budget=None, regularization=0.1)
    >>> hint.after
    5.0
    >>> hint.started -= 60                  # as if the fit had started a minute ago
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     hint(solver)                     # what run(progress=hint) does about once a second
    ...     hint(solver)                     # once per fit
    >>> [type(w.message).__name__ for w in caught]
    ['SlowCertificateWarning']
    >>> "depth_budget=3" in hint.message
    True
    """

    def __init__(self, *, time_limit: float | None, depth_budget: int | None, regularization: float,
                 display=None):
        self.time_limit = time_limit
        self.depth_budget = depth_budget
        self.regularization = regularization
        self.display = display
        self.started = clock()
        self.message: str | None = None

    @property
    def after(self) -> float:
        """Seconds from the start of ``fit`` after which an uncertified search gets the hint."""
        if self.time_limit is None:
            return HINT_AFTER_SECONDS
        return max(HINT_AFTER_SECONDS, HINT_SHARE_OF_TIME_LIMIT * float(self.time_limit))

    @property
    def applies(self) -> bool:
        """False with a depth budget the hint would not improve on."""
        return self.depth_budget is None or self.depth_budget > SHALLOW_DEPTH

    def __call__(self, solver) -> None:
        self.check(solver)
        if self.display is not None:
            self.display(solver)

    def check(self, solver, result=None) -> None:
        """Warn once if ``solver`` (or its final ``result``) is uncertified after :attr:`after` seconds.

        A finished result that certified (``optimal``), ran a heuristic to its end (``finished``)
        or completed with lower-bound guesses (``guessed``) gets no hint.
        """
        if self.message is not None or not self.applies:
            return
        if result is not None and (result.optimal or result.status in ("finished", "guessed")):
            return
        elapsed = clock() - self.started
        if elapsed < self.after:
            return
        self.message = self._message(solver, elapsed)
        warnings.warn(self.message, SlowCertificateWarning, stacklevel=2)
        if self.display is not None:
            self.display.hint = self._short(solver)
            if result is not None:
                self.display(solver)             # the final line shows the hint too

    def suggestions(self, solver) -> list[tuple[dict, str]]:
        """The settings that shrink this search, each as ``(settings, reason)``.

        Every suggestion is a valid fit as it stands: ``max_thresholds`` and ``thresholds='guess'``
        binarize the numeric columns, which only a positive λ allows (λ = 0, the most accurate
        tree, is the continuous solver's and takes every threshold), so at λ = 0 they come with a
        small λ. At λ = 0 with the errors certified (gap 0) and the fewest leaves not yet proved, the
        first is ``tie_break="any"``, which certifies the errors only.
        """
        out = [({"depth_budget": SHALLOW_DEPTH},
                f"trees of depth at most {SHALLOW_DEPTH}; the depth-two and depth-three subsolvers answer such "
                "a budget directly")]
        dataset = solver.dataset
        sorted_columns = getattr(dataset, "columns", None)
        if sorted_columns is not None:                   # the continuous solver: every threshold, sorted
            n_thresholds = sorted_columns.n_thresholds
            guessed = False
        else:
            binarizer = getattr(dataset, "binarizer", None)
            features = getattr(binarizer, "features_", None) or []
            n_thresholds = sum(getattr(feature, "kind", None) == "threshold" for feature in features)
            guessed = type(binarizer).__name__ == "ThresholdGuessBinarizer"
        zero = self.regularization == 0
        with_lambda = {"regularization": SUGGESTED_REGULARIZATION} if zero else {}
        also = "; the small λ because λ = 0 takes every threshold" if zero else ""
        if n_thresholds and not guessed:
            out.append(({"max_thresholds": SUGGESTED_MAX_THRESHOLDS, **with_lambda},
                        f"at most {SUGGESTED_MAX_THRESHOLDS} threshold features per numeric column; there are "
                        f"{n_thresholds} thresholds now{also}"))
            out.append(({"thresholds": "guess", **with_lambda},
                        "only the thresholds a boosted reference model uses, McTavish et al. 2022 section 4.1; "
                        f"guarantee_ reports Theorem 4.1{also}"))
        if zero and getattr(solver, "tie_break", None) == "fewest_leaves" and solver.gap == 0:
            # The errors are certified: the proof that no tree as accurate has fewer leaves is what is left.
            out.insert(0, ({"solver_options": {"tie_break": "any"}},
                           "the tree's errors are already certified (gap 0); what is left is the proof that no "
                           "tree as accurate has fewer leaves, which 'any' does not ask"))
        larger = SUGGESTED_REGULARIZATION if zero else self.regularization * 2
        out.append(({"regularization": larger},
                    f"a larger regularization (λ={self.regularization:g} now: a leaf must correct a fraction λ of "
                    "the rows, so a larger λ allows fewer leaves)"))
        return out

    @staticmethod
    def _setting(settings: dict) -> str:
        return " with ".join(f"{name}={value!r}" for name, value in settings.items())

    def _suggestions(self, solver) -> list[str]:
        """The suggestions as text: each setting and, in parentheses, why it helps."""
        return [f"{self._setting(settings)} ({reason})" for settings, reason in self.suggestions(solver)]

    def _message(self, solver, elapsed: float) -> str:
        dataset = solver.dataset
        budget = "no depth budget" if self.depth_budget is None else f"depth_budget={self.depth_budget}"
        sorted_columns = getattr(dataset, "columns", None)
        if sorted_columns is not None:
            searched = f"{sorted_columns.n_columns} numeric columns (every threshold, as sorted values)"
        else:
            searched = f"{dataset.n_features} binary features"
        return (f"no certificate after {elapsed:.0f} s: the search over {dataset.n_rows} rows and {searched} "
                f"with {budget} has not yet proved its tree optimal (gap {solver.gap:.3g}). Settings that shrink "
                "the search: " + "; ".join(self._suggestions(solver)) + ".")

    def _short(self, solver) -> str:
        names = [suggestion.split(" (")[0] for suggestion in self._suggestions(solver)[:-1]]
        return "slow to certify? try " + ", ".join(names)

"""``treeopt.rashomon_set``: every near-optimal tree of a table, built by the Rashomon search.

The front end of :mod:`treeopt.rashomon`: it validates its settings and hands the table to
:func:`treeopt.make_solver` (which encodes it as for every front end), then builds the set
in one go (:class:`~treeopt.rashomon.search.RashomonGraph`) or step by step under a time limit or a
progress display (:class:`~treeopt.rashomon.stepwise.RashomonSearch`, which returns the part it
proved when stopped). It sits above both, so that the result type and the stepwise search do not
import each other's caller.
"""

from __future__ import annotations

import math
import warnings
from numbers import Integral, Real

from sklearn.exceptions import ConvergenceWarning

from .building import make_solver
from .data import Dataset
from .progress import progress_display
from .rashomon.rashomon_set import RashomonSet
from .rashomon.views import SetView

__all__ = ["rashomon_set"]


def rashomon_set(X, y=None, *, regularization: float, epsilon: float | None = None, bound: float | None = None,
                 sample_weight=None, objective="accuracy", thresholds: str = "all", max_thresholds: int | None = None,
                 missing: str = "error", classes=None, time_limit: float | None = None,
                 verbose: int = 0) -> RashomonSet:
    """Every tree with objective ≤ ``(1 + epsilon) R*`` (or ≤ ``bound``), counted exactly and indexed.

    Parameters
    ----------
    X : DataFrame, array_like or Dataset
        Any table (binarized as by :class:`~treeopt.OptimalTreeClassifier`: 0/1 columns stay, categorical
        columns one-hot, numeric columns thresholded), or a prepared :class:`~treeopt.data.Dataset` (then no ``y``).
    y : array_like of shape (n_rows,)
    regularization : float
        λ, the objective cost of one leaf (> 0).
    epsilon : float, optional
        Relative slack: keep trees within ``(1 + epsilon)`` times the optimum (TreeFARMS's
        ``rashomon_bound_multiplier``); a finite number >= 0.
    bound : float, optional
        Absolute objective bound (give exactly one of ``epsilon`` and ``bound``).
    sample_weight : array_like, optional
        Non-negative row weights (integer weights keep the counts' losses exact integers).
    objective : str, default="accuracy"
        An additive objective: ``"accuracy"``, ``"balanced_accuracy"`` or ``"weighted_accuracy"``.
    thresholds : {"all", "quantile"}, default="all"
        How numeric columns are binarized (:func:`treeopt.encoding.fit_binarizer`). Guessed
        thresholds (``"guess"``, and ``"auto"``, which may guess) are refused: they would change
        which trees exist.
    max_thresholds, missing
        Binarization, as for the estimator.
    classes : array_like, optional
    time_limit : float, optional
        Seconds for the search (:class:`~treeopt.rashomon.stepwise.RashomonSearch`). A search stopped
        by it, or by Ctrl-C, returns the part of the set proved so far, with ``complete=False`` and
        ``status`` saying why (see :meth:`RashomonSearch.partial_set
        <treeopt.rashomon.stepwise.RashomonSearch.partial_set>`), and a ``ConvergenceWarning``.
    verbose : int, default=0
        Above 0, show the search's progress (a bar, or one updating line; :mod:`treeopt.progress`).

    Returns
    -------
    RashomonSet

    Examples
    --------
    >>> from treeopt.datasets import load_monk
    >>> X, y = load_monk(1)
    >>> rs = rashomon_set(X, y, regularization=0.05, epsilon=0.05)
    >>> len(rs) >= 1, rs.objective_at(0) == rs.optimum, rs.complete
    (True, True, True)
    >>> rashomon_set(X, y, regularization=0.05, epsilon=0.05, time_limit=60).count == rs.count
    True
    """
    if (epsilon is None) == (bound is None):
        raise ValueError("give exactly one of epsilon= (relative to the optimum) or bound= (absolute)")
    _check_number("regularization", regularization, " > 0 (the objective cost of one leaf, e.g. 0.05)",
                  lambda v: v > 0)
    if epsilon is not None:
        _check_number("epsilon", epsilon, " >= 0 (the relative slack, e.g. 0.05)", lambda v: v >= 0)
    if bound is not None:
        _check_number("bound", bound, " (an objective value, e.g. 0.3)", lambda v: True)
    if time_limit is not None:
        _check_number("time_limit", time_limit, " of seconds > 0, or None", lambda v: v > 0)
    if isinstance(verbose, bool) or not isinstance(verbose, Integral) or verbose < 0:
        raise ValueError(f"verbose must be an integer >= 0, got {verbose!r}.")
    settings = dict(solver="rashomon", regularization=regularization, objective=objective,
                    solver_options={"epsilon": epsilon, "bound": bound})
    if isinstance(X, Dataset):
        if y is not None or sample_weight is not None:
            raise ValueError("with a Dataset, give neither y nor sample_weight: the dataset holds them.")
        search = make_solver(X, None, **settings)
    else:
        if y is None:
            raise ValueError("rashomon_set needs y (the labels) unless X is a treeopt Dataset.")
        if thresholds in ("guess", "auto"):
            raise ValueError(f"thresholds={thresholds!r} is not available for Rashomon sets (guessed thresholds "
                             "would change which trees exist); use 'all' or 'quantile'.")
        # The raw table goes to the builder, which encodes it by the policy every front end shares.
        search = make_solver(X, y, sample_weight=sample_weight, classes=classes, thresholds=thresholds,
                             max_thresholds=max_thresholds, missing=missing, **settings)
    if time_limit is None and not verbose:
        graph = search.graph                   # the whole set in one go, without the stepwise bookkeeping
        optimum = graph.optimum()
        limit = (1 + epsilon) * optimum if bound is None else float(bound)
        graph.solve_root(limit)
        return RashomonSet(graph, SetView(graph, limit), optimum, epsilon)
    progress = progress_display() if verbose else None
    try:
        search.run(time_limit=time_limit, progress=progress)
    finally:
        if progress is not None:
            progress.close()
    found = search.partial_set()
    if not found.complete:
        warnings.warn(f"the Rashomon search stopped ({found.status}) before the end: the set holds the "
                      f"{found.count} trees proved so far (complete=False). Raise time_limit for the whole set.",
                      ConvergenceWarning, stacklevel=2)
    return found


def _check_number(name: str, value, wanted: str, valid) -> None:
    """Refuse a parameter that is not a finite real number satisfying ``valid`` (NaN included), naming it."""
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value) or not valid(value):
        raise ValueError(f"{name} must be a finite number{wanted}; got {value!r}.")

"""``fit_frontier``: one frontier search on a table, built by :func:`treeopt.make_solver`.

It binarizes the table by the encoding policy (:func:`treeopt.encoding.fit_binarizer`), builds the
:class:`~treeopt.frontier.search.FrontierSearch` through the one builder, runs it and returns its
:class:`~treeopt.frontier.result.Frontier`. It sits above the builder (which registers the search),
so the frontier's search and result stay below it.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from ..binarize import BinarizationTimeout, binarization_deadline
from ..building import make_solver
from ..data import Dataset
from ..encoding import fit_binarizer, no_feature_binarizer
from ..solvers.base import check_cache_limit
from .result import Frontier

__all__ = ["fit_frontier", "DEFAULT_MAX_LEAVES"]

#: The largest tree of a frontier without a depth budget, unless ``max_leaves`` says otherwise.
DEFAULT_MAX_LEAVES = 20


def fit_frontier(X, y=None, max_leaves: int | None = None, *, objective="accuracy", omega: float | None = None,
                 min_regularization: float | None = None, sample_weight=None, time_limit: float | None = None,
                 cache_limit: int | None = None,
                 X_test=None, y_test=None,
                 thresholds: str = "auto", max_thresholds: int | None = None, missing: str = "error",
                 random_state=None, depth_budget: int | None = None):
    """Every minimum-loss tree with up to ``max_leaves`` leaves, and the λ range of each (one search).

    :func:`treeopt.frontier` calls it, or cross-validates it with ``cv=``.

    Parameters
    ----------
    X, y, max_leaves, objective, omega, min_regularization, sample_weight, time_limit, cache_limit, X_test, y_test, thresholds, max_thresholds, missing, random_state, depth_budget
        As for :func:`treeopt.frontier` (which documents them), without its cross-validation.

    Returns
    -------
    Frontier

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C (held to the end of a unit of work): its ``frontier`` attribute is the
        frontier found so far, and ``frontier.search.run()`` resumes the search.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> y = np.array([0, 1, 1, 0] * 5)                   # XOR
    >>> front = fit_frontier(X, y, max_leaves=5)
    >>> front.table["leaves"].tolist(), front.complete
    ([1, 3, 4], True)
    """
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise ValueError(f"time_limit must be positive seconds or None, got {time_limit!r}.")
    setup_stopped = None
    if isinstance(X, Dataset):
        if y is not None:
            raise ValueError("pass either a Dataset (with y=None) or X and y, not both.")
        dataset = X
    else:
        if y is None:
            raise ValueError("y is required (the labels), unless X is a treeopt Dataset.")
        try:
            with binarization_deadline(time_limit):     # a long binarization stops at time_limit
                binarizer = fit_binarizer(X, y, thresholds=thresholds, max_thresholds=max_thresholds,
                                          missing=missing, random_state=random_state, sample_weight=sample_weight)
                dataset = Dataset.from_arrays(X, y, sample_weight=sample_weight, binarizer=binarizer)
        except BinarizationTimeout as stopped:
            # As the estimators do: keep the single leaf (the search sees no binary feature), never run
            # the search (it would call that leaf optimal), and mark it uncertified.
            setup_stopped = str(stopped)
            dataset = Dataset.from_arrays(X, y, sample_weight=sample_weight,
                                          binarizer=no_feature_binarizer(X, missing))
    if depth_budget is not None and (isinstance(depth_budget, bool) or not isinstance(depth_budget, (int, np.integer))
                                     or depth_budget < 0):
        raise ValueError(f"depth_budget must be a non-negative integer or None, got {depth_budget!r}.")
    if max_leaves is None:
        max_leaves = DEFAULT_MAX_LEAVES if depth_budget is None else 2 ** depth_budget
    check_cache_limit(cache_limit)
    if (X_test is None) != (y_test is None):
        raise ValueError("give both X_test and y_test, or neither.")
    search = make_solver(dataset, None, solver="frontier", regularization=None, objective=objective, omega=omega,
                         depth_budget=depth_budget,
                         solver_options={"max_leaves": max_leaves, "min_regularization": min_regularization})
    if setup_stopped is not None:
        front = Frontier(search, setup_stopped=setup_stopped)
        warnings.warn(f"{setup_stopped} The frontier holds only the single leaf, uncertified (its certified "
                      "column is False).", ConvergenceWarning, stacklevel=3)
        if X_test is not None:
            front.evaluate(X_test, y_test, "test")
        return front
    search.run(time_limit=time_limit, cache_limit=cache_limit)
    front = Frontier(search)
    if search.status == "interrupted":
        # Ctrl-C stops the caller too (a loop of frontiers, a script), as it does for ``fit``; the
        # frontier found so far travels with the exception, so nothing is lost.
        error = KeyboardInterrupt(
            f"frontier interrupted: certified up to {search.certified_leaves} leaves. The frontier so far is "
            "this exception's .frontier (its certified column says what is proven); "
            ".frontier.search.run() resumes the search.")
        error.frontier = front
        raise error
    if X_test is not None:
        front.evaluate(X_test, y_test, "test")
    return front

"""``fit_frontier``: one frontier search on a table, built by :func:`treeopt.make_solver`.

It hands the table to the one builder, which encodes it by the policy every front end shares
(:func:`treeopt.encoding.fit_binarizer`) and builds the
:class:`~treeopt.frontier.search.FrontierSearch`; then it runs the search and returns its
:class:`~treeopt.frontier.result.Frontier`. :func:`fold_frontier` does the same for one fold of the
cross-validated frontier, which :func:`treeopt.cross_validate_frontier` hands to the fold loop of
:mod:`treeopt.frontier.cross_validation`. It is a front end beside :mod:`treeopt.frontiers`, above the
builder (which registers the search), so the frontier package's search, result and fold loop stay below it.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning

from .binarize import BinarizationTimeout, binarization_deadline
from .building import make_solver
from .data import Dataset
from .encoding import no_feature_binarizer
from .frontier.result import Frontier
from .memory import parse_memory_limit
from .setup_signals import SetupSignals
from .solvers.base import Solver, check_cache_limit

__all__ = ["build_frontier_search", "fit_frontier", "fold_frontier", "run_frontier", "DEFAULT_MAX_LEAVES",
           "SETUP_INTERRUPTED"]

#: The largest tree of a frontier without a depth budget, unless ``max_leaves`` says otherwise.
DEFAULT_MAX_LEAVES = 20

#: A fold search started at or past the deadline still gets this many seconds (for its first, coarsest trees).
_LEAST_SECONDS = 0.01

#: Where a frontier stopped by Ctrl-C before its search stopped (``Frontier.setup_stopped``).
SETUP_INTERRUPTED = ("Ctrl-C (KeyboardInterrupt) stopped the frontier while it was setting up (binarizing the "
                     "table, guessing thresholds or building the dataset), before any search.")


def fit_frontier(X, y=None, max_leaves: int | None = None, *, objective="accuracy", omega: float | None = None,
                 min_regularization: float | None = None, sample_weight=None, time_limit: float | None = None,
                 cache_limit: int | None = None, memory_limit: int | str | None = None,
                 X_test=None, y_test=None,
                 thresholds: str = "auto", max_thresholds: int | None = None, missing: str = "error",
                 random_state=None, depth_budget: int | None = None):
    """Every minimum-loss tree with up to ``max_leaves`` leaves, and the λ range of each (one search).

    :func:`treeopt.frontier` calls it, or cross-validates it with ``cv=``.

    Parameters
    ----------
    X, y, max_leaves, objective, omega, min_regularization, sample_weight, time_limit, cache_limit, memory_limit, X_test, y_test, thresholds, max_thresholds, missing, random_state, depth_budget
        As for :func:`treeopt.frontier` (which documents them), without its cross-validation.

    Returns
    -------
    Frontier

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C (held to the end of a unit of work): its ``frontier`` attribute is the
        frontier found so far, and ``frontier.search.run()`` resumes the search. A Ctrl-C
        during the setup (binarizing) is answered at once: its ``frontier`` holds the single
        leaf, uncertified, with ``setup_stopped`` saying so (nothing to resume).

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
    if depth_budget is not None and (isinstance(depth_budget, bool) or not isinstance(depth_budget, (int, np.integer))
                                     or depth_budget < 0):
        raise ValueError(f"depth_budget must be a non-negative integer or None, got {depth_budget!r}.")
    if max_leaves is None:
        max_leaves = DEFAULT_MAX_LEAVES if depth_budget is None else 2 ** depth_budget
    check_cache_limit(cache_limit)
    memory_limit = parse_memory_limit(memory_limit)
    if (X_test is None) != (y_test is None):
        raise ValueError("give both X_test and y_test, or neither.")
    search, setup_stopped = build_frontier_search(
        X, y, max_leaves, objective=objective, omega=omega, min_regularization=min_regularization,
        sample_weight=sample_weight, thresholds=thresholds, max_thresholds=max_thresholds, missing=missing,
        random_state=random_state, depth_budget=depth_budget, setup_time_limit=time_limit, memory_limit=memory_limit)
    return run_frontier(search, setup_stopped=setup_stopped, time_limit=time_limit, cache_limit=cache_limit,
                        memory_limit=memory_limit, X_test=X_test, y_test=y_test)


def build_frontier_search(X, y=None, max_leaves: int = DEFAULT_MAX_LEAVES, *, objective="accuracy",
                          omega: float | None = None, min_regularization: float | None = None, sample_weight=None,
                          thresholds: str = "auto", max_thresholds: int | None = None, missing: str = "error",
                          random_state=None, depth_budget: int | None = None,
                          setup_time_limit: float | None = None,
                          memory_limit: int | str | None = None) -> tuple[Solver, str | None]:
    """The frontier search on a table (not yet run), built by :func:`treeopt.make_solver`, and why its setup
    stopped (None when it did not).

    The table goes to ``make_solver`` as it is: the builder encodes it, as it does for every front end.
    A binarization that outlasts ``setup_time_limit`` seconds stops (as the estimators' does); the search
    is then built on no feature at all, holding the single leaf, and the reason is returned. A Ctrl-C during the setup raises ``KeyboardInterrupt`` whose ``frontier`` attribute is
    that single leaf's :class:`~treeopt.frontier.result.Frontier` (``search.status`` ``interrupted``,
    ``setup_stopped`` saying where), as :func:`run_frontier` does for a Ctrl-C during the search.

    Parameters
    ----------
    X, y, max_leaves, objective, omega, min_regularization, sample_weight, thresholds, max_thresholds, missing, random_state, depth_budget
        As for :func:`treeopt.frontier`.
    setup_time_limit : float, optional
        Seconds the binarization may take (None: no limit).
    memory_limit : int or str, optional
        The process's resident memory cap (bytes or a string such as ``"2GB"``): a binarized table
        that would push the process past it is refused with a ``ValueError`` before it is built, by
        :func:`treeopt.make_solver`'s check, as for the estimators. The search's own check is
        :func:`run_frontier`'s ``memory_limit``.

    Returns
    -------
    (FrontierSearch, str or None)

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> search, stopped = build_frontier_search(X, np.array([0, 1, 1, 0] * 5), max_leaves=5)
    >>> search.name, search.dataset.n_features, stopped
    ('frontier', 2, None)
    """
    settings = dict(solver="frontier", regularization=None, objective=objective, omega=omega, depth_budget=depth_budget,
                    memory_limit=memory_limit, solver_options={"max_leaves": max_leaves, "min_regularization": min_regularization})
    if isinstance(X, Dataset):
        if y is not None:
            raise ValueError("pass either a Dataset (with y=None) or X and y, not both.")
        return make_solver(X, None, **settings), None
    if y is None:
        raise ValueError("y is required (the labels), unless X is a treeopt Dataset.")

    def single_leaf() -> Solver:
        """The search over no binary feature (the setup stopped): it holds the single leaf."""
        return make_solver(X, y, sample_weight=sample_weight, missing=missing,
                           binarizer=no_feature_binarizer(X, missing), **settings)

    try:
        # A long binarization stops at the time limit; a Ctrl-C is answered at once, and again at the
        # setup's next checkpoint if a finalizer swallowed it (treeopt/setup_signals.py).
        with SetupSignals(), binarization_deadline(setup_time_limit):
            return make_solver(X, y, sample_weight=sample_weight, thresholds=thresholds,
                               max_thresholds=max_thresholds, missing=missing, random_state=random_state,
                               **settings), None
    except BinarizationTimeout as stopped:
        # As the estimators do: keep the single leaf (the search sees no binary feature); the caller never
        # runs the search (it would call that leaf optimal) and marks it uncertified.
        return single_leaf(), str(stopped)
    except KeyboardInterrupt:
        # As a Ctrl-C during the search does (run_frontier): the frontier known so far, here the single
        # leaf, uncertified, travels with the exception, which still stops the caller.
        search = single_leaf()
        error = KeyboardInterrupt(f"{SETUP_INTERRUPTED} The frontier holds only the single leaf, uncertified: "
                                  "it is this exception's .frontier; call frontier() again to search.")
        error.frontier = Frontier(search, setup_stopped=SETUP_INTERRUPTED)
        search.status = "interrupted"           # stopped, never run: run() would call the leaf optimal
        raise error from None


def run_frontier(search: Solver, *, setup_stopped: str | None = None, time_limit: float | None = None,
                 cache_limit: int | None = None, memory_limit: int | str | None = None, X_test=None,
                 y_test=None) -> Frontier:
    """Run a frontier search (:func:`build_frontier_search`) and return its :class:`~treeopt.frontier.result.Frontier`.

    A search whose setup stopped (``setup_stopped``, the reason) is not run: its frontier holds the
    single leaf, uncertified, with a ``ConvergenceWarning``. ``time_limit``, ``cache_limit`` and
    ``memory_limit`` are the driver's (:meth:`treeopt.solvers.base.Solver.run`): a search stopped by
    one keeps its certified points, with ``search.status`` naming the limit (``"memory_limit"`` for
    the process's resident memory), and ``search.run()`` resumes it.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> search, _ = build_frontier_search(X, np.array([0, 1, 1, 0] * 5), max_leaves=5)
    >>> run_frontier(search).table["leaves"].tolist()
    [1, 3, 4]
    """
    if setup_stopped is not None:
        front = Frontier(search, setup_stopped=setup_stopped)
        search.status = "time_limit"            # stopped, never run: run() would call the leaf optimal
        warnings.warn(f"{setup_stopped} The frontier holds only the single leaf, uncertified (its certified "
                      "column is False).", ConvergenceWarning, stacklevel=4)
        if X_test is not None:
            front.evaluate(X_test, y_test, "test")
        return front
    search.run(time_limit=time_limit, cache_limit=cache_limit, memory_limit=memory_limit)
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


def fold_frontier(X, y, sample_weight, settings: dict, deadline: float | None = None) -> tuple[Frontier, float]:
    """One fold's frontier (built by :func:`treeopt.make_solver` and run), and the seconds its setup took.

    The builder that :func:`treeopt.cross_validate_frontier` hands to the fold loop
    (:func:`treeopt.frontier.cross_validation.cross_validate_folds`); it runs in a worker.
    ``settings`` are :func:`fit_frontier`'s keyword arguments. With a ``deadline`` (a ``time.time()``)
    the setup (guessing thresholds, binarizing) stops at it, and the fold then holds the single leaf,
    uncertified (its rows are never chosen); the search stops at the deadline, or after
    ``settings["time_limit"]`` seconds, whichever comes first; the setup seconds are then measured (0
    without a deadline).

    Parameters
    ----------
    X, y, sample_weight
        The fold's training rows, labels and weights (None: unweighted).
    settings : dict
        ``max_leaves``, ``objective``, ``omega``, ``min_regularization``, ``time_limit``, ``cache_limit``,
        ``memory_limit`` (optional: None when absent), ``thresholds``, ``max_thresholds``, ``missing`` and
        ``random_state``, as for :func:`fit_frontier`. Each worker process checks its own resident memory
        against ``memory_limit``.
    deadline : float, optional
        A ``time.time()`` by which the search stops.

    Returns
    -------
    (Frontier, float)

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> settings = dict(max_leaves=5, objective="accuracy", omega=None, min_regularization=None, time_limit=None,
    ...                 cache_limit=None, thresholds="auto", max_thresholds=None, missing="error", random_state=None)
    >>> front, setup = fold_frontier(X, np.array([0, 1, 1, 0] * 5), None, settings)
    >>> front.table["leaves"].tolist(), setup
    ([1, 3, 4], 0.0)
    """
    if deadline is None:
        return fit_frontier(X, y, sample_weight=sample_weight, **settings), 0.0
    start = time.perf_counter()
    building = {name: settings[name] for name in ("max_leaves", "objective", "omega", "min_regularization",
                                                   "thresholds", "max_thresholds", "missing", "random_state")}
    memory_limit = settings.get("memory_limit")
    # The setup (guessing thresholds, binarizing) keeps to the deadline too: a fold whose setup runs out
    # holds the single leaf, uncertified, and its rows are never chosen.
    search, stopped = build_frontier_search(X, y, sample_weight=sample_weight,
                                            setup_time_limit=max(deadline - time.time(), _LEAST_SECONDS),
                                            memory_limit=memory_limit, **building)
    setup = time.perf_counter() - start
    if stopped is not None:
        return run_frontier(search, setup_stopped=stopped), setup
    remaining = max(deadline - time.time(), _LEAST_SECONDS)
    limit = settings["time_limit"]
    front = run_frontier(search, time_limit=remaining if limit is None else min(limit, remaining),
                         cache_limit=settings["cache_limit"], memory_limit=memory_limit)
    return front, setup

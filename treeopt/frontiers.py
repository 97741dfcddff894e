"""``treeopt.frontier``: the accuracy–sparsity frontier of a table, or its cross-validation.

The front end of :mod:`treeopt.frontier`: one search (:func:`treeopt.frontier_fitting.fit_frontier`)
or, with ``cv=``, one per fold scored on the held-out rows (:func:`cross_validate_frontier`, which hands
the fold loop :func:`treeopt.frontier.cross_validation.cross_validate_folds` the builder of one fold,
:func:`treeopt.frontier_fitting.fold_frontier`). It sits above both, so that building a search through
:func:`treeopt.make_solver` runs down the layers and the frontier package imports no caller.
"""

from __future__ import annotations

from .data import Dataset
from .frontier.cross_validation import CVFrontier, cross_validate_folds
from .frontier_fitting import DEFAULT_MAX_LEAVES, fit_frontier, fold_frontier

__all__ = ["frontier", "cross_validate_frontier"]


def frontier(X, y=None, max_leaves: int | None = None, *, objective="accuracy", omega: float | None = None,
             min_regularization: float | None = None, sample_weight=None, time_limit: float | None = None,
             cache_limit: int | None = None, memory_limit: int | str | None = None,
             X_test=None, y_test=None,
             thresholds: str = "auto", max_thresholds: int | None = None, missing: str = "error",
             random_state=None, cv=None, n_jobs: int | None = None, scoring=None, groups=None,
             depth_budget: int | None = None):
    """Every minimum-loss tree with up to ``max_leaves`` leaves, and the λ range of each.

    Parameters
    ----------
    X : array_like, DataFrame or Dataset
        Training table (numeric, binary or categorical columns; binarized as by
        :class:`~treeopt.OptimalTreeClassifier`), or a ready :class:`~treeopt.Dataset`
        (then ``y`` must be None).
    y : array_like, optional
        Labels.
    max_leaves : int, optional
        The largest tree on the frontier. Default: 20 leaves, or ``2 ** depth_budget`` (every tree
        of that depth) with a depth budget.
    objective : str or Objective, default="accuracy"
        Any additive objective.
    omega : float, optional
        For ``"weighted_accuracy"``.
    min_regularization : float, optional
        Only λ at or above this value matter: the search certifies the trees
        that are optimal for some such λ and skips the rest of the Pareto
        front (GOSDT-like pruning at this λ; much faster on larger data).
    sample_weight : array_like, optional
    time_limit : float, optional
        Seconds. A stopped search keeps the certified part of the frontier
        and marks the rest uncertified (``certified`` column).
    cache_limit : int, optional
        A memory cap: stop once the search's memo holds more than this many
        subproblems (``search.cache_size``); the frontier is then incomplete
        as with ``time_limit``.
    memory_limit : int or str, optional
        A cap on the whole process's resident memory, in bytes or as a string such as ``"2GB"``
        (:mod:`treeopt.memory`), as :class:`~treeopt.OptimalTreeClassifier`'s: a binarized table that
        would exceed it is refused before the search, and a search that exceeds it stops with
        ``search.status`` ``"memory_limit"``, keeping the certified part of the frontier as with
        ``time_limit`` (``frontier.search.run()`` resumes it). Checked at most every
        ``treeopt.solvers.base.MEMORY_CHECK_SECONDS``.
    X_test, y_test : optional
        Held-out data: adds a ``test_accuracy`` column.
    thresholds : {"auto", "all", "quantile", "guess"}, default="auto"
        How numeric columns are binarized, as by :class:`~treeopt.OptimalTreeClassifier`
        (:func:`treeopt.encoding.fit_binarizer`): ``"auto"`` keeps every threshold up to
        :data:`treeopt.encoding.AUTO_MAX_THRESHOLDS` of them and guesses them above
        (McTavish et al. 2022, section 4.1); the frontier is then exact over the guessed ones.
    max_thresholds : int, optional
        Cap on threshold features per numeric column (``"all"``/``"quantile"``).
    missing : {"error", "indicator"}, default="error"
        Missing values (NaN, None): refused, or an ``x is missing`` feature per column with
        them (see :class:`~treeopt.Binarizer`).
    random_state : int, RandomState or None, default=None
        Seed of the boosted model that guesses thresholds (``"guess"``, or ``"auto"`` on many thresholds).
    cv : int, cross-validation splitter or iterable, optional
        Cross-validate the frontier instead (one frontier per fold, scored on the held-out
        rows, plus the frontier on all the data): the same as
        :func:`~treeopt.cross_validate_frontier` with these arguments, returning its
        :class:`~treeopt.CVFrontier`.
    n_jobs, scoring, groups : optional
        With ``cv`` only: parallel jobs, the held-out score and group labels (see
        :func:`~treeopt.cross_validate_frontier`).

    depth_budget : int, optional
        Keep only trees of depth at most this. The frontier then reaches its λ = 0 end: its last
        point is the most accurate tree of that depth (fewest leaves on ties; ``lambda_min`` 0),
        the tree of ``OptimalTreeClassifier(regularization=0, depth_budget=d)``, and
        ``tree_for(regularization=0)`` returns it. Without a depth budget the frontier ends at
        ``max_leaves`` leaves: its last point is certified down to λ = 0 only when it reaches the
        equivalent-points loss (no tree with more leaves does better), and λ = 0 is refused otherwise.

    Returns
    -------
    Frontier, or CVFrontier with ``cv``

    Warns
    -----
    ConvergenceWarning
        When ``time_limit`` runs out while binarizing ``X``, before any search: the frontier holds
        the single leaf only, uncertified (``certified`` False), as the estimators keep it.

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C (held to the end of a unit of work): its ``frontier`` attribute is the
        frontier found so far, and ``frontier.search.run()`` resumes the search. A Ctrl-C
        while binarizing ``X``, before any search, is answered at once: its ``frontier`` then
        holds the single leaf only, uncertified (``certified`` False), with ``setup_stopped``
        saying where it stopped and ``search.status`` ``"interrupted"``; call ``frontier``
        again to search.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> y = np.array([0, 1, 1, 0] * 5)                   # XOR
    >>> front = frontier(X, y, max_leaves=5)
    >>> print(front.table[["leaves", "accuracy", "lambda_min", "lambda_max", "on_hull"]].round(4).to_string())
       leaves  accuracy  lambda_min  lambda_max  on_hull
    0       1      0.50      0.1667         inf     True
    1       3      0.75         NaN         NaN    False
    2       4      1.00      0.0000      0.1667     True

    With a depth budget the last point is the most accurate tree of that depth (λ = 0):

    >>> y = np.array([0, 1, 1, 1] * 5)
    >>> y[:3] = [1, 1, 0]                                # an OR with three labels moved
    >>> front = frontier(X, y, depth_budget=2)
    >>> print(front.table[["leaves", "accuracy", "lambda_min", "lambda_max"]].round(4).to_string())
       leaves  accuracy  lambda_min  lambda_max
    0       1      0.75       0.075         inf
    1       3      0.90       0.000       0.075
    >>> front.tree_for(regularization=0).n_leaves
    3
    """
    if cv is not None:
        if depth_budget is not None:
            raise ValueError("depth_budget applies to a single frontier; cross-validated frontiers keep trees of "
                             "every depth. Leave depth_budget=None with cv=..., or drop cv.")
        if max_leaves is None:
            max_leaves = DEFAULT_MAX_LEAVES
        if X_test is not None or y_test is not None or isinstance(X, Dataset):
            raise ValueError("with cv=..., pass the table X and labels y only (the folds give the held-out "
                             "rows; X_test/y_test and ready Datasets are for a single frontier).")
        return cross_validate_frontier(X, y, cv, max_leaves=max_leaves, objective=objective, omega=omega,
                                       min_regularization=min_regularization, sample_weight=sample_weight,
                                       groups=groups, scoring=scoring, time_limit=time_limit,
                                       cache_limit=cache_limit, memory_limit=memory_limit, thresholds=thresholds,
                                       max_thresholds=max_thresholds, missing=missing, random_state=random_state,
                                       n_jobs=n_jobs)
    if n_jobs is not None or scoring is not None or groups is not None:
        raise ValueError("n_jobs, scoring and groups apply to a cross-validated frontier: add cv=5 (or a splitter).")
    return fit_frontier(X, y, max_leaves=max_leaves, objective=objective, omega=omega,
                        min_regularization=min_regularization, sample_weight=sample_weight, time_limit=time_limit,
                        cache_limit=cache_limit, memory_limit=memory_limit, X_test=X_test, y_test=y_test,
                        thresholds=thresholds,
                        max_thresholds=max_thresholds, missing=missing, random_state=random_state,
                        depth_budget=depth_budget)


def cross_validate_frontier(X, y, cv=5, *, max_leaves: int = 20, objective="accuracy", omega: float | None = None,
                            min_regularization: float | None = None, sample_weight=None, groups=None,
                            scoring=None, time_limit: float | None = None, cache_limit: int | None = None,
                            memory_limit: int | str | None = None, thresholds: str = "auto", max_thresholds: int | None = None, missing: str = "error",
                            random_state=None, refit: bool = True,
                            n_jobs: int | None = None, proba_smoothing: float = 0.0,
                            deadline: float | None = None) -> CVFrontier:
    """One frontier per fold, scored on held-out rows and aggregated per λ interval and per leaf budget.

    Parameters
    ----------
    X : array_like or DataFrame of shape (n_samples, n_features)
        As for :func:`~treeopt.frontier`; binarized inside each fold, on the
        fold's training rows only.
    y : array_like of shape (n_samples,)
    cv : int, cross-validation splitter or iterable, default=5
        As scikit-learn's ``cv`` (an int means ``StratifiedKFold(cv)``).
    max_leaves : int, default=20
    objective : str, default="accuracy"
        Any additive objective (``"accuracy"``, ``"balanced_accuracy"``, ``"weighted_accuracy"``).
    omega : float, optional
        For ``"weighted_accuracy"``.
    min_regularization : float, optional
        Only λ at or above this value matter (see :func:`~treeopt.frontier`).
    sample_weight : array_like, optional
        Weights for fitting and for scoring.
    groups : array_like, optional
        Group labels for a group splitter.
    scoring : str or callable, optional
        A scikit-learn scorer name or ``scorer(estimator, X, y)``; default accuracy.
    time_limit : float, optional
        Seconds per fold (each search has its own limit).
    cache_limit : int, optional
        Memo subproblems per fold.
    memory_limit : int or str, optional
        A cap on the process's resident memory (bytes or a string such as ``"2GB"``), as for
        :func:`~treeopt.frontier`, checked by each fold's search (and each fold's binarization) in
        the process that runs it: with ``n_jobs`` worker processes, each process checks its own.
        A fold stopped by it has status ``"memory_limit"`` and keeps its certified rows.
    thresholds : {"auto", "all", "quantile", "guess"}, default="auto"
        How numeric columns are binarized, inside each fold on its training rows, by the policy
        every front end shares (:func:`treeopt.encoding.fit_binarizer`).
    max_thresholds : int, optional
        Cap on threshold features per numeric column.
    missing : {"error", "indicator"}, default="error"
        Missing values: refused, or an ``x is missing`` feature (see :class:`~treeopt.Binarizer`).
    random_state : int, RandomState or None, default=None
        Seed of the boosted model that guesses thresholds (``"guess"``, or ``"auto"`` on many thresholds).
    refit : bool, default=True
        Also compute the frontier on all the data (one more job): its trees
        are what the chosen λ selects (:meth:`~treeopt.CVFrontier.tree_for`).
    n_jobs : int, optional
        Jobs run in parallel by joblib (None: 1, or what
        ``joblib.parallel_config`` sets, e.g. a Dask cluster).
    proba_smoothing : float, default=0.0
        Smoothing of ``predict_proba`` for probability scorers.
    deadline : float, optional
        A ``time.time()`` by which every search stops (or after ``time_limit``
        seconds of its own, whichever comes first). Binarizing is not cut
        short by it (with ``time_limit`` alone it is), and a search that
        starts at or past it still gets a moment for its first trees. :class:`~treeopt.OptimalTreeClassifierCV`
        bounds its whole ``fit`` with it.

    Returns
    -------
    CVFrontier

    Warns
    -----
    ConvergenceWarning
        When a fold's search stopped at its limit (its uncertified rows are flagged).

    Raises
    ------
    KeyboardInterrupt
        On Ctrl-C in a job's search or setup (in this process): its ``frontier`` attribute is
        that job's frontier so far, as :func:`~treeopt.frontier` gives it.

    Examples
    --------
    >>> from treeopt.datasets import load_monk
    >>> X, y = load_monk(1)
    >>> from sklearn.model_selection import KFold
    >>> cvf = cross_validate_frontier(X, y, cv=KFold(3, shuffle=True, random_state=0), max_leaves=8)
    >>> columns = ["lambda_min", "lambda_max", "leaves", "mean_leaves", "mean_test_score", "certified"]
    >>> print(cvf.table[columns].round(4).to_string())
       lambda_min  lambda_max  leaves  mean_leaves  mean_test_score  certified
    0      0.2674         inf       1       1.0000           0.4537       True
    1      0.2500      0.2674       1       1.3333           0.5255       True
    2      0.2188      0.2500       2       1.3333           0.5255       True
    3      0.1944      0.2188       2       1.6667           0.6296       True
    4      0.0542      0.1944       2       2.0000           0.7500       True
    5      0.0521      0.0542       2       3.6667           0.8194       True
    6      0.0500      0.0521       2       5.3333           0.8958       True
    7      0.0438      0.0500       7       5.3333           0.8958       True
    8      0.0000      0.0438       7       7.0000           1.0000       True

    Rows 6 and 7 score the same (the folds keep their trees), but on row 6
    the data as a whole already takes a 2-leaf tree while the folds' trees
    have 5.3 leaves on average: were 0.8958 the best score, row 7 would be
    chosen, whose 7-leaf tree is the kind that earned it.

    >>> int(cvf.best_index), cvf.tree_for(cvf.best_regularization).n_leaves
    (8, 7)
    """
    return cross_validate_folds(fold_frontier, X, y, cv, max_leaves=max_leaves, objective=objective, omega=omega,
                                min_regularization=min_regularization, sample_weight=sample_weight, groups=groups,
                                scoring=scoring, time_limit=time_limit, cache_limit=cache_limit,
                                memory_limit=memory_limit, thresholds=thresholds, max_thresholds=max_thresholds, missing=missing,
                                random_state=random_state, refit=refit, n_jobs=n_jobs,
                                proba_smoothing=proba_smoothing, deadline=deadline)

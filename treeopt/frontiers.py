"""``treeopt.frontier``: the accuracy–sparsity frontier of a table, or its cross-validation.

The front end of :mod:`treeopt.frontier`: one search (:func:`treeopt.frontier.fitting.fit_frontier`)
or, with ``cv=``, one per fold scored on the held-out rows
(:func:`treeopt.frontier.cross_validation.cross_validate_frontier`). It sits above both, so that
neither imports the other's caller.
"""

from __future__ import annotations

from .data import Dataset
from .frontier.cross_validation import cross_validate_frontier
from .frontier.fitting import DEFAULT_MAX_LEAVES, fit_frontier

__all__ = ["frontier"]


def frontier(X, y=None, max_leaves: int | None = None, *, objective="accuracy", omega: float | None = None,
             min_regularization: float | None = None, sample_weight=None, time_limit: float | None = None,
             cache_limit: int | None = None,
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
        frontier found so far, and ``frontier.search.run()`` resumes the search.

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
                                       cache_limit=cache_limit, thresholds=thresholds,
                                       max_thresholds=max_thresholds, missing=missing, random_state=random_state,
                                       n_jobs=n_jobs)
    if n_jobs is not None or scoring is not None or groups is not None:
        raise ValueError("n_jobs, scoring and groups apply to a cross-validated frontier: add cv=5 (or a splitter).")
    return fit_frontier(X, y, max_leaves=max_leaves, objective=objective, omega=omega,
                        min_regularization=min_regularization, sample_weight=sample_weight, time_limit=time_limit,
                        cache_limit=cache_limit, X_test=X_test, y_test=y_test, thresholds=thresholds,
                        max_thresholds=max_thresholds, missing=missing, random_state=random_state,
                        depth_budget=depth_budget)

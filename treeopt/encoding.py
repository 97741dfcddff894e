"""How numeric columns become binary features: the ``thresholds`` policy every front end shares.

Every exact search in treeopt runs over binary features, so a numeric column
becomes threshold features ``x <= t``. ``thresholds="all"`` keeps every
midpoint between consecutive distinct values: the search is then exact for
the original columns, but its cost grows with the number of features (GOSDT's
subproblems are sets of rows reached through features). ``"guess"`` keeps the
thresholds a boosted reference model uses (McTavish et al., *Fast Sparse
Decision Tree Optimization via Reference Ensembles*, AAAI 2022, section 4.1),
with the distance to trees over all thresholds bounded by its Theorem 4.1.

``thresholds="auto"`` (:func:`auto_thresholds`) is the encoding the searches
handle best: ``"all"`` up to :data:`AUTO_MAX_THRESHOLDS` threshold features,
where the search over every threshold certifies and the answer is exact for
the original columns; above it, ``"guess"``, where the search over all of them
rarely finishes. With a depth budget on an all-numeric table, ``solver="auto"``
has a better answer above that count (:func:`auto_sorted_values`): every
threshold, with the numeric columns kept as sorted values for the continuous
solver, which needs no binary table and so stays exact and small in memory
where a binary search over every threshold runs away. The estimator
(:class:`~treeopt.OptimalTreeClassifier` through :func:`~treeopt.make_solver`), :func:`~treeopt.frontier`,
:func:`~treeopt.cross_validate_frontier`, :class:`~treeopt.OptimalTreeClassifierCV`
and :func:`~treeopt.rashomon_set` all fit their binarizer with
:func:`fit_binarizer`, so the same data gets the same features everywhere.
"""

from __future__ import annotations

import numpy as np

from .binarize import Binarizer

__all__ = ["AUTO_MAX_THRESHOLDS", "THRESHOLD_OPTIONS", "auto_sorted_values", "auto_thresholds", "fit_binarizer",
           "no_feature_binarizer"]

#: With ``thresholds="auto"``, more threshold features than this are guessed (section 4.1) instead of all kept.
AUTO_MAX_THRESHOLDS = 256

#: The values of every front end's ``thresholds`` parameter.
THRESHOLD_OPTIONS = ("auto", "all", "quantile", "guess")


def auto_thresholds(n_threshold_features: int, *, max_thresholds: int | None = None,
                    missing: str = "error") -> str:
    """What ``thresholds="auto"`` means for a table with this many threshold features over all midpoints.

    ``"all"`` up to :data:`AUTO_MAX_THRESHOLDS`; above, ``"guess"``, unless
    the caller capped the thresholds itself (``max_thresholds``) or asked for
    missing-value indicators, which the boosted reference model of the guess
    refuses: then ``"all"`` (within the cap).

    Parameters
    ----------
    n_threshold_features : int
        Threshold features of ``thresholds="all"`` (with ``max_thresholds`` applied).
    max_thresholds : int, optional
    missing : {"error", "indicator"}, default="error"

    Returns
    -------
    str
        ``"all"`` or ``"guess"``.

    Examples
    --------
    >>> auto_thresholds(30), auto_thresholds(15310), auto_thresholds(15310, max_thresholds=20)
    ('all', 'guess', 'all')
    """
    if n_threshold_features <= AUTO_MAX_THRESHOLDS or max_thresholds is not None or missing != "error":
        return "all"
    return "guess"


def auto_sorted_values(n_thresholds: int) -> bool:
    """Whether ``thresholds="auto"`` (or ``"all"``) under ``solver="auto"`` with a depth budget keeps an
    all-numeric table's columns as sorted values (the continuous solver) instead of binary features.

    True above :data:`AUTO_MAX_THRESHOLDS` thresholds over all midpoints: there a search over a binary
    feature per threshold grows with their count (its memo holds a row set per subproblem reached
    through them), while the continuous solver's memory is its sorted columns (Brița, van der Linden
    and Demirović, *Optimal Classification Trees for Continuous Feature Data Using Dynamic Programming
    with Branch-and-Bound*, AAAI 2025, section 3) and its interval bounds skip runs of thresholds
    (section 4.2). So the threshold count that makes the binary encoding guess
    (:func:`auto_thresholds`) is the one that hands the table to the continuous solver, which keeps
    every threshold and its exact certificate. Up to that count
    GOSDT over the binary table is the faster of the two, most of all at depth four
    (``benchmarks/results_continuous.md``).

    Parameters
    ----------
    n_thresholds : int
        Thresholds between adjacent distinct values, summed over the numeric columns of more than two
        values (a two-valued column is one binary feature in either encoding).

    Returns
    -------
    bool

    Examples
    --------
    >>> auto_sorted_values(134), auto_sorted_values(AUTO_MAX_THRESHOLDS), auto_sorted_values(1263)
    (False, False, True)
    """
    return n_thresholds > AUTO_MAX_THRESHOLDS


def fit_binarizer(table, y, *, thresholds: str = "auto", max_thresholds: int | None = None,
                  missing: str = "error", random_state=None, sample_weight=None) -> Binarizer:
    """The fitted binarizer of a front end's ``thresholds``, ``max_thresholds`` and ``missing`` options.

    Parameters
    ----------
    table : array_like or DataFrame of shape (n_samples, n_features)
    y : array_like of shape (n_samples,)
        Labels (the guessed thresholds come from a model of them).
    thresholds : {"auto", "all", "quantile", "guess"}, default="auto"
        ``"auto"``: see :func:`auto_thresholds`.
    max_thresholds : int, optional
        Cap on threshold features per numeric column (``"all"``/``"quantile"``).
    missing : {"error", "indicator"}, default="error"
        Missing values refused, or an ``x is missing`` feature per column with them.
    random_state : int, RandomState or None, default=None
        Seed of the boosted reference model of ``"guess"``.
    sample_weight : array_like, optional
        Rows of zero weight place no thresholds.

    Returns
    -------
    Binarizer
        Fitted; a :class:`~treeopt.ThresholdGuessBinarizer` when the thresholds are guessed.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"x": range(8)})
    >>> y = [0, 0, 0, 1, 1, 1, 0, 0]
    >>> fit_binarizer(X, y, thresholds="guess", random_state=0).get_feature_names_out().tolist()
    ['x <= 2.5', 'x <= 5.5']
    >>> fit_binarizer(X, y).get_feature_names_out().tolist()[:2]        # "auto": 7 thresholds, all kept
    ['x <= 0.5', 'x <= 1.5']
    """
    if thresholds not in THRESHOLD_OPTIONS:
        raise ValueError(f"thresholds must be one of {', '.join(map(repr, THRESHOLD_OPTIONS))}, got {thresholds!r}.")
    if thresholds == "auto":
        every = fit_binarizer(table, y, thresholds="all", max_thresholds=max_thresholds, missing=missing,
                              sample_weight=sample_weight)
        n_thresholds = sum(feature.kind == "threshold" for feature in every.features_)
        if auto_thresholds(n_thresholds, max_thresholds=max_thresholds, missing=missing) == "all":
            return every
        return fit_binarizer(table, y, thresholds="guess", missing=missing, random_state=random_state,
                             sample_weight=sample_weight)
    if thresholds == "guess":
        if max_thresholds is not None:
            raise ValueError("max_thresholds caps 'all'/'quantile' thresholds; with thresholds='guess' the "
                             "column elimination chooses the count: leave max_thresholds=None.")
        if missing != "error":
            raise ValueError("thresholds='guess' cannot be combined with missing='indicator': the boosted "
                             "reference model refuses missing values. Use thresholds='all' or 'quantile', "
                             "or impute X first.")
        from .guessing.thresholds import ThresholdGuessBinarizer      # the guessing layer builds on this one

        return ThresholdGuessBinarizer(random_state=random_state).fit(table, y, sample_weight=sample_weight)
    if sample_weight is not None:
        # Rows of zero weight do not exist for the model, so they do not place thresholds either
        # (else a zero weight and a removed row would give different candidate splits).
        keep = np.asarray(sample_weight) > 0
        if 0 < keep.sum() < len(keep):
            table = table.iloc[keep] if hasattr(table, "iloc") else np.asarray(table)[keep]
    return Binarizer(thresholds=thresholds, max_thresholds=max_thresholds, missing=missing).fit(table)


def no_feature_binarizer(X, missing: str = "error") -> Binarizer:
    """A binarizer of ``X``'s columns that keeps no binary feature: a search over it has only the single leaf.

    What a fit (and :func:`treeopt.frontier`) falls back on when ``time_limit`` runs out while binarizing
    (:class:`~treeopt.binarize.BinarizationTimeout`): the estimator still returns a tree, the
    single leaf, with status ``time_limit``, and predicts from any table with ``X``'s columns.
    It reads one row of ``X`` (the columns' names and kinds), whatever ``X``'s size.

    Examples
    --------
    >>> import pandas as pd
    >>> binarizer = no_feature_binarizer(pd.DataFrame({"age": [30.5, 41.0], "city": ["Oslo", "Rome"]}))
    >>> binarizer.features_, binarizer.n_features_in_, binarizer.transform(pd.DataFrame({"age": [1.0], "city": ["x"]})).shape
    ([], 2, (1, 0))
    """
    first = X.iloc[:1] if hasattr(X, "iloc") else np.asarray(X)[:1]
    binarizer = Binarizer(missing=missing).fit(first)
    binarizer.features_ = []
    return binarizer

"""``OptimalTreeClassifierCV``: an optimal tree whose λ is chosen by cross-validating the frontier."""

from __future__ import annotations

import math
import time
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.metrics import get_scorer_names
from sklearn.model_selection import check_cv
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import check_is_fitted, validate_data

from .binarize import table_input_tags
from .encoding import THRESHOLD_OPTIONS
from .estimator import OptimalTreeClassifier, check_fit_input
from .fitted_tree import FittedTreeMixin
from .frontiers import cross_validate_frontier
from .objectives import get_objective

__all__ = ["OptimalTreeClassifierCV"]

class OptimalTreeClassifierCV(FittedTreeMixin, ClassifierMixin, BaseEstimator):
    """Optimal sparse tree with λ chosen by cross-validation over the accuracy–sparsity frontier.

    Like scikit-learn's ``LassoCV`` and ``LogisticRegressionCV``: ``fit``
    computes one frontier per fold (:func:`~treeopt.cross_validate_frontier`),
    which gives every fold's optimal tree for *every* λ at once, scores them on
    the fold's held-out rows, picks λ (best mean score, or the one-standard-error
    rule), and keeps the :class:`~treeopt.OptimalTreeClassifier` with that λ on
    all the data. The frontier on all the data already holds that estimator's
    optimal tree (the same binarizer, objective and weights): when it certifies
    λ, its tree is the refit, without binarizing or searching again.

    Parameters
    ----------
    cv : int, cross-validation splitter or iterable, default=None
        Folds, as scikit-learn's ``cv``: None means 5, an int ``StratifiedKFold(cv)``.
    scoring : str or callable, default=None
        A scikit-learn scorer name or ``scorer(estimator, X, y)``; None: accuracy.
    n_jobs : int, default=None
        Folds searched in parallel by joblib (each in its own process with the
        default backend). None: 1, unless a ``joblib.parallel_config`` context
        (for example ``backend="dask"``) says otherwise.
    max_leaves : int, default=20
        Largest tree on each fold's frontier: λ below what this cap certifies
        is never chosen (``split<i>_status == "max_leaves"`` in ``cv_results_``).
    min_regularization : float, optional
        Only λ at or above this value are considered (faster searches; see
        :func:`~treeopt.frontier`).
    selection : {"best", "one_se"}, default="best"
        ``"best"``: the λ with the best mean score; ``"one_se"``: the sparsest
        score within one standard error of the best. Among the λ intervals of
        that score, the one where the tree on all the data has as many leaves
        as the folds' trees (the sparsest on ties): the refit is then the kind
        of tree the score was earned by (``CVFrontier.best_index``).
    objective : {"accuracy", "balanced_accuracy", "weighted_accuracy"}, default="accuracy"
        The (additive) training objective of every search.
    omega : float, optional
        Weight of false negatives for ``"weighted_accuracy"``.
    time_limit : float, optional
        Seconds for the whole ``fit``: the folds' searches and the frontier on
        all the data share it (each search runs at most ``time_limit / (waves +
        1)``, where ``waves`` is how many rounds of ``n_jobs`` parallel searches
        they take, and none past ``time_limit``; a fold whose setup, guessing
        thresholds or binarizing, reaches ``time_limit`` holds the single leaf
        and is never chosen). The last share is the refit's: it is needed only
        when the frontier on all the data does not certify the chosen λ (its
        search stopped at its share, or at ``max_leaves``); the refit then gets
        what is left of ``time_limit``, and with nothing left (or when the refit
        stops with a worse tree) the frontier's best tree at that λ is kept,
        uncertified, with ``status_`` ``"time_limit"``. ``fit`` ends within about
        a second of ``time_limit``.
    cache_limit : int, optional
        Memory cap per search (entries of its memo).
    memory_limit : int or str, optional
        A cap on the process's resident memory, in bytes or as a string such as
        ``"2GB"`` (:mod:`treeopt.memory`), as :class:`~treeopt.OptimalTreeClassifier`'s:
        every fold's search, the frontier on all the data and the refit check it
        (with ``n_jobs`` worker processes, each process its own), a binarized table
        that would exceed it is refused before its search, and a search that
        exceeds it stops, keeping its certified rows (``split<i>_status``
        ``"memory_limit"``; such rows are never chosen).
    thresholds : {"auto", "all", "quantile", "guess"}, default="auto"
        How numeric columns are binarized, inside each fold on its training
        rows and for the refit, by the policy every front end shares
        (:func:`treeopt.encoding.fit_binarizer`): ``"auto"`` keeps every
        threshold up to :data:`treeopt.encoding.AUTO_MAX_THRESHOLDS` and
        guesses them above (McTavish et al. 2022, section 4.1), as
        :class:`~treeopt.OptimalTreeClassifier` does.
    max_thresholds : int, optional
        Cap on threshold features per numeric column.
    missing : {"error", "indicator"}, default="error"
        Missing values (NaN, None): refused, or an ``x is missing`` feature per column with them,
        in the folds and the refit (as :class:`~treeopt.OptimalTreeClassifier`'s ``missing``).
    proba_smoothing : float, default=0.0
        Laplace smoothing of ``predict_proba`` (for the refit tree and for
        probability scorers).
    random_state : int, RandomState or None, default=None
        Seed of the boosted model that guesses thresholds (``"guess"``, or
        ``"auto"`` on many thresholds), in the folds and the refit.

    Attributes
    ----------
    regularization_ : float
        The chosen λ.
    cv_results_ : dict of ndarray
        One entry per interval of λ on which every fold keeps the same tree
        (sparsest first): ``params``, ``param_regularization``,
        ``lambda_min``, ``lambda_max``, ``leaves`` (of the tree on all the
        data: the refit's), ``mean_leaves`` (of the folds' trees),
        ``mean_test_score``,
        ``std_test_score``, ``rank_test_score`` (0 for uncertified rows),
        ``certified``, ``split<i>_test_score``, ``split<i>_leaves``,
        ``split<i>_status`` (``"optimal"``, or why fold ``i``'s tree is not
        certified for this λ: ``"time_limit"``, ``"cache_limit"``, ``"memory_limit"``,
        ``"max_leaves"``, ``"min_regularization"``).
    best_index_ : int
        Index of the chosen entry of ``cv_results_``.
    best_score_ : float
        Its mean score.
    frontier_ : CVFrontier
        The cross-validated frontier (tables per λ interval and per number of
        leaves, each fold's trees, the frontier on all the data, a plot).
    best_estimator_ : OptimalTreeClassifier
        Fitted on all the data with ``regularization=regularization_``: every fitted
        attribute is what a fresh ``fit`` gives (its tree may be another among equally
        good ones, with the same predictions). When the frontier on all the data
        certified that λ, its tree is kept and no search ran (``n_steps_`` 0, an
        empty ``trace_``).
    tree_ : Tree
        ``best_estimator_.tree_``. ``apply``, ``decision_path``, ``get_depth``, ``get_n_leaves``,
        ``n_leaves_`` and ``feature_importances_`` read it as scikit-learn's trees do
        (:class:`~treeopt.fitted_tree.FittedTreeMixin`), like ``best_estimator_``'s.
    status_, optimal_ : str, bool
        The refit search's status (``"optimal_over_guessed_thresholds"`` and ``optimal_`` False when
        ``thresholds="auto"`` guessed the thresholds: certified over the guessed ones only).
    thresholds_, guarantee_ : str, dict
        The refit's binarization (what ``"auto"`` chose) and what its guesses guarantee, as
        :class:`~treeopt.OptimalTreeClassifier` reports them.
    classes_ : ndarray
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` had string column names.
    n_splits_ : int

    See Also
    --------
    treeopt.cross_validate_frontier : The cross-validated frontier itself.
    treeopt.OptimalTreeClassifier : The estimator for a fixed λ.

    Examples
    --------
    >>> from sklearn.model_selection import KFold
    >>> from treeopt.datasets import load_monk
    >>> X, y = load_monk(1)
    >>> clf = OptimalTreeClassifierCV(cv=KFold(3, shuffle=True, random_state=0), max_leaves=8).fit(X, y)
    >>> round(clf.regularization_, 4), clf.tree_.n_leaves, clf.optimal_, clf.score(X, y)
    (0.0219, 7, True, 1.0)
    >>> clf.cv_results_["mean_test_score"][clf.best_index_], clf.cv_results_["split0_status"][0]
    (np.float64(1.0), 'optimal')
    """

    _parameter_constraints = {
        "cv": ["cv_object"],
        "scoring": [StrOptions(set(get_scorer_names())), callable, None],
        "n_jobs": [Integral, None],
        "max_leaves": [Interval(Integral, 1, None, closed="left")],
        "min_regularization": [Interval(Real, 0, 1, closed="left"), None],
        "selection": [StrOptions({"best", "one_se"})],
        "objective": [StrOptions({"accuracy", "balanced_accuracy", "weighted_accuracy"})],
        "omega": [Interval(Real, 0, None, closed="neither"), None],
        "time_limit": [Interval(Real, 0, None, closed="neither"), None],
        "cache_limit": [Interval(Integral, 1, None, closed="left"), None],
        "memory_limit": [Interval(Integral, 1, None, closed="left"), str, None],
        "thresholds": [StrOptions(set(THRESHOLD_OPTIONS))],
        "max_thresholds": [Interval(Integral, 1, None, closed="left"), None],
        "missing": [StrOptions({"error", "indicator"})],
        "proba_smoothing": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
    }

    def __init__(self, *, cv=None, scoring=None, n_jobs: int | None = None, max_leaves: int = 20,
                 min_regularization: float | None = None, selection: str = "best", objective: str = "accuracy",
                 omega: float | None = None, time_limit: float | None = None, cache_limit: int | None = None,
                 memory_limit: int | str | None = None, thresholds: str = "auto", max_thresholds: int | None = None, missing: str = "error",
                 proba_smoothing: float = 0.0, random_state=None):
        self.cv = cv
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.max_leaves = max_leaves
        self.min_regularization = min_regularization
        self.selection = selection
        self.objective = objective
        self.omega = omega
        self.time_limit = time_limit
        self.cache_limit = cache_limit
        self.memory_limit = memory_limit
        self.thresholds = thresholds
        self.max_thresholds = max_thresholds
        self.missing = missing
        self.proba_smoothing = proba_smoothing
        self.random_state = random_state

    def fit(self, X, y, sample_weight=None, groups=None):
        """Cross-validate the frontier on ``(X, y)``, choose λ, and refit on all of it.

        Parameters
        ----------
        X : array_like or DataFrame of shape (n_samples, n_features)
            Numeric, binary or categorical columns (NaN only with ``missing="indicator"``).
        y : array_like of shape (n_samples,)
        sample_weight : array_like of shape (n_samples,), optional
            Used by every search and by the scorer.
        groups : array_like of shape (n_samples,), optional
            Group labels for a group splitter (``GroupKFold``).

        Returns
        -------
        self
        """
        started, wall_start = time.monotonic(), time.time()
        table, y = check_fit_input(self, X, y)
        cv = check_cv(5 if self.cv is None else self.cv, y, classifier=True)
        encoding = dict(objective=self.objective, omega=self.omega, cache_limit=self.cache_limit,
                        memory_limit=self.memory_limit,
                        thresholds=self.thresholds, max_thresholds=self.max_thresholds, missing=self.missing,
                        random_state=self.random_state)
        cvf = cross_validate_frontier(table, y, cv=cv, max_leaves=self.max_leaves,
                                      min_regularization=self.min_regularization, sample_weight=sample_weight,
                                      groups=groups, scoring=self.scoring, n_jobs=self.n_jobs,
                                      proba_smoothing=self.proba_smoothing, refit=True,
                                      time_limit=self._search_time_limit(cv.get_n_splits(table, y, groups)),
                                      deadline=None if self.time_limit is None else wall_start + self.time_limit,
                                      **encoding)
        self.frontier_ = cvf
        self.n_splits_ = cvf.n_splits
        self.best_index_ = cvf.best_index if self.selection == "best" else cvf.one_se_index
        self.regularization_ = min(1.0, cvf.regularization(self.selection))
        self.cv_results_ = cvf.cv_results()
        self.best_score_ = float(self.cv_results_["mean_test_score"][self.best_index_])
        refit = self._refit(table, y, sample_weight, cvf, started, encoding)
        cvf.full.dataset = None             # kept by best_estimator_ while it needs it, not pickled with frontier_
        self.best_estimator_ = refit
        self.tree_ = refit.tree_
        self.status_ = refit.status_
        self.optimal_ = refit.optimal_
        self.thresholds_ = refit.thresholds_
        self.guarantee_ = refit.guarantee_
        return self

    def _refit(self, table, y, sample_weight, cvf, started: float, encoding: dict) -> OptimalTreeClassifier:
        """The estimator on all the data at the chosen λ.

        The frontier on all the data holds the optimum for every λ it certifies, over the binarizer a
        refit would learn, with the same objective and weights: when it certifies the chosen λ, its
        tree is the refit, kept without binarizing or searching again. Otherwise (its search stopped at
        ``time_limit`` or ``max_leaves`` before that λ) an :class:`~treeopt.OptimalTreeClassifier` is
        fitted, within what is left of ``time_limit``; with nothing left, or when that fit stops with a
        worse tree, the frontier's best tree at that λ is kept, uncertified.
        """
        lam = self.regularization_
        full = cvf.full
        row, certified = full.row_for(lam)
        certified = certified and bool(full.table["certified"].iat[row]) and full.dataset is not None
        tree = full.trees[row]
        objective = float(full.table["loss"].iat[row] + lam * full.table["leaves"].iat[row])
        settings = dict(regularization=lam, proba_smoothing=self.proba_smoothing, **encoding)
        if certified:
            return OptimalTreeClassifier(time_limit=self.time_limit, **settings)._fit_found_tree(
                table, y, sample_weight, full.dataset, tree, objective=objective, lower_bound=objective,
                status="optimal")
        left = None if self.time_limit is None else self.time_limit - (time.monotonic() - started)
        if left is None or left > 0:
            refit = OptimalTreeClassifier(time_limit=left, **settings).fit(table, y, sample_weight=sample_weight)
            if refit.optimal_ or refit.status_ == "optimal_over_guessed_thresholds" or full.dataset is None \
                    or refit.objective_ <= objective:
                return refit
            status = refit.status_
        else:
            status = "time_limit"
        kept = OptimalTreeClassifier(time_limit=self.time_limit, **settings)
        if full.dataset is None:            # the frontier's setup stopped too: the single leaf is all there is
            kept._store_setup_stop(table, y, sample_weight, "time_limit", "time_limit ran out before the refit "
                                   "on all the data, and the frontier on all the data stopped while setting up.")
            return kept
        # What every tree is proved to cost at λ: the equivalent-points loss (GOSDT Theorem B.9) and one leaf.
        model = get_objective(self.objective, omega=self.omega).loss_model(full.dataset)
        floor = model.to_objective(model.equivalent_points(full.dataset.all_points)) + lam
        return kept._fit_found_tree(table, y, sample_weight, full.dataset, tree, objective=objective,
                                    lower_bound=min(floor, objective), status=status)

    def _search_time_limit(self, n_splits: int) -> float | None:
        """Seconds for each frontier search so that the folds, the frontier on all the data and the refit fit
        in ``time_limit``: the ``n_splits + 1`` searches run in waves of ``n_jobs``, and the refit is one wave more."""
        if self.time_limit is None:
            return None
        from joblib import effective_n_jobs

        waves = math.ceil((n_splits + 1) / max(1, effective_n_jobs(self.n_jobs)))
        return self.time_limit / (waves + 1)

    def _checked(self, X):
        check_is_fitted(self, "best_estimator_")
        X_checked = validate_data(self, X, dtype=None, ensure_all_finite=False, reset=False)
        return X if isinstance(X, pd.DataFrame) else X_checked

    def _tree_input(self, X) -> tuple:
        """(data, binarized) for the refit tree, as ``best_estimator_`` reads ``X``."""
        return self.best_estimator_._tree_input(self._checked(X))

    def predict(self, X) -> np.ndarray:
        """Predicted label of each row (by the refit tree)."""
        X = self._checked(X)
        return self.best_estimator_.predict(X)

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of the leaf each row reaches (by the refit tree)."""
        X = self._checked(X)
        return self.best_estimator_.predict_proba(X)

    def __sklearn_tags__(self):
        return table_input_tags(super().__sklearn_tags__(), "error")

"""``OptimalTreeClassifier``: the scikit-learn estimator around the stepwise solvers."""

from __future__ import annotations

import dataclasses
import time
import warnings
from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from .binarize import BinarizationTimeout, as_frame, binarization_deadline, table_input_tags
from .building import SETTINGS, check_labels, check_unbounded_zero_regularization, make_solver, no_feature_binarizer
from .fitted_tree import FittedTreeMixin
from .guessing.fitting import guarantee_report
from .guessing.thresholds import ThresholdGuessBinarizer
from .input_validation import validate_fit_input, validate_predict_input
from .objectives import get_objective
from .progress import progress_display
from .regularization import DEFAULT_REGULARIZATION
from .setup_signals import SetupSignals
from .slow_certificate import SlowCertificateHint
from .solvers.base import trace_frame
from .solvers.records import SearchResult
from .tree import Tree

__all__ = ["OptimalTreeClassifier"]

def check_fit_input(estimator, X, y):
    """Validate the parameters and ``(X, y)`` for ``fit`` as scikit-learn does; set ``classes_``; return ``(table, y)``.

    ``_validate_params()`` checks the settings against ``_parameter_constraints``;
    :func:`~treeopt.input_validation.validate_fit_input` checks ``(X, y)`` and records
    ``n_features_in_`` and ``feature_names_in_``; the labels must be classes (``check_labels``,
    then scikit-learn's ``check_classification_targets``: a continuous ``y`` is an "Unknown label
    type"). ``table`` is ``X`` itself when it is a DataFrame (its columns name the splits), else the
    validated array. Shared by :class:`OptimalTreeClassifier` and ``OptimalTreeClassifierCV``.

    Examples
    --------
    >>> check_fit_input(OptimalTreeClassifier(), [[0.0], [1.0], [2.0]], [0.5, 1.5, 2.5])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Unknown label type: continuous...
    """
    estimator._validate_params()
    # a setting error, refused before the data's
    check_unbounded_zero_regularization(getattr(estimator, "regularization", None),
                                        getattr(estimator, "depth_budget", None))
    table, y = validate_fit_input(estimator, X, y)
    check_labels(y)
    check_classification_targets(y)
    estimator.classes_ = np.unique(y)
    return table, y


class OptimalTreeClassifier(FittedTreeMixin, ClassifierMixin, BaseEstimator):
    """Provably optimal sparse decision tree (minimises loss + λ × leaves).

    Parameters
    ----------
    regularization : float, default=0.05
        λ, the cost of one leaf in objective units: a leaf must save a
        fraction λ of the (weighted) rows to be worth adding. Never changed
        by ``fit``, however small. The default
        (:data:`~treeopt.regularization.DEFAULT_REGULARIZATION`, the same in every
        front end) asks a leaf to correct 5 % of the rows: on two classes an
        optimal tree then has at most ``1/(2λ) + 1 = 11`` leaves (the one-leaf
        tree's objective is at most ½ + λ), readable and quick to certify. Pass a
        smaller λ for larger, more accurate trees at a higher search cost. 0 (with
        ``depth_budget``): the most accurate tree of at most that depth, ties
        broken by fewer leaves.
    solver : str, default="auto"
        ``"auto"``: ``"gosdt"``, or ``"portfolio"`` on 24 or more binary features, or ``"osdt"``
        for objectives that are not sums over leaves and OSDT's options, or ``"continuous"``
        for ``regularization=0`` and with a depth budget on large numeric tables (see
        :func:`treeopt.make_solver`); ``solver_.name`` tells which ran.
        Or a name of ``treeopt.SOLVERS``: ``"gosdt"`` (dynamic programming, additive objectives),
        ``"portfolio"`` (GOSDT and iterative deepening on depth interleaved, for wide data),
        ``"deepening"`` (depth budgets 1, 2, ... certified by the leaf-count bound),
        ``"osdt"`` (leaf-set branch-and-bound, every objective), ``"greedy"`` (CART-style
        greedy growth: fast, not certified).
        ``"branches"``: Branches, with multiway splits on the categorical
        (string/``category``) columns kept whole instead of one-hot, and
        binary splits on thresholds of the numeric columns.
    objective : str, default="accuracy"
        ``"accuracy"``, ``"balanced_accuracy"``, ``"weighted_accuracy"``
        (additive: every solver), ``"f1"``, ``"auc"`` or ``"partial_auc"``
        (not additive: ``solver="osdt"`` only); see :mod:`treeopt.objectives`.
    omega : float, optional
        Weight of false negatives for ``"weighted_accuracy"``; for ``"f1"``
        a leaf predicts positive when ``omega × positives > negatives``.
    theta : float, optional
        Largest false-positive rate counted by ``"partial_auc"``, in (0, 1]
        (default 0.1).
    depth_budget : int, optional
        Maximum depth (a single leaf has depth 0).
    time_limit : float, optional
        Seconds for the whole ``fit``: the setup (validation, binarization)
        counts, and the search gets what remains. It is checked after every
        unit of work of the search, so ``fit`` overshoots by at most one unit
        (usually well under a millisecond) plus the final report; the setup
        itself is not cut short (a setup longer than the limit leaves the
        search one unit). A search stopped by it keeps its best tree and
        warns with ``ConvergenceWarning``.
    node_limit : int, optional
        Maximum expansions.
    cache_limit : int, optional
        A memory cap: the most entries the search may hold (its memo of
        subproblems, caches and owned queue entries: ``solver_.cache_size``,
        in ``trace_.cache_size``). A search stopped by it keeps its best tree
        and warns with ``ConvergenceWarning``.
    memory_limit : int or str, optional
        A cap on the whole process's resident memory, in bytes or as a string
        such as ``"2GB"`` (:mod:`treeopt.memory`): a binarized table that
        would exceed it is refused before the search, and a search that
        exceeds it stops with status ``memory_limit``, its best tree and gap,
        and a ``ConvergenceWarning``. Checked at most every
        ``treeopt.solvers.base.MEMORY_CHECK_SECONDS``.
    bounds : dict, optional
        Switch bounds off by name, e.g. ``{"lookahead": False}`` (the solver's ``SWITCHES`` of kind
        ``"bound"``).
    solver_options : dict, optional
        The chosen solver's own options beyond these parameters, e.g. ``{"epsilon": 0.05}`` for
        ``solver="rashomon"``, ``{"max_leaves": 8}`` for ``solver="frontier"``, or ``{"tie_break": "any"}``
        for ``regularization=0`` certified on errors only (the continuous solver's option; the names in
        the solver's ``CAPABILITIES.options``); a name the solver does not take is refused, with the list
        of those it takes.
    strategies : dict, optional
        Switch the search's other parts off by name: search orders, first incumbents and
        subsolvers, e.g. ``{"cart_start": False}`` (the solver's other ``SWITCHES``).
    thresholds : {"auto", "all", "quantile", "guess"}, default="auto"
        How numeric columns are binarized (see :class:`~treeopt.Binarizer`);
        ``"guess"``: the thresholds a boosted reference model needs, by column
        elimination (:class:`~treeopt.guessing.ThresholdGuessBinarizer`,
        McTavish et al. 2022 section 4.1); ``guarantee_["thresholds"]`` reports
        Theorem 4.1. ``"auto"``: ``"all"``, unless the numeric columns give more
        than 256 thresholds (``treeopt.encoding.AUTO_MAX_THRESHOLDS``; for
        example 30 measured columns), then ``"guess"``: the certificate then
        covers trees over the guessed thresholds, and ``guarantee_`` says how far
        that can be from trees over all of them (``status_ ==
        "optimal_over_guessed_thresholds"``, ``optimal_`` False). With a ``depth_budget`` on an
        all-numeric table, ``solver="auto"`` searches every threshold instead above that count: the
        continuous solver keeps the columns as sorted values
        (``treeopt.encoding.auto_sorted_values``). ``thresholds_`` tells which was used;
        ``thresholds="all"`` searches every threshold.
    max_thresholds : int, optional
        Cap on threshold features per numeric column.
    reference : {"gbdt"}, optional
        Lower-bound guessing (McTavish et al. section 4.3) from a boosted
        reference model fitted internally (on the guessed thresholds when
        ``thresholds="guess"``). Or pass the reference's predictions as
        ``fit(X, y, y_ref=...)``. The result is then not certified optimal:
        ``status_ == "guessed"`` and ``guarantee_["lower_bound"]`` reports Theorem 4.3.
    random_state : int, RandomState or None, default=None
        Seed of the boosted reference model (threshold guessing, ``reference="gbdt"``).
    penalty : {"leaf", "split"}, default="leaf"
        What λ is charged for: each leaf (OSDT/GOSDT) or each internal node
        (``"split"``, Branches' convention; ``solver="branches"`` only). With
        binary splits the two objectives differ by the constant λ; a ``k``-way
        split adds ``k − 1`` leaves.
    schedule : str, optional
        Queue policy of solvers that have one (``solver="osdt"``:
        ``"curiosity"`` (its default), ``"lower_bound"``, ``"objective"``,
        ``"entropy"``, ``"bfs"``, ``"dfs"``).
    warm_start : "cart", Tree or bool, optional
        Initial incumbent for solvers that accept one (``solver="osdt"``):
        a greedy CART tree (``"cart"`` or True), or a tree over the same
        binary features. It is kept only if it beats the single leaf.
        False or None: no warm start.
    top_k : int, default=1
        Certify the ``top_k`` best distinct trees, not only the best
        (``solver="osdt"``; a view of the Rashomon set): see ``top_trees_``
        and ``predict(X, tree_index=i)``. Bounds that only prove a tree is
        not *the* optimum are switched off (:class:`~treeopt.solvers.OSDT`).
    missing : {"error", "indicator"}, default="error"
        Missing values (NaN, None, ``pd.NA``) in ``X``. ``"error"``: refuse
        them. ``"indicator"``: each column with missing values gets a
        feature ``x is missing``; a missing value is false on every other
        test of its column, so it goes to the ``x > t`` side of a threshold
        unless the tree splits on ``x is missing`` (the rules print
        ``else:  # x > t or x is missing``); with ``solver="branches"`` a
        categorical column gets a category ``x is missing``. See
        :class:`~treeopt.Binarizer` (Notes) for missing values at predict
        time. Not available with ``thresholds="guess"`` or
        ``reference="gbdt"`` (scikit-learn's ``GradientBoostingClassifier``
        refuses NaN).
    keep_search : bool, default=False
        Keep the whole search graph in ``solver_`` after ``fit`` (to continue or inspect
        the search, e.g. its queue in the widgets). By default ``fit`` releases it
        (:meth:`~treeopt.solvers.base.Solver.release`): a fitted estimator then holds its
        tree, certificate, trace and counters, a few MB, instead of every subproblem
        the search created (gigabytes on wide data). A search stopped by Ctrl-C is
        always kept, so that ``solver_.run()`` can resume it (``solver_.release()``
        frees it).
    verbose : int, default=0
        0: quiet. 1 or more: progress about once a second (expansions, time, lower and upper
        bounds, gap, queue): a ``tqdm`` bar when the optional ``tqdm`` package is installed (a
        widget in Jupyter, text in a terminal), else one line on ``sys.stderr`` rewritten in
        place (:func:`~treeopt.progress.progress_display`). The line also shows the hint of a
        slow search (see Notes).
    proba_smoothing : float, default=0.0
        Additive (Laplace) smoothing α of :meth:`predict_proba`: a leaf's
        probability of class ``c`` is ``(n_c + α) / (n + α K)``, with
        ``n_c`` its training weight of class ``c`` (sample weights count),
        ``n`` its total weight and ``K`` the number of classes. 0 gives the
        plain leaf frequencies. It changes neither the search nor
        :meth:`predict` (see :meth:`treeopt.tree.Tree.leaf_probabilities`).

    Attributes
    ----------
    tree_ : Tree
        The fitted tree (predicts on the original columns). ``get_depth()``, ``get_n_leaves()``,
        ``apply(X)`` (leaf index) and ``decision_path(X)`` (sparse node indicator) read it as
        scikit-learn's trees do (:class:`~treeopt.fitted_tree.FittedTreeMixin`).
    n_leaves_ : int
        Leaves of ``tree_``.
    feature_importances_ : ndarray of shape (n_features,)
        Gini importance of each input column: the weighted Gini impurity decrease of the splits
        on it over the training weights in the leaves, normalised to sum to 1, as scikit-learn
        defines it (the search minimises loss + λ × leaves, but a split that lowers no leaf's
        errors, the root of an XOR, still separates the classes and counts). Thresholds and
        categories of one column add up to that column.
    classes_ : ndarray
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` had string column names.
    binarizer_ : Binarizer
    status_ : str
        ``optimal``, ``optimal_over_guessed_thresholds`` (certified among the trees on the
        guessed thresholds only: ``thresholds="guess"``, or ``"auto"`` when it guessed),
        ``guessed`` (lower-bound guesses, see ``reference``), ``time_limit``, ``node_limit``,
        ``cache_limit``, ``memory_limit``, ``interrupted`` (Ctrl-C) or ``memory`` (a
        ``MemoryError``; see Notes).
    optimal_ : bool
        Whether optimality was certified over every tree the options allow: False when
        thresholds or lower bounds were guessed, whose certificate covers less
        (``status_`` and ``guarantee_`` say what it covers).
    lower_bound_, upper_bound_, gap_ : float
        Certificate: ``lower_bound_ <= optimum <= upper_bound_`` (= the tree's objective).
    objective_ : float
        Objective of ``tree_`` on the training data.
    trace_ : DataFrame
        elapsed, expansions, lower_bound, upper_bound, queue_size over the search.
    n_steps_ : int
        Expansions done.
    prune_counts_ : dict
        How often each bound acted.
    top_trees_ : list of (float, Tree)
        The ``top_k`` best distinct trees with their objectives, best first
        (certified when ``optimal_``); ``[(objective_, tree_)]`` with ``top_k=1``.
    thresholds_ : str
        The thresholds used: ``"all"``, ``"quantile"`` or ``"guess"`` (what ``"auto"`` chose);
        ``"all"`` for the continuous solver, which tries every threshold of the sorted values.
    guarantee_ : dict
        What the guesses guarantee (empty without guesses): ``"thresholds"``
        (Theorem 4.1: reference loss, objective bound) and ``"lower_bound"``
        (Theorem 4.3); see :mod:`treeopt.guessing.guarantees`.
    solver_ : Solver
        The solver object, paused at the end (inspect it with ``snapshot()``); its search
        graph is released unless ``keep_search=True``.
        Not pickled with the estimator (it holds the live search, which
        can be large); a pickled estimator keeps the tree and certificate.

    Notes
    -----
    Stopping. Every limit (``time_limit``, ``node_limit``, ``cache_limit``,
    ``memory_limit``) stops the search with its best tree, an honest gap
    (``lower_bound_ <= optimum <= upper_bound_``), ``status_`` naming the
    limit and a ``ConvergenceWarning``; ``fit`` returns normally.

    Ctrl-C is held until the end of the unit of work it lands in (one
    expansion), then ``fit`` stores the best tree so far with ``status_ ==
    "interrupted"``, warns, and **re-raises** ``KeyboardInterrupt``: the
    estimator is usable, and Ctrl-C also stops a loop of fits
    (``cross_val_score``, ``GridSearchCV``). ``solver_.run()`` resumes the same
    search. Pressing Ctrl-C twice aborts a long unit of work at once (that
    search cannot resume).

    A slow search. When no certificate has come within
    :attr:`~treeopt.slow_certificate.SlowCertificateHint.after` (a few seconds,
    or a share of ``time_limit``) of the start of ``fit``, ``fit`` warns once with
    :class:`~treeopt.slow_certificate.SlowCertificateWarning` (the search goes
    on), naming the rows, binary features (or, for the continuous solver, numeric
    columns) and depth budget and the settings that shrink the search:
    ``depth_budget=3``, ``max_thresholds``, ``thresholds="guess"``, a larger
    ``regularization``; at ``regularization=0`` the threshold settings come with a
    small λ, which they need. Not with a depth budget of 3 or less.

    A ``MemoryError`` inside the search ends it with ``status_ == "memory"``:
    the best tree and its gap are kept, the search's memory is released, and
    ``fit`` warns and returns.

    Examples
    --------
    >>> from treeopt.datasets import load_monk
    >>> X, y = load_monk(1)
    >>> clf = OptimalTreeClassifier(regularization=0.02).fit(X, y)
    >>> clf.optimal_, clf.tree_.n_leaves, clf.score(X, y)
    (True, 7, 1.0)

    Missing values as their own feature:

    >>> import pandas as pd
    >>> X = pd.DataFrame({"x": [1.0, 2.0, None, 4.0, None, 6.0]})
    >>> clf = OptimalTreeClassifier(regularization=0.1, missing="indicator").fit(X, [0, 0, 1, 0, 1, 0])
    >>> print(clf.tree_.rules(show_counts=False))
    if x is missing:
        predict 1
    else:  # x is not missing
        predict 0
    >>> clf.predict(pd.DataFrame({"x": [None, 3.0]})).tolist()
    [1, 0]
    """

    _parameter_constraints = {
        "regularization": [Interval(Real, 0, 1, closed="both")],   # 0: with depth_budget (the solver checks)
        "solver": [str],
        "objective": [str],
        "omega": [Interval(Real, 0, None, closed="neither"), None],
        "theta": [Interval(Real, 0, 1, closed="right"), None],
        "depth_budget": [Interval(Integral, 0, None, closed="left"), None],
        "time_limit": [Interval(Real, 0, None, closed="neither"), None],
        "node_limit": [Interval(Integral, 0, None, closed="left"), None],
        "cache_limit": [Interval(Integral, 1, None, closed="left"), None],
        "memory_limit": [Interval(Integral, 1, None, closed="left"), str, None],
        "bounds": [dict, None],
        "strategies": [dict, None],
        "solver_options": [dict, None],
        "thresholds": [StrOptions({"auto", "all", "quantile", "guess"})],
        "reference": [StrOptions({"gbdt"}), None],
        "random_state": ["random_state"],
        "penalty": [StrOptions({"leaf", "split"})],
        "max_thresholds": [Interval(Integral, 1, None, closed="left"), None],
        "schedule": [str, None],
        "warm_start": [StrOptions({"cart"}), Tree, "boolean", None],
        "missing": [StrOptions({"error", "indicator"})],
        "proba_smoothing": [Interval(Real, 0, None, closed="left")],
        "top_k": [Interval(Integral, 1, None, closed="left")],
        "verbose": ["verbose"],
        "keep_search": ["boolean"],
    }

    def __init__(self, *, regularization: float = DEFAULT_REGULARIZATION, solver: str = "auto", objective: str = "accuracy",
                 omega: float | None = None, theta: float | None = None, depth_budget: int | None = None,
                 time_limit: float | None = None, cache_limit: int | None = None,
                 memory_limit: int | str | None = None, node_limit: int | None = None, bounds: dict | None = None,
                 strategies: dict | None = None, solver_options: dict | None = None, thresholds: str = "auto",
                 max_thresholds: int | None = None, schedule: str | None = None, warm_start=None,
                 reference: str | None = None, random_state=None, penalty: str = "leaf", missing: str = "error",
                 proba_smoothing: float = 0.0, top_k: int = 1, verbose: int = 0, keep_search: bool = False):
        self.regularization = regularization
        self.solver = solver
        self.objective = objective
        self.omega = omega
        self.theta = theta
        self.depth_budget = depth_budget
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.cache_limit = cache_limit
        self.memory_limit = memory_limit
        self.bounds = bounds
        self.strategies = strategies
        self.solver_options = solver_options
        self.thresholds = thresholds
        self.max_thresholds = max_thresholds
        self.reference = reference
        self.random_state = random_state
        self.penalty = penalty
        self.schedule = schedule
        self.warm_start = warm_start
        self.missing = missing
        self.proba_smoothing = proba_smoothing
        self.top_k = top_k
        self.keep_search = keep_search
        self.verbose = verbose

    # -- fitting ------------------------------------------------------------------
    def _build_solver(self, X, y, sample_weight, y_ref=None):
        """Validate ``(X, y)`` as scikit-learn does, then build the solver with :func:`treeopt.make_solver`."""
        table, y = check_fit_input(self, X, y)
        solver = make_solver(table, y, solver=self.solver, sample_weight=sample_weight, y_ref=y_ref,
                             classes=self.classes_, solver_options=self.solver_options,
                             **{name: getattr(self, name) for name in SETTINGS})
        self._keep_setup(solver, table, y, sample_weight)
        return solver

    def _keep_setup(self, solver, table, y, sample_weight) -> None:
        """Note what the setup chose (the binarizer, the thresholds, the reference) and the data ``_store`` reads."""
        self.binarizer_ = solver.dataset.binarizer
        if self.binarizer_ is None:                 # numeric columns as sorted values: every threshold
            self.thresholds_ = "all"
        else:
            self.thresholds_ = "guess" if isinstance(self.binarizer_, ThresholdGuessBinarizer) else \
                getattr(self.binarizer_, "thresholds", self.thresholds)
        self._y_ref = solver.reference_predictions
        self._fit_table, self._fit_y, self._fit_weight = table, y, sample_weight

    def _fit_found_tree(self, X, y, sample_weight, dataset, tree, *, objective: float, lower_bound: float,
                        status: str) -> "OptimalTreeClassifier":
        """Fit from a tree another search found over ``dataset``, without binarizing or searching again.

        ``dataset`` is the binarized ``(X, y, sample_weight)`` with the binarizer this estimator's
        settings learn (the accuracy–sparsity frontier on all the data of ``OptimalTreeClassifierCV``);
        ``tree`` is a tree over it, ``objective`` its objective at this ``regularization`` and
        ``lower_bound`` what is proved of the optimum. With ``status="optimal"`` (``lower_bound ==
        objective``) every fitted attribute is the one a fresh ``fit`` stores, up to which tree is
        returned among equally good ones: the search this estimator would run is built on ``dataset``
        and holds the proved result (``Solver.hold``), and
        ``_store`` reports it as after a search (``status_``, ``optimal_`` and ``guarantee_`` over
        guessed thresholds included). Any other ``status`` (``"time_limit"``) stores the tree
        uncertified, with a ``ConvergenceWarning``.
        """
        if self.reference is not None or self.warm_start is not None:
            raise ValueError("a found tree is kept only by an estimator without reference or warm_start.")
        table, y = check_fit_input(self, X, y)
        settings = {name: getattr(self, name) for name in SETTINGS
                    if name not in ("thresholds", "max_thresholds", "missing")}   # the dataset's encoding
        solver = make_solver(dataset, None, solver=self.solver, solver_options=self.solver_options, **settings)
        optimal = status == "optimal"
        result = SearchResult(tree=tree, objective=float(objective), lower_bound=float(lower_bound),
                              upper_bound=float(objective), gap=0.0 if optimal else float(objective - lower_bound),
                              optimal=optimal, status=status, expansions=0, elapsed=0.0, prune_counts={},
                              trace=[])
        solver.hold(result)
        self._keep_setup(solver, table, y, sample_weight)
        self.setup_stopped_ = None
        self._store(solver, result)
        return self

    def fit(self, X, y, sample_weight=None, y_ref=None):
        """Find the optimal tree on ``(X, y)``.

        Parameters
        ----------
        X : array_like or DataFrame of shape (n_samples, n_features)
            Numeric, binary or categorical (string/category) columns. No NaN
            unless ``missing="indicator"``.
        y : array_like of shape (n_samples,)
            Any label values (two or more classes).
        sample_weight : array_like of shape (n_samples,), optional
            Non-negative weights; a row of weight 2 counts as two rows.
        y_ref : array_like of shape (n_samples,), optional
            A reference model's predictions on ``X``: turns on lower-bound
            guessing (McTavish et al. section 4.3; see ``reference``).

        Returns
        -------
        self

        Raises
        ------
        KeyboardInterrupt
            On Ctrl-C, after storing the best tree so far and its gap (``status_ ==
            "interrupted"``) and warning with ``ConvergenceWarning``: the fitted attributes are
            usable, and the interrupt still stops a loop of fits (cross-validation, a grid
            search). ``solver_.run()`` resumes the search.

        Notes
        -----
        When ``time_limit`` runs out while binarizing, before any search, the fit keeps the
        single leaf (the best tree without any binary feature) with ``status_ == "time_limit"``
        and warns with ``ConvergenceWarning``, naming where the setup stopped and the fix; the
        message is also kept in ``setup_stopped_`` (None after a fit whose setup finished).
        A Ctrl-C during the setup likewise keeps the single leaf, with ``status_ ==
        "interrupted"``, and re-raises ``KeyboardInterrupt``; there is no search to resume
        (``solver_.run()`` says so), fit again instead.
        """
        started = time.perf_counter()
        hint = SlowCertificateHint(time_limit=self.time_limit, depth_budget=self.depth_budget,
                                   regularization=self.regularization)
        try:
            # A long binarization stops at time_limit; a Ctrl-C is answered at once (and again if a
            # finalizer swallowed it): the setup has no state worth finishing a piece for.
            with SetupSignals(), binarization_deadline(self.time_limit):
                solver = self._build_solver(X, y, sample_weight, y_ref)
        except BinarizationTimeout as stopped:
            self._store_setup_stop(X, y, sample_weight, "time_limit", f"{stopped}")
            return self
        except KeyboardInterrupt:
            self._store_setup_stop(X, y, sample_weight, "interrupted",
                                   "Ctrl-C (KeyboardInterrupt) stopped the fit while it was setting up (binarizing "
                                   "the table, guessing thresholds or building the dataset), before any search.")
            raise KeyboardInterrupt(f"{self.setup_stopped_} The single leaf is stored (tree_, status_='interrupted', "
                                    f"gap_={self.gap_:.3g}); fit again to search.") from None
        self.setup_stopped_ = None
        time_limit = self.time_limit
        if time_limit is not None:          # the limit covers the setup (binarization) too
            time_limit = max(time_limit - (time.perf_counter() - started), 1e-9)
        progress = hint.display = progress_display() if self.verbose else None
        try:
            result = solver.run(time_limit=time_limit, node_limit=self.node_limit,
                                cache_limit=self.cache_limit, memory_limit=self.memory_limit,
                                progress=hint)      # the verbose display, and the hint of a slow search
        except KeyboardInterrupt:
            # Between the setup and the search's first unit of work (run() answers the ones inside
            # it itself): the search has not started, its incumbent is its first tree.
            solver.result()                         # started (not stepped), so the status below stays
            solver.status = "interrupted"
            result = solver.result()
        finally:
            if progress is not None:
                progress.close()
        hint.check(solver, result)                  # a search that ended uncertified after the hint's time
        self._store(solver, result)
        if result.status == "interrupted":
            # Stored and warned about; re-raised so that Ctrl-C also stops a loop of fits
            # (cross_val_score, GridSearchCV, a for loop) instead of only the current search.
            raise KeyboardInterrupt(f"fit interrupted: the best tree found so far is stored (tree_, status_="
                                    f"'interrupted', gap_={self.gap_:.3g}); solver_.run() resumes the search.")
        return self

    def _store_setup_stop(self, X, y, sample_weight, status: str, message: str) -> None:
        """Fit the single leaf after the setup stopped before any search: a tree, and an honest ``status``.

        ``status`` is ``time_limit`` (``time_limit`` ran out while binarizing or guessing) or
        ``interrupted`` (Ctrl-C). The solver sees no binary feature
        (:func:`treeopt.building.no_feature_binarizer`), so its incumbent is the single leaf; it is
        not run (it would call that leaf optimal) but stopped with ``status`` and released, so that
        ``solver_.run()`` cannot claim more.
        """
        table, y = check_fit_input(self, X, y)
        self.setup_stopped_ = message
        settings = {name: getattr(self, name) for name in SETTINGS}
        settings.update(reference=None, thresholds="all", max_thresholds=None)   # nothing more to learn
        solver = make_solver(table, y, solver=self.solver, sample_weight=sample_weight, classes=self.classes_,
                             solver_options=self.solver_options, binarizer=no_feature_binarizer(table, self.missing),
                             **settings)
        self.binarizer_ = solver.dataset.binarizer
        self.thresholds_ = self.thresholds
        self._y_ref = None
        solver.result()                                 # started, not run: its incumbent is the leaf
        solver.status = status
        result = solver.result()
        # The bound every tree meets: λ for its one leaf at least (nothing when λ is paid per split).
        floor = float(self.regularization) if self.penalty == "leaf" else 0.0
        if result.lower_bound < floor <= result.upper_bound:
            result = dataclasses.replace(result, lower_bound=floor, gap=result.upper_bound - floor)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)    # one warning, with the setup's message
            self._store(solver, result)
        solver.release()
        warnings.warn(f"{message} The fit keeps the single leaf (status_={status!r}, gap_={self.gap_:.3g}).",
                      ConvergenceWarning, stacklevel=3)

    def _store(self, solver, result) -> None:
        """Set every fitted attribute from the search's ``result``, in this one place.

        The guesses (McTavish et al. 2022, Theorems 4.1 and 4.3) change what the certificate
        covers: :func:`~treeopt.guessing.fitting.guarantee_report` computes the honest status,
        ``optimal_`` and lower bound, and ``guarantee_`` beside them.
        """
        table, self._fit_table = getattr(self, "_fit_table", None), None
        y, self._fit_y = getattr(self, "_fit_y", None), None
        status, optimal, lower_bound, report = result.status, bool(result.optimal), float(result.lower_bound), {}
        if table is not None:
            honest = guarantee_report(self, solver, result, table, None if y is None else np.asarray(y).ravel(),
                                      getattr(self, "_y_ref", None), getattr(self, "_fit_weight", None))
            status, optimal, lower_bound, report = honest.status, honest.optimal, honest.lower_bound, honest.report
        self.solver_ = solver
        self.tree_ = result.tree
        self.status_ = status
        self.optimal_ = optimal
        self.objective_ = float(result.objective)
        self.lower_bound_ = lower_bound
        self.upper_bound_ = float(result.upper_bound)
        self.gap_ = float(result.gap) if lower_bound == float(result.lower_bound) else self.objective_ - lower_bound
        self.guarantee_ = report
        self._trace_points, self._trace_frame = list(result.trace), None      # trace_ is made when read
        self.n_steps_ = int(result.expansions)
        self.prune_counts_ = dict(result.prune_counts)
        self.top_trees_ = list(getattr(result, "top_trees", None) or [(self.objective_, self.tree_)])
        if not result.optimal and result.status != "guessed":   # stopped early (a completed guessed
            # search is reported by guarantee_, not warned about)
            warnings.warn(self._stopped_message(result), ConvergenceWarning, stacklevel=3)
        if not self.keep_search and result.status != "interrupted":
            solver.release()                # an interrupted search is kept: solver_.run() resumes it

    @property
    def trace_(self) -> pd.DataFrame:
        """The search's trace as a DataFrame (``SearchResult.trace_frame``), made when first read: a
        DataFrame costs a fifth of a millisecond, a tenth of a small fit, and most fits never read it."""
        points = self.__dict__.get("_trace_points")
        if points is None:
            # An estimator pickled when fit stored the frame itself (before it was made when read).
            if isinstance(self.__dict__.get("trace_"), pd.DataFrame):
                return self.__dict__["trace_"]
            raise AttributeError(f"{type(self).__name__!r} has no attribute 'trace_' before fit")
        if self.__dict__.get("_trace_frame") is None:
            self._trace_frame = trace_frame(points)
        return self._trace_frame

    def _stopped_message(self, result) -> str:
        """The ConvergenceWarning of a stopped search, honest about a guessed lower bound."""
        retry = "Raise time_limit/node_limit or regularization to certify."
        if result.status == "finished":         # a heuristic ran to its end: no limit could certify it
            return (f"solver {self.solver_.name!r} builds its tree greedily and never certifies optimality: the "
                    f"tree's objective {result.upper_bound:.6g} is within {result.gap:.3g} of the optimum (lower "
                    f"bound {result.lower_bound:.6g}). Use solver='auto' (or 'gosdt') for a certified tree.")
        if result.status == "cache_limit":
            retry = (f"The search held more than cache_limit={self.cache_limit} entries; raise cache_limit "
                     "(more memory) or regularization to certify.")
        elif result.status == "memory_limit":
            retry = (f"The process held more than memory_limit={self.memory_limit!r}; raise memory_limit or "
                     "regularization, or cap the search with cache_limit, to certify.")
        elif result.status == "memory":
            retry = ("The search ran out of memory (MemoryError) and its cache was released; raise "
                     "regularization, keep fewer thresholds (max_thresholds) or set cache_limit/memory_limit "
                     "below the machine's memory to stop cleanly.")
        elif result.status == "interrupted":
            retry = "Interrupted (Ctrl-C): solver_.run() resumes the search."
        if not getattr(result, "lower_bound_guessed", False):
            return (f"search stopped ({result.status}) before optimality was certified: the tree's objective "
                    f"{result.upper_bound:.6g} is within {result.gap:.3g} of the optimum (lower bound "
                    f"{result.lower_bound:.6g}). {retry}")
        # McTavish et al. 2022, section 4.3: the search's bound is a guess; guarantee_report proved lower_bound_.
        theorem = (getattr(self, "guarantee_", None) or {}).get("lower_bound")
        proved = "" if theorem is None else (
            f" Proved: the tree's objective {self.objective_:.6g} is within {self.gap_:.3g} of the optimum "
            f"(lower bound {self.lower_bound_:.6g}). Theorem 4.3 (McTavish et al. 2022) would bound "
            f"objective − optimum by the reference model's loss {theorem['reference_loss']:.6g}, but only "
            f"for a search that completes.")
        return (f"search stopped ({result.status}) with a guessed lower bound: the guessed lower bound "
                f"{result.lower_bound:.6g} (gap vs guessed bound {result.gap:.3g}) comes from the reference "
                f"model (McTavish et al. 2022, section 4.3) and is not a proof.{proved} {retry}")

    # -- prediction ---------------------------------------------------------------
    def _tree_input(self, X) -> tuple:
        """(data, binarized) for the tree: the original table for multiway trees, else the binary features."""
        check_is_fitted(self, "tree_")
        table = validate_predict_input(self, X)
        if self.tree_.has_multiway or self.binarizer_ is None:   # None: the continuous solver's sorted columns
            as_frame(table, missing=getattr(self, "missing", "error"))     # refuses NaN under missing="error"
            return table, False
        return self.binarizer_.transform(table), True

    def predict(self, X, tree_index: int = 0) -> np.ndarray:
        """Predicted label of each row.

        ``tree_index``: which of ``top_trees_`` predicts (0, the default, is
        ``tree_``; fit with ``top_k > 1`` for more).
        """
        data = self._tree_input(X)                 # checks fitted before tree_ is read
        if tree_index == 0:
            return self.classes_[self.tree_.predict_index(*data)]
        trees = self.top_trees_
        if isinstance(tree_index, bool) or not isinstance(tree_index, (int, np.integer)) \
                or not 0 <= tree_index < len(trees):
            raise ValueError(f"tree_index must be an integer in [0, {len(trees)}) (top_trees_ holds {len(trees)} "
                             f"tree(s); fit with a larger top_k for more), got {tree_index!r}.")
        return self.classes_[trees[tree_index][1].predict_index(*data)]

    def predict_proba(self, X) -> np.ndarray:
        """Class probabilities of the leaf each row reaches.

        The leaf's share of training weight of each class, smoothed by
        ``proba_smoothing`` (see :meth:`treeopt.tree.Tree.leaf_probabilities`).
        The ROC hull (:mod:`treeopt.roc`) and the AUC objectives rank leaves
        by their unsmoothed frequencies.
        """
        data = self._tree_input(X)
        return self.tree_.predict_proba(*data, smoothing=getattr(self, "proba_smoothing", 0.0))

    def to_sklearn(self, *, input: str = "auto", node_values: str = "frequencies"):
        """The fitted tree as a fitted ``sklearn.tree.DecisionTreeClassifier`` (for ``plot_tree``, dtreeviz).

        See :func:`treeopt.sklearn_export.to_sklearn`; its ``predict_proba``
        uses this estimator's ``proba_smoothing``.
        """
        from .sklearn_export import to_sklearn
        check_is_fitted(self, "tree_")
        return to_sklearn(self, input=input, node_values=node_values)

    def evaluate(self, X, y, sample_weight=None) -> dict:
        """The fitted objective's value, accuracy and (binary) TPR/FPR on ``(X, y)``.

        See :func:`treeopt.metrics.evaluate` for the keys; ``penalized``
        charges λ as the fit did (per leaf, or per split with ``penalty="split"``).
        """
        from .metrics import evaluate
        check_is_fitted(self, "tree_")
        objective = get_objective(self.objective, omega=self.omega, theta=self.theta)
        data, binarized = self._tree_input(X)
        return evaluate(self.tree_, data, y, objective, regularization=self.regularization,
                        sample_weight=sample_weight, binarized=binarized, penalty=self.penalty)

    def __getstate__(self):
        state = dict(super().__getstate__())  # a copy: BaseEstimator may hand back __dict__ itself
        state.pop("solver_", None)          # a generator and a search graph: see the attribute's docs
        return state

    def __sklearn_tags__(self):
        return table_input_tags(super().__sklearn_tags__(), getattr(self, "missing", "error"))

"""``make_solver``: the one public way to build a solver from a table, by name and settings.

The estimator, the command line, the widgets' ``explore`` and the benchmarks all build their
solvers here. What differs between solvers is read from their declared
:class:`~treeopt.solvers.capabilities.Capabilities` (which dataset, which objectives, penalties
and options), never from their names, so a newly registered solver
(:mod:`treeopt.registry`) is built like the others.
"""

from __future__ import annotations

import warnings
from collections import Counter

import numpy as np
import pandas as pd

from .categorical import CategoricalDataset
from .data import Dataset
from .encoding import auto_sorted_values, fit_binarizer, no_feature_binarizer
from .guessing.fitting import reference_kwargs
from .memory import format_bytes, memory_room, parse_memory_limit, resident_memory
from .objectives import OBJECTIVES, Objective, get_objective
from .sorted_columns import SortedDataset, search_bytes
from .solvers.base import Solver, check_zero_regularization
from .solvers.gosdt.search import tie_charge_fits
from .input_validation import check_labels
from .regularization import DEFAULT_REGULARIZATION
from .registry import SOLVERS, solvers_that

__all__ = ["make_solver", "check_unbounded_zero_regularization", "no_feature_binarizer", "solver_options_of_all", "check_labels", "check_setup_memory",
           "check_sorted_memory",
           "SETTINGS"]

#: The settings make_solver takes, with their defaults (the estimator's parameters of the same names).
SETTINGS = {
    "regularization": DEFAULT_REGULARIZATION, "objective": "accuracy", "omega": None, "theta": None, "depth_budget": None,
    "bounds": None, "strategies": None, "thresholds": "auto", "max_thresholds": None, "schedule": None, "warm_start": None,
    "top_k": 1, "reference": None, "random_state": None, "penalty": "leaf", "missing": "error",
    "memory_limit": None,
}

#: From this many binary features on, ``solver="auto"`` runs the portfolio (GOSDT and iterative
#: deepening interleaved): on wide data neither dominates (``benchmarks/results_wide.md``), while on
#: narrow data GOSDT alone certifies about twice as fast as sharing the time.
AUTO_WIDE_FEATURES = 24
#: Up to this depth budget ``solver="auto"`` runs GOSDT even on wide data: its ``depth_three`` and
#: ``similar_support`` switches solve a shallow budget directly, where iterative deepening would
#: only repeat the smaller budgets first (compas and spiral with all thresholds, ``benchmarks/contree_bench.py``).
AUTO_SHALLOW_DEPTH = 4


def solver_options_of_all() -> set:
    """The registered solvers' own options that are not :data:`SETTINGS` (e.g. the Rashomon set's
    ``epsilon`` and ``bound``, the frontier's ``max_leaves``, the greedy solver's ``criterion``): :func:`make_solver` and ``explore`` pass them to a solver that declares them.

    Examples
    --------
    >>> sorted(solver_options_of_all())[:6]
    ['bound', 'ccp_alpha', 'confidence', 'criterion', 'epsilon', 'max_leaves']
    >>> "plugins" in solver_options_of_all()
    True
    """
    return {name for cls in SOLVERS.values() for name in cls.CAPABILITIES.options} - set(SETTINGS)


def check_unbounded_zero_regularization(regularization, depth_budget) -> None:
    """Refuse ``regularization=0`` without a ``depth_budget`` from the settings alone, before the data are read.

    Examples
    --------
    >>> check_unbounded_zero_regularization(0.01, None)
    >>> check_unbounded_zero_regularization(0, None)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: regularization=0 needs a depth_budget (e.g. depth_budget=3): ...
    """
    if regularization == 0:
        check_zero_regularization(None, depth_budget)


def make_solver(X, y, *, solver: str = "auto", sample_weight=None, y_ref=None, classes=None,
                solver_options: dict | None = None, binarizer=None, **settings) -> Solver:
    """Build a (not yet started) solver on ``(X, y)``.

    Parameters
    ----------
    X : DataFrame, array_like of shape (n_rows, n_columns), or Dataset
        Any table: 0/1, numeric and categorical columns (binarized as the solver needs). Or a
        ready :class:`~treeopt.Dataset` (binary features with their labels and weights, as
        ``treeopt.frontier()`` and ``treeopt.rashomon_set()`` take): then ``y`` is None and
        nothing is binarized again.
    y : array_like of shape (n_rows,), or None with a Dataset
    solver : str, default="auto"
        A name of ``treeopt.SOLVERS``, or ``"auto"``: ``"osdt"`` for objectives that are not a sum
        over leaves (F-score, AUC) and for OSDT's options (``schedule``, ``warm_start``,
        ``top_k``); ``"continuous"`` for ``regularization=0`` (``"gosdt"`` there when the losses are whole
        numbers, as with ``objective="accuracy"`` and whole sample weights, on a table of few thresholds
        as below: see ``treeopt.solvers.gosdt.search.tie_charge``) and, with a ``depth_budget``, on an
        all-numeric table with every threshold (``thresholds="auto"`` or ``"all"``, no ``max_thresholds``)
        whose columns of more than two values have more than 256 thresholds
        (:func:`treeopt.encoding.auto_sorted_values`) or whose binary
        table would have 50 million cells or more (:data:`AUTO_SORTED_CELLS`): numeric columns then stay
        sorted values and every threshold is tried; else ``"portfolio"`` on data with at least 24 binary features
        (:data:`AUTO_WIDE_FEATURES`) and ``"gosdt"`` below, with lower-bound guessing, or with a
        depth budget of at most 4 (:data:`AUTO_SHALLOW_DEPTH`).
    sample_weight : array_like, optional
    y_ref : array_like, optional
        A reference model's predictions: lower-bound guessing (McTavish et al., *Fast sparse
        decision tree optimization via reference ensembles*, section 4.3).
    classes : array_like, optional
        The label values in order (default: the sorted distinct values of ``y``).
    solver_options : dict, optional
        The chosen solver's own options, beyond the shared settings: the names in its
        ``CAPABILITIES.options`` (the Rashomon set's ``epsilon``, the frontier's ``max_leaves``, OSDT's
        ``schedule``). The same as passing them as keywords; an option the solver does not take is
        refused with the list of those it does.
    binarizer : Binarizer, optional
        A binarizer already fitted on ``X``'s columns, used instead of learning one from the
        ``thresholds`` settings (see :func:`no_feature_binarizer`).
    **settings
        Any of ``SETTINGS`` (the parameters of :class:`~treeopt.OptimalTreeClassifier` of the
        same names: ``regularization``, ``objective``, ``bounds``, ``schedule``, ...).
        ``memory_limit`` (bytes or a string such as ``"2GB"``, :mod:`treeopt.memory`) guards the
        setup here: a binarized table that would push the process past it is refused before it
        is built. The search's own check is ``solver.run(memory_limit=...)``.

    Returns
    -------
    Solver
        Its dataset's binarizer is ``solver.dataset.binarizer``; with lower-bound guessing
        ``solver.reference_predictions`` holds the reference model's predictions.

    Examples
    --------
    >>> from treeopt.datasets import load_monk
    >>> X, y = load_monk(1)
    >>> solver = make_solver(X, y, solver="osdt", regularization=0.1, schedule="dfs")
    >>> solver.params["schedule"], solver.run().optimal
    ('dfs', True)
    >>> make_solver(X, y, solver="gosdt", schedule="dfs")
    Traceback (most recent call last):
    ...
    ValueError: solver='gosdt' does not take schedule='dfs'; schedule needs solver='osdt' (or leave schedule=None).
    >>> make_solver(X, y, solver="rashomon", regularization=0.1, solver_options={"epsilon": 0.05}).epsilon
    0.05
    >>> ready = solver.dataset                      # a Dataset: no y, no second binarization
    >>> make_solver(ready, None, solver="gosdt", regularization=0.1).dataset is ready
    True
    """
    own_options = solver_options_of_all()
    extra = {name: settings.pop(name) for name in list(settings) if name in own_options}
    if solver_options is not None:
        if not isinstance(solver_options, dict) or not all(isinstance(k, str) for k in solver_options):
            raise TypeError(f"solver_options must be a dict of option names to values, got {solver_options!r}.")
        every_option = {name for cls in SOLVERS.values() for name in cls.CAPABILITIES.options}
        shared = sorted(set(solver_options) & set(SETTINGS) - every_option)
        if shared:
            raise ValueError(f"{shared} are shared settings, not solver options: pass them as keywords.")
        if solver != "auto" and solver in SOLVERS:
            accepted = SOLVERS[solver].CAPABILITIES.options
            wrong = sorted(set(solver_options) - set(accepted))
            if wrong:
                raise ValueError(f"solver={solver!r} takes no option(s) {wrong}; its options are "
                                 f"{sorted(accepted) or 'none'}.")
        for name, value in solver_options.items():
            (settings if name in SETTINGS else extra)[name] = value
    unknown = sorted(set(settings) - set(SETTINGS))
    if unknown:
        raise TypeError(f"make_solver() got unknown setting(s) {unknown}; the settings are {sorted(SETTINGS)} "
                        f"and the solvers' own options {sorted(solver_options_of_all())}.")
    s = {**SETTINGS, **settings}
    auto = solver == "auto"
    memory_limit = parse_memory_limit(s["memory_limit"])
    if not auto and solver not in SOLVERS:
        raise ValueError(f"unknown solver {solver!r}; choose one of {sorted(SOLVERS)}.")
    if not isinstance(s["objective"], Objective) and s["objective"] not in OBJECTIVES:
        raise ValueError(f"unknown objective {s['objective']!r}; choose one of {sorted(OBJECTIVES)}.")
    objective = get_objective(s["objective"], omega=s["omega"], theta=s["theta"])
    check_unbounded_zero_regularization(s["regularization"], s["depth_budget"])
    if auto:
        osdt_only = s["schedule"] is not None or s["warm_start"] not in (None, False) or s["top_k"] != 1 \
            or bool(extra.get("plugins"))
        solver = "osdt" if osdt_only or not objective.additive else "gosdt"
        if solver == "gosdt" and not isinstance(X, Dataset):
            if _continuous_fits(X, s, y_ref, sample_weight):
                solver = "continuous"
            elif "tie_break" in extra:
                # tie_break is the continuous solver's own option (which of the most accurate trees λ = 0
                # returns). Where GOSDT is the better search, it runs: at λ = 0 it charges each leaf less
                # than one error (treeopt.solvers.gosdt.search.tie_charge), so its tree is the most
                # accurate with the fewest leaves, which either value asks for; at λ > 0 the option has
                # no effect.
                SOLVERS["continuous"].check_tie_break(extra.pop("tie_break"))
    solver_cls = SOLVERS[solver]
    capabilities = solver_cls.CAPABILITIES
    if not objective.additive and capabilities.objectives != "any":
        able = solvers_that(lambda cls: cls.CAPABILITIES.objectives == "any")
        raise ValueError(f"objective {s['objective']!r} is not a sum over leaves (not additive), so solver={solver!r} "
                         f"(dynamic programming) cannot optimise it; use solver={able[0]!r}.")
    if s["penalty"] not in capabilities.penalties:
        able = solvers_that(lambda cls: s["penalty"] in cls.CAPABILITIES.penalties)
        raise ValueError(f"penalty={s['penalty']!r} needs solver={able[0]!r}; solver={solver!r} charges "
                         f"λ per {capabilities.penalties[0]} (penalty={capabilities.penalties[0]!r}).")
    warm_start = {True: "cart", False: None}.get(s["warm_start"]) if isinstance(s["warm_start"], bool) \
        else s["warm_start"]
    asked = {"schedule": s["schedule"], "warm_start": warm_start, "top_k": None if s["top_k"] == 1 else s["top_k"],
             **extra}
    options = {}
    for name, value in asked.items():
        if value is None:                                         # not asked for: the solver's default
            continue
        if name not in capabilities.options:
            able = solvers_that(lambda cls, n=name: n in cls.CAPABILITIES.options)
            if name == "top_k":
                raise ValueError(f"solver={solver!r} finds only the best tree; top_k={value} needs "
                                 f"solver={able[0]!r} (or leave top_k=1).")
            raise ValueError(f"solver={solver!r} does not take {name}={value!r}; {name} needs "
                             f"solver={able[0]!r} (or leave {name}=None).")
        options[name] = value
    if s["depth_budget"] is not None and not capabilities.depth_budget:
        raise ValueError(f"solver={solver!r} takes no depth_budget (it keeps trees of every depth); leave "
                         "depth_budget=None and filter its result by depth.")
    if (y_ref is not None or s["reference"] is not None) and not capabilities.guesses_lower_bounds:
        able = solvers_that(lambda cls: cls.CAPABILITIES.guesses_lower_bounds)
        raise ValueError(f"solver {solver!r} does not support lower-bound guessing (y_ref / reference); "
                         f"use solver={able[0]!r}.")
    if s["missing"] == "indicator" and (s["thresholds"] == "guess" or s["reference"] == "gbdt"):
        option = "thresholds='guess'" if s["thresholds"] == "guess" else "reference='gbdt'"
        raise ValueError(f"missing='indicator' cannot be combined with {option}: the boosted reference model "
                         "(scikit-learn's GradientBoostingClassifier) refuses missing values. Use "
                         "thresholds='all' or 'quantile' without reference='gbdt', or impute X first.")
    if not isinstance(X, Dataset):
        y = np.asarray(y)
        check_labels(y, single_class=capabilities.single_class)
        classes = np.unique(y) if classes is None else np.asarray(classes)
    if isinstance(X, Dataset):
        dataset = _ready_dataset(X, y, solver, capabilities, s, sample_weight=sample_weight, classes=classes,
                                 binarizer=binarizer, y_ref=y_ref)
    elif capabilities.dataset == "categorical":
        if s["thresholds"] == "auto":
            s["thresholds"] = "all"
        if s["thresholds"] not in ("all", "quantile"):
            raise ValueError(f"solver={solver!r} binarizes numeric columns with thresholds='all' or 'quantile', "
                             f"got {s['thresholds']!r}.")
        dataset = CategoricalDataset.from_arrays(X, y, sample_weight=sample_weight, classes=classes,
                                                 thresholds=s["thresholds"], max_thresholds=s["max_thresholds"],
                                                 missing=s["missing"])
    elif capabilities.dataset == "sorted":
        if s["thresholds"] not in ("auto", "all") or s["max_thresholds"] is not None:
            raise ValueError(f"solver={solver!r} keeps numeric columns as sorted values and tries every threshold; "
                             "leave thresholds='auto' and max_thresholds=None.")
        if s["missing"] != "error":
            raise ValueError(f"solver={solver!r} needs every numeric value (missing='error'); impute X first, or "
                             "use solver='gosdt' with missing='indicator'.")
        check_sorted_memory(X, len(classes), s["depth_budget"], memory_limit)
        dataset = SortedDataset.from_arrays(X, y, sample_weight=sample_weight, classes=classes)
    else:
        if binarizer is None:
            binarizer = fit_binarizer(X, y, thresholds=s["thresholds"], max_thresholds=s["max_thresholds"],
                                      missing=s["missing"], random_state=s["random_state"],
                                      sample_weight=sample_weight)
        check_setup_memory(len(y), len(binarizer.features_), memory_limit)
        if solver_cls.exact and (s["depth_budget"] is None or s["depth_budget"] > EASY_DEPTH_BUDGET):
            warn_if_hopeless(len(y), binarizer.features_)
        dataset = Dataset.from_arrays(X, y, sample_weight=sample_weight, binarizer=binarizer, classes=classes)
    objective.validate(dataset)
    shallow = s["depth_budget"] is not None and s["depth_budget"] <= AUTO_SHALLOW_DEPTH
    if auto and solver == "gosdt" and dataset.n_features >= AUTO_WIDE_FEATURES and not options \
            and y_ref is None and s["reference"] is None and not shallow and s["regularization"] > 0:
        solver, solver_cls = "portfolio", SOLVERS["portfolio"]
    guess, predictions = reference_kwargs(solver_cls, solver, s["reference"], y_ref, dataset, X, y, sample_weight,
                                          dataset.binarizer, s["random_state"])
    if len(capabilities.penalties) > 1:
        options["penalty"] = s["penalty"]
    if s["strategies"]:
        if "strategies" not in solver_cls.setting_names():
            raise ValueError(f"solver {solver!r} has no strategies to switch (got strategies={s['strategies']!r}); "
                             f"its switches are bounds: {sorted(solver_cls.SWITCHES)}.")
        options["strategies"] = s["strategies"]
    built = solver_cls(dataset, regularization=s["regularization"], objective=objective, bounds=s["bounds"],
                       depth_budget=s["depth_budget"], **options, **guess)
    built.reference_predictions = predictions
    return built


def _ready_dataset(dataset: Dataset, y, solver: str, capabilities, s: dict, *, sample_weight, classes, binarizer,
                   y_ref) -> Dataset:
    """A ready ``Dataset`` given as ``X``, after refusing what only a raw table can take (labels, weights,
    a binarizer, binarization settings, lower-bound guessing) or a solver that needs another encoding."""
    given = {"y": y, "sample_weight": sample_weight, "classes": classes, "binarizer": binarizer, "y_ref": y_ref,
             "reference": s["reference"]}
    wrong = sorted(name for name, value in given.items() if value is not None)
    wrong += sorted(name for name in ("thresholds", "max_thresholds", "missing") if s[name] != SETTINGS[name])
    if wrong:
        raise ValueError(f"X is a ready Dataset (it holds the labels, weights and binary features), so give none of "
                         f"{wrong}; pass the raw table and y to make_solver to set them.")
    wanted = {"binary": Dataset, "categorical": CategoricalDataset, "sorted": SortedDataset}[capabilities.dataset]
    if type(dataset) is not wanted:
        raise ValueError(f"solver={solver!r} reads a {capabilities.dataset} dataset, not a {type(dataset).__name__}; "
                         "pass the raw table and y to make_solver and it builds the one the solver needs.")
    return dataset


#: From this many cells of the binary table (rows × thresholds of all numeric columns) on, ``solver="auto"``
#: with a depth budget keeps numeric columns as sorted values (the continuous solver) even with few
#: thresholds: the table itself then costs more than the search over sorted values.
AUTO_SORTED_CELLS = 50_000_000


def _whole_losses(s: dict, sample_weight, n_rows: int) -> bool:
    """Whether GOSDT takes ``regularization=0`` here (:func:`treeopt.solvers.gosdt.search.tie_charge`): accuracy,
    whole sample weights, and a total weight small enough for its charge per leaf to stand above the tolerance."""
    if s["objective"] != "accuracy":
        return False
    if sample_weight is None:
        total = float(n_rows)
    else:
        weights = np.asarray(sample_weight, dtype=float)
        if not np.all(np.isfinite(weights)) or not np.all(weights == np.round(weights)):
            return False
        total = float(weights.sum())
    return tie_charge_fits(total, s["depth_budget"])


def _continuous_fits(X, s: dict, y_ref, sample_weight=None) -> bool:
    """Whether ``solver="auto"`` runs the continuous solver: ``regularization=0`` (unless GOSDT takes it, on
    whole losses and a table it would get at λ > 0: :func:`_whole_losses`), or a
    depth budget on an all-numeric table with more thresholds than GOSDT handles best over a binary table
    (:func:`treeopt.encoding.auto_sorted_values`, the count above which ``thresholds="auto"`` would
    otherwise guess; counted on the columns of more than two values, since a two-valued column is a
    single binary feature either way and wide 0/1 data stays GOSDT's) or whose binary table would have
    at least :data:`AUTO_SORTED_CELLS` cells; always with every threshold, no missing values and no
    reference.

    Why the threshold count: a search over a binary feature per threshold keeps a row set per
    subproblem, so its time and memory grow with the thresholds at depth three and four, while the
    continuous solver keeps the sorted columns only. On few thresholds (a few hundred, as on data of
    small integers or rounded values) the binary search is the faster one, at λ = 0 too (with its
    charge per leaf below one error, ``treeopt.solvers.gosdt.search.tie_charge``).

    Examples
    --------
    >>> settings = {**SETTINGS, "depth_budget": 3}
    >>> _continuous_fits(np.array([[0.5, 1.0]]), settings, None)
    False
    >>> zero = {**settings, "regularization": 0}                 # λ = 0: GOSDT on whole losses and few thresholds
    >>> _continuous_fits(np.array([[0.5, 1.0]]), zero, None), _continuous_fits(np.array([[0.5, 1.0]]), zero, None, [0.5])
    (False, True)
    >>> many = np.arange(600.0).reshape(300, 2)                  # 2 × 299 thresholds
    >>> _continuous_fits(many, settings, None), _continuous_fits(many, {**settings, "max_thresholds": 8}, None)
    (True, False)
    >>> _continuous_fits(many, {**settings, "depth_budget": None}, None)
    False
    """
    if s["depth_budget"] is None or y_ref is not None or s["reference"] is not None \
            or s["thresholds"] not in ("auto", "all") or s["max_thresholds"] is not None or s["missing"] != "error":
        return False
    # regularization=0: the continuous solver, unless GOSDT takes it (whole losses) on a table of few thresholds.
    zero = s["regularization"] == 0
    if zero and not _whole_losses(s, sample_weight, np.shape(X)[0] if np.ndim(X) == 2 else 0):
        return True
    if isinstance(X, pd.DataFrame):
        numeric = all(pd.api.types.is_numeric_dtype(d) and not isinstance(d, pd.CategoricalDtype) for d in X.dtypes)
        if not numeric or X.isna().to_numpy().any():
            return zero
        columns = [X.iloc[:, j].to_numpy() for j in range(X.shape[1])]
    else:
        try:
            array = np.asarray(X)
        except (TypeError, ValueError):
            return zero
        if array.ndim != 2 or array.dtype.kind not in "biuf" or (array.dtype.kind == "f" and np.isnan(array).any()):
            return zero
        columns = list(array.T)
    n_rows = len(columns[0]) if columns else 0
    if not auto_sorted_values((n_rows - 1) * len(columns)):      # at most n - 1 thresholds per column
        return False
    distinct = [len(np.unique(column)) for column in columns]
    thresholds = sum(count - 1 for count in distinct)
    many_valued = sum(count - 1 for count in distinct if count > 2)      # a 0/1 column is one feature either way
    return auto_sorted_values(many_valued) or n_rows * thresholds >= AUTO_SORTED_CELLS


#: Above this many binary features an exact search is hopeless in practice (each subproblem tries
#: every feature): make_solver warns, with the numbers and the fix.
HOPELESS_FEATURES = 1000

#: Up to this depth budget an exact search is not hopeless however many features there are: the
#: depth-two and depth-three solves of ``treeopt/solvers/gosdt/sorted_depth_two.py`` and
#: ``treeopt/solvers/gosdt/depth_three.py`` certify breast cancer with every threshold (15,310 features)
#: in a tenth of a second at depth two and in seconds at depth three (``benchmarks/results_contree.md``),
#: so make_solver does not warn there.
EASY_DEPTH_BUDGET = 3


def warn_if_hopeless(n_rows: int, features) -> None:
    """Warn, with numbers, when the binarization leaves too many features for an exact search.

    Examples
    --------
    >>> from treeopt.binarize import BinaryFeature
    >>> many = [BinaryFeature("x", 0, "threshold", t + 0.5, f"x <= {t}.5") for t in range(1500)]
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_if_hopeless(1501, many)
    >>> print(caught[0].message)  # doctest: +NORMALIZE_WHITESPACE
    the binarization gives 1500 binary features for 1501 rows (x: 1500); an exact search over more
    than 1000 features is hopeless in practice, and the binary table alone takes 2.25 MB. Keep fewer
    thresholds with max_thresholds=... (e.g. 20 per numeric column) or thresholds='guess' (McTavish et
    al. 2022, section 4.1).
    """
    if len(features) <= HOPELESS_FEATURES:
        return
    per_column = Counter(getattr(f, "column", "?") for f in features).most_common(3)
    columns = ", ".join(f"{column}: {count}" for column, count in per_column)
    more = "" if len(per_column) < 3 else ", ..."
    warnings.warn(f"the binarization gives {len(features)} binary features for {n_rows} rows ({columns}{more}); "
                  f"an exact search over more than {HOPELESS_FEATURES} features is hopeless in practice, and the "
                  f"binary table alone takes {format_bytes(n_rows * len(features))}. Keep fewer thresholds with "
                  "max_thresholds=... (e.g. 20 per numeric column) or thresholds='guess' (McTavish et al. 2022, "
                  "section 4.1).", UserWarning, stacklevel=3)


def check_sorted_memory(X, n_classes: int, depth_budget: int | None, memory_limit: int | None) -> None:
    """Refuse a continuous fit whose sorted columns and search would not fit in memory, before sorting.

    The continuous solver never builds the binary table, so its needs are those of
    :func:`treeopt.sorted_columns.search_bytes` (rows × columns, whatever the number of
    thresholds), checked as :func:`check_setup_memory` checks a binarized table: under
    ``memory_limit`` on top of what the process holds, and within what it can still allocate.

    Examples
    --------
    >>> import numpy as np
    >>> check_sorted_memory(np.zeros((1000, 5)), 2, 3, None)       # a few hundred kB: accepted
    >>> check_sorted_memory(np.zeros((100, 2)), 2, 3, 1000)        # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the continuous solver needs about ... for 100 rows × 2 columns at depth 3 on top of the ...
    """
    n_rows, n_columns = _sorted_shape(X)
    depth = depth_budget if depth_budget is not None else 1
    needed = search_bytes(n_rows, n_columns, n_classes, depth)
    what = f"the continuous solver needs about {format_bytes(needed)} for {n_rows} rows × {n_columns} columns " \
           f"at depth {depth}"
    if memory_limit is not None:
        held = resident_memory()
        if held + needed > memory_limit:
            raise ValueError(f"{what} on top of the {format_bytes(held)} the process holds, more than "
                             f"memory_limit={format_bytes(memory_limit)}. Raise memory_limit, or fit on fewer rows "
                             "or columns.")
    if needed <= SMALL_TABLE_BYTES:
        return
    room = memory_room()
    if room is not None and needed > room:
        raise ValueError(f"{what}, more than the {format_bytes(room)} this process can still allocate (the least of "
                         "the available memory, its address-space limit RLIMIT_AS and its cgroup's memory limit). "
                         "Fit on fewer rows or columns.")


def _sorted_shape(X) -> tuple[int, int]:
    """Rows and splittable columns of a table kept as sorted values (a categorical column: one per category)."""
    if isinstance(X, pd.DataFrame):
        n_columns = 0
        for name in X.columns:
            column = X[name]
            numeric = pd.api.types.is_bool_dtype(column.dtype) or (
                pd.api.types.is_numeric_dtype(column.dtype) and not isinstance(column.dtype, pd.CategoricalDtype))
            n_columns += 1 if numeric else max(int(column.nunique(dropna=False)), 1)
        return len(X), n_columns
    shape = np.shape(X)
    return (shape[0], shape[1]) if len(shape) == 2 else (len(X), 1)


#: A binarized table this small (bytes, built twice) is not checked against the free memory.
SMALL_TABLE_BYTES = 16 * 2 ** 20


def check_setup_memory(n_rows: int, n_features: int, memory_limit: int | None) -> None:
    """Refuse a binarized table that would push the process past ``memory_limit`` or the memory it can get.

    The table is ``n_rows × n_features`` bytes (one boolean per row and binary feature), built about
    twice over (the binarizer's matrix, then its distinct rows). It must fit in what the process
    can still allocate (:func:`treeopt.memory.memory_room`: the system's available memory, the
    room under the process's ``RLIMIT_AS`` and under its cgroup's memory limit) and, with a
    ``memory_limit``, on top of what the process holds already
    (:func:`treeopt.memory.resident_memory`) under that limit: better a clear error now than
    numpy's ``MemoryError`` after minutes of work.

    Examples
    --------
    >>> check_setup_memory(50_000, 49_999, 2 * 10**9)    # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: binarizing 50000 rows into 49999 binary features needs about 2.5 GB on top of the ... memory_limit=2 GB...
    """
    needed = n_rows * n_features
    if memory_limit is not None:
        held = resident_memory()
        if held + needed > memory_limit:
            raise ValueError(f"binarizing {n_rows} rows into {n_features} binary features needs about "
                             f"{format_bytes(needed)} on top of the {format_bytes(held)} the process holds, more "
                             f"than memory_limit={format_bytes(memory_limit)}. Keep fewer thresholds "
                             f"(max_thresholds=..., or thresholds='guess') or raise memory_limit.")
    if 2 * needed <= SMALL_TABLE_BYTES:
        return                  # no process lacks that much (so small fits skip reading the limits)
    room = memory_room()
    if room is not None and 2 * needed > room:
        raise ValueError(f"binarizing {n_rows} rows into {n_features} binary features needs about "
                         f"{format_bytes(2 * needed)}, more than the {format_bytes(room)} this process can still "
                         "allocate (the least of the available memory, its address-space limit RLIMIT_AS and "
                         "its cgroup's memory limit). Keep fewer thresholds (max_thresholds=..., e.g. 20 per "
                         "numeric column, or thresholds='guess').")

"""The cross-validated frontier: one frontier per fold, scored on the rows the fold did not see.

:func:`cross_validate_folds` splits the data (any scikit-learn splitter),
runs one frontier search per fold, scores
every frontier tree of the fold on the fold's held-out rows, and aggregates
the folds two ways (a :class:`CVFrontier`):

* **per λ interval** (:attr:`CVFrontier.table`). For a fixed λ each fold's
  regularized optimum is the tree of the fold's lower convex hull whose λ
  interval holds λ (see :mod:`treeopt.frontier.result`), so a fold's choice
  changes only at the ends of its hull intervals. Between two consecutive
  ends of *any* fold (and of the frontier on all the data) every fold keeps
  the same tree, hence the same validation score: the cross-validated score
  is a step function of λ and the table has one row per step, exactly.
* **per number of leaves** (:attr:`CVFrontier.by_leaves`): for each budget
  ``k`` the fold's least-loss tree with at most ``k`` leaves.

Each row says whether every fold's tree is *certified* (proved optimal for
that λ or budget). A fold whose search stopped at its ``time_limit``,
``cache_limit`` or ``memory_limit``, or whose ``max_leaves`` cap cannot certify a small λ, is
reported in the row (``split<i>_status``); such rows are never chosen by the
best-mean or the one-standard-error rule.

The folds are independent jobs run through joblib (``n_jobs=``; any joblib
backend, including Dask's, with ``joblib.parallel_config(backend="dask")``).
A job returns a :class:`FoldResult`: the fold's frontier table, its trees
and a few numbers. The search itself (its memo of subproblems and its
generator) stays in the worker.

The fold loop does not build the searches: its caller hands it the builder (``fit_fold``), a function
that builds and runs one fold's search. The public :func:`treeopt.cross_validate_frontier` passes
``treeopt.frontier_fitting.fold_frontier``, which builds through :func:`treeopt.make_solver`; the builder
sits above this package, so this module does not import it.
"""

from __future__ import annotations

import gc
import math
import os
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from numbers import Integral

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics import get_scorer
from sklearn.model_selection import check_cv

from ..memory import parse_memory_limit
from ..solvers.base import check_cache_limit
from ..tree import Tree
from .result import Frontier

__all__ = ["CVFrontier", "FoldResult", "cross_validate_folds"]

#: The columns of a fold's frontier table that travel back from a worker.
_FOLD_COLUMNS = ["leaves", "loss", "accuracy", "lambda_min", "lambda_max", "on_hull", "certified"]


@dataclass
class FoldResult:
    """What one fold's search sends back: its frontier table and trees, and how the search ended.

    Parameters
    ----------
    fold : int or None
        Index of the fold (``None``: the frontier on all the data).
    status : str
        The search's status: ``"optimal"`` (finished), ``"time_limit"``, ``"cache_limit"`` or
        ``"memory_limit"`` (the process's resident memory passed ``memory_limit``).
    complete : bool
        The search finished: every row of :attr:`table` is certified.
    certified_leaves : int
        Every budget up to this many leaves is certified.
    min_certified_regularization : float
        Every λ at or above this value has its certified optimum in the table.
    table : DataFrame
        The fold's frontier table (``leaves``, ``loss``, ``accuracy``,
        ``lambda_min``, ``lambda_max``, ``on_hull``, ``certified``) plus
        ``test_score``, each tree's score on the fold's held-out rows (NaN for
        the frontier on all the data).
    trees : list of Tree
        The tree of each row of :attr:`table`.
    elapsed : float
        Seconds the job took (search and scoring, wall clock).
    cpu_seconds : float
        CPU seconds of the job's process during the job (steadier than
        :attr:`elapsed` on a loaded machine).
    worker : int
        Process id of the worker that ran the job.
    expansions : int
        Units of work of the search.
    n_train, n_test : int
        Rows fitted on and scored on.
    setup_seconds : float
        Seconds spent binarizing (wall clock; measured with a ``deadline`` only).
    over_guessed_thresholds : bool
        The thresholds were guessed: the certificates cover trees over them only
        (:attr:`Frontier.over_guessed_thresholds <treeopt.frontier.result.Frontier.over_guessed_thresholds>`).
    dataset : Dataset or None
        The binarized data the frontier on all the data searched (None for a fold, and when the setup
        stopped): :class:`~treeopt.OptimalTreeClassifierCV` keeps its certified tree at the chosen λ
        over it instead of binarizing all the data again (and then lets it go).
    """

    fold: int | None
    status: str
    complete: bool
    certified_leaves: int
    min_certified_regularization: float
    table: pd.DataFrame
    trees: list = field(repr=False)
    elapsed: float = 0.0
    expansions: int = 0
    n_train: int = 0
    n_test: int = 0
    min_regularization: float | None = None
    cpu_seconds: float = 0.0
    worker: int = 0
    setup_seconds: float = 0.0
    over_guessed_thresholds: bool = False
    dataset: object = field(default=None, repr=False)

    def row_for(self, regularization: float) -> tuple[int, bool]:
        """(row, certified): the certified tree minimising ``loss + λ × leaves`` (fewest leaves on ties).

        ``certified`` is False when λ is below :attr:`min_certified_regularization`
        (a tree with more leaves than the search certified might be better), and always when no
        row is certified (the fold's setup stopped at ``time_limit``: its best known tree).
        """
        table = self.table
        candidates = np.flatnonzero(table["certified"].to_numpy())
        if not len(candidates):             # nothing proved (the setup stopped): the best known, uncertified
            candidates = np.arange(len(table))
        values = table["loss"].to_numpy()[candidates] + regularization * table["leaves"].to_numpy()[candidates]
        best = candidates[int(np.argmin(values))]          # first minimum: rows are sorted by leaves
        return int(best), bool(regularization >= self.min_certified_regularization)

    def row_for_budget(self, k: int) -> tuple[int, bool]:
        """(row, certified): the least-loss tree with at most ``k`` leaves.

        Certified when budget ``k`` was searched to the end and the row's tree
        is proved minimal (with ``min_regularization``, only the hull trees at
        their own number of leaves are).
        """
        leaves = self.table["leaves"].to_numpy()
        row = int(np.flatnonzero(leaves <= k)[-1])
        certified = bool(self.table["certified"].iat[row]) and k <= self.certified_leaves
        if self.min_regularization and leaves[row] != k:
            # Searched for λ >= min_regularization only: Pareto points off that hull may be missing,
            # so only a hull tree's own budget is proved (FrontierSearch, Notes).
            certified = False
        return row, certified


class _TreeAsClassifier(ClassifierMixin, BaseEstimator):
    """A fixed :class:`~treeopt.tree.Tree` with the fitted-classifier interface scikit-learn's scorers call."""

    def __init__(self, tree=None, smoothing: float = 0.0):
        self.tree = tree
        self.smoothing = smoothing

    def fit(self, X, y=None):   # pragma: no cover - never refitted: scorers only predict
        raise NotImplementedError("a fold's tree is already fitted")

    @property
    def classes_(self):
        return np.asarray(self.tree.classes)

    def predict(self, X):
        return self.tree.predict(X)

    def predict_proba(self, X):
        return self.tree.predict_proba(X, smoothing=self.smoothing)


def _rows(X, index):
    """Rows ``index`` of a DataFrame, Series or array."""
    if hasattr(X, "iloc"):
        return X.iloc[index]
    return np.asarray(X)[index]


def _scorer(scoring):
    """A scikit-learn scorer ``scorer(estimator, X, y, sample_weight=...)``; None means accuracy."""
    if scoring is None:
        return get_scorer("accuracy")
    if isinstance(scoring, str):
        return get_scorer(scoring)
    if callable(scoring):
        return scoring
    raise ValueError(f"scoring must be None, a scorer name such as 'balanced_accuracy', or a callable "
                     f"scorer(estimator, X, y), got {scoring!r}.")


#: The builder of one fold's frontier: ``fit_fold(X_train, y_train, w_train, settings, deadline)`` builds
#: and runs the fold's search and returns its :class:`~treeopt.frontier.result.Frontier` and the seconds
#: its setup took.
FoldBuilder = Callable[..., tuple[Frontier, float]]


def _run_fold(fit_fold: FoldBuilder, fold, X_train, y_train, w_train, X_test, y_test, w_test, settings: dict,
              scorer, smoothing: float, deadline: float | None = None) -> FoldResult:
    """One job: the frontier of one fold (built and run by ``fit_fold``), scored on its held-out rows.
    Runs in a worker.

    With a ``deadline`` (a ``time.time()``), the search stops at it, or after
    ``settings["time_limit"]`` seconds, whichever comes first; the
    binarization before it runs to the end (a fold without its features has
    no tree at all).
    """
    start, cpu = time.perf_counter(), time.process_time()
    settings = dict(settings)
    front, setup = fit_fold(X_train, y_train, w_train, settings, deadline)
    table = front.table[_FOLD_COLUMNS].copy()
    trees = [front.tree(i) for i in range(len(table))]
    scores = []
    for tree in trees:
        if X_test is None:
            scores.append(math.nan)
            continue
        model = _TreeAsClassifier(tree, smoothing)
        if w_test is None:
            scores.append(float(scorer(model, X_test, y_test)))
        else:
            scores.append(float(scorer(model, X_test, y_test, sample_weight=w_test)))
    table["test_score"] = scores
    search = front.search
    status = "time_limit" if front.setup_stopped is not None else str(search.status)   # stopped while binarizing
    result = FoldResult(fold=fold, status=status, complete=bool(front.complete),
                        certified_leaves=int(front.certified_leaves),
                        min_certified_regularization=float(front.min_certified_regularization),
                        table=table, trees=trees, elapsed=time.perf_counter() - start,
                        expansions=int(search.expansions), n_train=len(y_train),
                        n_test=0 if y_test is None else len(y_test),
                        min_regularization=settings.get("min_regularization"),
                        cpu_seconds=time.process_time() - cpu, worker=os.getpid(), setup_seconds=setup,
                        over_guessed_thresholds=front.over_guessed_thresholds,
                        dataset=search.dataset if fold is None and front.setup_stopped is None else None)
    if settings.get("memory_limit") is not None:
        # The search's memo sits in a reference cycle (its generator's frames): collected now, the next job
        # in this process starts from the memory it held before this one instead of from the limit.
        del front, search
        gc.collect()
    return result


def _representative(lo: float, hi: float) -> float:
    """A λ strictly inside ``(lo, hi)`` (at most 1 when possible): every fold's choice there is the interval's."""
    if math.isinf(hi):
        if lo <= 0:
            return 0.5
        return min(2 * lo, (lo + 1) / 2) if lo < 1 else 2 * lo
    return math.sqrt(lo * hi) if lo > 0 else hi / 2


def _fold_status(fold: FoldResult, certified: bool, regularization: float | None = None) -> str:
    """``optimal`` when the fold's tree is certified here; otherwise why not."""
    if certified:
        return "optimal"
    if fold.status != "optimal":
        return fold.status
    if regularization is not None and fold.min_regularization and regularization < fold.min_regularization:
        return "min_regularization"
    return "max_leaves"


class CVFrontier:
    """The frontier cross-validated: scores per λ interval and per number of leaves.

    Built by :func:`treeopt.cross_validate_frontier`.

    Attributes
    ----------
    table : DataFrame
        One row per interval of λ on which every fold (and the frontier on
        all the data) keeps the same tree, sparsest first: ``lambda_min``,
        ``lambda_max``, ``regularization`` (a λ inside the interval),
        ``leaves`` (of the tree fitted on all the data), ``mean_leaves`` (of
        the folds' trees), ``mean_test_score``, ``std_test_score`` (over
        folds, as scikit-learn's ``cv_results_``), ``sem_test_score`` (the
        standard error of the mean, ``std(ddof=1) / sqrt(n_splits)``),
        ``rank_test_score`` (among certified rows; 0 for the others),
        ``certified`` (every fold's tree, and the tree on all the data, is
        proved optimal for this λ), ``n_certified_folds``, ``is_best``,
        ``is_one_se``, and per fold ``split<i>_test_score``,
        ``split<i>_leaves``, ``split<i>_status`` (``"optimal"``;
        ``"time_limit"``, ``"cache_limit"`` or ``"memory_limit"`` when the fold's
        search stopped before certifying this λ; ``"max_leaves"`` when it finished but λ is
        below what ``max_leaves`` certifies; ``"min_regularization"`` when
        λ is below the ``min_regularization`` the searches were asked for).
    by_leaves : DataFrame
        One row per leaf budget ``k = 1..max_leaves``: each fold's least-loss
        tree with at most ``k`` leaves, with the same score and status columns
        and ``leaves`` = ``k``.
    folds : list of FoldResult
        Each fold's frontier table and trees.
    full : FoldResult or None
        The frontier on all the data (``refit=True``).
    n_splits : int
    best_index, one_se_index : int
        Rows of :attr:`table` chosen by the best mean and by the
        one-standard-error rule (the sparsest certified score within one
        standard error of the best mean; Hastie, Tibshirani and Friedman, *The
        Elements of Statistical Learning*, section 7.10). Among the rows of the
        chosen score, the one whose tree on all the data has the folds'
        number of leaves (``leaves`` closest to ``mean_leaves``), the sparsest
        on ties: at the upper end of a plateau of equal scores the data as a
        whole may already take a smaller tree than the folds did.
    best_regularization, one_se_regularization : float
        Their λ (``regularization`` column).
    complete : bool
        Every fold's search finished.

    Examples
    --------
    >>> from sklearn.model_selection import KFold
    >>> from treeopt.datasets import load_monk
    >>> from treeopt import cross_validate_frontier
    >>> X, y = load_monk(1)
    >>> cvf = cross_validate_frontier(X, y, cv=KFold(3, shuffle=True, random_state=0), max_leaves=8)
    >>> cvf.complete, cvf.n_splits, int(cvf.table.loc[cvf.best_index, "leaves"])
    (True, 3, 7)
    >>> cvf.tree_for(cvf.best_regularization).n_leaves
    7
    """

    def __init__(self, folds: list, full: FoldResult | None, *, max_leaves: int, scoring: str):
        self.folds = list(folds)
        self.full = full
        self.n_splits = len(self.folds)
        self.max_leaves = int(max_leaves)
        self.scoring = scoring
        self.complete = all(f.complete for f in self.folds)
        self.table = self._by_lambda()
        self.by_leaves = self._by_budget()
        for frame in (self.by_leaves, self.table):
            best, one_se = _choose(frame, agree=frame is self.table and self.full is not None)
            frame["is_best"] = frame.index == best
            frame["is_one_se"] = frame.index == one_se
        self.best_index, self.one_se_index = best, one_se
        self.best_regularization = float(self.table.at[self.best_index, "regularization"])
        self.one_se_regularization = float(self.table.at[self.one_se_index, "regularization"])

    # -- aggregation -------------------------------------------------------------------
    def _runs(self) -> list:
        return self.folds + ([self.full] if self.full is not None else [])

    def _by_lambda(self) -> pd.DataFrame:
        ends = set()
        for run in self._runs():
            hull = run.table[run.table["on_hull"]]
            ends.update(float(v) for v in hull["lambda_min"].tolist() + hull["lambda_max"].tolist())
            ends.add(run.min_certified_regularization)
        ends = sorted(v for v in ends if 0 < v < math.inf)
        edges = [0.0] + ends + [math.inf]
        rows = []
        for lo, hi in reversed(list(zip(edges, edges[1:]))):     # sparsest (largest λ) first
            if not hi > lo:
                continue
            lam = _representative(lo, hi)
            row = {"lambda_min": lo, "lambda_max": hi, "regularization": lam}
            if self.full is not None:
                full_row, full_certified = self.full.row_for(lam)
                row["leaves"] = int(self.full.table["leaves"].iat[full_row])
            else:
                full_certified = True
            picks = [fold.row_for(lam) for fold in self.folds]
            rows.append(self._row(row, picks, full_certified, lam))
        return pd.DataFrame(rows)

    def _by_budget(self) -> pd.DataFrame:
        rows = []
        for k in range(1, self.max_leaves + 1):
            row = {"leaves": k}
            full_certified = True
            if self.full is not None:
                full_row, full_certified = self.full.row_for_budget(k)
                row["full_leaves"] = int(self.full.table["leaves"].iat[full_row])
            picks = [fold.row_for_budget(k) for fold in self.folds]
            rows.append(self._row(row, picks, full_certified))
        return pd.DataFrame(rows)

    def _row(self, row: dict, picks: list, full_certified: bool, regularization: float | None = None) -> dict:
        scores = np.array([fold.table["test_score"].iat[r] for fold, (r, _) in zip(self.folds, picks)], dtype=float)
        leaves = [int(fold.table["leaves"].iat[r]) for fold, (r, _) in zip(self.folds, picks)]
        certified = [c for _, c in picks]
        n = len(scores)
        row.update({
            "mean_leaves": float(np.mean(leaves)),
            "mean_test_score": float(np.mean(scores)),
            "std_test_score": float(np.std(scores)),
            "sem_test_score": float(np.std(scores, ddof=1) / math.sqrt(n)) if n > 1 else 0.0,
            "certified": bool(all(certified) and full_certified),
            "n_certified_folds": int(sum(certified)),
        })
        for i, (fold, score, k, c) in enumerate(zip(self.folds, scores, leaves, certified)):
            row[f"split{i}_test_score"] = float(score)
            row[f"split{i}_leaves"] = k
            row[f"split{i}_status"] = _fold_status(fold, c, regularization)
        return row

    # -- choices -----------------------------------------------------------------------
    def regularization(self, rule: str = "best") -> float:
        """The chosen λ: ``rule="best"`` (best mean score) or ``"one_se"`` (one-standard-error rule)."""
        if rule == "best":
            return self.best_regularization
        if rule == "one_se":
            return self.one_se_regularization
        raise ValueError(f"rule must be 'best' or 'one_se', got {rule!r}.")

    def tree_for(self, regularization: float) -> Tree:
        """The tree fitted on all the data that is optimal for λ (needs ``refit=True``)."""
        if self.full is None:
            raise ValueError("this cross-validated frontier was built with refit=False: no tree on all the data.")
        row, certified = self.full.row_for(float(regularization))
        if not certified:
            warnings.warn(f"regularization {regularization:g} is below the certified range λ >= "
                          f"{self.full.min_certified_regularization:.6g} of the frontier on all the data.",
                          UserWarning, stacklevel=2)
        return self.full.trees[row]

    def cv_results(self) -> dict:
        """:attr:`table` in the shape of scikit-learn's ``cv_results_`` (a dict of arrays, ``params``)."""
        table = self.table
        results = {"params": [{"regularization": float(v)} for v in table["regularization"]],
                   "param_regularization": np.ma.MaskedArray(table["regularization"].to_numpy(dtype=float),
                                                             mask=False)}
        for column in table.columns:
            if column == "regularization":
                continue
            values = table[column].to_numpy()
            results[column] = values.astype(object) if column.endswith("_status") else values
        results["rank_test_score"] = table["rank_test_score"].to_numpy(dtype=np.int32)
        return results

    def plot(self, *, rule: str | None = None, title: str | None = None):
        """Mean validation score ± one standard deviation against leaves (plotly figure).

        One point per λ interval, at the number of leaves of the tree fitted
        on all the data (or the folds' mean leaves with ``refit=False``);
        uncertified rows are hollow; the best mean and the one-standard-error
        choice are marked. Needs plotly.
        """
        try:
            import plotly.graph_objects as go
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError("CVFrontier.plot needs plotly: pip install plotly (or treeopt[widgets]).") from error
        fig = go.Figure([go.Scatter(**trace) for trace in cv_traces(self.table)])
        fig.update_layout(title=title or f"{self.n_splits}-fold cross-validated frontier",
                          xaxis_title="leaves", yaxis_title=f"validation {self.scoring}", template="plotly_white")
        return fig

    def __repr__(self) -> str:
        columns = [c for c in ["lambda_min", "lambda_max", "leaves", "mean_test_score", "std_test_score",
                               "certified", "is_best", "is_one_se"] if c in self.table]
        state = "complete" if self.complete else "some folds stopped early"
        return (f"CVFrontier({self.n_splits} folds, max_leaves={self.max_leaves}, {state})\n"
                f"{self.table[columns].to_string()}")

    def _repr_html_(self) -> str:
        return f"<p>{self.n_splits}-fold cross-validated frontier</p>" + self.table.to_html()


def _choose(table: pd.DataFrame, agree: bool = False) -> tuple[int, int]:
    """(best, one_se) rows among the certified ones (rows are sparsest first); also sets ``rank_test_score``.

    The score is a step function of λ with plateaus: neighbouring rows where
    the folds keep trees of equal scores. The ends of a plateau are where
    *some* run changes its tree, often the frontier on all the data alone
    (at the plateau's upper end it may already be smaller than the folds'
    trees that earned the score). Among the rows of the chosen score, the
    choice is the row whose tree on all the data has the folds' number of
    leaves (:func:`_agreeing`, with ``agree``: rows per λ with a tree on all
    the data), so the refit is the kind of tree the score describes; the
    sparsest such row on ties.
    """
    certified = table["certified"].to_numpy()
    means = table["mean_test_score"].to_numpy()
    candidates = np.flatnonzero(certified)
    if not len(candidates):                    # pragma: no cover - the single leaf is always certified
        candidates = np.arange(len(table))
    top = means[candidates].max()
    best = _agreeing(table, candidates[np.isclose(means[candidates], top, rtol=0, atol=_SCORE_TIE)], agree)
    threshold = means[best] - table["sem_test_score"].iat[best] - _SCORE_TIE
    within = candidates[means[candidates] >= threshold]
    sparsest = within[0]
    one_se = _agreeing(table, within[np.isclose(means[within], means[sparsest], rtol=0, atol=_SCORE_TIE)], agree)
    ranks = np.zeros(len(table), dtype=np.int32)
    order = sorted(candidates, key=lambda i: -means[i])
    for i in candidates:
        ranks[i] = 1 + sum(means[j] > means[i] + _SCORE_TIE for j in order)
    table["rank_test_score"] = ranks
    return best, one_se


#: Mean scores closer than this are equal (the same fold scores summed in another order).
_SCORE_TIE = 1e-12


def _agreeing(table: pd.DataFrame, rows: np.ndarray, agree: bool) -> int:
    """The row of ``rows`` whose tree on all the data is closest in leaves to the folds' trees (first on ties).

    Without ``agree`` (no tree on all the data, or rows per leaf budget, where
    every run has the same budget), the first row: the sparsest.
    """
    if not agree:
        return int(rows[0])
    gaps = np.abs(table["leaves"].to_numpy(dtype=float)[rows] - table["mean_leaves"].to_numpy()[rows])
    return int(rows[int(np.argmin(gaps))])


def cv_traces(table: pd.DataFrame) -> list[dict]:
    """Plotly trace dictionaries of a :attr:`CVFrontier.table` (no plotly import).

    The mean score with ± one standard deviation error bars (hollow markers
    for uncertified rows), the best mean and the one-standard-error choice.

    Examples
    --------
    >>> t = pd.DataFrame({"leaves": [1, 3], "mean_test_score": [0.5, 0.8], "std_test_score": [0.0, 0.1],
    ...                   "certified": [True, False], "is_best": [False, True], "is_one_se": [True, False]})
    >>> [tr["name"] for tr in cv_traces(t)], cv_traces(t)[0]["error_y"]["array"]
    (['cross-validated', 'best mean', 'one standard error'], [0.0, 0.1])
    """
    x_column = "leaves" if "leaves" in table else "mean_leaves"
    x = table[x_column].tolist()
    y = table["mean_test_score"].tolist()
    symbols = ["circle" if c else "circle-open" for c in table["certified"]]
    traces = [{"x": x, "y": y, "mode": "lines+markers", "name": "cross-validated",
               "error_y": {"type": "data", "array": table["std_test_score"].tolist(), "visible": True},
               "marker": {"symbol": symbols, "size": 9}}]
    for column, name, symbol in (("is_best", "best mean", "star"), ("is_one_se", "one standard error", "diamond")):
        chosen = table.index[table[column]] if column in table else []
        traces.append({"x": [x[table.index.get_loc(i)] for i in chosen],
                       "y": [y[table.index.get_loc(i)] for i in chosen], "mode": "markers", "name": name,
                       "marker": {"symbol": symbol, "size": 16}})
    return traces


def cross_validate_folds(fit_fold: FoldBuilder, X, y, cv=5, *, max_leaves: int = 20, objective="accuracy",
                         omega: float | None = None, min_regularization: float | None = None, sample_weight=None, groups=None,
                         scoring=None, time_limit: float | None = None, cache_limit: int | None = None,
                         memory_limit: int | str | None = None, thresholds: str = "auto", max_thresholds: int | None = None, missing: str = "error",
                         random_state=None, refit: bool = True,
                         n_jobs: int | None = None, proba_smoothing: float = 0.0,
                         deadline: float | None = None) -> CVFrontier:
    """The fold loop of :func:`treeopt.cross_validate_frontier`, with the builder of one fold given.

    Splits the data, runs ``fit_fold`` on each fold's training rows (and, with ``refit``, on all the
    data) as joblib jobs, scores every tree of a fold's frontier on its held-out rows and aggregates
    the folds into a :class:`CVFrontier`.

    Parameters
    ----------
    fit_fold : callable
        ``fit_fold(X_train, y_train, w_train, settings, deadline) -> (Frontier, setup seconds)``: builds
        and runs one fold's frontier search (``treeopt.frontier_fitting.fold_frontier``, which builds
        through :func:`treeopt.make_solver`). It runs in the workers, so it must be picklable.
    X, y, cv, max_leaves, objective, omega, min_regularization, sample_weight, groups, scoring, time_limit, cache_limit, memory_limit, thresholds, max_thresholds, missing, random_state, refit, n_jobs, proba_smoothing, deadline
        As for :func:`treeopt.cross_validate_frontier`, which documents them.

    Returns
    -------
    CVFrontier

    Warns
    -----
    ConvergenceWarning
        When a fold's search stopped at its limit (its uncertified rows are flagged).

    Examples
    --------
    >>> from sklearn.model_selection import KFold
    >>> from treeopt.datasets import load_monk
    >>> from treeopt.frontier_fitting import fold_frontier
    >>> X, y = load_monk(1)
    >>> cvf = cross_validate_folds(fold_frontier, X, y, cv=KFold(3, shuffle=True, random_state=0), max_leaves=8)
    >>> cvf.n_splits, int(cvf.best_index), cvf.tree_for(cvf.best_regularization).n_leaves
    (3, 8, 7)
    """
    from joblib import Parallel, delayed

    if isinstance(max_leaves, bool) or not isinstance(max_leaves, Integral) or max_leaves < 1:
        raise ValueError(f"max_leaves must be a positive integer, got {max_leaves!r}.")
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise ValueError(f"time_limit must be positive seconds or None, got {time_limit!r}.")
    check_cache_limit(cache_limit)
    memory_limit = parse_memory_limit(memory_limit)
    y = np.asarray(y)
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels; they must match.")
    weight = None if sample_weight is None else np.asarray(sample_weight, dtype=float)
    scorer = _scorer(scoring)
    splitter = check_cv(cv, y, classifier=True)
    splits = list(splitter.split(X, y, groups))
    if len(splits) < 2:
        raise ValueError(f"cross-validation needs at least 2 folds, got {len(splits)}.")
    settings = dict(max_leaves=int(max_leaves), objective=objective, omega=omega,
                    min_regularization=min_regularization, time_limit=time_limit, cache_limit=cache_limit,
                    memory_limit=memory_limit, thresholds=thresholds, max_thresholds=max_thresholds, missing=missing,
                    random_state=random_state)

    def pick(values, index):
        return None if values is None else values[index]

    if deadline is not None and not (isinstance(deadline, (int, float)) and math.isfinite(deadline)):
        raise ValueError(f"deadline must be a time.time() value or None, got {deadline!r}.")
    jobs = [delayed(_run_fold)(fit_fold, i, _rows(X, train), y[train], pick(weight, train), _rows(X, test),
                               y[test], pick(weight, test), settings, scorer, proba_smoothing, deadline)
            for i, (train, test) in enumerate(splits)]
    if refit:
        # The search on all the data is the largest job: dispatched first, it overlaps the folds instead
        # of running alone at the end (longest job first; benchmarks/cv_bench.py measures the speedup).
        jobs.insert(0, delayed(_run_fold)(fit_fold, None, X, y, weight, None, None, None, settings, scorer,
                                          proba_smoothing, deadline))
    results = Parallel(n_jobs=n_jobs)(jobs)
    full = results.pop(0) if refit else None
    folds = results
    stopped = [f for f in folds + ([full] if full is not None else []) if not f.complete]
    if stopped:
        names = ", ".join(("all data" if f.fold is None else f"fold {f.fold}") + f" ({f.status}, certified up to "
                          f"{f.certified_leaves} leaves)" for f in stopped)
        warnings.warn(f"some searches stopped before the end: {names}. Rows that need their uncertified part "
                      "are marked certified=False (split<i>_status) and never chosen; raise time_limit, "
                      "cache_limit or memory_limit to certify them.", ConvergenceWarning, stacklevel=2)
    name = scoring if isinstance(scoring, str) else ("accuracy" if scoring is None else "score")
    return CVFrontier(folds, full, max_leaves=max_leaves, scoring=name)

"""The accuracy–sparsity frontier: every optimal tree for every λ from one search.

:func:`~treeopt.frontier_fitting.fit_frontier` runs one :class:`~treeopt.frontier.search.FrontierSearch`
(the minimum-loss tree for every number of leaves ``k <= max_leaves``) and
returns a :class:`Frontier`: a table of the Pareto-optimal trees with the
exact interval of λ on which each is the optimum of the regularized
objective ``loss + λ × leaves`` (GOSDT equation 1), the trees themselves,
and a plot.

Why one search is enough: for a fixed λ the regularized optimum is
``min_k f(k) + λ k`` where ``f(k)`` is the least loss with at most ``k``
leaves. As λ varies, the minimiser moves along the *lower convex hull* of
the points ``(k, f(k))``; the tree at hull vertex ``i`` is optimal exactly
for λ between the slopes of the hull edges on either side of it. Trees
with more than ``max_leaves`` leaves are ruled out for λ large enough:
every tree has loss at least the equivalent-points loss ``eq`` of the whole
data (GOSDT Theorem B.9), so a tree with more than ``c`` leaves has
objective at least ``eq + λ (c + 1)``; the certified interval of each tree
starts where it beats that bound (``c`` = the largest certified budget).
"""

from __future__ import annotations

import math
import warnings
from fractions import Fraction
from typing import Sequence

import numpy as np
import pandas as pd

from .search import FrontierSearch
from ..guessing.thresholds import ThresholdGuessBinarizer
from ..tree import Tree

__all__ = ["Frontier", "regularization_intervals"]


def regularization_intervals(leaves: Sequence[int], losses: Sequence[float], *, floor: float | None = None,
                             beyond: int | None = None) -> list[tuple[float, float]]:
    """The interval of λ on which each point minimises ``loss + λ × leaves``.

    Parameters
    ----------
    leaves : sequence of int
        Strictly increasing numbers of leaves.
    losses : sequence of float
        The least loss for each number of leaves (strictly decreasing).
    floor : float, optional
        A lower bound on the loss of every tree with more than ``beyond``
        leaves (the equivalent-points loss). With it, a point's interval is
        cut where such a tree could win.
    beyond : int, optional
        Trees with more than this many leaves are not in the list (default
        ``max(leaves)``).

    Returns
    -------
    list of (float, float)
        ``(lambda_min, lambda_max)`` per point; ``(nan, nan)`` for points
        that are not optimal for any λ (inside the lower convex hull).
        Computed with exact rational arithmetic, then rounded to float; a
        point on a hull edge gets a one-value interval.

    Examples
    --------
    >>> regularization_intervals([1, 2, 3, 4], [0.5, 0.2, 0.15, 0.0])
    [(0.3, inf), (0.1, 0.3), (nan, nan), (0.0, 0.1)]
    >>> regularization_intervals([1, 2], [0.5, 0.2], floor=0.1, beyond=2)   # a 3-leaf tree may reach 0.1
    [(0.3, inf), (0.1, 0.3)]
    """
    ks = [int(k) for k in leaves]
    ls = [Fraction(float(v)) for v in losses]
    if any(b <= a for a, b in zip(ks, ks[1:])):
        raise ValueError("leaves must be strictly increasing.")
    beyond = max(ks) if beyond is None else int(beyond)
    out = []
    for i, (k, loss) in enumerate(zip(ks, ls)):
        hi = min(((ls[j] - loss) / (k - ks[j]) for j in range(i)), default=None)
        lo = max(((loss - ls[j]) / (ks[j] - k) for j in range(i + 1, len(ks))), default=Fraction(0))
        if floor is not None and beyond >= k:
            lo = max(lo, (loss - Fraction(float(floor))) / (beyond + 1 - k))
        lo = max(lo, Fraction(0))
        if hi is not None and lo > hi:
            out.append((math.nan, math.nan))
        else:
            out.append((float(lo), math.inf if hi is None else float(hi)))
    return out


class Frontier:
    """The accuracy–sparsity frontier found by one search.

    Build it with :func:`frontier` or, from a (possibly paused) search,
    with :meth:`from_search`.

    Attributes
    ----------
    table : DataFrame
        One row per Pareto-optimal tree (and per uncertified budget): ``leaves``;
        ``loss`` (training objective loss, without the λ term);
        ``accuracy`` (training); ``lambda_min``, ``lambda_max`` (the tree is
        the optimum of ``loss + λ × leaves`` exactly for λ in this closed
        interval, NaN if for none); ``on_hull``; ``certified`` (the loss is
        proved minimal for this number of leaves; False for points the search
        has not finished and, with ``min_regularization``, for points off the
        hull for ``λ >= min_regularization``); ``lower_bound`` (proved
        lower bound on the loss for this budget); plus ``<name>_accuracy``
        columns added by :meth:`evaluate`.
    search : FrontierSearch
        The search (resume it with ``search.run()``, then :meth:`refresh`).
    complete : bool
        True when the search finished (every row certified).
    certified_leaves : int
        Every budget up to this many leaves is certified.
    min_certified_regularization : float
        Every λ at or above this value has its certified optimum in the table.
    setup_stopped : str or None
        Set when ``time_limit`` ran out, or a Ctrl-C came, while binarizing, before any search:
        where the setup stopped and the fix. The table then holds the single leaf, uncertified,
        and ``search.status`` is ``"time_limit"`` or ``"interrupted"``.
    over_guessed_thresholds : bool
        True when the numeric columns' thresholds were guessed (``thresholds="guess"``, or
        ``"auto"`` on a table with many thresholds; McTavish et al. 2022, section 4.1): every
        ``certified`` point is then optimal among the trees over the guessed thresholds only,
        not over all thresholds (``thresholds="all"`` searches them all).

    Examples
    --------
    >>> from treeopt import frontier
    >>> from treeopt.datasets import load_monk
    >>> X, y = load_monk(1)
    >>> front = frontier(X, y, max_leaves=8)
    >>> print(front.table[["leaves", "accuracy", "lambda_min", "lambda_max", "on_hull"]].round(4).to_string())
       leaves  accuracy  lambda_min  lambda_max  on_hull
    0       1    0.5000        0.25         inf     True
    1       2    0.7500        0.05        0.25     True
    2       4    0.8333         NaN         NaN    False
    3       6    0.9167         NaN         NaN    False
    4       7    1.0000        0.00        0.05     True
    >>> front.tree_for(regularization=0.02).n_leaves, round(front.objective_for(0.02), 6)
    (7, 0.14)
    """

    def __init__(self, search: FrontierSearch, *, setup_stopped: str | None = None):
        self.search = search
        self.setup_stopped = setup_stopped
        self._evaluations: dict = {}
        self.refresh()

    @classmethod
    def from_search(cls, search: FrontierSearch) -> "Frontier":
        """The frontier as it stands in ``search`` (which may be paused or unfinished)."""
        if not isinstance(search, FrontierSearch):
            raise TypeError(f"search must be a FrontierSearch, got {type(search).__name__}.")
        return cls(search)

    # -- building the table ---------------------------------------------------------
    def refresh(self) -> "Frontier":
        """Rebuild :attr:`table` from the search's current state (after more steps)."""
        search = self.search
        rows = search.front(pareto_only=True)
        model = search.model
        self.max_leaves = search.max_leaves
        self.complete = bool(search._finished)
        self.certified_leaves = search.certified_leaves if search.root is not None else 1
        if self.setup_stopped is not None:
            # The search never saw the binary features: nothing it holds is proved for the data.
            rows = [dict(r, certified=False) for r in rows]
            self.complete, self.certified_leaves = False, 0
        eq = model.to_objective(search.root.eq) if search.root is not None else 0.0
        self.equivalent_points_loss = eq
        trees = [search.tree_for_budget(r["budget"]) for r in rows]
        certified = [i for i, r in enumerate(rows) if r["certified"]]
        # With a depth budget d no tree has more than 2**d leaves: once those budgets are certified,
        # nothing lies beyond the table, and its last point is the optimum down to λ = 0.
        depth = search.depth_budget
        no_tree_beyond = depth is not None and self.certified_leaves >= 2 ** depth
        intervals = regularization_intervals([rows[i]["leaves"] for i in certified],
                                             [rows[i]["loss"] for i in certified],
                                             floor=None if no_tree_beyond else eq, beyond=self.certified_leaves)
        lam = {i: iv for i, iv in zip(certified, intervals)}
        lam0 = search.min_regularization
        if lam0:
            # Searched for λ >= λ₀ only: a point is proved optimal for its budget only while it is on
            # the hull for some λ >= λ₀ (FrontierSearch, Notes); the others are real trees, not proved.
            for i in certified:
                lo, hi = lam[i]
                if math.isnan(lo) or hi < lam0:
                    lam[i] = (math.nan, math.nan)
                    rows[i] = dict(rows[i], certified=False)
                else:
                    lam[i] = (max(lo, lam0), hi)
        total = search.dataset.total_weight
        table = pd.DataFrame({
            "leaves": [r["leaves"] for r in rows],
            "loss": [r["loss"] for r in rows],
            "accuracy": [_training_accuracy(t, total) for t in trees],
            "lambda_min": [lam.get(i, (math.nan, math.nan))[0] for i in range(len(rows))],
            "lambda_max": [lam.get(i, (math.nan, math.nan))[1] for i in range(len(rows))],
            "certified": [r["certified"] for r in rows],
            "lower_bound": [r["lower_bound"] for r in rows],
        })
        table.insert(5, "on_hull", table["lambda_min"].notna())
        self._trees = trees
        self.table = table
        los = table.loc[table["on_hull"], "lambda_min"]
        self.min_certified_regularization = float(los.min()) if len(los) else math.inf
        for name, (X, y, binarized) in self._evaluations.items():
            self._add_accuracy(name, X, y, binarized)
        return self

    # -- trees --------------------------------------------------------------------------
    def tree(self, row: int) -> Tree:
        """The tree of row ``row`` of :attr:`table` (rows are numbered from 0)."""
        if isinstance(row, bool) or not isinstance(row, (int, np.integer)):
            raise TypeError(f"row must be an integer index of the table, got {type(row).__name__}.")
        if not 0 <= row < len(self._trees):
            raise ValueError(f"row must be between 0 and {len(self._trees) - 1}, got {row}.")
        return self._trees[int(row)]

    def row_for(self, regularization: float) -> int:
        """Row of the certified tree that minimises ``loss + λ × leaves`` (fewest leaves on ties).

        λ = 0 asks for the most accurate tree: the frontier certifies it when it was built with a
        ``depth_budget`` (and ``max_leaves`` at least ``2 ** depth_budget``), else it is refused.

        Warns (``UserWarning``) when the search cannot certify that tree for
        this λ: a tree with more leaves than the certified budget might be
        better. The returned row is then the best known, not proved.
        """
        lam = _check_regularization(regularization, zero=self.min_certified_regularization == 0)
        table = self.table
        candidates = table.index[table["certified"]]
        if not len(candidates):                     # nothing proved (the setup stopped): the best known
            candidates = table.index
        scale = self.search.dataset.total_weight
        # Compare in weight units where accuracy losses are integers.
        values = [(round(table.at[i, "loss"] * scale, 9) + lam * scale * table.at[i, "leaves"], i)
                  for i in candidates]
        _, best = min(values, key=lambda v: (v[0], table.at[v[1], "leaves"]))
        if self.setup_stopped is not None:
            warnings.warn(f"{self.setup_stopped} This frontier holds only the single leaf, not proved optimal "
                          f"for regularization {lam:g}.", UserWarning, stacklevel=3)
        elif not (table.at[best, "lambda_min"] <= lam + 1e-12 and lam - 1e-12 <= table.at[best, "lambda_max"]):
            bound = self.min_certified_regularization
            warnings.warn(f"regularization {lam:g} is below the certified range λ >= {bound:.6g} of this "
                          f"frontier: a tree with more than {self.certified_leaves} leaves might be better. "
                          "Raise max_leaves (or the time limit) to certify it.", UserWarning, stacklevel=3)
        return int(best)

    def tree_for(self, regularization: float | None = None, *, leaves: int | None = None) -> Tree:
        """The optimal tree for a λ, or the best tree with at most ``leaves`` leaves.

        Parameters
        ----------
        regularization : float, optional
            λ: returns the minimiser of ``loss + λ × leaves`` (see :meth:`row_for`).
        leaves : int, optional
            Returns the least-loss tree with at most this many leaves.
        """
        if (regularization is None) == (leaves is None):
            raise ValueError("give exactly one of regularization=... or leaves=...")
        if regularization is not None:
            return self._trees[self.row_for(regularization)]
        if isinstance(leaves, bool) or not isinstance(leaves, (int, np.integer)) or leaves < 1:
            raise ValueError(f"leaves must be a positive integer, got {leaves!r}.")
        fitting = self.table.index[self.table["leaves"] <= leaves]
        if leaves > self.max_leaves:
            warnings.warn(f"the frontier was searched up to {self.max_leaves} leaves; returning the best "
                          f"tree with at most {self.max_leaves}.", UserWarning, stacklevel=2)
        return self._trees[int(fitting[-1])]

    def objective_for(self, regularization: float) -> float:
        """``loss + λ × leaves`` of :meth:`tree_for` (training objective)."""
        row = self.row_for(regularization)
        return float(self.table.at[row, "loss"] + float(regularization) * self.table.at[row, "leaves"])

    # -- held-out data ----------------------------------------------------------------
    def evaluate(self, X, y, name: str = "test", *, binarized: bool | None = None) -> pd.DataFrame:
        """Add a column ``<name>_accuracy``: each tree's accuracy on ``(X, y)``.

        Parameters
        ----------
        X : array_like or DataFrame
            Rows in the same format as the training data.
        y : array_like
        name : str, default="test"
        binarized : bool, optional
            Passed to :meth:`Tree.predict`.

        Returns
        -------
        DataFrame
            :attr:`table`, with the new column (kept up to date by :meth:`refresh`).
        """
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"name must be a short identifier such as 'test' or 'holdout', got {name!r}.")
        y = np.asarray(y)
        n = len(X)
        if len(y) != n:
            raise ValueError(f"X has {n} rows but y has {len(y)} labels; they must match.")
        self._evaluations[name] = (X, y, binarized)
        self._add_accuracy(name, X, y, binarized)
        return self.table

    def _add_accuracy(self, name, X, y, binarized) -> None:
        self.table[f"{name}_accuracy"] = [float(np.mean(tree.predict(X, binarized) == y)) for tree in self._trees]

    # -- display -----------------------------------------------------------------------
    def plot(self, *, title: str | None = None):
        """Training (and held-out) accuracy against leaves, as a plotly figure.

        Uncertified points are drawn hollow. Needs plotly (``pip install treeopt[widgets]``).
        """
        try:
            import plotly.graph_objects as go
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError("Frontier.plot needs plotly: pip install plotly (or treeopt[widgets]).") from error
        fig = go.Figure()
        for trace in frontier_traces(self.table):
            fig.add_trace(go.Scatter(**trace))
        fig.update_layout(title=title or f"Accuracy–sparsity frontier (up to {self.max_leaves} leaves)",
                          xaxis_title="leaves", yaxis_title="accuracy", template="plotly_white")
        return fig

    def __len__(self) -> int:
        return len(self.table)

    @property
    def over_guessed_thresholds(self) -> bool:
        """Whether the certificates cover the guessed thresholds only (see the class's attributes)."""
        return isinstance(getattr(self.search.dataset, "binarizer", None), ThresholdGuessBinarizer)

    def _state(self) -> str:
        state = "complete" if self.complete else f"certified up to {self.certified_leaves} leaves"
        return state + (" over the guessed thresholds only" if self.over_guessed_thresholds else "")

    def __repr__(self) -> str:
        state = self._state()
        return f"Frontier({len(self.table)} trees, max_leaves={self.max_leaves}, {state})\n{self.table.to_string()}"

    def _repr_html_(self) -> str:
        state = self._state()
        return f"<p>Frontier: {len(self.table)} trees, max_leaves={self.max_leaves}, {state}</p>" + \
            self.table.to_html()


def frontier_traces(table: pd.DataFrame) -> list[dict]:
    """Plotly scatter-trace dictionaries for a frontier table (no plotly import).

    One trace of training accuracy and one per ``<name>_accuracy`` column;
    uncertified points get hollow markers. The widgets reuse this.

    Examples
    --------
    >>> t = pd.DataFrame({"leaves": [1, 2], "accuracy": [0.5, 0.8], "certified": [True, False]})
    >>> [tr["name"] for tr in frontier_traces(t)], frontier_traces(t)[0]["marker"]["symbol"]
    (['training'], ['circle', 'circle-open'])
    """
    symbols = ["circle" if c else "circle-open" for c in table["certified"]]
    traces = []
    columns = ["accuracy"] + [c for c in table.columns if c.endswith("_accuracy")]
    for column in columns:
        label = "training" if column == "accuracy" else column[: -len("_accuracy")]
        traces.append({"x": table["leaves"].tolist(), "y": table[column].tolist(), "mode": "lines+markers",
                       "name": label, "marker": {"symbol": list(symbols), "size": 10}})
    return traces


def _training_accuracy(tree: Tree, total_weight: float) -> float:
    correct = sum(leaf.counts[leaf.prediction] for _, leaf in tree.leaves())
    return float(correct / total_weight)


def _check_regularization(regularization, *, zero: bool = False) -> float:
    """λ as a float: positive, or 0 when the frontier certifies its λ = 0 end (``zero``)."""
    if isinstance(regularization, bool) or not isinstance(regularization, (int, float, np.floating)) \
            or not math.isfinite(regularization) or regularization < 0:
        raise ValueError(f"regularization must be a positive number, got {regularization!r} "
                         "(the objective cost of one leaf, e.g. 0.01).")
    if regularization == 0 and not zero:
        raise ValueError("regularization=0 asks for the most accurate tree, which this frontier does not "
                         "certify: build it with a depth budget, frontier(X, y, depth_budget=d), whose last "
                         "point is the most accurate tree of depth at most d.")
    return float(regularization)

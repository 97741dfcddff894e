"""``check_bound``: run a bound against the brute-force oracle on small random data.

A lower bound is *safe* when it never prunes every optimal tree: with it on, the search still
certifies the optimum. Checking this by hand means building a problem where the bound fails,
which is what this module does at random: many tiny binary datasets and values of λ, the search
with the bound on and every other pruning bound off (so nothing else hides its prunes), and the
optimum found by exhaustive recursion (:mod:`treeopt.bounds_lab.oracle`). Cases are tried from
the smallest (fewest rows, then fewest features) up, so the first failure is the smallest
counterexample.

The search is OSDT's (``solver="osdt"``) or GOSDT's (``solver="gosdt"``), which runs the same
plug-in on supports (:mod:`treeopt.solvers.gosdt.plugin_bounds`). In GOSDT a lower bound prunes
through the hierarchical bound and the scope (Theorem B.3), so those stay on, and its subsolvers
are switched off so that every support of the search meets the bound.

Passing is evidence, not a proof: a bound that fails only on larger data passes here.

Examples
--------
>>> from treeopt.solvers.plugins import lower_bound
>>> check_bound("lookahead", n_cases=20)
BoundCheck('lookahead': safe on 20 cases)
>>> too_greedy = lower_bound(
...     "splits_never_help", citation="wrong: assumes a split leaf's loss stays",
...     function=lambda node: node.fixed_loss + sum(node.split_losses)
...     + node.regularization * (node.n_leaves + node.n_split))
>>> report = check_bound(too_greedy, n_cases=50)
>>> report.safe, report.counterexample.found_objective > report.counterexample.optimal_objective
(False, True)
>>> check_bound(too_greedy, n_cases=50, solver="gosdt").safe
False
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..building import make_solver
from ..data import Dataset
from ..tree import Tree
from .oracle import optimal_tree
from ..solvers.gosdt.search import GOSDT
from ..solvers.osdt.search import OSDT
from ..solvers.plugins import PluginBound

__all__ = ["check_bound", "BoundCheck", "Counterexample", "random_cases", "LAB_SOLVERS"]

#: The searches that take plug-in lower bounds, by the name ``make_solver`` knows them by, and the
#: built-in bounds a check keeps on beside the one checked (those that apply a lower bound).
LAB_SOLVERS = {"osdt": (OSDT, {"permutation"}), "gosdt": (GOSDT, {"hierarchical", "scope"})}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@dataclass(frozen=True)
class Counterexample:
    """A problem on which a bound pruned every optimal tree.

    Attributes
    ----------
    data : DataFrame
        The binary features and the label ``y``.
    regularization : float
        λ.
    optimal_objective : float
        The true optimum (exhaustive recursion).
    found_objective : float
        The best objective the search certified with the bound on.
    optimal_tree : Tree
        An optimal tree: the bound pruned it (or a partial tree it grows from).
    found_tree : Tree
        The tree the search returned.
    """

    data: pd.DataFrame
    regularization: float
    optimal_objective: float
    found_objective: float
    optimal_tree: Tree
    found_tree: Tree

    def __repr__(self) -> str:
        return (f"counterexample with {len(self.data)} rows, {_plural(self.data.shape[1] - 1, 'feature')}, "
                f"λ = {self.regularization}:\n{self.data.to_string()}\n"
                f"optimal objective {self.optimal_objective:.6g}, found with the bound "
                f"{self.found_objective:.6g}\nthe tree it wrongly pruned:\n"
                f"{self.optimal_tree.rules(show_counts=True)}")


@dataclass(frozen=True)
class BoundCheck:
    """What :func:`check_bound` found.

    Attributes
    ----------
    name : str
        The bound checked.
    n_cases : int
        Random problems tried (all of them when safe; up to the counterexample otherwise).
    counterexample : Counterexample or None
        The smallest problem on which the bound lost the optimum (fewest rows, then features).
    """

    name: str
    n_cases: int
    counterexample: Counterexample | None = None

    @property
    def safe(self) -> bool:
        """Whether the search kept the optimum on every case."""
        return self.counterexample is None

    def __repr__(self) -> str:
        if self.safe:
            return f"BoundCheck({self.name!r}: safe on {self.n_cases} cases)"
        return f"BoundCheck({self.name!r}: UNSAFE, case {self.n_cases}; {self.counterexample!r})"


def random_cases(n_cases: int, max_rows: int, max_features: int, regularizations, random_state: int = 0) -> list:
    """The tiny problems :func:`check_bound` tries, smallest first (rows, then features, then draw).

    Returns
    -------
    list of (X, y, regularization)
        ``X`` of 0/1 with 2 to ``max_rows`` rows and 1 to ``max_features`` columns, ``y`` of 0/1.

    Examples
    --------
    >>> [X.shape for X, _, _ in random_cases(4, 6, 3, [0.1])]
    [(2, 1), (2, 2), (3, 3), (6, 2)]
    """
    rng = np.random.default_rng(random_state)
    cases = []
    for index in range(n_cases):
        n_rows = int(rng.integers(2, max_rows + 1))
        n_features = int(rng.integers(1, max_features + 1))
        X = rng.integers(0, 2, size=(n_rows, n_features))
        y = rng.integers(0, 2, size=n_rows)
        regularization = float(regularizations[int(rng.integers(len(regularizations)))])
        cases.append((n_rows, n_features, index, X, y, regularization))
    cases.sort(key=lambda case: case[:3])
    return [case[3:] for case in cases]


def check_bound(bound, n_cases: int = 200, *, max_rows: int = 10, max_features: int = 4,
                regularizations=(0.01, 0.05, 0.1, 0.2), random_state: int = 0,
                solver: str = "osdt") -> BoundCheck:
    """Check a lower bound against the brute-force optimum on random small binary datasets.

    Parameters
    ----------
    bound : PluginBound or str
        A plug-in from :func:`treeopt.lower_bound`, or the name of one of the search's built-in
        bounds (``"lookahead"``, ...: checked with ``hierarchical``, which applies it).
    n_cases : int, default=200
    max_rows, max_features : int, default=10, 4
        The largest problems tried (every case has at least 2 rows and 1 feature).
    regularizations : sequence of float, default=(0.01, 0.05, 0.1, 0.2)
        The values of λ drawn from.
    random_state : int, default=0
    solver : {"osdt", "gosdt"}, default="osdt"
        The search that runs the bound: OSDT over partial trees, or GOSDT over supports (the
        same plug-in works in both).

    Returns
    -------
    BoundCheck
        ``safe`` and, when not, the smallest ``counterexample`` (data, λ, optimal and found
        objectives, the optimal tree the bound pruned).

    Examples
    --------
    >>> check_bound("leaf_support", n_cases=10).safe
    True
    >>> check_bound("lookahead", n_cases=10, solver="gosdt")
    BoundCheck('lookahead': safe on 10 cases)
    """
    if solver not in LAB_SOLVERS:
        raise ValueError(f"check_bound runs bounds in the searches that take plug-ins, {sorted(LAB_SOLVERS)}; "
                         f"solver={solver!r} takes none. Use solver='osdt' or solver='gosdt'.")
    search, applying = LAB_SOLVERS[solver]
    for name, value, low in (("n_cases", n_cases, 1), ("max_rows", max_rows, 2), ("max_features", max_features, 1)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {value!r}.")
    regularizations = tuple(regularizations)
    if not regularizations or any(not 0 < float(r) <= 1 for r in regularizations):
        raise ValueError(f"regularizations must be values of λ in (0, 1], got {regularizations!r}.")
    pruning = search.SWITCHES.names("bound")
    # OSDT keeps only the leaf permutation cache, which drops copies of queued trees (Corollary 6): a
    # plug-in prunes by itself there. GOSDT prunes with a support's lower bound through the
    # hierarchical bound and the scope, so those stay on.
    if isinstance(bound, PluginBound):
        name, plugins = bound.name, [bound]
        kept = applying
    elif isinstance(bound, str) and bound in pruning:
        name, plugins = bound, []
        kept = applying | {"hierarchical", bound}
    else:
        raise TypeError(f"bound must be a plug-in built with treeopt.lower_bound(name, function) or the name "
                        f"of one of {search.__name__}'s bounds {pruning}; got {bound!r}.")
    switches = {other: other in kept for other in pruning}
    strategies = {other: False for other in search.SWITCHES.names("subsolver")}
    cases = random_cases(n_cases, max_rows, max_features, regularizations, random_state)
    for tried, (X, y, regularization) in enumerate(cases, start=1):
        names = [f"x{j}" for j in range(X.shape[1])]
        dataset = Dataset.from_binary(X, y, feature_names=names, classes=[0, 1])
        optimum, tree = optimal_tree(dataset, regularization=regularization)
        result = make_solver(dataset, None, solver=solver, regularization=regularization, bounds=switches,
                             strategies=strategies, solver_options={"plugins": plugins}).run()
        if result.objective > optimum + 1e-9:
            data = pd.DataFrame(X, columns=names).assign(y=y)
            return BoundCheck(name, tried, Counterexample(data, regularization, optimum, result.objective,
                                                          tree, result.tree))
    return BoundCheck(name, n_cases)

"""The per-bound ablation of the OSDT thesis (its Table 6.2), on any data set.

One row with every bound on, then one row per bound switched off (one at a
time, not cumulative), each run from a cold start until the queue is empty
or the row's time or memory limit stops it. Columns follow Table 6.2: total
time, slowdown against the first row, time to optimum, trees evaluated,
trees evaluated to optimum, peak memory. A row stopped by a limit says so
in ``status`` and its numbers are lower bounds on the real cost (the
thesis's own last row, "no equivalent points bound", is such a row).

Peak memory is measured with :mod:`tracemalloc` (Python allocations of the
search, not the process's RSS); tracing makes the search itself slower, so
``measure_memory=False`` gives cleaner times.

Examples
--------
>>> import numpy as np
>>> from treeopt.data import Dataset
>>> X = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 1]] * 4)
>>> y = np.array([0, 1, 1, 0] * 4)
>>> table = ablation(Dataset.from_binary(X, y), regularization=0.05, bounds=["lookahead"])
>>> table[["variant", "status"]].values.tolist()
[['all bounds', 'optimal'], ['no lookahead', 'optimal']]
>>> table["objective"].round(12).tolist(), bool((table["trees_evaluated"] > 0).all())
([0.1, 0.1], True)
"""

from __future__ import annotations

import time
import tracemalloc

import pandas as pd

from .building import make_solver
from .data import Dataset
from .regularization import DEFAULT_REGULARIZATION
from .solvers.osdt.search import OSDT

__all__ = ["ablation", "TABLE_6_2_BOUNDS"]

#: The bounds Table 6.2 switches off, in its order, with its row labels.
TABLE_6_2_BOUNDS = {
    "leaf_support": "no support bound",
    "incremental_accuracy": "no incremental accuracy bound",
    "leaf_accuracy": "no accuracy bound",
    "lookahead": "no lookahead",
    "equivalent_points": "no equivalent points",
}

COLUMNS = ["variant", "bound_off", "status", "total_time_s", "slowdown", "time_to_optimum_s",
           "trees_evaluated", "trees_to_optimum", "peak_memory_mb", "objective", "lower_bound", "expansions"]


_EXPANSIONS_PER_CHECK = 5


def _one_row(dataset, regularization, schedule, objective, bounds, warm_start, time_limit, memory_limit_mb,
             measure_memory):
    solver = make_solver(dataset, None, solver="osdt", regularization=regularization, objective=objective,
                         bounds=bounds, schedule=schedule, warm_start=warm_start)
    tracing = measure_memory or memory_limit_mb is not None
    if tracing:
        tracemalloc.start()
        tracemalloc.reset_peak()
    start = time.perf_counter()
    status = "optimal"
    try:
        # Small slices of work (a few expansions each) so that both limits are
        # checked often: a row must not finish "optimal" past its memory limit
        # just because the machine was fast enough to end inside one slice.
        while solver.step(_EXPANSIONS_PER_CHECK):
            if time_limit is not None and time.perf_counter() - start >= time_limit:
                status = "stopped at time limit"
                break
            if memory_limit_mb is not None and tracemalloc.get_traced_memory()[1] > memory_limit_mb * 2**20:
                status = "stopped at memory limit"
                break
        peak = tracemalloc.get_traced_memory()[1] / 2**20 if tracing else float("nan")
    finally:
        if tracing:
            tracemalloc.stop()
    total = time.perf_counter() - start
    result = solver.result()
    return {"status": status, "total_time_s": total, "time_to_optimum_s": solver.time_to_optimum,
            "trees_evaluated": solver.trees_evaluated, "trees_to_optimum": solver.trees_to_optimum,
            "peak_memory_mb": peak, "objective": result.objective, "lower_bound": result.lower_bound,
            "expansions": result.expansions}


def ablation(data, y=None, *, regularization: float = DEFAULT_REGULARIZATION, schedule: str = "curiosity",
             objective="accuracy", bounds=None, warm_start=None, time_limit: float | None = 60.0,
             memory_limit_mb: float | None = None, measure_memory: bool = True,
             progress=None) -> pd.DataFrame:
    """Run OSDT with all bounds, then with each bound off; return Table 6.2 as a DataFrame.

    Parameters
    ----------
    data : Dataset or array_like of 0/1
        The data set, or a binary feature matrix (then give ``y``).
    y : array_like, optional
        Labels when ``data`` is a matrix.
    regularization : float, default=0.05
        λ (:data:`~treeopt.regularization.DEFAULT_REGULARIZATION`, as every front end); the thesis's
        ProPublica table used 0.005: pass it to reproduce that table.
    schedule : str, default="curiosity"
    objective : str or Objective, default="accuracy"
    bounds : list of str, optional
        Bounds to switch off one at a time (default: the five of Table 6.2;
        any name of ``OSDT.BOUNDS`` is allowed).
    warm_start : None or "cart", default=None
        The thesis's table is a cold start.
    time_limit : float or None, default=60
        Seconds per row.
    memory_limit_mb : float, optional
        Traced megabytes per row.
    measure_memory : bool, default=True
        Trace allocations to report ``peak_memory_mb`` (slows the search).
    progress : callable, optional
        Called with each finished row (a dict).

    Returns
    -------
    DataFrame
        One row per variant with the columns ``variant``, ``bound_off``,
        ``status`` (``optimal``, ``stopped at time limit`` or ``stopped at
        memory limit``), ``total_time_s``, ``slowdown``,
        ``time_to_optimum_s``, ``trees_evaluated``, ``trees_to_optimum``,
        ``peak_memory_mb``, ``objective``, ``lower_bound``, ``expansions``.
    """
    if not isinstance(data, Dataset):
        if y is None:
            raise ValueError("give the labels y with a feature matrix, or pass a treeopt Dataset.")
        data = Dataset.from_binary(data, y)
    names = list(TABLE_6_2_BOUNDS) if bounds is None else list(bounds)
    unknown = [name for name in names if name not in OSDT.BOUNDS]
    if unknown:
        raise ValueError(f"unknown bound(s) {unknown}; choose among {sorted(OSDT.BOUNDS)}.")
    if time_limit is not None and not time_limit > 0:
        raise ValueError(f"time_limit must be positive seconds or None, got {time_limit!r}.")
    if memory_limit_mb is not None and not memory_limit_mb > 0:
        raise ValueError(f"memory_limit_mb must be positive or None, got {memory_limit_mb!r}.")
    make_solver(data, None, solver="osdt", regularization=regularization, objective=objective,
                schedule=schedule)                                                     # validate first
    rows = []
    for name in [None] + names:
        label = "all bounds" if name is None else TABLE_6_2_BOUNDS.get(name, f"no {name}")
        row = {"variant": label, "bound_off": name or ""}
        row.update(_one_row(data, regularization, schedule, objective, None if name is None else {name: False},
                            warm_start, time_limit, memory_limit_mb, measure_memory))
        rows.append(row)
        if progress is not None:
            progress(row)
    table = pd.DataFrame(rows)
    base = table.loc[0, "total_time_s"]
    table["slowdown"] = table["total_time_s"] / base if base > 0 else float("nan")
    return table[COLUMNS]

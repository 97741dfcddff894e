"""Continuous data: treeopt against ConTree (pycontree) and pytrees-rs's ConTreeClassifier, in one run.

The yardstick of native continuous features: treeopt against the two ConTree implementations.
Data (``continuous_data.py``): scikit-learn's breast cancer, wine, digits and iris,
``../shared/datasets/continuous`` (compas, spiral) and seeded hard data generated in memory
(Gaussian mixtures and oblique boundaries with at least 10 % of the labels moved, up to 100,000
rows); ``--csv PATH`` adds any CSV file (last column = label), e.g. a held-out set.

Two suites:

* **exact**: depth budgets 2-5, λ ∈ {0, 0.001, 0.01}, a 120 s limit per fit. ConTree =
  ``pycontree.ConTree(max_depth=d, complexity_cost=λ)``; pytrees = ``pytrees.ConTreeClassifier(
  max_depth=d)`` (it minimises errors only, so it runs at λ = 0 only); treeopt =
  ``OptimalTreeClassifier(depth_budget=d, regularization=λ, thresholds="all", solver="auto")``,
  what a user writes (validation and binarization included in its time). At λ = 0 it runs with
  ``solver_options={"tie_break": "any"}``, which certifies the errors only, the task ConTree and
  pytrees solve; ``--tie-break fewest_leaves`` runs treeopt's default, which also proves that no tree
  as accurate has fewer leaves, a question the others do not ask. (A treeopt that refuses λ = 0 runs at λ = 1/(2·n·2^d), where the leaf penalty
  of a whole depth-d tree is below half an error, so a tree certified at that λ has the least
  errors of all depth-d trees; the script tries λ = 0 first.)
* **anytime**: depths 4 and 5, λ = 0, each solver stopped at 1 s and, in another fit, at 10 s
  (ConTree, pytrees with ``use_lds=True`` and treeopt), plus scikit-learn's CART at the same depth.
  The primal gap of a fit is (its errors − the best errors known on that data and depth) / the best
  known, over every fit of the run.

Every fit runs in its own subprocess, one at a time, after an untimed warm-up fit of the same
solver on about 40 rows (one-time costs of a process, such as first-use imports, are not a fit's).
The parent polls the child's resident memory and kills it above ``--memory-cap-mb``; the child
reports its own peak (``ru_maxrss``: interpreter, libraries and data included). Times are CPU
seconds of the fit; a fit under 0.1 s counts as 0.1 s in the ratios, and a treeopt fit that does
not certify counts at the time limit. Errors are recomputed from each returned tree's predictions.

In the exact suite a solver skips a cell when it already failed to certify the same data at the same
λ and a smaller depth (a larger λ is not always easier: ConTree certifies some depth-3 fits at λ = 0
sooner than at λ = 0.01), and treeopt skips the cells ConTree
did not certify (the targets are about those ConTree certifies; ``--all-cells`` runs them).
The exact suite runs every dataset at depth 2, then at depth 3, and so on; ``--budget-minutes``
stops starting its fits after that long (the report lists what did not run), except the fits that
measure the memory and scale targets, which run even after the budget or where an easier cell was
not certified. The
anytime suite runs first and is bounded by its limits.

Usage::

    .venv/bin/python benchmarks/continuous_bench.py            # the full suite (make bench-continuous)
    .venv/bin/python benchmarks/continuous_bench.py --quick    # a few small fits, a few minutes
    .venv/bin/python benchmarks/continuous_bench.py --data iris wine --depths 2 3 --suites exact

Results go to ``benchmarks/results_continuous.md`` (JSON lines in ``results_continuous.jsonl``;
``--report-only`` rebuilds the report from them).
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import resource
import subprocess
import sys
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import continuous_data  # noqa: E402  (the data of this benchmark)
from run import command_line, geomean  # noqa: E402  (the shared report helpers)

EXACT_SOLVERS = ["contree", "pytrees", "treeopt"]
ANYTIME_SOLVERS = ["contree", "pytrees-lds", "treeopt"]
LAMBDAS = [0.01, 0.001, 0.0]
#: Depths of the exact suite per dataset in the full run: 2-5 where a 120 s limit can reach them.
FULL_DEPTHS = {"iris": [2, 3, 4, 5], "wine": [2, 3, 4, 5], "spiral": [2, 3, 4, 5], "breast_cancer": [2, 3, 4, 5],
               "compas": [2, 3, 4, 5], "digits": [2, 3, 4], "mixture_5k": [2, 3, 4], "rotated_15k": [2, 3, 4],
               "mixture_30k_10c": [2, 3], "mixture_100k": [2, 3], "ties_2k": [2, 3, 4], "flags_2k": [2, 3, 4],
               "skewed_5k": [2, 3, 4], "many_class_10k": [2, 3, 4], "mixed_10k": [2, 3, 4]}
ANYTIME_DEPTHS = [4, 5]
ANYTIME_LIMITS = [1.0, 10.0]
QUICK = {"data": ["iris", "spiral", "breast_cancer", "mixture_5k"], "depths": [2, 3], "lambdas": [0.01, 0.0],
         "time_limit": 20.0, "anytime_data": ["breast_cancer"], "anytime_depths": [4]}
FLOOR = 0.1          # fits under 0.1 s count as 0.1 s: fixed costs get no more weight than they have
WARM_UP_ROWS = 40
#: The memory and scale targets: (data, depth) → the peak-memory bound in MB.
MEMORY_TARGETS = {("rotated_15k", 4): 1024, ("mixture_100k", 3): 2048}
SCALE_CASE = ("mixture_100k", 3)
PACKAGES = {"contree": "pycontree", "pytrees": "pytrees", "pytrees-lds": "pytrees", "treeopt": "treeopt",
            "cart": "sklearn.tree"}
INSTALL = {"pycontree": "pip install pycontree", "pytrees": "pip install pytrees-rs"}


# -- one fit, in the worker process --------------------------------------------------------------
def fit_contree(X, y, lam, limit, depth):
    from pycontree import ConTree
    Z = X.to_numpy(dtype=float)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                 # "Fitting exceeds time limit." is in the row
        clf = ConTree(max_depth=depth, complexity_cost=lam, time_limit=limit).fit(Z, y)
    config = getattr(clf, "_config", None)
    certified = config.is_within_time_limit() if config is not None else time.perf_counter() - start < limit
    return certified, lambda: clf.predict(Z), int(clf.get_num_leaf_nodes()), {}


def fit_pytrees(X, y, lam, limit, depth, lds=False):
    from pytrees import ConTreeClassifier
    if lam > 0:
        raise ValueError("pytrees' ConTreeClassifier minimises errors only (λ = 0)")
    Z = X.to_numpy(dtype=float)
    clf = ConTreeClassifier(max_depth=depth, max_time=limit, use_lds=lds).fit(Z, y)
    return clf.status_ == "optimal", lambda: clf.predict(Z), int(clf.tree_.n_leaves), {"status": clf.status_}


def fit_treeopt(X, y, lam, limit, depth):
    from sklearn.exceptions import ConvergenceWarning

    from treeopt import OptimalTreeClassifier
    used = lam if lam > 0 or ZERO_ACCEPTED["treeopt"] else 1.0 / (2 * len(y) * 2 ** depth)
    options = {"tie_break": TIE_BREAK[0]} if used == 0 and TIE_BREAK[0] != "fewest_leaves" else None
    clf = OptimalTreeClassifier(depth_budget=depth, regularization=used, time_limit=limit, thresholds="all",
                                solver="auto", solver_options=options)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)        # a stopped search is in the row
        clf.fit(X, y)
    return bool(clf.optimal_), lambda: clf.predict(X), int(clf.tree_.n_leaves), \
        {"lambda_used": used, "solver_used": getattr(clf.solver_, "name", type(clf.solver_).__name__),
         "status": clf.status_}


def fit_cart(X, y, lam, limit, depth):
    from sklearn.tree import DecisionTreeClassifier
    clf = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)
    return False, lambda: clf.predict(X), int(clf.get_n_leaves()), {}


FITS = {"contree": fit_contree, "pytrees": fit_pytrees,
        "pytrees-lds": lambda X, y, lam, limit, depth: fit_pytrees(X, y, lam, limit, depth, lds=True),
        "treeopt": fit_treeopt, "cart": fit_cart}
#: Whether treeopt accepts λ = 0 (found by trying, in the worker's warm-up).
ZERO_ACCEPTED = {"treeopt": False}
#: treeopt's ``tie_break`` at λ = 0 (``--tie-break``): "fewest_leaves" also proves the fewest leaves of the
#: most accurate trees; "any" certifies the errors only, the task ConTree and pytrees solve.
TIE_BREAK = ["any"]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def worker(solver: str, data: str, depth: int, lam: float, limit: float) -> dict:
    """Load the data, warm up, fit once and report the row (errors recomputed from predictions)."""
    import importlib

    import numpy as np
    importlib.import_module(PACKAGES[solver])                    # imports are not part of the fit's time
    X, y = continuous_data.load(data)
    sample = np.arange(0, len(y), max(1, len(y) // WARM_UP_ROWS))
    small_X, small_y = X.iloc[sample].reset_index(drop=True), y[sample]
    if solver == "treeopt":
        from treeopt import OptimalTreeClassifier
        try:                                                     # λ = 0 where treeopt accepts it
            OptimalTreeClassifier(depth_budget=1, regularization=0.0).fit(small_X, small_y)
            ZERO_ACCEPTED["treeopt"] = True
        except ValueError:
            ZERO_ACCEPTED["treeopt"] = False
    FITS[solver](small_X, small_y, 0.0 if solver.startswith("pytrees") else 0.05, 10.0, 2)   # untimed
    cpu0, wall0 = _cpu(), time.perf_counter()
    certified, predict, leaves, extra = FITS[solver](X, y, lam, limit, depth)
    cpu, wall = _cpu() - cpu0, time.perf_counter() - wall0
    errors = int(np.sum(np.asarray(predict()) != y))                 # predictions are not part of the fit
    return {"solver": solver, "data": data, "depth": depth, "lambda": lam, "limit": limit,
            "certified": bool(certified), "errors": errors, "leaves": leaves,
            "objective": errors / len(y) + lam * leaves, "cpu": cpu, "wall": wall,
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
            "rows": len(y), "columns": X.shape[1], "classes": int(y.max()) + 1, **extra}


# -- the parent: one subprocess per fit, memory polled -----------------------------------------
def rss_mb(pid: int) -> tuple[float, float]:
    """(resident, peak resident) MB of a live process, from ``/proc/PID/status`` (0 when gone)."""
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0, 0.0
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    kb = lambda key: float(fields.get(key, "0 kB").split()[0])            # noqa: E731
    return kb("VmRSS") / 1024.0, kb("VmHWM") / 1024.0


def run_fit(solver: str, data: str, depth: int, lam: float, limit: float, memory_cap_mb: float) -> dict:
    """One fit in a fresh subprocess; killed above ``memory_cap_mb`` or at 1.5 × limit + 60 s."""
    base = {"solver": solver, "data": data, "depth": depth, "lambda": lam, "limit": limit, "certified": False}
    command = [sys.executable, __file__, "--worker", solver, data, str(depth), repr(lam), repr(limit), TIE_BREAK[0]]
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    deadline, peak, killed = time.monotonic() + 1.5 * limit + 60, 0.0, None
    while process.poll() is None:
        resident, high = rss_mb(process.pid)
        peak = max(peak, high, resident)
        if resident > memory_cap_mb:
            killed = f"killed above the {memory_cap_mb:.0f} MB memory cap"
        elif time.monotonic() > deadline:
            killed = "killed (hang)"
        if killed:
            process.kill()
            process.wait()
            return {**base, "error": killed, "peak_mb": peak}
        time.sleep(0.02)
    out, err = process.communicate()
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if process.returncode != 0 or not lines:
        tail = (err or out).strip().splitlines()[-1:] or ["no output"]
        return {**base, "error": f"exit {process.returncode}: {tail[0][:160]}", "peak_mb": peak}
    return json.loads(lines[-1])


def least_cpu(run, repeats: int, below: float) -> dict:
    """``run()``'s row with the least CPU time of up to ``repeats`` fresh runs of a fit between
    :data:`FLOOR` and ``below`` seconds (short fits move by half between runs on a shared machine;
    a fit under the floor counts as the floor, so running it again changes nothing)."""
    row, runs = run(), 1
    while runs < repeats and "error" not in row and FLOOR <= row.get("cpu", below) < below:
        again, runs = run(), runs + 1
        if "error" in again:
            break
        row = again if again["cpu"] < row["cpu"] else row
    return {**row, "runs": runs}


def available(solver: str) -> str | None:
    """None when ``solver``'s package imports here, else why not (with the command that installs it)."""
    import importlib.util
    package = PACKAGES[solver].split(".")[0]
    if importlib.util.find_spec(package) is None:
        return f"{package} is not installed ({INSTALL.get(package, 'pip install ' + package)})"
    return None


# -- the plan ----------------------------------------------------------------------------------
def exact_cells(args) -> list[tuple[str, int, float]]:
    """(data, depth, λ) of the exact suite, by data, then depth up and λ down (easiest first)."""
    cells = []
    for data in args.data:
        depths = args.depths or FULL_DEPTHS.get(data, [2, 3, 4, 5])
        cells += [(data, d, lam) for d in sorted(depths) for lam in sorted(args.lambdas, reverse=True)]
    return cells


def run_order(cells: list[tuple[str, int, float]]) -> list[tuple[str, int, float]]:
    """The cells in the order they run: every dataset at depth 2, then at depth 3, and so on (λ down
    within a depth), so a spent budget cuts the deepest fits, not whole datasets. Each cell still comes
    after every easier cell of its data."""
    return sorted(cells, key=lambda c: (c[1], -c[2]))


def target_cell(solver: str, data: str, depth: int, lam: float, lambdas: list[float]) -> bool:
    """Whether this is the fit that measures a memory or scale target for ``solver``: a target size at
    the largest λ the solver runs (pytrees: 0). It runs even where an easier cell was not certified."""
    largest = 0.0 if solver == "pytrees" else max(lambdas)
    return ((data, depth) in MEMORY_TARGETS or (data, depth) == SCALE_CASE) and lam == largest


def dominated(failed: set, data: str, depth: int, lam: float) -> bool:
    """Whether a failed cell of ``data`` at the same λ is at most as deep (a deeper tree is harder)."""
    return any(d == data and fd <= depth and fl == lam for d, fd, fl in failed)


class Runner:
    """Runs fits one at a time, logs each row, and stops starting fits after the budget."""

    def __init__(self, args, log):
        self.args, self.log, self.rows = args, log, []
        self.exact_start = None                 # set when the exact suite starts
        self.missing = {s: available(s) for s in {*args.solvers, "cart"}}
        for solver, why in self.missing.items():
            if why:
                print(f"skipping {solver}: {why}", flush=True)

    def over_budget(self, suite: str) -> bool:
        """Whether the exact suite has spent its budget (the anytime suite is bounded by its limits)."""
        if suite != "exact" or self.args.budget_minutes <= 0 or self.exact_start is None:
            return False
        return time.monotonic() - self.exact_start > 60 * self.args.budget_minutes

    def fit(self, suite: str, solver: str, data: str, depth: int, lam: float, limit: float,
            skip: str | None = None, target: bool = False) -> dict:
        base = {"suite": suite, "solver": solver, "data": data, "depth": depth, "lambda": lam, "limit": limit,
                "certified": False}
        if self.missing.get(solver):
            row = {**base, "skipped": self.missing[solver]}
        elif skip:
            row = {**base, "skipped": skip}
        elif not target and self.over_budget(suite):
            row = {**base, "skipped": f"not run: the {self.args.budget_minutes:g}-minute budget was spent"}
        else:
            repeats = self.args.repeats if suite == "exact" else 1
            row = {"suite": suite, **least_cpu(lambda: run_fit(solver, data, depth, lam, limit,
                                                               self.args.memory_cap_mb),
                                              repeats, self.args.repeat_below)}
        self.rows.append(row)
        self.log.write(json.dumps(row) + "\n")
        self.log.flush()
        print(f"{suite:7s} {data:16s} d={depth} λ={lam:<6g} {solver:11s} {limit:>5g}s  {describe(row)}", flush=True)
        return row


def describe(row: dict) -> str:
    if "skipped" in row:
        return "skipped: " + row["skipped"]
    if "error" in row:
        return row["error"]
    return (f"{'certified' if row['certified'] else 'stopped  '} errors={row['errors']:<6d} "
            f"leaves={row['leaves']:<3d} {row['cpu']:.2f}s {row['peak_mb']:.0f}MB")


def run_exact(runner: Runner, args) -> None:
    failed = {s: set() for s in EXACT_SOLVERS}
    contree_certified = set()
    runner.exact_start = time.monotonic()
    for data, depth, lam in run_order(exact_cells(args)):
        for solver in [s for s in EXACT_SOLVERS if s in args.solvers]:
            if solver == "pytrees" and lam > 0:
                continue
            skip, target = None, target_cell(solver, data, depth, lam, args.lambdas)
            if not target and dominated(failed[solver], data, depth, lam):
                skip = "not run: a smaller depth at the same λ was not certified"
            elif (not target and solver == "treeopt" and not args.all_cells and "contree" in args.solvers
                  and not runner.missing.get("contree") and (data, depth, lam) not in contree_certified):
                skip = "not run: ConTree did not certify this cell (--all-cells runs it)"
            row = runner.fit("exact", solver, data, depth, lam, args.time_limit, skip, target)
            if "skipped" not in row and not row["certified"]:
                failed[solver].add((data, depth, lam))
            if solver == "contree" and row["certified"]:
                contree_certified.add((data, depth, lam))


def run_anytime(runner: Runner, args) -> None:
    solvers = [s for s in ANYTIME_SOLVERS if s.removesuffix("-lds") in args.solvers]
    for data in args.anytime_data:
        for depth in args.anytime_depths:
            runner.fit("anytime", "cart", data, depth, 0.0, 0.0)
            for solver in solvers:
                certified_at = None
                for limit in ANYTIME_LIMITS:
                    if certified_at is not None:             # certified within the shorter limit: the same tree
                        row = {**certified_at, "limit": limit, "reused": True}
                        runner.rows.append(row)
                        runner.log.write(json.dumps(row) + "\n")
                        continue
                    row = runner.fit("anytime", solver, data, depth, 0.0, limit)
                    if row.get("certified"):
                        certified_at = row


# -- the report --------------------------------------------------------------------------------
def seconds(row: dict, limit: float) -> float:
    """CPU seconds of a fit, at least :data:`FLOOR`; ``limit`` when it did not certify (stopped,
    killed, failed or not run because an easier cell was not certified)."""
    return max(row["cpu"], FLOOR) if row.get("certified") else limit


def errors_cell(row: dict | None) -> str:
    """A fit's errors, bold when certified; ``-`` when absent, ``×`` when it failed or did not run."""
    if row is None:
        return "-"
    if "errors" not in row:
        return "×"
    return f"**{row['errors']}**" if row["certified"] else str(row["errors"])


def anytime_cell(row: dict | None) -> str:
    """:func:`errors_cell`, with the wall seconds of a fit that ran past 1.5 × its limit."""
    text = errors_cell(row)
    if row and "wall" in row and row["wall"] > 1.5 * row["limit"]:
        text += f" ({row['wall']:.1f} s)"
    return text


@functools.cache
def leaf_errors(data: str) -> int:
    """Errors of a single leaf (the majority class) on ``data``."""
    import numpy as np
    _, y = continuous_data.load(data)
    return int(len(y) - np.bincount(y).max())


def peak_cell(row: dict | None) -> str:
    return f"{row['peak_mb']:.0f}" if row and "peak_mb" in row and "skipped" not in row else "-"


def cell(row: dict | None) -> str:
    """A fit as ``errors (CPU s)``, bold when certified."""
    if row is None:
        return "-"
    if "skipped" in row:
        return "·" if row["skipped"].startswith("not run") else "n/a"
    if "error" in row:
        return short(row["error"])
    mark = "**" if row["certified"] else ""
    return f"{mark}{row['errors']}{mark} ({row['cpu']:.2f} s)"


def short(error: str) -> str:
    """A worker's error in a table cell: its first clause (the JSON lines keep the whole message)."""
    text = error.replace("|", "/").split(", more than")[0].split(" (")[0]
    return text if len(text) <= 90 else text[:87] + "..."


def report(rows: list[dict], args) -> str:
    exact = {(r["solver"], r["data"], r["depth"], round(r["lambda"], 6)): r for r in rows if r["suite"] == "exact"}
    anytime = {(r["solver"], r["data"], r["depth"], r["limit"]): r for r in rows if r["suite"] == "anytime"}
    shape = {r["data"]: (r["rows"], r["columns"], r["classes"]) for r in rows if "rows" in r}
    lambda_used = sorted({r["lambda_used"] != r["lambda"] for r in rows
                          if r["solver"] == "treeopt" and "lambda_used" in r})
    out = ["# Continuous data: treeopt vs ConTree (pycontree) and pytrees-rs", "",
           command_line("continuous_bench.py", args.time_limit), "",
           "Seconds are CPU seconds of the fit in a worker process after an untimed warm-up fit (imports and "
           "data loading excluded); the machine was shared with other work, so treat them as indicative and "
           "compare ratios. Errors are recomputed from each returned tree on the training data. Peak memory is "
           "the worker's peak resident set (interpreter, libraries and data included).", ""]
    out += [f"treeopt at λ = 0: `tie_break={args.tie_break!r}` ("
            + ("the errors certified, as ConTree and pytrees certify them" if args.tie_break == "any" else
               "the errors certified and, of the most accurate trees, the fewest leaves; ConTree and pytrees "
               "certify the errors only") + ").", ""]
    if True in lambda_used:
        out += ["treeopt refused λ = 0 at this commit: its λ = 0 fits ran at λ = 1/(2·n·2^d), where a certified "
                "tree has the least errors of all depth-d trees (the leaf penalty of a whole tree is below half "
                "an error).", ""]
    # Exact.
    out += ["## Exact", "",
            f"Cells: errors (CPU s), **bold** = certified; `·` = not run (a smaller depth at the same λ was "
            f"not certified, ConTree did not certify it, or the budget was spent), n/a = not available. Time "
            f"limit {args.time_limit:g} s (wall clock, each solver's own). Ratio = treeopt / ConTree on the cells "
            f"ConTree certifies (fits under "
            f"{FLOOR:g} s count as {FLOOR:g} s; a treeopt fit not certified counts as {args.time_limit:g} s).", "",
            "| data (n × p, k) | d | λ | ConTree | pytrees | treeopt | ratio | same | peak MB ConTree / pytrees / "
            "treeopt |", "|---|---|---|---|---|---|---|---|---|"]
    ratios, worst, counted, same, missed = [], (0.0, None), 0, 0, []
    certified = {s: 0 for s in EXACT_SOLVERS}
    for data, depth, lam in exact_cells(args):
        r = {s: exact.get((s, data, depth, round(lam, 6))) for s in EXACT_SOLVERS}
        for s, row in r.items():
            certified[s] += bool(row and row.get("certified"))
        ratio, agree = "", ""
        theirs, mine = r["contree"], r["treeopt"]
        if theirs and theirs.get("certified"):
            counted += 1
            if mine is not None:
                value = seconds(mine, args.time_limit) / max(theirs["cpu"], FLOOR)
                ratios.append(value)
                worst = max(worst, (value, f"{data} d={depth} λ={lam:g}"), key=lambda t: t[0])
                ratio = f"{value:.2f}"
                ok = bool(mine.get("certified")) and (mine["errors"] == theirs["errors"] if lam == 0 else
                                                      abs(mine["objective"] - theirs["objective"]) <= 1e-9)
                same += ok
                agree = "yes" if ok else "**no**"
                if not ok:
                    missed.append(f"{data} d={depth} λ={lam:g}")
        n, p, k = shape.get(data, ("?", "?", "?"))
        out.append(f"| {data} ({n} × {p}, {k}) | {depth} | {lam:g} | {cell(theirs)} | {cell(r['pytrees'])} | "
                   f"{cell(mine)} | {ratio} | {agree} | {' / '.join(peak_cell(r[s]) for s in EXACT_SOLVERS)} |")
    geo = geomean(ratios)
    out += ["", "### Exact targets", "",
            f"- Certified: ConTree {certified['contree']}, pytrees {certified['pytrees']} (λ = 0 only), "
            f"treeopt {certified['treeopt']}, of {len(exact_cells(args))} cells.",
            f"- Of the {counted} cells ConTree certifies, treeopt certifies {same} with the same errors (λ = 0) or "
            f"objective (λ > 0: equal objectives may trade an error for a leaf) — target: all."
            + (f" Missed: {', '.join(missed)}." if missed else ""),
            f"- Time ratio treeopt / ConTree, geometric mean over them: **{geo:.3g}** (target ≤ 1); the largest "
            f"**{worst[0]:.3g}** ({worst[1]}) (target ≤ 3).", ""]
    # Anytime.
    out += anytime_section(anytime, exact, args)
    out += memory_section(rows, exact, args)
    return "\n".join(out) + "\n"


def anytime_section(anytime: dict, exact: dict, args) -> list[str]:
    out = ["## Anytime (λ = 0)", "",
           "Errors of the tree each solver returns when stopped at 1 s and at 10 s (separate fits; "
           "**bold** = certified by then), CART = `DecisionTreeClassifier(max_depth=d)`. Best = the least "
           "errors of any fit of this run on that data and depth (exact suite included; * = certified). "
           "Gap = (errors − best) / best at 10 s (a best of 0 counts as 1); a fit that returned no tree (×) "
           "counts with a single leaf's errors. The limits are each solver's own wall-clock limit: on a loaded "
           "machine a solver gets less CPU within them (CPU seconds are in the JSON lines); a fit that ran past "
           "1.5 × its limit shows its wall seconds.", "",
           "| data | d | best | CART | ConTree 1 s / 10 s | pytrees LDS 1 s / 10 s | treeopt 1 s / 10 s "
           "| gap ConTree / LDS / treeopt | treeopt ≤ CART |", "|---|---|---|---|---|---|---|---|---|"]
    gaps = {s: [] for s in ANYTIME_SOLVERS}
    worse_than_cart, compared = [], 0
    for data in args.anytime_data:
        for depth in args.anytime_depths:
            fits = [r for (s, d, dd, _), r in anytime.items() if d == data and dd == depth and "errors" in r]
            fits += [r for (s, d, dd, lam), r in exact.items() if d == data and dd == depth and lam == 0
                     and "errors" in r]
            if not fits:
                continue
            best = min(r["errors"] for r in fits)
            proven = any(r["certified"] and r["errors"] == best for r in fits if r["solver"] != "cart")
            cart = anytime.get(("cart", data, depth, 0.0))

            def at(solver, limit):
                return anytime.get((solver, data, depth, limit))

            def show(solver):
                return " / ".join(anytime_cell(at(solver, limit)) for limit in ANYTIME_LIMITS)

            def errors_at(solver, limit):
                """The fit's errors; a fit that returned no tree (failed or killed) has a single leaf's."""
                row = at(solver, limit)
                if row is None or "skipped" in row:
                    return None
                return row["errors"] if "errors" in row else leaf_errors(data)

            row_gaps = []
            for solver in ANYTIME_SOLVERS:
                errors = errors_at(solver, ANYTIME_LIMITS[-1])
                if errors is not None:
                    gap = (errors - best) / max(best, 1)
                    gaps[solver].append(gap)
                    row_gaps.append(f"{gap:.3f}")
                else:
                    row_gaps.append("-")
            mine = errors_at("treeopt", ANYTIME_LIMITS[-1])
            versus = ""
            if mine is not None and cart and "errors" in cart:
                compared += 1
                versus = "yes" if mine <= cart["errors"] else "**no**"
                if mine > cart["errors"]:
                    worse_than_cart.append(f"{data} d={depth}")
            out.append(f"| {data} | {depth} | {best}{'*' if proven else ''} | {errors_cell(cart)} | "
                       f"{show('contree')} | {show('pytrees-lds')} | {show('treeopt')} | {' / '.join(row_gaps)} | "
                       f"{versus} |")
    mean = {s: (sum(v) / len(v) if v else float("nan")) for s, v in gaps.items()}
    out += ["", "### Anytime targets", "",
            f"- Mean primal gap at 10 s: ConTree {mean['contree']:.4f}, pytrees LDS {mean['pytrees-lds']:.4f}, "
            f"treeopt **{mean['treeopt']:.4f}** (target: at most the least of the other two, "
            f"{min(mean['contree'], mean['pytrees-lds']):.4f}).",
            f"- treeopt's tree at 10 s is no worse than CART's on {compared - len(worse_than_cart)} / {compared} "
            f"(target: all)" + (f"; worse on {', '.join(worse_than_cart)}." if worse_than_cart else "."), ""]
    return out


def memory_section(rows: list[dict], exact: dict, args) -> list[str]:
    out = ["## Memory and scale", "",
           "Peak resident memory (MB) of each solver's fits on the target sizes (the most over λ and both "
           "suites), and whether it certified.", "",
           "| data, d | bound | ConTree | pytrees | treeopt | target met |", "|---|---|---|---|---|---|"]
    for (data, depth), bound in MEMORY_TARGETS.items():
        cells, met = [], ""
        for solver in EXACT_SOLVERS:
            fits = [r for r in rows if r["solver"] == solver and r["data"] == data and r["depth"] == depth
                    and "peak_mb" in r and "skipped" not in r]
            if not fits:
                cells.append("-")
                continue
            peak = max(r["peak_mb"] for r in fits)
            ok = all(r.get("certified") for r in fits)
            cells.append(f"{peak:.0f}{' (certified)' if ok else ''}")
            if solver == "treeopt":       # met: within the bound, and every fit certified
                met = "yes" if peak <= bound and ok else "**no**"
        out.append(f"| {data}, {depth} | {bound} MB | {' | '.join(cells)} | {met} |")
    data, depth = SCALE_CASE
    lines = []
    for lam in args.lambdas:
        theirs, mine = (exact.get((s, data, depth, round(lam, 6))) for s in ("contree", "treeopt"))
        if theirs and mine and ("cpu" in theirs or "cpu" in mine):
            # Within ConTree's time, or within the limit where ConTree did not certify.
            ok = bool(mine.get("certified")) and (not theirs.get("certified") or mine["cpu"] <= theirs["cpu"])
            lines.append(f"- λ = {lam:g}: ConTree {cell(theirs)}, treeopt {cell(mine)}: certified within ConTree's "
                         f"time: {'yes' if ok else '**no**'}")
    out += ["", f"Scale ({data}, depth {depth}):", ""] + (lines or ["- not run"]) + [""]
    return out


# -- the command line --------------------------------------------------------------------------
def parse(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     epilog="The full suite is the default (make bench-continuous); see the "
                                            "module docstring for what it measures.")
    parser.add_argument("--worker", nargs=6, help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true", help="a few small fits (a few minutes)")
    parser.add_argument("--suites", nargs="+", default=["exact", "anytime"], choices=["exact", "anytime"])
    parser.add_argument("--data", nargs="+", help=f"datasets of the exact suite (default: {continuous_data.names()})")
    parser.add_argument("--csv", nargs="+", default=[], metavar="PATH",
                        help="CSV files (last column = label) added to both suites, e.g. a held-out set")
    parser.add_argument("--depths", nargs="+", type=int, help="depths of the exact suite (default: per dataset, 2-5)")
    parser.add_argument("--lambdas", nargs="+", type=float, default=LAMBDAS)
    parser.add_argument("--anytime-data", nargs="+", help="datasets of the anytime suite (default: as --data)")
    parser.add_argument("--anytime-depths", nargs="+", type=int, default=ANYTIME_DEPTHS)
    parser.add_argument("--solvers", nargs="+", default=["contree", "pytrees", "treeopt"],
                        choices=["contree", "pytrees", "treeopt"],
                        help="pytrees = ConTreeClassifier exact, and with use_lds=True in the anytime suite")
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per exact fit")
    parser.add_argument("--memory-cap-mb", type=float, default=4096.0, help="a fit above it is killed")
    parser.add_argument("--budget-minutes", type=float, default=45.0,
                        help="start no exact fit after the exact suite has run this many minutes (0: no budget)")
    parser.add_argument("--all-cells", action="store_true", help="run treeopt on cells ConTree did not certify")
    parser.add_argument("--tie-break", choices=["fewest_leaves", "any"], default="any",
                        help="treeopt's tie_break at λ = 0: 'any' (default) certifies the errors only, the task "
                             "ConTree and pytrees solve; 'fewest_leaves' (treeopt's own default) also proves that "
                             "no tree as accurate has fewer leaves")
    parser.add_argument("--repeats", type=int, default=2,
                        help="exact fits under --repeat-below seconds run this many times; the least CPU counts")
    parser.add_argument("--repeat-below", type=float, default=1.0)
    parser.add_argument("--output", default=str(HERE / "results_continuous.md"))
    parser.add_argument("--jsonl", default=str(HERE / "results_continuous.jsonl"))
    parser.add_argument("--report-only", action="store_true", help="rebuild the report from --jsonl")
    args = parser.parse_args(argv)
    if args.quick:
        args.data = args.data or QUICK["data"]
        args.depths = args.depths or QUICK["depths"]
        args.anytime_data = args.anytime_data or QUICK["anytime_data"]
        if args.anytime_depths == ANYTIME_DEPTHS:
            args.anytime_depths = QUICK["anytime_depths"]
        if args.lambdas == LAMBDAS:
            args.lambdas = QUICK["lambdas"]
        if args.time_limit == 120.0:
            args.time_limit = QUICK["time_limit"]
    args.data = (args.data or continuous_data.names()) + [f"csv={path}" for path in args.csv]
    args.anytime_data = (args.anytime_data or args.data[:len(args.data) - len(args.csv)]) + \
        [f"csv={path}" for path in args.csv]
    return args


def without_paths(argv: list[str]) -> list[str]:
    """``argv`` without ``--output`` and ``--jsonl`` and their values (where a run wrote is not what it ran)."""
    kept, skip = [], False
    for word in argv:
        if skip:
            skip = False
        elif word in ("--output", "--jsonl"):
            skip = True
        else:
            kept.append(word)
    return kept


def main(argv=None) -> int:
    args = parse(argv)
    TIE_BREAK[0] = args.tie_break
    if args.worker:
        solver, data, depth, lam, limit, TIE_BREAK[0] = args.worker
        print(json.dumps(worker(solver, data, int(depth), float(lam), float(limit))))
        return 0
    if args.report_only:
        rows = [json.loads(line) for line in Path(args.jsonl).read_text().splitlines() if line.strip()]
        header = rows.pop(0) if rows and "argv" in rows[0] else {"argv": sys.argv[1:]}
        sys.argv[1:] = without_paths(header["argv"])      # the report names the command that ran the fits
    else:
        with open(args.jsonl, "w") as log:
            log.write(json.dumps({"argv": sys.argv[1:]}) + "\n")
            runner = Runner(args, log)
            if "anytime" in args.suites:
                run_anytime(runner, args)
            if "exact" in args.suites:
                run_exact(runner, args)
            rows = runner.rows
    text = report(rows, args)
    Path(args.output).write_text(text)
    print(text)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

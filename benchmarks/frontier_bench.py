"""One frontier search against separate GOSDT runs over a grid of λ.

For each dataset: one :class:`~treeopt.frontier.search.FrontierSearch`
(every optimal tree for every λ at or above ``min_regularization``, up to
``max_leaves`` leaves), then one GOSDT run per λ of the grid. For every λ the
frontier certifies and GOSDT proves optimal, the two objectives must agree to
1e-9 (the tree chosen by the frontier is re-scored from its predictions).

Grids:

* ``g6``: the 29 values of the GOSDT paper's appendix G.6 (0.2 ... 0.0001),
  on compas-binary, monk2, tic-tac-toe and car-evaluation (the benchmark of
  the issue: time of one frontier search vs the sum of the 29 GOSDT runs).
* ``check``: the 8 values {0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001} on
  every public binary dataset (the exactness check of the issue).

Usage::

    .venv/bin/python benchmarks/frontier_bench.py                       # both suites, 300 s limits
    .venv/bin/python benchmarks/frontier_bench.py --suite g6 --gosdt-time-limit 60 --jobs 4

Writes ``benchmarks/results_frontier.md`` (``--output``). Timings depend on
the machine and on its load; the file records the command and the date.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TREEOPT_SHARED", ROOT.parent / "shared"))

G6_GRID = [0.2, 0.1, 0.09, 0.08, 0.07, 0.06, 0.05, 0.04, 0.03, 0.02, 0.01, 0.009, 0.008, 0.007, 0.006, 0.005,
           0.004, 0.003, 0.002, 0.001, 0.0009, 0.0008, 0.0007, 0.0006, 0.0005, 0.0004, 0.0003, 0.0002, 0.0001]
CHECK_GRID = [0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001]
G6_DATASETS = ["compas-binary", "monk2", "tic-tac-toe", "car-evaluation"]
ALL_BINARY = ["monk1", "monk2", "monk3", "balance-scale", "tic-tac-toe", "car-evaluation", "compas-binary",
              "fico-binary"]


def load(name: str):
    from treeopt import Dataset
    frame = pd.read_csv(SHARED / "datasets" / "binary" / f"{name}.csv", sep=";")
    X, y = frame.iloc[:, :-1], frame.iloc[:, -1]
    return X, y, Dataset.from_binary(X, y)


def run_dataset(name: str, grid: list, max_leaves: int, min_regularization: float | None,
                frontier_limit: float, gosdt_limit: float) -> dict:
    """One frontier search and one GOSDT run per λ on one dataset."""
    import warnings

    from treeopt import Frontier
    from treeopt.solvers import GOSDT
    from treeopt.frontier.search import FrontierSearch

    X, y, dataset = load(name)
    start = time.perf_counter()
    search = FrontierSearch(dataset, max_leaves=max_leaves, min_regularization=min_regularization)
    search.run(time_limit=frontier_limit)
    frontier_time = time.perf_counter() - start
    front = Frontier.from_search(search)
    rows = []
    for lam in grid:
        t0 = time.perf_counter()
        result = GOSDT(dataset, regularization=lam).run(time_limit=gosdt_limit)
        gosdt_time = time.perf_counter() - t0
        certified = lam >= front.min_certified_regularization - 1e-15
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = front.tree_for(regularization=lam)
        rescored = tree.objective(X, y, lam, binarized=True)
        rows.append({"lambda": lam, "gosdt_time": gosdt_time, "gosdt_optimal": bool(result.optimal),
                     "gosdt_objective": result.objective, "gosdt_leaves": result.tree.n_leaves,
                     "frontier_certified": certified, "frontier_objective": rescored,
                     "frontier_leaves": tree.n_leaves})
    return {"dataset": name, "n": dataset.n_rows, "features": dataset.n_features, "frontier_time": frontier_time,
            "frontier_status": search.status, "certified_leaves": search.certified_leaves,
            "min_certified": front.min_certified_regularization, "frontier_trees": len(front.table),
            "expansions": search.expansions, "problems": len(search.problems), "rows": rows,
            "max_leaves": max_leaves, "min_regularization": min_regularization}


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub markdown table (no tabulate dependency)."""
    def cell(value):
        if isinstance(value, float):
            return "inf" if math.isinf(value) else f"{value:.10g}"
        return str(value)
    header = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "| " + " | ".join("---" for _ in frame.columns) + " |"
    body = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *body])


def summarize(result: dict) -> dict:
    rows = pd.DataFrame(result["rows"])
    both = rows[rows["frontier_certified"] & rows["gosdt_optimal"]]
    mismatch = both[(both["frontier_objective"] - both["gosdt_objective"]).abs() > 1e-9]
    # λ the frontier certified but GOSDT did not: the frontier must be at least as good as GOSDT's incumbent.
    only_front = rows[rows["frontier_certified"] & ~rows["gosdt_optimal"]]
    worse = only_front[only_front["frontier_objective"] > only_front["gosdt_objective"] + 1e-9]
    return {
        "dataset": result["dataset"],
        "max_leaves": result["max_leaves"],
        "λ₀": result["min_regularization"] if result["min_regularization"] else 0,
        "frontier s": round(result["frontier_time"], 2),
        "frontier status": result["frontier_status"],
        "certified λ ≥": f"{result['min_certified']:.3g}",
        "λ certified by frontier": int(rows["frontier_certified"].sum()),
        "GOSDT s (all λ)": round(float(rows["gosdt_time"].sum()), 2),
        "GOSDT s (λ frontier certified)": round(float(rows.loc[rows["frontier_certified"], "gosdt_time"].sum()), 2),
        "λ certified by GOSDT": int(rows["gosdt_optimal"].sum()),
        "both certified": len(both),
        "objective mismatches": len(mismatch) + len(worse),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--suite", choices=["g6", "check", "both"], default="both")
    parser.add_argument("--max-leaves", type=int, default=40)
    parser.add_argument("--min-regularization", type=float, default=None,
                        help="λ₀ of the frontier search (default: the smallest λ of the grid)")
    parser.add_argument("--frontier-time-limit", type=float, default=300.0)
    parser.add_argument("--gosdt-time-limit", type=float, default=300.0)
    parser.add_argument("--jobs", type=int, default=1, help="datasets run in parallel processes")
    parser.add_argument("--datasets", nargs="*", default=None)
    parser.add_argument("--output", default=str(ROOT / "benchmarks" / "results_frontier.md"))
    args = parser.parse_args(argv)

    tasks = []
    if args.suite in ("g6", "both"):
        for name in args.datasets or G6_DATASETS:
            tasks.append(("g6", name, G6_GRID))
    if args.suite in ("check", "both"):
        covered = {name for suite, name, _ in tasks}
        for name in args.datasets or ALL_BINARY:
            if name not in covered:          # the G.6 grid contains the 8 check values
                tasks.append(("check", name, CHECK_GRID))
    results = []
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = []
        for suite, name, grid in tasks:
            lam0 = args.min_regularization if args.min_regularization is not None else min(grid)
            futures.append((suite, pool.submit(run_dataset, name, grid, args.max_leaves, lam0,
                                               args.frontier_time_limit, args.gosdt_time_limit)))
        for suite, future in futures:
            result = future.result()
            result["suite"] = suite
            results.append(result)
            print(summarize(result), flush=True)

    lines = ["# Frontier benchmark: one FrontierSearch vs separate GOSDT runs", "",
             f"Command: `.venv/bin/python benchmarks/frontier_bench.py {' '.join(argv or sys.argv[1:])}`  ",
             f"Date: {datetime.date.today()}, Python {platform.python_version()}, {os.cpu_count()} cores "
             f"(timings depend on machine load; the runs of one dataset are sequential in one process).", "",
             "Columns: `frontier s` is one search for every λ ≥ λ₀ with trees of at most `max_leaves` leaves; "
             "`certified λ ≥` is the smallest λ whose optimum the frontier certifies (λ₀, or larger when the "
             "leaf cap or the time limit binds); `GOSDT s` sums separate runs (each with its own time limit). "
             "`objective mismatches` counts λ where both certified and the objectives differ by more than 1e-9, "
             "plus λ where only the frontier certified and its tree is worse than GOSDT's incumbent "
             "(both must be 0).", ""]
    for suite, title, grid in (("g6", "GOSDT appendix G.6 grid (29 λ from 0.2 to 0.0001)", G6_GRID),
                               ("check", "The 8-λ check on the other public binary datasets", CHECK_GRID)):
        chosen = [r for r in results if r["suite"] == suite]
        if not chosen:
            continue
        lines += [f"## {title}", "", markdown_table(pd.DataFrame([summarize(r) for r in chosen])), ""]
        for r in chosen:
            rows = pd.DataFrame(r["rows"])
            rows["agree"] = [
                ("yes" if abs(a - b) <= 1e-9 else "NO") if fc and go else
                ("frontier only" if fc else ("GOSDT only" if go else "neither"))
                for a, b, fc, go in zip(rows["frontier_objective"], rows["gosdt_objective"],
                                        rows["frontier_certified"], rows["gosdt_optimal"])]
            lines += [f"<details><summary>{r['dataset']}: per λ</summary>", "",
                      markdown_table(rows.round({"gosdt_time": 2, "gosdt_objective": 9,
                                                 "frontier_objective": 9})), "", "</details>", ""]
    Path(args.output).write_text("\n".join(lines) + "\n")
    print(f"written {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

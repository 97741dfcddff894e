"""Two commits of treeopt, fit by fit, back to back: the same optima, and the time ratio per suite.

On a shared machine a suite run after another mixes the load with the change. Here each commit
gets one long-lived worker process (started in that commit's checkout, with it first on
``PYTHONPATH``), and every fit of the narrow, ConTree and wide suites runs in the "before" worker,
then at once in the "after" worker, up to ``--attempts`` times while it takes under 2 CPU
seconds (the least CPU time counts). Each fit is timed by its suite's own ``worker`` function
(``run.py``, ``contree_bench.py``, ``wide_bench.py``), so both commits are measured by their own
benchmark code. The report gives, per suite, the geometric mean of the after/before CPU ratio over
the fits both certify (with fits under ``--floor`` seconds counted as ``--floor``), the fits whose
certified objective or certification differs, and the largest ratios.

Usage::

    git worktree add --detach /tmp/before <old commit>
    git worktree add --detach /tmp/after <new commit>
    .venv/bin/python benchmarks/compare_commits.py /tmp/before /tmp/after --output /tmp/compare.md

``--report-only`` rebuilds the report from the ``--jsonl`` rows of an earlier run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent

NARROW = ["monk1", "monk2", "monk3", "tic-tac-toe", "car-evaluation", "balance-scale", "compas-binary",
          "fico-binary"]
WIDE = [("compas__allthr", 0.001), ("compas__allthr", 0.005), ("spiral__allthr", 0.001),
        ("spiral__allthr", 0.005), ("tic-tac-toe__onehot", 0.005), ("tic-tac-toe__onehot", 0.01),
        ("tic-tac-toe__onehot", 0.02), ("car__onehot", 0.005), ("car__onehot", 0.01), ("car__onehot", 0.02),
        ("balance-scale__onehot", 0.005), ("balance-scale__onehot", 0.01), ("balance-scale__onehot", 0.02),
        ("digits_binarized", 0.01), ("random_2000x60", 0.01), ("iris__allthr", 0.005), ("iris__allthr", 0.01),
        ("iris__allthr", 0.02), ("wine__allthr", 0.01), ("wine__allthr", 0.02), ("breast_cancer__allthr", 0.01)]

#: The worker process: reads "script solver name lambda limit" lines, answers one JSON row per line.
WORKER = r"""
import importlib, json, sys
sys.path.insert(0, "benchmarks")
modules = {}
for line in sys.stdin:
    script, solver, name, lam, limit = line.split()
    try:
        module = modules.get(script) or modules.setdefault(script, importlib.import_module(script[:-3]))
        row = module.worker(solver, name, float(lam), float(limit))
    except BaseException as exc:
        row = {"error": f"{type(exc).__name__}: {exc}"[:300]}
    print(json.dumps(row, default=str), flush=True)
"""


def jobs(suites, wide_rows=WIDE, wide_limit: float = 10.0):
    """(suite, script, solver, dataset, λ, time limit) of every fit, in the order they run."""
    if "narrow" in suites:
        for lam in (0.02, 0.01, 0.005):
            for name in NARROW:
                yield "narrow", "run.py", "treeopt", name, lam, 300.0
    if "contree" in suites:
        for data in ("spiral", "compas", "breast_cancer"):
            for depth in (2, 3, 4):
                for lam in (0.005, 0.01, 0.02):
                    yield "contree", "contree_bench.py", "treeopt", f"{data}@{depth}", lam, 120.0
    if "wide" in suites:
        for name, lam in wide_rows:
            for solver in ("treeopt", "portfolio"):
                yield "wide", "wide_bench.py", solver, name, lam, wide_limit


class Worker:
    """One long-lived fit process for the checkout at ``root``."""

    def __init__(self, root: str, shared: str):
        env = {**os.environ, "PYTHONPATH": root, "TREEOPT_SHARED": shared}
        self.process = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, cwd=root, env=env)

    def fit(self, script, solver, name, lam, limit) -> dict:
        self.process.stdin.write(f"{script} {solver} {name} {lam!r} {limit!r}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        return json.loads(line) if line else {"error": "the worker exited"}


def paired_row(workers, job, attempts: int) -> dict:
    """Both commits' least-CPU rows of one fit, run alternately."""
    suite, script, solver, name, lam, limit = job
    best = {}
    for _ in range(attempts):
        for tag, worker in workers.items():
            row = worker.fit(script, solver, name, lam, limit)
            if tag not in best or "error" in row or ("error" not in best[tag] and row["cpu"] < best[tag]["cpu"]):
                best[tag] = row
        if any("error" in row or row.get("cpu", 0.0) >= 2.0 for row in best.values()):
            break
    return {"suite": suite, "solver": solver, "name": name, "lambda": lam,
            **{f"{tag}_{key}": best[tag].get(key) for tag in best
               for key in ("cpu", "certified", "objective", "error", "peak_mb")}}


def report(rows: list[dict], floor: float, command: str) -> str:
    """The markdown report: per suite, the geometric-mean ratio and every disagreement."""
    latest = {(r["suite"], r["solver"], r["name"], r["lambda"]): r for r in rows}
    ratios, notes = defaultdict(list), []
    for key, r in latest.items():
        label = f"{key[0]} {key[1]} {key[2]} λ={key[3]:g}"
        if r.get("before_error") or r.get("after_error"):
            notes.append(f"- {label}: error (before: {r.get('before_error')}; after: {r.get('after_error')})")
            continue
        if r["before_certified"] != r["after_certified"]:
            notes.append(f"- {label}: certified before {r['before_certified']}, after {r['after_certified']} "
                         f"(CPU {r['before_cpu']:.2f} / {r['after_cpu']:.2f} s)")
        elif r["before_certified"] and abs(r["before_objective"] - r["after_objective"]) > 1e-9:
            notes.append(f"- {label}: **different optimum** {r['before_objective']:.10f} / {r['after_objective']:.10f}")
        if r["before_certified"] and r["after_certified"]:
            before, after = max(r["before_cpu"], floor), max(r["after_cpu"], floor)
            ratios[key[0]].append((after / before, label, r["before_cpu"], r["after_cpu"]))
    out = [f"Command: `{command}`", "",
           f"CPU seconds of each fit, before and after, run back to back; fits under {floor:g} s count as "
           f"{floor:g} s. Ratio = after / before over the fits both certify.", "",
           "| suite | fits both certify | same optimum | geometric-mean ratio | largest ratio |", "|---|---|---|---|---|"]
    for suite, values in ratios.items():
        geometric = math.exp(sum(math.log(v[0]) for v in values) / len(values))
        worst = max(values)
        different = sum("different optimum" in n and n.startswith(f"- {suite} ") for n in notes)
        out.append(f"| {suite} | {len(values)} | {len(values) - different} / {len(values)} | {geometric:.3f} | "
                   f"{worst[0]:.2f} ({worst[1]}: {worst[2]:.3f} → {worst[3]:.3f} s) |")
    if notes:
        out += ["", "Fits that differ in certification, objective or errors:", ""] + sorted(notes)
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", help="checkout of the old commit")
    parser.add_argument("after", help="checkout of the new commit")
    parser.add_argument("--suites", nargs="+", default=["narrow", "contree", "wide"],
                        choices=["narrow", "contree", "wide"])
    parser.add_argument("--wide-rows", nargs="+", metavar="NAME:LAMBDA",
                        help="rows of the wide suite (default: all of wide_bench.py's)")
    parser.add_argument("--wide-limit", type=float, default=10.0,
                        help="wall-clock seconds per wide fit (the suite's own limit is 10)")
    parser.add_argument("--attempts", type=int, default=3, help="runs of a fit under 2 CPU seconds; the least counts")
    parser.add_argument("--floor", type=float, default=0.1, help="fits under this many seconds count as this many")
    parser.add_argument("--shared", default=os.environ.get("TREEOPT_SHARED", str(HERE.parents[1] / "shared")))
    parser.add_argument("--output", default="/tmp/compare_commits.md")
    parser.add_argument("--jsonl", default="/tmp/compare_commits.jsonl")
    parser.add_argument("--report-only", action="store_true")
    args = parser.parse_args(argv)
    command = "benchmarks/compare_commits.py " + " ".join(argv if argv is not None else sys.argv[1:])
    rows = []
    if args.report_only:
        rows = [json.loads(line) for line in Path(args.jsonl).read_text().splitlines() if line.strip()]
    else:
        workers = {"before": Worker(args.before, args.shared), "after": Worker(args.after, args.shared)}
        with open(args.jsonl, "w") as log:
            rows_of_wide = WIDE if args.wide_rows is None else \
                [(row.split(":")[0], float(row.split(":")[1])) for row in args.wide_rows]
            for job in jobs(args.suites, rows_of_wide, args.wide_limit):
                row = paired_row(workers, job, args.attempts)
                rows.append(row)
                log.write(json.dumps(row) + "\n")
                log.flush()
                print(json.dumps(row), flush=True)
    text = report(rows, args.floor, command)
    Path(args.output).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

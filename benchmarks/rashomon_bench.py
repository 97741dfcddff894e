"""Rashomon sets: treeopt's ``rashomon_set`` against TreeFARMS, side by side on the binary data sets.

For every data set of ``../shared/datasets/binary`` (``;``-separated, last column the label) and
(λ, ε) in {(0.05, 0.05), (0.02, 0.02), (0.01, 0.01)}, both build the set
{trees T : R(T) ≤ (1 + ε) R*} and we compare the count, the objectives of the first 200 trees
in objective order (max absolute difference; TreeFARMS lists its trees by metric group, so its
objectives are sorted first) and the time. TreeFARMS (``pip install treefarms``; Xin et al.,
"Exploring the Whole Rashomon Set of Sparse Decision Trees", NeurIPS 2022) runs in a subprocess
with a time limit, since it prints to the C-level stdout and may not finish. Times are wall
clock of building the set plus reading the first 200 objectives; TreeFARMS's own C++ timer is
shown too. Run under the shared lock::

    flock /tmp/treeopt-bench.lock .venv/bin/python benchmarks/rashomon_bench.py --out benchmarks/results_rashomon.md

or one data set per lock (``--names monk1 --jsonl FILE``, repeated) and then
``--report FILE --out benchmarks/results_rashomon.md`` to write the page from the records.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

DATA = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "binary"
if not DATA.exists():
    DATA = Path("/work/shared/datasets/binary")
NAMES = ["monk1", "monk2", "monk3", "tic-tac-toe", "car-evaluation", "balance-scale", "compas-binary", "fico-binary"]
SETTINGS = [(0.05, 0.05), (0.02, 0.02), (0.01, 0.01)]
FIRST = 200

_TREEFARMS = r"""
import json, os, sys, time
import pandas as pd
path, lam, eps, first = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
df = pd.read_csv(path, sep=";")
X, y = df.iloc[:, :-1], df.iloc[:, -1]
out = os.dup(1)
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)          # TreeFARMS prints its configuration and progress
from treefarms import TREEFARMS
start = time.perf_counter()
model = TREEFARMS({"regularization": lam, "rashomon_bound_multiplier": eps, "verbose": False})
model.fit(X, y)
sets = model.model_set
count = sets.get_tree_count()
# TreeFARMS indexes trees by metric group, not in objective order: the first trees in objective order
# are read from its groups (objective value, number of trees), sorted.
groups = sorted((sets.transform_metric(value)["objective"], sets.get_model_set(entry)["count"])
                for entry, value in zip(sets.available_metrics["metric_pointers"],
                                        sets.available_metrics["metric_values"]))
optimum = groups[0][0]
# TreeFARMS's own objectives (float32) of the trees it returns: how many are within (1 + eps) R*, the largest.
within = sum(n for value, n in groups if value <= (1 + eps) * optimum * (1 + 1e-6))
largest = groups[-1][0]
objectives = []
for value, n in groups:
    objectives.extend([value] * min(n, first - len(objectives)))
    if len(objectives) >= first:
        break
seconds = time.perf_counter() - start
os.dup2(out, 1)
print(json.dumps({"count": count, "objectives": objectives, "seconds": seconds, "internal": model.time,
                  "within": within, "largest": largest, "optimum": optimum}))
"""


def load(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """A binary data set: 0/1 feature columns and the label (last column)."""
    frame = pd.read_csv(DATA / f"{name}.csv", sep=";")
    return frame.iloc[:, :-1], frame.iloc[:, -1].to_numpy()


def run_treefarms(name: str, lam: float, eps: float, timeout: float, memory_gb: float) -> dict:
    """TreeFARMS in a subprocess (time and address-space limits): count, first objectives, seconds; or a status."""
    def limit_memory():
        import resource
        size = int(memory_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    try:
        done = subprocess.run([sys.executable, "-c", _TREEFARMS, str(DATA / f"{name}.csv"), str(lam), str(eps),
                               str(FIRST)], capture_output=True, text=True, timeout=timeout, preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        return {"status": f"timeout {timeout:g} s"}
    if done.returncode != 0:
        text = done.stderr or done.stdout
        if "bad_alloc" in text or "MemoryError" in text or done.returncode in (-6, -9):
            return {"status": f"out of memory ({memory_gb:g} GB)"}
        tail = text.strip().splitlines()[-1:] or ["no output"]
        return {"status": f"error: {tail[0][:80]}"}
    return {"status": "ok", **json.loads(done.stdout.strip().splitlines()[-1])}


def run_ours(name: str, lam: float, eps: float) -> dict:
    """treeopt's rashomon_set on the same table: count, first objectives, seconds."""
    from treeopt import rashomon_set
    X, y = load(name)
    start = time.perf_counter()
    rs = rashomon_set(X, y, regularization=lam, epsilon=eps)
    objectives = rs.objectives(FIRST).tolist()
    seconds = time.perf_counter() - start
    return {"status": "ok", "count": rs.count, "objectives": objectives, "seconds": seconds,
            "subproblems": len(rs.graph.nodes), "optima": len(rs.graph.exact)}


def compare(name: str, lam: float, eps: float, ours: dict, theirs: dict) -> dict:
    """One instance's record: both results (without the objective lists) and their difference."""
    record = {"name": name, "lam": lam, "eps": eps,
              "ours": {k: v for k, v in ours.items() if k != "objectives"},
              "theirs": {k: v for k, v in theirs.items() if k != "objectives"}}
    if theirs["status"] == "ok":
        n = min(len(ours["objectives"]), len(theirs["objectives"]))
        record["max_diff"] = max((abs(a - b) for a, b in zip(ours["objectives"][:n], theirs["objectives"][:n])),
                                 default=0.0)
        record["ratio"] = ours["seconds"] / theirs["seconds"]
    return record


HEADER = ["| data | λ | ε | count (treeopt) | count (TreeFARMS) | TreeFARMS trees ≤ (1+ε)R* | TreeFARMS max R / R* "
          "| max \\|Δ objective\\| first 200 | treeopt s | TreeFARMS s (C++ timer) | ratio |",
          "|---|---|---|---|---|---|---|---|---|---|---|"]


def row(record: dict) -> str:
    """A Markdown table row of one record."""
    ours, theirs = record["ours"], record["theirs"]
    if theirs["status"] == "ok":
        cells = (f"{theirs['count']}", f"{theirs['within']}", f"{theirs['largest'] / theirs['optimum']:.4f}",
                 f"{record['max_diff']:.1e}", f"{theirs['seconds']:.3f} ({theirs['internal']:.3f})",
                 f"{record['ratio']:.4f}")
    else:
        cells = (theirs["status"], "", "", "", theirs["status"], "")
    return (f"| {record['name']} | {record['lam']} | {record['eps']} | {ours['count']} | {cells[0]} | {cells[1]} | "
            f"{cells[2]} | {cells[3]} | {ours['seconds']:.3f} | {cells[4]} | {cells[5]} |")


def report(records: list, command: str, timeout: float, memory: float) -> str:
    """The Markdown results page."""
    ratios = [r["ratio"] for r in records if "ratio" in r]
    summary = ""
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        summary = (f"\nGeometric mean of time ratios (treeopt / TreeFARMS) over the {len(ratios)} instances where "
                   f"TreeFARMS finished: **{geo:.4f}**.\n")
    return ("# Rashomon sets: treeopt vs TreeFARMS\n\n"
            f"`{command}` (machine: {os.cpu_count()} cores shared with other jobs; "
            f"TreeFARMS limits: {timeout:g} s, {memory:g} GB of address space).\n\n"
            "Times: wall clock of building the set and reading the first 200 objectives, each in its own run. "
            "Ratio = treeopt / TreeFARMS (below 1: treeopt faster).\n\n" + "\n".join(HEADER + [row(r) for r in records])
            + "\n" + summary)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None, help="write the Markdown table here")
    parser.add_argument("--jsonl", default=None, help="append one JSON record per instance here")
    parser.add_argument("--report", default=None, help="only build --out from the records of this JSON-lines file")
    parser.add_argument("--command", default=None, help="the command line shown in the report")
    parser.add_argument("--timeout", type=float, default=200.0, help="TreeFARMS time limit per instance (s)")
    parser.add_argument("--memory", type=float, default=4.0, help="TreeFARMS address-space limit (GB)")
    parser.add_argument("--names", default=",".join(NAMES))
    parser.add_argument("--no-treefarms", action="store_true")
    args = parser.parse_args(argv)
    command = args.command or ("flock /tmp/treeopt-bench.lock .venv/bin/python benchmarks/rashomon_bench.py " + " ".join(
        argv if argv is not None else sys.argv[1:])).strip()
    if args.report:
        records = [json.loads(line) for line in Path(args.report).read_text().splitlines() if line.strip()]
    else:
        records = []
        for name in args.names.split(","):
            for lam, eps in SETTINGS:
                ours = run_ours(name, lam, eps)
                theirs = {"status": "skipped"} if args.no_treefarms else \
                    run_treefarms(name, lam, eps, args.timeout, args.memory)
                record = compare(name, lam, eps, ours, theirs)
                records.append(record)
                print(row(record), flush=True)
                if args.jsonl:
                    with open(args.jsonl, "a") as handle:
                        handle.write(json.dumps(record) + "\n")
    text = report(records, command, args.timeout, args.memory)
    print(text.rsplit("\n", 2)[-2] if "Geometric" in text else "")
    if args.out:
        Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

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
objectives = []
for value, n in groups:
    objectives.extend([value] * min(n, first - len(objectives)))
    if len(objectives) >= first:
        break
seconds = time.perf_counter() - start
os.dup2(out, 1)
print(json.dumps({"count": count, "objectives": objectives, "seconds": seconds, "internal": model.time}))
"""


def load(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """A binary data set: 0/1 feature columns and the label (last column)."""
    frame = pd.read_csv(DATA / f"{name}.csv", sep=";")
    return frame.iloc[:, :-1], frame.iloc[:, -1].to_numpy()


def run_treefarms(name: str, lam: float, eps: float, timeout: float) -> dict:
    """TreeFARMS in a subprocess: count, first objectives, seconds; or a status."""
    try:
        done = subprocess.run([sys.executable, "-c", _TREEFARMS, str(DATA / f"{name}.csv"), str(lam), str(eps),
                               str(FIRST)], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": f"timeout {timeout:g} s"}
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"status": f"error: {tail[0][:80]}"}
    return {"status": "ok", **json.loads(done.stdout.strip().splitlines()[-1])}


def run_ours(name: str, lam: float, eps: float) -> dict:
    """treeopt's rashomon_set on the same table: count, first objectives, seconds."""
    from treeopt.rashomon import rashomon_set
    X, y = load(name)
    start = time.perf_counter()
    rs = rashomon_set(X, y, regularization=lam, epsilon=eps)
    objectives = rs.objectives(FIRST).tolist()
    seconds = time.perf_counter() - start
    return {"status": "ok", "count": rs.count, "objectives": objectives, "seconds": seconds,
            "subproblems": len(rs.graph.nodes), "optima": len(rs.graph.exact)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None, help="write the Markdown table here")
    parser.add_argument("--timeout", type=float, default=300.0, help="TreeFARMS time limit per instance (s)")
    parser.add_argument("--names", default=",".join(NAMES))
    parser.add_argument("--no-treefarms", action="store_true")
    args = parser.parse_args(argv)
    header = ("| data | λ | ε | count (treeopt) | count (TreeFARMS) | max \\|Δ objective\\| first 200 | "
              "treeopt s | TreeFARMS s (C++ timer) | ratio |")
    lines = [header, "|---|---|---|---|---|---|---|---|---|"]
    ratios = []
    for name in args.names.split(","):
        for lam, eps in SETTINGS:
            ours = run_ours(name, lam, eps)
            theirs = {"status": "skipped"} if args.no_treefarms else run_treefarms(name, lam, eps, args.timeout)
            if theirs["status"] == "ok":
                n = min(len(ours["objectives"]), len(theirs["objectives"]))
                diff = max((abs(a - b) for a, b in zip(ours["objectives"][:n], theirs["objectives"][:n])), default=0.0)
                ratio = ours["seconds"] / theirs["seconds"]
                ratios.append(ratio)
                cells = (f"{theirs['count']}", f"{diff:.1e}", f"{theirs['seconds']:.3f} ({theirs['internal']:.3f})",
                         f"{ratio:.2f}")
            else:
                cells = (theirs["status"], "", theirs["status"], "")
            row = (f"| {name} | {lam} | {eps} | {ours['count']} | {cells[0]} | {cells[1]} | {ours['seconds']:.3f} | "
                   f"{cells[2]} | {cells[3]} |")
            print(row, flush=True)
            lines.append(row)
    summary = ""
    if ratios:
        geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        summary = (f"\nGeometric mean of time ratios (treeopt / TreeFARMS) over {len(ratios)} instances where "
                   f"TreeFARMS finished: **{geo:.3f}**.\n")
        print(summary.strip())
    if args.out:
        command = "flock /tmp/treeopt-bench.lock .venv/bin/python benchmarks/rashomon_bench.py " + " ".join(
            argv if argv is not None else sys.argv[1:])
        Path(args.out).write_text(
            "# Rashomon sets: treeopt vs TreeFARMS\n\n"
            f"`{command.strip()}` (machine: {os.cpu_count()} cores shared with other jobs; "
            f"TreeFARMS time limit {args.timeout:g} s).\n\n"
            "Times: wall clock of building the set and reading the first 200 objectives, each in its own run. "
            "Ratio = treeopt / TreeFARMS (below 1: treeopt faster).\n\n" + "\n".join(lines) + "\n" + summary)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

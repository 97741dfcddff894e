"""OSDT's similar support bound (Theorem 7) on and off: expansions, trees evaluated, prunes, time.

Run by hand, under the benchmark lock:
``flock /tmp/treeopt-bench.lock .venv/bin/python benchmarks/osdt_similar_support.py [seconds per run] [data:λ ...]``
(default cases: ``CASES``).
Prints a markdown table; the numbers are discussed in ``benchmarks/results_osdt.md``.
"""

import sys
import time
from pathlib import Path

import pandas as pd

from treeopt.data import Dataset
from treeopt.solvers.osdt import OSDT

BINARY = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "binary"
CASES = [("monk1", 0.05), ("monk2", 0.05), ("monk3", 0.05), ("balance-scale", 0.05), ("compas-binary", 0.05),
         ("monk1", 0.025)]
SCHEDULES = ("curiosity", "dfs", "bfs")


def main(limit: float = 30.0, cases=CASES) -> None:
    print("| data | λ | schedule | similar | status | objective | expansions | trees evaluated "
          "| similar prunes | time (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, lam in cases:
        frame = pd.read_csv(BINARY / f"{name}.csv", sep=";")
        dataset = Dataset.from_binary(frame.iloc[:, :-1], frame.iloc[:, -1])
        for schedule in SCHEDULES:
            for similar in (False, True):
                solver = OSDT(dataset, regularization=lam, schedule=schedule, bounds={"similar_support": similar})
                start = time.perf_counter()
                result = solver.run(time_limit=limit)
                seconds = time.perf_counter() - start
                status = "optimal" if result.optimal else f"stopped, gap {result.gap:.4f}"
                print(f"| {name} | {lam} | {schedule} | {'on' if similar else 'off'} | {status} "
                      f"| {result.objective:.4f} | {solver.expansions} | {solver.trees_evaluated} "
                      f"| {solver.prune_counts['similar_support']} | {seconds:.1f} |", flush=True)


if __name__ == "__main__":
    chosen = [(arg.split(":")[0], float(arg.split(":")[1])) for arg in sys.argv[2:]] or CASES
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 30.0, chosen)

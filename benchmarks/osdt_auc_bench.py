"""OSDT's expansions per second with AUC, partial AUC and F1 against accuracy (notebook 04's data).

``make_four_class()`` binarized with quantile thresholds (``max_thresholds`` per column; 8 gives the
16 binary features the ROC lesson wants), depth budget 3, λ = 0.02, each search run for at most
``seconds``. Run by hand, under the benchmark lock:
``flock /tmp/treeopt-bench.lock .venv/bin/python benchmarks/osdt_auc_bench.py [seconds] [max_thresholds ...]``
Prints a markdown table; the numbers are discussed in ``benchmarks/results_osdt_auc.md``.
"""

import sys
import time

import treeopt
from treeopt.datasets import make_four_class

OBJECTIVES = {"accuracy": {}, "auc": {}, "partial_auc": {"theta": 0.1}, "f1": {"omega": 2.0}}


def main(seconds: float = 20.0, thresholds=(4, 8)) -> None:
    X, y = make_four_class()
    print("| binary features | objective | status | expansions | seconds | expansions per second |")
    print("|---|---|---|---|---|---|")
    for max_thresholds in thresholds:
        for name, params in OBJECTIVES.items():
            solver = treeopt.make_solver(X, y, solver="osdt", objective=name, regularization=0.02, depth_budget=3,
                                         thresholds="quantile", max_thresholds=max_thresholds, **params)
            start = time.perf_counter()
            result = solver.run(time_limit=seconds)
            elapsed = time.perf_counter() - start
            status = "optimal" if result.optimal else f"stopped, gap {result.gap:.4f}"
            print(f"| {solver.dataset.n_features} | {name} | {status} | {solver.expansions} | {elapsed:.1f} "
                  f"| {solver.expansions / max(elapsed, 1e-9):.0f} |", flush=True)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main(float(arguments[0]) if arguments else 20.0,
         tuple(int(a) for a in arguments[1:]) or (4, 8))

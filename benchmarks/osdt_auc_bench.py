"""OSDT's expansions per second with AUC, partial AUC and F1 against accuracy (notebook 04's data).

``make_four_class()`` binarized with quantile thresholds (``max_thresholds`` per column; 8 gives the
16 binary features the ROC lesson wants), depth budget 3, λ = 0.02, each search run for at most
``seconds`` of this process's CPU time: on a shared machine the wall clock also counts the other
processes' turns, so a CPU budget gives the same search the same work from run to run. The
search is driven one unit of work at a time (``solver.step(1)``), so the table also gives the
longest unit: every pause, stop or ``time_limit`` waits for the unit under way, and each should
keep to ``Solver.unit_budget``. Expansions per second are given per CPU second and per wall
second. Run by hand, under the benchmark lock:
``flock /work/bench.lock .venv/bin/python benchmarks/osdt_auc_bench.py [seconds] [max_thresholds ...]``
Prints a markdown table; the numbers are discussed in ``benchmarks/results_osdt_auc.md``.
"""

import sys
import time

import treeopt
from treeopt.datasets import make_four_class

OBJECTIVES = {"accuracy": {}, "auc": {}, "partial_auc": {"theta": 0.1}, "f1": {"omega": 2.0}}


def measure(solver, seconds: float) -> dict:
    """Step ``solver`` until it finishes or has used ``seconds`` of CPU time; time every unit of work."""
    start, cpu_start = time.perf_counter(), time.process_time()
    longest = longest_cpu = 0.0
    running = True
    while running and time.process_time() - cpu_start < seconds:
        before, cpu_before = time.perf_counter(), time.process_time()
        running = solver.step(1)
        longest = max(longest, time.perf_counter() - before)
        longest_cpu = max(longest_cpu, time.process_time() - cpu_before)
    return {"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu_start, "longest": longest,
            "longest_cpu": longest_cpu, "result": solver.result()}


def main(seconds: float = 20.0, thresholds=(4, 8)) -> None:
    X, y = make_four_class()
    print("| binary features | objective | status | expansions | seconds | CPU seconds | expansions per second "
          "| expansions per CPU second | longest unit (ms) | longest unit, CPU (ms) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for max_thresholds in thresholds:
        for name, params in OBJECTIVES.items():
            solver = treeopt.make_solver(X, y, solver="osdt", objective=name, regularization=0.02, depth_budget=3,
                                         thresholds="quantile", max_thresholds=max_thresholds, **params)
            m = measure(solver, seconds)
            result = m["result"]
            status = "optimal" if result.optimal else f"stopped, gap {result.gap:.4f}"
            print(f"| {solver.dataset.n_features} | {name} | {status} | {solver.expansions} | {m['wall']:.1f} "
                  f"| {m['cpu']:.1f} | {solver.expansions / max(m['wall'], 1e-9):.0f} "
                  f"| {solver.expansions / max(m['cpu'], 1e-9):.0f} | {1000 * m['longest']:.0f} "
                  f"| {1000 * m['longest_cpu']:.0f} |", flush=True)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main(float(arguments[0]) if arguments else 20.0,
         tuple(int(a) for a in arguments[1:]) or (4, 8))

"""Root thresholds the continuous solver evaluates, in batches of each size, against a sequential bisection.

ConTree evaluates one root threshold of a depth-two subproblem at a time, so each result tightens
the interval bounds before the next threshold is chosen. treeopt's depth-two solver evaluates a
batch of thresholds per unit of work (fewer, larger array operations), and may evaluate thresholds
that a sequential order would have closed. This script fits each cell with several batch settings
and prints, for each, the thresholds evaluated (``expansions``), the depth-two subproblems searched
and the CPU seconds: ``--limits 1`` is the sequential order (except on the supports whose thresholds all fit in one
batch, ``whole_depth_two``); ``--entries`` sets ``terminal.BATCH_ENTRIES``, the (threshold × class ×
row × column) entries a batch may hold, ``--together-entries`` ``terminal.TOGETHER_BATCH_ENTRIES``, the
same for the supports the two-class all-columns kernel reads, and ``--limits`` ``search.BATCH_LIMIT``,
the most thresholds a batch may hold.

Usage (run from the repository root; CPU seconds under ``flock /work/bench.lock`` when long)::

    .venv/bin/python benchmarks/batch_evaluations.py --cells /work/realish/mix2k.csv:3:0.01 \\
        --together-entries 524288 65536 --limits 1 64
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kernel_bench import _cell, data  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", nargs="+", required=True, help="cells NAME:DEPTH:LAMBDA (NAME may be a .csv)")
    parser.add_argument("--entries", nargs="+", type=int, default=[None], help="values of terminal.BATCH_ENTRIES")
    parser.add_argument("--together-entries", nargs="+", type=int, default=[None],
                        help="values of terminal.TOGETHER_BATCH_ENTRIES")
    parser.add_argument("--limits", nargs="+", type=int, default=[None], help="values of search.BATCH_LIMIT")
    parser.add_argument("--time-limit", type=float, default=120.0)
    args = parser.parse_args()
    from treeopt import make_solver
    from treeopt.solvers.continuous import search, terminal
    defaults = terminal.BATCH_ENTRIES, search.BATCH_LIMIT, terminal.TOGETHER_BATCH_ENTRIES
    print("| data | d | λ | batch entries | two-class all-columns batch entries | batch limit | thresholds evaluated "
          "| depth-two subproblems | CPU s | certified |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, depth, lam in (_cell(text) for text in args.cells):
        X, y = data(name)
        for entries, together, limit in itertools.product(args.entries, args.together_entries, args.limits):
            terminal.BATCH_ENTRIES = entries or defaults[0]
            search.BATCH_LIMIT = limit or defaults[1]
            terminal.TOGETHER_BATCH_ENTRIES = together or defaults[2]
            solver = make_solver(X, y, solver="continuous", regularization=lam, depth_budget=depth, thresholds="all")
            start = time.process_time()
            result = solver.run(time_limit=args.time_limit)
            seconds = time.process_time() - start
            print(f"| {Path(name).stem} | {depth} | {lam} | {terminal.BATCH_ENTRIES} | {terminal.TOGETHER_BATCH_ENTRIES} | "
                  f"{search.BATCH_LIMIT} | {solver.expansions} | {solver.prune_counts['depth_two']} | {seconds:.2f} | "
                  f"{result.optimal} |", flush=True)

if __name__ == "__main__":
    main()

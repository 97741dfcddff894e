"""What certifying the k best trees costs OSDT: top_k = 1, 2, 3, 5 on the MONK data sets.

``top_k > 1`` prunes against the k-th best objective and switches off the
bounds that only prove a tree is not the optimum (Theorems 3-5), so it
expands more partial trees. Run::

    .venv/bin/python benchmarks/top_k_bench.py [--time-limit 60] [--out benchmarks/results_top_k.md]

Prints (and writes) a Markdown table: data set, λ, k, status, expansions,
seconds, the k objectives.
"""

from __future__ import annotations

import argparse
import time

from treeopt.data import Dataset
from treeopt.datasets import load_monk
from treeopt.solvers.osdt import OSDT


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    lines = ["| data | λ | k | status | expansions | seconds | objectives |", "|---|---|---|---|---|---|---|"]
    for monk in (1, 2, 3):
        dataset = Dataset.from_arrays(*load_monk(monk))
        for lam in (0.1, 0.05):
            for k in (1, 2, 3, 5):
                solver = OSDT(dataset, regularization=lam, top_k=k)
                start = time.perf_counter()
                result = solver.run(time_limit=args.time_limit)
                seconds = time.perf_counter() - start
                values = [v for v, _ in solver.top_trees]
                row = (f"| monk{monk} | {lam} | {k} | {result.status} | {result.expansions} | {seconds:.2f} | "
                       f"{', '.join(f'{v:.4f}' for v in values)} |")
                print(row, flush=True)
                lines.append(row)
    if args.out:
        with open(args.out, "w") as handle:
            handle.write("# OSDT top_k: cost of certifying the k best trees\n\n"
                         f"`{' '.join(['.venv/bin/python benchmarks/top_k_bench.py'] + (argv or []))}`, "
                         f"time limit {args.time_limit} s per row.\n\n" + "\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

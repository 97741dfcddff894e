"""One fit of the continuous solver against one fit of ConTree on a seeded, noisy numeric table.

A quick profile of the sorted-values solver (``treeopt/solvers/continuous/``): the most accurate
tree of depth at most ``--depth`` (λ = 0) on ``--rows`` rows and eight normal columns rounded to
three decimals (about 2,800 distinct values per column at 5,000 rows), labels from a few
thresholds and a product with 15 % of them flipped. Both fits run in this process, one after the
other; on a shared machine read the ratio and the CPU seconds (this process's), not the wall seconds. ConTree is ``pycontree`` (the
``bench`` extra); without it only treeopt runs. ``--profile`` prints cProfile's top functions.

Usage::

    .venv/bin/python benchmarks/continuous_profile.py --depth 2 --rows 5000
    .venv/bin/python benchmarks/continuous_profile.py --depth 3 --rows 1000 --profile
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np


def noisy_table(n_rows: int, n_columns: int = 8, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The seeded table: normal columns rounded to three decimals, labels with 15 % flipped."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, n_columns)).round(3)
    score = (X[:, 0] > 0.2).astype(int) + (X[:, 1] * X[:, 2] > 0.1) + (X[:, 3] > -0.5) * (X[:, 4] < 0.7)
    y = (score >= 2).astype(int)
    flip = rng.random(n_rows) < 0.15
    y[flip] = 1 - y[flip]
    return X, y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    X, y = noisy_table(args.rows)
    from treeopt import make_solver
    solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=args.depth)
    profile = cProfile.Profile() if args.profile else None
    start, cpu = time.perf_counter(), time.process_time()
    if profile is not None:
        profile.enable()
    result = solver.run(time_limit=args.time_limit)
    if profile is not None:
        profile.disable()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"treeopt continuous: depth {args.depth}, {args.rows} rows: {elapsed:.2f} s ({cpu:.2f} s CPU), {result.status}, "
          f"errors {round(result.objective * len(y))}, {result.tree.n_leaves} leaves, "
          f"{solver.expansions} thresholds evaluated, counters {solver.prune_counts}")
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)
    try:
        from pycontree import ConTree
    except ImportError:
        print("pycontree is not installed (pip install treeopt[bench]): ConTree skipped")
        return
    start, cpu = time.perf_counter(), time.process_time()
    model = ConTree(max_depth=args.depth, time_limit=args.time_limit).fit(X, y)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"ConTree: depth {args.depth}, {args.rows} rows: {elapsed:.2f} s ({cpu:.2f} s CPU), "
          f"errors {int((model.predict(X) != y).sum())}")


if __name__ == "__main__":
    main()

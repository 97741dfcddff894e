"""CPU seconds of the continuous solver's exact fits on the cells its depth-two kernels dominate, with ConTree beside.

Each cell is one fit (``solver="continuous"``, ``thresholds="all"``) after another in one process, so
that a before/after pair runs under the same load; ``--contree`` adds ``pycontree.ConTree`` on the
same data. Two tables are generated here besides ``continuous_data``'s: ``rotated_4k`` (two classes)
and ``mixture_4k_5c`` (five classes), 4,000 rows × 6 columns.

Run from the repository root; ``--before DIR`` fits each cell first with the package of another
checkout (``git worktree add`` or ``git archive`` of the older commit), in a subprocess, right before
this checkout's fit::

    flock /work/bench.lock .venv/bin/python benchmarks/kernel_bench.py --contree --before ../old

``--cells NAME:DEPTH:LAMBDA ...`` runs those cells instead of :data:`CELLS`; a NAME ending in ``.csv``
is read as a table whose last column is the label.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from continuous_data import gaussian_mixture, load, rotated_boundaries  # noqa: E402

#: (data, depth, λ) of every cell.
CELLS = [("breast_cancer", 3, 0.0), ("wine", 3, 0.01), ("wine", 3, 0.0), ("mixture_5k", 3, 0.0),
         ("mixture_5k", 3, 0.01), ("mixture_5k", 2, 0.0), ("iris", 4, 0.01), ("spiral", 4, 0.01),
         ("compas", 3, 0.0), ("compas", 3, 0.01), ("rotated_demo", 3, 0.0), ("rotated_demo", 4, 0.01),
         ("rotated_4k", 3, 0.0), ("rotated_4k", 3, 0.01), ("mixture_4k_5c", 3, 0.0), ("mixture_4k_5c", 3, 0.01)]

OWN = {"rotated_4k": lambda: rotated_boundaries(4_000, 6, 2, 0.10, seed=21)[:2],
       "mixture_4k_5c": lambda: gaussian_mixture(4_000, 6, 5, 0.12, seed=22)[:2]}


def data(name: str) -> tuple[np.ndarray, np.ndarray]:
    if name.endswith(".csv"):
        import pandas as pd
        table = pd.read_csv(name)
        return table.iloc[:, :-1].to_numpy(dtype=float), table.iloc[:, -1].to_numpy()
    X, y = OWN[name]() if name in OWN else load(name)
    return np.asarray(X, dtype=float), np.asarray(y)


def treeopt_fit(X, y, depth, lam, limit):
    from treeopt import make_solver
    solver = make_solver(X, y, solver="continuous", regularization=lam, depth_budget=depth, thresholds="all")
    start = time.process_time()
    result = solver.run(time_limit=limit)
    return time.process_time() - start, result.optimal, result.objective


def contree_fit(X, y, depth, lam, limit):
    import pycontree
    model = pycontree.ConTree(max_depth=depth, complexity_cost=lam, time_limit=limit)
    start = time.process_time()
    model.fit(X, y)
    seconds = time.process_time() - start
    errors = int((model.predict(X) != y).sum())
    return seconds, errors


def _cell(text: str) -> tuple[str, int, float]:
    """``NAME:DEPTH:LAMBDA`` as a cell."""
    name, depth, lam = text.rsplit(":", 2)
    return name, int(depth), float(lam)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contree", action="store_true", help="also fit ConTree on every cell")
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--only", nargs="*", help="data names to run (all by default)")
    parser.add_argument("--before", help="a checkout whose package is fitted first on every cell")
    parser.add_argument("--cells", nargs="*", help="cells NAME:DEPTH:LAMBDA to run instead of the default ones")
    parser.add_argument("--cell", help=argparse.SUPPRESS)      # one cell's fit, NAME:DEPTH:LAMBDA, for --before
    args = parser.parse_args()
    if args.cell is not None:
        name, depth, lam = _cell(args.cell)
        print(*treeopt_fit(*data(name), depth, lam, args.time_limit))
        return
    cells = [_cell(text) for text in args.cells] if args.cells else CELLS
    for name, depth, lam in cells:
        if args.only and name not in args.only:
            continue
        X, y = data(name)
        row = f"| {Path(name).stem} ({X.shape[0]} × {X.shape[1]}, {len(np.unique(y))}) | {depth} | {lam} |"
        if args.before:
            env = dict(os.environ, PYTHONPATH=str(Path(args.before).resolve()))
            done = subprocess.run([sys.executable, __file__, "--cell", f"{name}:{depth}:{lam}", "--time-limit", str(args.time_limit)],
                                  env=env, capture_output=True, text=True, check=True)
            before, before_optimal, _ = done.stdout.split()
            row += f" {float(before):.2f}{'' if before_optimal == 'True' else ' (stopped)'} |"
        seconds, optimal, objective = treeopt_fit(X, y, depth, lam, args.time_limit)
        row += f" {seconds:.2f} | {optimal} | {objective:.6f} |"
        if args.contree:
            contree_seconds, errors = contree_fit(X, y, depth, lam, args.time_limit)
            row += f" {contree_seconds:.2f} | {errors} |"
        print(row, flush=True)


if __name__ == "__main__":
    main()

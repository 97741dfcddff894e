"""``solver="auto"`` at λ = 0 on small tables: the continuous solver against GOSDT, and what auto picks.

``make_solver``'s rule (``treeopt/building.py``, ``_continuous_fits``) sends λ = 0 fits with whole losses
and at most 256 thresholds to GOSDT. This script fits both solvers on ``thresholds="all"`` at λ = 0 and
λ = 0.01 and prints one JSON line per case: auto's choice, then CPU seconds (``time.process_time``),
errors (or objective × rows), leaves and certified for each solver. ``few_S_N_P_D_K_V`` tables have ``P``
integer columns of ``V`` values labelled by a random depth-``D`` tree with ``K`` classes::

    PYTHONPATH=. .venv/bin/python benchmarks/auto_zero_bench.py \\
        iris:4,iris:5,spiral:4,spiral:5,wine:3,rotated_demo:4,few_1_1000_6_4_2_12:4,few_2_2000_8_3_3_8:3,few_3_800_5_4_3_16:4 0,0.01
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np

from tie_break_bench import case_data, tree_labels


def fewvalues(seed: int, n_rows: int, n_columns: int, depth: int, n_classes: int,
              values: int) -> tuple[np.ndarray, np.ndarray]:
    """Integer columns of ``values`` values labelled by a random tree of ``depth`` holding every class."""
    rng = np.random.default_rng(3000 + seed)
    X = rng.integers(0, values, size=(n_rows, n_columns)).astype(float)
    nodes = 2 ** (depth + 1)
    columns, cuts = rng.integers(0, n_columns, size=nodes), rng.integers(1, values - 1, size=nodes) - 0.5
    return X, tree_labels(X, rng, depth, n_classes, columns, cuts)


def data(name: str) -> tuple[np.ndarray, np.ndarray]:
    if name.startswith("few_"):
        return fewvalues(*(int(part) for part in name.split("_")[1:]))
    return case_data(name)


def main() -> None:
    from treeopt import make_solver
    cases = [(part.split(":")[0], int(part.split(":")[1])) for part in sys.argv[1].split(",")]
    lambdas = [float(value) for value in sys.argv[2].split(",")]
    for name, depth in cases:
        X, y = data(name)
        for lam in lambdas:
            row = {"case": name, "depth": depth, "lambda": lam,
                   "auto": type(make_solver(X, y, solver="auto", regularization=lam, depth_budget=depth)).__name__}
            for solver in ("continuous", "gosdt"):
                search = make_solver(X, y, solver=solver, regularization=lam, depth_budget=depth, thresholds="all")
                start = time.process_time()
                result = search.run(time_limit=60)
                row[solver] = [round(time.process_time() - start, 3), round(result.objective * len(y), 3),
                               result.tree.n_leaves, bool(result.optimal)]
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()

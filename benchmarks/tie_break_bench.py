"""λ = 0 fits where a tree without errors (or nearly) exists: the tie-break by fewer leaves.

At ``regularization=0`` treeopt returns the most accurate tree of the depth budget with the fewest
leaves; ConTree stops at the first tree with the fewest errors. When a tree without errors exists,
proving that none has fewer leaves is most of treeopt's work. The cases: bundled and shared data
(``continuous_data.py``), tables labelled by a random tree of depth four over four normal columns
(``perfect4``, 1,100 rows, two classes), tables labelled by a random tree over more columns and
classes (``planted``), and two noisy tables where no tree is without errors.

Each line of output is one fit as JSON: CPU seconds (``time.process_time``), errors, leaves,
certified or not. Run it from a checkout (``PYTHONPATH=.``) to measure that checkout, under
``flock /work/bench.lock`` on a shared machine::

    PYTHONPATH=. .venv/bin/python benchmarks/tie_break_bench.py --solver continuous
    PYTHONPATH=. .venv/bin/python benchmarks/tie_break_bench.py --solver contree
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from continuous_data import load

#: (data, depth): a perfect tree exists in all but the last two (and spiral at depth four).
CASES = [("wine", 3), ("iris", 4), ("spiral", 4), ("spiral", 5), ("breast_cancer", 4),
         ("perfect4_1", 4), ("perfect4_2", 4), ("perfect4_3", 4), ("perfect4_4", 4),
         ("planted_1_500_4_3_2", 3), ("planted_2_2000_6_4_3", 4), ("planted_3_5000_8_3_5", 3),
         ("planted_4_1000_5_4_4", 4), ("planted_5_3000_4_4_2", 4),
         ("mixture_5k", 3), ("breast_cancer", 3)]

#: ``--set perfect0``: perfect4 at depths three and four, small tables at depths four and five, tables
#: with a planted tree whose columns partly hold few distinct values (``coarse``), and imperfect fits.
PERFECT0 = [*((f"perfect4_{seed}", depth) for seed in range(1, 7) for depth in (3, 4)),
            ("iris", 4), ("iris", 5), ("wine", 3), ("spiral", 4), ("spiral", 5), ("rotated_demo", 4),
            ("coarse_1_500_4_3_2", 3), ("coarse_2_1500_6_4_3", 4), ("coarse_3_5000_10_3_5", 3),
            ("coarse_4_2500_8_4_4", 4), ("breast_cancer", 3)]


def perfect4(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """1,100 × 4 normal values (three decimals) labelled by a random tree of depth four, two classes."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(1100, 4)).round(3)
    columns, cuts, labels = rng.integers(0, 4, size=32), rng.normal(scale=0.4, size=32), rng.integers(0, 2, size=32)
    node = np.ones(len(X), dtype=int)
    for _ in range(4):
        node = np.where(X[np.arange(len(X)), columns[node]] <= cuts[node], 2 * node, 2 * node + 1)
    return X, labels[node - 16]


def tree_labels(X: np.ndarray, rng: np.random.Generator, depth: int, n_classes: int,
                columns: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """The labels a random complete tree of ``depth`` gives the rows of ``X`` (node ``k`` splits column
    ``columns[k]`` at ``cuts[k]``), its leaves drawn so that every class has one, renumbered 0, 1, ..."""
    nodes = 2 ** (depth + 1)
    labels = rng.integers(0, n_classes, size=nodes)
    labels[nodes // 2:nodes // 2 + n_classes] = np.arange(n_classes)
    node = np.ones(len(X), dtype=int)
    for _ in range(depth):
        node = np.where(X[np.arange(len(X)), columns[node]] <= cuts[node], 2 * node, 2 * node + 1)
    return np.unique(labels[node - 2 ** depth], return_inverse=True)[1]


def planted(seed: int, n_rows: int, n_columns: int, depth: int, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """Normal values labelled by a random tree of ``depth`` whose leaves hold every class."""
    rng = np.random.default_rng(1000 + seed)
    X = rng.normal(size=(n_rows, n_columns)).round(3)
    nodes = 2 ** (depth + 1)
    columns, cuts = rng.integers(0, n_columns, size=nodes), rng.normal(scale=0.5, size=nodes)
    return X, tree_labels(X, rng, depth, n_classes, columns, cuts)


def coarse(seed: int, n_rows: int, n_columns: int, depth: int, n_classes: int) -> tuple[np.ndarray, np.ndarray]:
    """Like :func:`planted`, with every other column holding six distinct values (0-5, or 0-1 in steps
    of 0.2), as in tables of counts, scores and sensor readings; cuts at quantiles of the values."""
    rng = np.random.default_rng(2000 + seed)
    X = rng.normal(size=(n_rows, n_columns)).round(3)
    coarse_columns = np.arange(0, n_columns, 2)
    X[:, coarse_columns] = rng.integers(0, 6, size=(n_rows, len(coarse_columns))) * np.where(coarse_columns % 4, 0.2, 1.0)
    nodes = 2 ** (depth + 1)
    columns = rng.integers(0, n_columns, size=nodes)
    cuts = np.array([np.quantile(X[:, j], q) for j, q in zip(columns, rng.uniform(0.2, 0.8, size=nodes))])
    return X, tree_labels(X, rng, depth, n_classes, columns, cuts)


def case_data(name: str) -> tuple[np.ndarray, np.ndarray]:
    if name.startswith("perfect4_"):
        return perfect4(int(name.split("_")[1]))
    if name.startswith("planted_"):
        return planted(*(int(part) for part in name.split("_")[1:]))
    if name.startswith("coarse_"):
        return coarse(*(int(part) for part in name.split("_")[1:]))
    X, y = load(name)
    return np.asarray(X, dtype=float), np.asarray(y)


def fit(name: str, depth: int, solver: str, time_limit: float, options: dict | None = None) -> dict:
    X, y = case_data(name)
    if solver == "contree":
        from pycontree import ConTree
        start = time.process_time()
        model = ConTree(max_depth=depth, complexity_cost=0, time_limit=time_limit).fit(X, y)
        cpu = time.process_time() - start
        return {"case": name, "depth": depth, "solver": solver, "cpu": round(cpu, 3),
                "errors": int((model.predict(X) != y).sum())}
    from treeopt import make_solver
    search = make_solver(X, y, solver=solver, regularization=0, depth_budget=depth, thresholds="all", **(options or {}))
    start = time.process_time()
    result = search.run(time_limit=time_limit)
    cpu = time.process_time() - start
    return {"case": name, "depth": depth, "solver": solver, "cpu": round(cpu, 3),
            "errors": int(round(result.objective * len(y))), "leaves": result.tree.n_leaves,
            "certified": bool(result.optimal), "expansions": search.expansions}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solver", default="continuous", help="continuous, gosdt, auto or contree")
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--case", action="append", help="NAME:DEPTH (repeatable); all cases by default")
    parser.add_argument("--set", choices=["default", "perfect0"], default="default", help="which list of cases")
    parser.add_argument("--options", type=json.loads, default=None,
                        help='make_solver keywords as JSON, e.g. \'{"strategies": {"error_free_first": false}}\'')
    args = parser.parse_args()
    cases = [(c.split(":")[0], int(c.split(":")[1])) for c in args.case] if args.case else \
        (PERFECT0 if args.set == "perfect0" else CASES)
    for name, depth in cases:
        print(json.dumps(fit(name, depth, args.solver, args.time_limit, args.options)), flush=True)


if __name__ == "__main__":
    main()

"""Wide data: treeopt against pystreed (iterative deepening) and gosdt, side by side in one run.

The suite: the public one-hot and all-threshold rows of ``reference_optima.csv``, wide data
generated from scikit-learn's bundled datasets (digits binarized; iris, wine and breast cancer with
every midpoint threshold by treeopt's ``Binarizer``, 119, 1,263 and 15,310 columns), and a random
2000 × 60 binary problem. Every fit runs in its own subprocess with the same time limit;
objectives are recomputed from the returned tree's predictions (error rate + λ × leaves). For treeopt
the incumbent's objective is also recorded at 1 s and 10 s, and CART pruned at the same λ (the best
objective over scikit-learn's cost-complexity path) is the baseline a tree at 1 s should beat.

Solvers:

* ``treeopt``: ``GOSDT`` with its defaults (CART start, dives, completions, depth-two solver);
* ``deepening``: treeopt's ``DepthDeepening`` (depth budgets 1, 2, ... with the leaf-count certificate);
* ``portfolio``: treeopt's ``Portfolio`` (the two above interleaved, sharing bounds);
* ``pystreed-id``: STreeD with ``max_depth`` = 1, 2, ... each with what is left of the limit, certified
  once ``d >= floor(U_d / λ) - 1`` (OSDT's leaf-count bound, as in ``treeopt/solvers/gosdt/deepening.py``);
* ``gosdt``: the C++ gosdt package.

Usage::

    .venv/bin/python benchmarks/wide_bench.py                      # everything (about 15-25 minutes)
    .venv/bin/python benchmarks/wide_bench.py --rows tic-tac-toe__onehot:0.01 --time-limit 10

Results go to ``benchmarks/results_wide.md`` (and JSON lines in ``benchmarks/results_wide.jsonl``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from run import command_line, fit_gosdt, geomean, measure, objective_cell, run_one as run_worker  # noqa: E402  (the shared runner)
SHARED = Path(os.environ.get("TREEOPT_SHARED", HERE.parents[1] / "shared"))
ROWS = [("compas__allthr", 0.001), ("compas__allthr", 0.005), ("spiral__allthr", 0.001), ("spiral__allthr", 0.005),
        ("tic-tac-toe__onehot", 0.005), ("tic-tac-toe__onehot", 0.01), ("tic-tac-toe__onehot", 0.02),
        ("car__onehot", 0.005), ("car__onehot", 0.01), ("car__onehot", 0.02),
        ("balance-scale__onehot", 0.005), ("balance-scale__onehot", 0.01), ("balance-scale__onehot", 0.02),
        ("digits_binarized", 0.01), ("random_2000x60", 0.01),
        ("iris__allthr", 0.005), ("iris__allthr", 0.01), ("iris__allthr", 0.02),
        ("wine__allthr", 0.01), ("wine__allthr", 0.02), ("breast_cancer__allthr", 0.01)]
SOLVERS = ["treeopt", "deepening", "portfolio", "pystreed-id", "gosdt"]


def read(name: str):
    """(X as 0/1 DataFrame, y as Series) of a wide instance."""
    import numpy as np
    import pandas as pd
    if name == "digits_binarized":                       # 64 pixels, on when above half intensity
        from sklearn.datasets import load_digits
        X, y = load_digits(return_X_y=True)
        X = pd.DataFrame((X > 7).astype(np.uint8), columns=[f"pixel{j}" for j in range(64)])
        return X, pd.Series((y == 3).astype(int), name="is_3")      # one digit against the rest
    if name == "random_2000x60":
        rng = np.random.default_rng(0)
        X = rng.integers(0, 2, size=(2000, 60))
        signal = (X[:, 0] & X[:, 1]) | (X[:, 2] & ~X[:, 3] & 1)
        y = np.where(rng.random(2000) < 0.15, 1 - signal, signal)
        return pd.DataFrame(X, columns=[f"x{j}" for j in range(60)]), pd.Series(y, name="y")
    if name in GENERATED_ALL_THRESHOLDS:                 # scikit-learn's bundled data, every midpoint threshold
        import sklearn.datasets
        from treeopt.binarize import Binarizer
        X, y = getattr(sklearn.datasets, GENERATED_ALL_THRESHOLDS[name])(return_X_y=True, as_frame=True)
        binarizer = Binarizer(thresholds="all").fit(X)   # the recipe of compas__allthr in the datasets' README
        table = binarizer.transform(X).astype(np.uint8)    # 0/1 like the derived files, for every peer
        return pd.DataFrame(table, columns=binarizer.get_feature_names_out()), y.rename("class")
    frame = pd.read_csv(SHARED / "datasets" / "derived" / f"{name}.csv")
    return frame.iloc[:, :-1], frame.iloc[:, -1]


#: Best known objectives of generated rows that no run of this suite reaches within its limit: trees
#: certified optimal at a depth budget by both ConTree and treeopt (``results_contree.md``, the same
#: all-threshold binarization and objective), so upper bounds on the row's optimum.
KNOWN_BEST = {("breast_cancer__allthr", 0.01): 0.07339191564147628}   # depth budget 3

#: Wide rows generated from scikit-learn's bundled datasets with every threshold (multiclass as given).
GENERATED_ALL_THRESHOLDS = {"iris__allthr": "load_iris", "wine__allthr": "load_wine",
                            "breast_cancer__allthr": "load_breast_cancer"}


def cart_objective(X, y, lam: float) -> float:
    """Best ``error + λ × leaves`` over CART's cost-complexity pruning path."""
    import numpy as np
    from sklearn.tree import DecisionTreeClassifier
    path = DecisionTreeClassifier(random_state=0).cost_complexity_pruning_path(X, y)
    best = math.inf
    for alpha in np.unique(path.ccp_alphas):
        tree = DecisionTreeClassifier(random_state=0, ccp_alpha=alpha).fit(X, y)
        best = min(best, 1 - tree.score(X, y) + lam * tree.get_n_leaves())
    return float(best)


# -- one fit per process ------------------------------------------------------------------------
def fit_treeopt(X, y, lam, time_limit, solver_name="gosdt"):
    from treeopt.data import Dataset
    from treeopt.solvers import GOSDT, DepthDeepening, Portfolio
    cls = {"gosdt": GOSDT, "deepening": DepthDeepening, "portfolio": Portfolio}[solver_name]
    solver = cls(Dataset.from_binary(X, y), regularization=lam)
    marks, at = [1.0, 10.0], {}
    start = time.perf_counter()
    while solver.step(1):
        elapsed = time.perf_counter() - start
        while marks and elapsed >= marks[0]:
            at[f"at_{marks.pop(0):g}s"] = solver.upper_bound
        if elapsed >= time_limit:
            break
    result = solver.result()
    tree = result.tree
    return result.optimal, lambda: tree.predict(X.to_numpy(), binarized=True), tree.n_leaves, \
        {**at, "lower_bound": result.lower_bound, "expansions": result.expansions}


def fit_deepening(X, y, lam, time_limit):
    return fit_treeopt(X, y, lam, time_limit, "deepening")


def fit_portfolio(X, y, lam, time_limit):
    return fit_treeopt(X, y, lam, time_limit, "portfolio")


def fit_pystreed_id(X, y, lam, time_limit):
    import numpy as np
    from pystreed import STreeDClassifier
    start, best, certified, depth = time.perf_counter(), None, False, 0
    Z, labels = X.to_numpy(), y.to_numpy()
    while True:
        depth += 1
        left = time_limit - (time.perf_counter() - start)
        if left <= 0.05:
            break
        clf = STreeDClassifier(optimization_task="cost-complex-accuracy", cost_complexity=lam, max_depth=depth,
                               time_limit=left)
        clf.fit(Z, labels)
        leaves = int(clf.get_n_leaves())
        objective = float(np.mean(clf.predict(Z) != labels)) + lam * leaves
        if best is None or objective < best[0]:
            best = (objective, clf, leaves)
        if not clf.fit_result.is_optimal():
            break
        if depth >= math.floor(best[0] / lam + 1e-9) - 1:     # OSDT's leaf-count bound
            certified = True
            break
    _, clf, leaves = best
    return certified, lambda: clf.predict(Z), leaves, {"depth": depth}


FITS = {"treeopt": fit_treeopt, "deepening": fit_deepening, "portfolio": fit_portfolio, "pystreed-id": fit_pystreed_id, "gosdt": fit_gosdt}


def worker(solver: str, name: str, lam: float, time_limit: float) -> dict:
    X, y = read(name)
    return {**measure(FITS[solver], solver, name, X, y, lam, time_limit), "n_features": X.shape[1]}


def run_one(solver: str, name: str, lam: float, time_limit: float) -> dict:
    """One fit in a worker subprocess of this script (``benchmarks/run.py``'s runner)."""
    return run_worker(solver, name, lam, time_limit, script=__file__, grace=2.0)


# -- the report ---------------------------------------------------------------------------------------
def report(rows, carts, bests, args) -> str:
    by = {(r["solver"], r["dataset"], round(r["lambda"], 6)): r for r in rows}

    def cell(r):
        return objective_cell(r, memory=True)

    out = ["# Wide data: treeopt vs pystreed (iterative deepening) and gosdt", "",
           command_line("wide_bench.py", args.time_limit), "",
           "Cells: objective recomputed from the returned tree (**bold** = certified optimal), CPU seconds and "
           "peak RSS. `best` = the least objective any solver returned here, `reference_optima.csv` lists, "
           "or `KNOWN_BEST` in `wide_bench.py` holds (trees certified at a depth budget, `results_contree.md`); "
           "`CART` = CART pruned at the same λ (best over the cost-complexity path).", "",
           "`default` = what `OptimalTreeClassifier()` runs (`solver=\"auto\"`: the portfolio on 24 or more "
           "binary columns, GOSDT below), its incumbent at 1 s and 10 s.", "",
           "| data (columns) | λ | best | CART | default at 1 s / 10 s | " + " | ".join(SOLVERS) + " |",
           "|---|---|---|---|---|" + "---|" * len(SOLVERS)]
    certified = {s: 0 for s in SOLVERS}
    ratios, within_10, never_worse_1, n = [], 0, 0, 0
    for name, lam in args.rows:
        key = round(lam, 6)
        r = {s: by.get((s, name, key)) for s in SOLVERS}
        best = bests[(name, key)]
        columns = next((x["n_features"] for x in r.values() if x and "n_features" in x), 0)
        t = (r["portfolio"] if columns >= 24 else r["treeopt"]) or {}
        at1, at10 = t.get("at_1s", t.get("objective")), t.get("at_10s", t.get("objective"))
        out.append(f"| {name} ({columns}) | {lam:g} | {best:.4f} | {carts[(name, key)]:.4f} | "
                   f"{'-' if at1 is None else f'{at1:.4f}'} / {'-' if at10 is None else f'{at10:.4f}'} | "
                   + " | ".join(cell(r[s]) for s in SOLVERS) + " |")
        for s in SOLVERS:
            certified[s] += bool(r[s] and r[s].get("certified"))
        ours = [r[s] for s in ("treeopt", "deepening", "portfolio") if r[s] and r[s].get("certified")]
        peers = [r[s] for s in ("pystreed-id", "gosdt") if r[s] and r[s].get("certified")]
        if ours and peers:
            ratios.append(min(x["cpu"] for x in ours) / max(min(x["cpu"] for x in peers), 1e-3))
        if at10 is not None:
            n += 1
            within_10 += at10 <= best * 1.01 + 1e-9
            never_worse_1 += at1 <= carts[(name, key)] + 1e-9
    out += ["", "## Summary", "",
            "| solver | rows certified |", "|---|---|"] + [f"| {s} | {certified[s]} / {len(args.rows)} |"
                                                         for s in SOLVERS]
    out += ["", f"- Time ratio, best treeopt solver / fastest certifying peer, geometric mean over {len(ratios)} rows "
                f"both certify: {geomean(ratios):.3g}.",
            f"- The default within 1 % of the best known objective at 10 s: {within_10} / {n} rows.",
            f"- The default at 1 s no worse than CART pruned at the same λ: {never_worse_1} / {n} rows.",
            "- Peak memory (MB) of every treeopt solver on every row is in the cells above."]
    return "\n".join(out) + "\n"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--rows", nargs="+", default=None, help="name:lambda pairs (default: the whole suite)")
    parser.add_argument("--solvers", nargs="+", default=SOLVERS, choices=SOLVERS)
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--output", default=str(HERE / "results_wide.md"))
    args = parser.parse_args(argv)
    if args.worker:
        solver, name, lam, limit = args.worker
        print(json.dumps(worker(solver, name, float(lam), float(limit))))
        return
    args.rows = ROWS if args.rows is None else [(r.split(":")[0], float(r.split(":")[1])) for r in args.rows]
    import pandas as pd
    reference = pd.read_csv(SHARED / "datasets" / "reference_optima.csv")
    reference = reference[reference.problem == "R"]
    rows, carts, bests = [], {}, {}
    jsonl = Path(args.output).with_suffix(".jsonl")
    with open(jsonl, "w") as log:
        for name, lam in args.rows:
            X, y = read(name)
            carts[(name, round(lam, 6))] = cart_objective(X, y, lam)
            for solver in args.solvers:
                row = run_one(solver, name, lam, args.time_limit)
                rows.append(row)
                log.write(json.dumps(row) + "\n")
                log.flush()
                print(f"{name:24s} {lam:<6g} {solver:12s} " + (row.get("error") or
                      f"{'certified' if row['certified'] else 'stopped  '} {row['objective']:.4f} "
                      f"{row['cpu']:.1f}s {row['peak_mb']:.0f}MB"), flush=True)
            known = reference[(reference.file == f"derived/{name}.csv") & (reference["lambda"].round(6) == round(lam, 6))]
            values = [r["objective"] for r in rows if r["dataset"] == name and round(r["lambda"], 6) == round(lam, 6)
                      and "objective" in r] + known.reference_objective.tolist() \
                + ([KNOWN_BEST[(name, round(lam, 6))]] if (name, round(lam, 6)) in KNOWN_BEST else [])
            bests[(name, round(lam, 6))] = min(values)
    Path(args.output).write_text(report(rows, carts, bests, args))
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()

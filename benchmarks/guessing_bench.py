"""Benchmark of guessing (McTavish et al., AAAI 2022, section 5.2) on compas and spiral.

For each dataset (``../shared/datasets/continuous``), 5-fold stratified CV,
λ ∈ {0.001, 0.005} and depth budgets 3-5, it fits GOSDT three ways:

* ``all``: every midpoint threshold (optimality-preserving binarization);
* ``guess``: thresholds guessed by column elimination (section 4.1) from a
  gradient-boosted reference with the paper's settings for these datasets
  (20 estimators of depth 3, section 5), ``random_state=2021``;
* ``guess+lb``: the same thresholds plus lower-bound guesses (section 4.3)
  from that reference model ``T'`` (Corollary 4.3.1).

Each (dataset, fold, binarization) runs in its own subprocess; every fit has a
60 s search limit in CPU seconds (a stopped search keeps its best tree:
``finished`` says whether it completed). Depth budgets run in increasing
order; once one hits the limit, the deeper ones of that (fold, λ, config) are
not run (marked ``skipped``). Times are CPU seconds of the worker process
(the machine is shared): ``solve`` is the search, ``guess`` the column
elimination (paid once per fold, shared by all λ and depths).

Run: ``.venv/bin/python benchmarks/guessing_bench.py`` (about 30 minutes on 2 cores);
writes ``benchmarks/results_guessing.md`` and ``benchmarks/results_guessing.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("TREEOPT_SHARED", HERE.parents[1] / "shared"))
DATASETS = ["compas", "spiral"]
LAMBDAS = [0.001, 0.005]
DEPTHS = [3, 4, 5]
FOLDS = 5
TIME_LIMIT = 60.0
GBDT = {"n_estimators": 20, "max_depth": 3, "random_state": 2021}


def load(name: str):
    frame = pd.read_csv(SHARED / "datasets" / "continuous" / f"{name}.csv")
    return frame.iloc[:, :-1], frame.iloc[:, -1].to_numpy()


def folds(y):
    from sklearn.model_selection import StratifiedKFold

    return list(StratifiedKFold(FOLDS, shuffle=True, random_state=0).split(np.zeros(len(y)), y))


def cpu_limited_run(solver, limit: float) -> tuple[float, bool]:
    """Drain the solver's steps until done or ``limit`` seconds of this process's CPU time.

    CPU time, not wall time: the benchmark machine is shared, and CPU time
    measures the solver rather than its neighbours.
    """
    start = time.process_time()
    while solver.step(64):
        if time.process_time() - start >= limit:
            return time.process_time() - start, False
    return time.process_time() - start, True


def worker(name: str, fold: int, method: str, time_limit: float) -> list[dict]:
    """Fit every (λ, depth) of one fold with one binarization; return one row per fit."""
    from treeopt.binarize import Binarizer
    from treeopt.data import Dataset
    from treeopt.guessing import ThresholdGuessBinarizer, reference_errors
    from treeopt.solvers import GOSDT

    X, y = load(name)
    train, test = folds(y)[fold]
    X_tr, y_tr, X_te, y_te = X.iloc[train], y[train], X.iloc[test], y[test]
    start = time.process_time()
    if method == "all":
        binarizer = Binarizer().fit(X_tr)
        configs = ["all"]
    else:
        binarizer = ThresholdGuessBinarizer(**GBDT).fit(X_tr, y_tr)
        configs = ["guess", "guess+lb"]
    guess_time = time.process_time() - start
    dataset = Dataset.from_arrays(X_tr, y_tr, binarizer=binarizer)
    errors = reference_errors(dataset, y_tr, binarizer.predict_reference(X_tr)) if method != "all" else None
    rows = []
    for lam in LAMBDAS:
        for config in configs:
            limit_hit_at = None
            for depth in DEPTHS:
                base = {"dataset": name, "fold": fold, "config": config, "lambda": lam, "depth": depth,
                        "features": dataset.n_features, "guess_time": guess_time if config != "all" else 0.0}
                if limit_hit_at is not None:
                    rows.append({**base, "skipped": f"depth {limit_hit_at} hit the limit"})
                    continue
                extra = {"reference_errors": errors} if config == "guess+lb" else {}
                solver = GOSDT(dataset, regularization=lam, depth_budget=depth, **extra)
                solve, finished = cpu_limited_run(solver, time_limit)
                if not finished:
                    limit_hit_at = depth
                tree = solver.result().tree
                rows.append({
                    **base, "skipped": "",
                    "solve_time": solve, "finished": finished,
                    "objective": tree.objective(X_tr, y_tr, lam), "leaves": tree.n_leaves,
                    "train_acc": float((tree.predict(X_tr) == y_tr).mean()),
                    "test_acc": float((tree.predict(X_te) == y_te).mean()),
                    "expansions": solver.expansions,
                })
    return rows


def run_job(job) -> list[dict]:
    name, fold, method = job
    hard = 6 * 3600  # the fits are bounded in CPU seconds; this only catches a hung worker
    command = [sys.executable, __file__, "--worker", name, str(fold), method]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=hard)
    except subprocess.TimeoutExpired:
        print(f"  {job}: killed after {hard:.0f} s", flush=True)
        return []
    if done.returncode != 0:
        print(f"  {job}: failed\n{done.stderr[-2000:]}", flush=True)
        return []
    rows = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"  {job}: {len(rows)} fits, {sum(r.get('solve_time', 0.0) for r in rows):.1f} CPU s", flush=True)
    return rows


def summarize(frame: pd.DataFrame) -> str:
    ran_folds = sorted(frame.fold.unique().tolist())
    partial = "" if len(ran_folds) == FOLDS else (
        f" — **partial: only fold(s) {ran_folds} of the {FOLDS} were run** (the shared machine was "
        "overloaded; rerun without --folds for all five)")
    lines = [f"# Guessing benchmark (McTavish et al. section 5.2): compas and spiral, {FOLDS}-fold CV{partial}", "",
             f"GOSDT (treeopt), search limit {TIME_LIMIT:.0f} CPU seconds per fit (times are CPU seconds: "
             "the machine was shared); reference booster "
             f"GradientBoostingClassifier(n_estimators={GBDT['n_estimators']}, max_depth={GBDT['max_depth']}, "
             f"random_state={GBDT['random_state']}) (the paper's setting for these two datasets).",
             "Cells are medians over the folds run (objective, accuracies: means). `solve` = search time; "
             "`guess` = column elimination time (once per fold, shared by all λ and depths); "
             "`finished` = folds whose search completed within the limit; `skipped` = not run because a "
             "shallower depth budget of the same fold, λ and configuration already hit the limit.", "",
             f"Command: `.venv/bin/python benchmarks/guessing_bench.py"
             f"{'' if len(ran_folds) == FOLDS else ' --folds ' + str(len(ran_folds))}` (run {time.strftime('%Y-%m-%d')}, "
             f"{os.cpu_count()} cores, two fits at a time).", ""]
    header = ("| dataset | λ | depth | config | features | solve s | guess s | finished | objective | leaves "
              "| train acc | test acc |")
    lines += [header, "|" + "---|" * 12]
    group = frame.groupby(["dataset", "lambda", "depth", "config"], sort=True)
    for (name, lam, depth, config), g in group:
        ran = g[g.skipped.fillna("") == ""]
        skipped = len(g) - len(ran)
        done = f"{int(ran.finished.sum())}/{len(ran)}" + (f" ({skipped} skipped)" if skipped else "")
        if ran.empty:
            lines.append(f"| {name} | {lam} | {depth} | {config} | {g.features.median():.0f} | — | — | {done} "
                         "| — | — | — | — |")
            continue
        lines.append(f"| {name} | {lam} | {depth} | {config} | {g.features.median():.0f} | {ran.solve_time.median():.2f} "
                     f"| {ran.guess_time.median():.2f} | {done} | {ran.objective.mean():.4f} "
                     f"| {ran.leaves.median():.0f} | {ran.train_acc.mean():.4f} | {ran.test_acc.mean():.4f} |")
    lines += ["", "## Checks: guessed vs all thresholds", "",
              "Speed-up = median over folds of (all-threshold solve time) / (guessed solve time), "
              "over the folds where the all-threshold search finished; `incl. guess` adds the column "
              "elimination time to the guessed run. Test-accuracy difference = mean(guessed) − mean(all), "
              "in points.", "",
              "| dataset | λ | depth | config | all finished | speed-up | speed-up incl. guess | ≥10× | "
              "Δ test acc (points) | within 1 point |", "|" + "---|" * 10]
    for (name, lam, depth), g in frame.groupby(["dataset", "lambda", "depth"], sort=True):
        g = g[g.skipped.fillna("") == ""]
        base = g[g.config == "all"].set_index("fold")
        for config in ["guess", "guess+lb"]:
            other = g[g.config == config].set_index("fold")
            both = base.index.intersection(other.index)
            done = [f for f in both if base.loc[f, "finished"]]
            if len(both) == 0:
                lines.append(f"| {name} | {lam} | {depth} | {config} | 0/0 | — | — | n/a (all-threshold not run) "
                             "| — | — |")
                continue
            if done:
                speed = float(np.median([base.loc[f, "solve_time"] / max(other.loc[f, "solve_time"], 1e-6)
                                         for f in done]))
                speed_all = float(np.median([base.loc[f, "solve_time"] /
                                             max(other.loc[f, "solve_time"] + other.loc[f, "guess_time"], 1e-6)
                                             for f in done]))
                ten = "yes" if speed >= 10 else "**no**"
                speed_text, speed_all_text = f"{speed:.1f}×", f"{speed_all:.1f}×"
            else:
                speed_text = speed_all_text = "—"
                ten = "n/a (all-threshold did not finish)"
            delta = 100 * (other.loc[both, "test_acc"].mean() - base.loc[both, "test_acc"].mean())
            within = "yes" if delta >= -1 else "**no**"
            lines.append(f"| {name} | {lam} | {depth} | {config} | {len(done)}/{len(both)} | {speed_text} "
                         f"| {speed_all_text} | {ten} | {delta:+.2f} | {within} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", nargs=3, metavar=("DATASET", "FOLD", "METHOD"))
    parser.add_argument("--jobs", type=int, default=2, help="fits in parallel (default 2)")
    parser.add_argument("--summarize-only", action="store_true", help="rewrite the .md from the .jsonl")
    parser.add_argument("--folds", type=int, default=FOLDS,
                        help=f"run only the first N of the {FOLDS} folds (a quick look; default all)")
    args = parser.parse_args(argv)
    if args.worker:
        name, fold, method = args.worker
        print(json.dumps(worker(name, int(fold), method, TIME_LIMIT)))
        return 0
    jsonl = HERE / "results_guessing.jsonl"
    if not args.summarize_only:
        # Fold by fold, so that an interrupted run still has complete comparisons; results are
        # appended and the summary rewritten after every job.
        jobs = [(name, fold, method) for fold in range(args.folds) for name in DATASETS for method in ("guess", "all")]
        jsonl.write_text("")
        lock = threading.Lock()

        def job_and_save(job):
            rows = run_job(job)
            with lock:
                with jsonl.open("a") as out:
                    out.write("".join(json.dumps(r) + "\n" for r in rows))
                write_summary(jsonl)

        with ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(job_and_save, jobs))
    write_summary(jsonl)
    print(f"wrote {HERE / 'results_guessing.md'}")
    return 0


def write_summary(jsonl: Path) -> None:
    frame = pd.read_json(jsonl, lines=True)
    if not frame.empty:
        (HERE / "results_guessing.md").write_text(summarize(frame))


if __name__ == "__main__":
    sys.exit(main())

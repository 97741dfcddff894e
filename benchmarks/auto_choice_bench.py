"""Which solver ``solver="auto"`` should run on numeric tables with a depth budget and λ > 0.

Fits, side by side in one run, every data set × depth × λ with three settings of
``OptimalTreeClassifier(depth_budget=d, regularization=λ, time_limit=L)``:

* ``gosdt``: ``solver="gosdt", thresholds="all"``: GOSDT over the binary table of every threshold;
* ``continuous``: ``solver="continuous"``: every threshold, numeric columns kept as sorted values;
* ``gosdt_auto``: ``solver="gosdt", thresholds="auto"``: what ``solver="auto"`` ran on such tables
  before it chose by the threshold count: every threshold up to ``AUTO_MAX_THRESHOLDS``, guessed
  thresholds above (the encoding it picked is reported).

Each fit runs in its own process under an address-space cap (``--memory-cap``, default 8 GB), so a
search that runs away in memory is recorded (status ``memory``) instead of stopping the run. Peak
resident memory is sampled by a thread while the fit runs (as ``continuous_memory.py`` does);
``ru_maxrss`` is the kernel's peak of the whole process. Times are CPU seconds of the fit
(``time.process_time``: the machine is shared), imports and data loading excluded.

A setting that does not certify at depth d on a data set and λ is not run at deeper depths there
(``·`` in the table): a deeper search over the same table only costs more. On data with at most
``AUTO_MAX_THRESHOLDS`` thresholds ``gosdt_auto`` keeps every threshold, the ``gosdt`` fit, so it
is not run again.

Data: scikit-learn's bundled sets, ``../shared/datasets/continuous`` and the generated sets of
``continuous_data.py``, plus small tables generated here (:data:`SMALL`): few or many distinct
values per column and integer columns with few values.

Usage::

    .venv/bin/python benchmarks/auto_choice_bench.py --help
    flock /work/bench.lock .venv/bin/python benchmarks/auto_choice_bench.py --out /tmp/auto_choice.md

Writes one JSON line per fit to ``--jsonl`` (``--append`` adds to it) and a markdown table of every
line in it to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from treeopt.encoding import AUTO_MAX_THRESHOLDS

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

#: Small generated tables: name -> (rows, columns, distinct values per column or None for all
#: distinct, integer-valued, seed). Labels come from an axis-aligned depth-three rule on the columns,
#: with a tenth of them flipped.
SMALL = {
    "gen_1000x4_few": (1_000, 4, 12, False, 11),
    "gen_1000x4_many": (1_000, 4, None, False, 12),
    "gen_3000x7_few": (3_000, 7, 30, False, 13),
    "gen_3000x7_many": (3_000, 7, None, False, 14),
    "gen_2000x6_int": (2_000, 6, 8, True, 15),
    "gen_5000x9_int": (5_000, 9, 20, True, 16),
}
DATA = ["iris", "wine", "breast_cancer", "digits", "compas", "spiral", *SMALL, "mixture_5k", "rotated_15k"]
SETTINGS = {
    "gosdt": {"solver": "gosdt", "thresholds": "all"},
    "continuous": {"solver": "continuous"},
    "gosdt_auto": {"solver": "gosdt", "thresholds": "auto"},
}


def small_table(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """A generated table of :data:`SMALL`: noisy labels of a depth-three rule, 10 % flipped."""
    n_rows, n_columns, distinct, integer, seed = SMALL[name]
    rng = np.random.default_rng(seed)
    if distinct is None:
        X = rng.normal(size=(n_rows, n_columns))
    else:
        levels = np.arange(distinct) if integer else np.sort(rng.normal(size=distinct))
        X = levels[rng.integers(0, distinct, size=(n_rows, n_columns))].astype(float)
    middle = np.median(X, axis=0)
    first = X[:, 0] > middle[0]
    y = np.where(first, X[:, 1] > middle[1], X[:, 2] > middle[2] + 0.1 * X[:, 3 % n_columns])
    y = (y ^ (X[:, n_columns - 1] > np.quantile(X[:, n_columns - 1], 0.8))).astype(np.int64)
    flip = rng.random(n_rows) < 0.1
    y[flip] ^= 1
    return pd.DataFrame(X, columns=[f"x{j}" for j in range(n_columns)]), y


def load(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    if name in SMALL:
        return small_table(name)
    import continuous_data
    return continuous_data.load(name)


def _fit(setting: str, name: str, depth: int, lam: float, limit: float) -> dict:
    """One fit in this process: status, certificate, objective, errors, CPU seconds, peak memory."""
    from treeopt import OptimalTreeClassifier
    from treeopt.memory import resident_memory

    X, y = load(name)
    peak = [resident_memory()]

    def watch():
        while True:
            peak[0] = max(peak[0], resident_memory())
            time.sleep(0.05)

    threading.Thread(target=watch, daemon=True).start()
    clf = OptimalTreeClassifier(depth_budget=depth, regularization=lam, time_limit=limit, **SETTINGS[setting])
    cpu, wall = time.process_time(), time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            clf.fit(X, y)
        except MemoryError:
            return {"status": "memory", "certified": False, "cpu_s": round(time.process_time() - cpu, 2),
                    "peak_mb": round(peak[0] / 1e6)}
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    thresholds = int(sum(len(np.unique(X.iloc[:, j])) - 1 for j in range(X.shape[1])))
    return {"solver": clf.solver_.name, "thresholds_": clf.thresholds_, "status": clf.status_,
            "certified": bool(clf.optimal_), "objective": round(float(clf.objective_), 6),
            "errors": int((clf.predict(X) != y).sum()), "cpu_s": round(cpu, 2), "wall_s": round(wall, 2),
            "peak_mb": round(peak[0] / 1e6),
            "ru_maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3),
            "rows": len(y), "columns": X.shape[1], "all_thresholds": thresholds}


def _run_one(setting, name, depth, lam, limit, cap) -> dict:
    def cap_memory():
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    head = {"data": name, "depth": depth, "lambda": lam, "setting": setting}
    try:
        done = subprocess.run([sys.executable, __file__, "--worker", setting, name, str(depth), str(lam), str(limit)],
                              capture_output=True, text=True, timeout=limit * 3 + 60, preexec_fn=cap_memory)
    except subprocess.TimeoutExpired:
        return {**head, "status": "killed (hard timeout)", "certified": False}
    lines = done.stdout.strip().splitlines()
    if done.returncode == 0 and lines:
        return {**head, **json.loads(lines[-1])}
    last = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
    status = "memory" if "MemoryError" in last or "memory" in last.lower() else f"error: {last[:80]}"
    return {**head, "status": status, "certified": False}


def _cell(record: dict | None) -> str:
    if record is None:
        return "·"
    if "objective" not in record:
        return f"{record['status']} ({record.get('cpu_s', '?')} s, {record.get('peak_mb', '?')} MB)"
    value = f"{record['objective']:.4f}"
    value = f"**{value}**" if record["certified"] else f"{value} ({record['status']})"
    return f"{value} {record['cpu_s']:.2f} s {record['peak_mb']} MB"


def markdown(records: list[dict], command: str, limit: float, cap_gb: float) -> str:
    by_key = {(r["data"], r["depth"], r["lambda"], r["setting"]): r for r in records}
    shapes = {}
    for r in records:
        if "rows" in r:
            shapes[r["data"]] = f"{r['rows']} × {r['columns']}, {r['all_thresholds']} thr"
    lines = [f"Command: `{command}` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}), "
             f"{limit:g} s per fit, each fit in its own process under a {cap_gb:g} GB address-space cap.", "",
             "Cells: objective (**bold** = certified, else the status), CPU seconds of the fit, peak resident MB "
             "(sampled); `memory` = stopped by the address-space cap. `·` = not run (not certified at a "
             "shallower depth). `gosdt_auto` = `solver=\"gosdt\", thresholds=\"auto\"`, with the thresholds it "
             "picked in the last column (the `gosdt` fit where it keeps all).", "",
             "| data (rows × columns, thresholds) | d | λ | gosdt, all thresholds | continuous | gosdt_auto | "
             "gosdt_auto thresholds |", "|---|---|---|---|---|---|---|"]
    order = {name: i for i, name in enumerate(DATA)}
    keys = sorted(dict.fromkeys((r["data"], r["lambda"], r["depth"]) for r in records),
                  key=lambda key: (order.get(key[0], len(order)), key[0], key[1], key[2]))
    for (name, lam, depth) in keys:
        cells = [by_key.get((name, depth, lam, s)) for s in SETTINGS]
        if cells[2] is None and cells[0] is not None and cells[0].get("all_thresholds", 0) <= AUTO_MAX_THRESHOLDS:
            cells[2] = {**cells[0], "setting": "gosdt_auto"}
        picked = cells[2] and cells[2].get("thresholds_")
        lines.append(f"| {name} ({shapes.get(name, '?')}) | {depth} | {lam:g} | "
                     + " | ".join(_cell(c) for c in cells) + f" | {picked or ''} |")
    lines += ["", summary(records)]
    return "\n".join(lines) + "\n"


def summary(records: list[dict]) -> str:
    """Certified counts, the CPU-time ratio gosdt / continuous where both certify, and the peaks."""
    out = []
    for setting in SETTINGS:
        mine = [r for r in records if r["setting"] == setting]
        peak = max((r.get("peak_mb", 0) or 0 for r in mine), default=0)
        out.append(f"- {setting}: {sum(r['certified'] for r in mine)} certified of {len(mine)} run, "
                   f"largest peak {peak} MB")
    pairs = {}
    for r in records:
        pairs.setdefault((r["data"], r["depth"], r["lambda"]), {})[r["setting"]] = r
    ratios = [max(p["gosdt"]["cpu_s"], 0.1) / max(p["continuous"]["cpu_s"], 0.1) for p in pairs.values()
              if "gosdt" in p and "continuous" in p and p["gosdt"]["certified"] and p["continuous"]["certified"]]
    guessed = [p for p in pairs.values() if p.get("gosdt_auto", {}).get("thresholds_") == "guess"
               and "objective" in p.get("continuous", {})]
    if guessed:
        better = sum(p["continuous"]["objective"] < p["gosdt_auto"]["objective"] - 1e-9 for p in guessed)
        worse = sum(p["continuous"]["objective"] > p["gosdt_auto"]["objective"] + 1e-9 for p in guessed)
        out.append(f"- where gosdt_auto guessed thresholds ({len(guessed)} fits): continuous objective lower on "
                   f"{better}, equal on {len(guessed) - better - worse}, higher on {worse}")
    if ratios:
        geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
        out.append(f"- CPU time gosdt / continuous where both certify ({len(ratios)} fits, under 0.1 s counted "
                   f"as 0.1 s): geometric mean {geo:.2f}, least {min(ratios):.2f}, most {max(ratios):.2f}")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", nargs="+", default=DATA, help=f"data sets (default: {' '.join(DATA)})")
    parser.add_argument("--depths", nargs="+", type=int, default=[2, 3, 4])
    parser.add_argument("--lambdas", nargs="+", type=float, default=[0.001, 0.01])
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per fit (the estimator's)")
    parser.add_argument("--memory-cap", type=float, default=8.0, help="address-space cap per fit, GB")
    parser.add_argument("--jsonl", default="/tmp/auto_choice.jsonl", help="one JSON line per fit")
    parser.add_argument("--append", action="store_true", help="add to --jsonl instead of starting it anew")
    parser.add_argument("--out", default="/tmp/auto_choice.md", help="the markdown table")
    parser.add_argument("--budget-minutes", type=float, default=28.0, help="start no fit after this")
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        setting, name, depth, lam, limit = args.worker
        print(json.dumps(_fit(setting, name, int(depth), float(lam), float(limit))))
        return
    command = " ".join([".venv/bin/python", "benchmarks/auto_choice_bench.py", *sys.argv[1:]])
    records, start = [], time.monotonic()
    if args.append and Path(args.jsonl).exists():
        records = [json.loads(line) for line in Path(args.jsonl).read_text().splitlines() if line.strip()]
    with open(args.jsonl, "a" if args.append else "w") as sink:
        for name in args.data:
            X, _ = load(name)
            few = sum(len(np.unique(X.iloc[:, j])) - 1 for j in range(X.shape[1])) <= AUTO_MAX_THRESHOLDS
            for lam in args.lambdas:
                failed = set()
                for depth in sorted(args.depths):
                    for setting in args.settings:
                        if setting in failed or time.monotonic() - start > args.budget_minutes * 60:
                            continue
                        if setting == "gosdt_auto" and few and "gosdt" in args.settings:
                            continue            # every threshold kept: the gosdt fit is the default's
                        record = _run_one(setting, name, depth, lam, args.time_limit, int(args.memory_cap * 1e9))
                        if record["status"] not in ("optimal", "optimal_over_guessed_thresholds"):
                            failed.add(setting)
                        records.append(record)
                        sink.write(json.dumps(record) + "\n")
                        sink.flush()
                        print(json.dumps(record), flush=True)
    Path(args.out).write_text(markdown(records, command, args.time_limit, args.memory_cap))


if __name__ == "__main__":
    main()

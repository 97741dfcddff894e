"""Peak memory and time of the continuous solver on the memory and scale targets, with ConTree beside it.

The targets (``results_continuous.md``): peak resident memory at most 1 GB on ``rotated_15k``
(15,000 × 16, two classes) at depth 4, at most 2 GB on ``mixture_100k`` (100,000 × 10, four
classes) at depth 3, and ``mixture_100k`` at depth 3 certified within ConTree's time. Each fit runs
in its own process: ``OptimalTreeClassifier(depth_budget=d, regularization=λ, time_limit=L)`` as a
user writes it (``solver="auto"``, which must pick the continuous solver here), then, with
``--contree``, ``pycontree.ConTree(max_depth=d, complexity_cost=λ, time_limit=L)`` on the same
data. A thread samples the process's resident memory while it fits, so a fit stopped at its time
limit reports the most it held on the way; ``ru_maxrss`` (the kernel's peak) is reported as well.
Times are CPU seconds of the fit (``time.process_time``: the machine is shared), wall seconds beside.

Usage::

    .venv/bin/python benchmarks/continuous_memory.py                     # both targets, λ = 0 and 0.01
    .venv/bin/python benchmarks/continuous_memory.py --cells mixture_100k:3 --lambdas 0.01 --contree

Prints one line per fit (run it under ``flock /work/bench.lock`` on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import threading
import time
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

CELLS = ["rotated_15k:4", "mixture_100k:3"]


def _fit(solver: str, name: str, depth: int, lam: float, limit: float) -> dict:
    """One fit in this process: its solver, status, errors, CPU and wall seconds and peak memory."""
    import continuous_data

    from treeopt.memory import resident_memory
    X, y = continuous_data.load(name)
    peak = [resident_memory()]
    before = peak[0]

    def watch():
        while True:
            peak[0] = max(peak[0], resident_memory())
            time.sleep(0.1)

    threading.Thread(target=watch, daemon=True).start()
    cpu, wall = time.process_time(), time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if solver == "treeopt":
            from treeopt import OptimalTreeClassifier
            clf = OptimalTreeClassifier(depth_budget=depth, regularization=lam, time_limit=limit).fit(X, y)
            import treeopt
            extra = {"solver": clf.solver_.name, "treeopt": str(Path(treeopt.__file__).parent.parent),
                     "status": clf.status_, "certified": bool(clf.optimal_),
                     "thresholds_evaluated": clf.solver_.expansions}
        else:
            from pycontree import ConTree
            Z = X.to_numpy(dtype=float)
            clf = ConTree(max_depth=depth, complexity_cost=lam, time_limit=limit).fit(Z, y)
            certified = clf._config.is_within_time_limit() if hasattr(clf, "_config") else None
            extra = {"solver": "contree", "certified": certified}
            X = Z
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    errors = int((clf.predict(X) != y).sum())
    return {"data": name, "depth": depth, "lambda": lam, **extra, "errors": errors, "cpu_s": round(cpu, 2),
            "wall_s": round(wall, 2), "rss_before_mb": round(before / 1e6), "peak_sampled_mb": round(peak[0] / 1e6),
            "ru_maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", nargs="+", default=CELLS, help="data:depth pairs")
    parser.add_argument("--lambdas", nargs="+", type=float, default=[0.0, 0.01])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--contree", action="store_true", help="fit ConTree on the same cells")
    parser.add_argument("--worker", nargs=5, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        solver, name, depth, lam, limit = args.worker
        print(json.dumps(_fit(solver, name, int(depth), float(lam), float(limit))))
        return
    for cell in args.cells:
        name, depth = cell.split(":")
        for lam in args.lambdas:
            for solver in ["treeopt"] + (["contree"] if args.contree else []):
                done = subprocess.run([sys.executable, __file__, "--worker", solver, name, depth, str(lam),
                                       str(args.time_limit)], capture_output=True, text=True,
                                      timeout=args.time_limit * 4 + 300)
                lines = done.stdout.strip().splitlines()
                print(lines[-1] if done.returncode == 0 and lines else
                      json.dumps({"data": name, "depth": int(depth), "lambda": lam, "solver": solver,
                                  "error": done.stderr.strip().splitlines()[-1:]}), flush=True)


if __name__ == "__main__":
    main()

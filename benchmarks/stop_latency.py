"""Stop latency: how long a fit takes to answer Ctrl-C and ``time_limit``, and its longest unit of work.

Every stop (Ctrl-C, ``time_limit``, pause, ``memory_limit``) waits for the unit of work under
way, and each unit keeps to ``Solver.unit_budget`` (the protocol's unit budget); this script
measures what a user waits, on a synthetic table of numeric columns binarized at every threshold
(``thresholds="all"`` with ``max_thresholds`` per column, so the threshold count is chosen).

Three measurements (and the setup's wall time), each printed as one table row:

- ``sigint``: a real SIGINT sent to the main thread at random moments of a fit (seeded); the
  seconds from the signal to ``fit`` raising ``KeyboardInterrupt`` with its tree stored;
- ``time_limit``: ``fit(time_limit=T)``'s wall time minus ``T`` (the overshoot);
- ``unit``: the longest single ``solver.step(1)`` over the first seconds of a search (after a
  ``setup`` row: the wall time of ``make_solver``, binarizing and building the dataset, which
  tells whether a moment fell in the setup or the search; each status says so too).

Usage::

    .venv/bin/python benchmarks/stop_latency.py                               # full size: 200,000 rows, 15,310 thresholds
    .venv/bin/python benchmarks/stop_latency.py --rows 20000 --thresholds 1500 --moments 3
"""

from __future__ import annotations

import argparse
import gc
import signal
import sys
import threading
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from treeopt import OptimalTreeClassifier, make_solver  # noqa: E402


def table(rows: int, columns: int, seed: int = 0):
    """Numeric columns with distinct values; the label an interaction of three of them plus noise."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(rows, columns)), columns=[f"x{i}" for i in range(columns)])
    y = ((X.x0 + X.x1 * X.x2 + 0.5 * rng.normal(size=rows)) > 0).astype(int).to_numpy()
    return X, y


def sigint_latency(make, X, y, moment: float) -> tuple[float, str]:
    """Seconds from a SIGINT sent ``moment`` seconds into ``fit`` to fit's end, and the status kept."""
    sent = []
    main = threading.main_thread().ident

    def send():
        sent.append(time.perf_counter())
        signal.pthread_kill(main, signal.SIGINT)

    clf = make()
    timer = threading.Timer(moment, send)
    timer.start()
    try:
        clf.fit(X, y)
    except KeyboardInterrupt:
        pass
    ended = time.perf_counter()
    timer.cancel()
    if not sent:
        return float("nan"), f"finished first ({getattr(clf, 'status_', '?')})"
    return ended - sent[0], _status_and_stage(clf)


def _status_and_stage(clf) -> str:
    """The fit's status, and whether it stopped in the setup (before any search) or in the search."""
    if not hasattr(clf, "status_"):
        return "no tree"
    return f"{clf.status_} ({'in the setup' if getattr(clf, 'setup_stopped_', None) else 'in the search'})"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--columns", type=int, default=5, help="numeric columns")
    parser.add_argument("--thresholds", type=int, default=15_310, help="threshold features in all")
    parser.add_argument("--regularization", type=float, default=0.001)
    parser.add_argument("--moments", type=int, default=5, help="SIGINTs at random moments")
    parser.add_argument("--earliest", type=float, default=0.5, help="SIGINTs fall in [earliest, latest] seconds")
    parser.add_argument("--latest", type=float, default=20.0, help="SIGINTs fall in [earliest, latest] seconds")
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--unit-seconds", type=float, default=30.0, help="seconds of single steps for 'unit'")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--address-limit", default=None,
                        help="cap the process's address space (RLIMIT_AS, e.g. 12GB): a fit that outgrows it "
                             "ends with status memory instead of pressing the shared machine")
    args = parser.parse_args(argv)
    if args.address_limit is not None:
        import resource
        from treeopt.memory import parse_memory_limit
        cap = parse_memory_limit(args.address_limit)
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    warnings.simplefilter("ignore")
    X, y = table(args.rows, args.columns, args.seed)
    per_column = max(1, args.thresholds // args.columns)
    settings = dict(regularization=args.regularization, thresholds="all", max_thresholds=per_column)
    print(f"# stop latency: {args.rows} rows, {args.columns} numeric columns, {per_column} thresholds each, "
          f"λ = {args.regularization}\n")
    print("| measurement | at (s) | latency (s) | status |")
    print("|---|---|---|---|")
    rng = np.random.default_rng(args.seed)
    for moment in rng.uniform(args.earliest, args.latest, size=args.moments):
        latency, status = sigint_latency(lambda: OptimalTreeClassifier(**settings), X, y, float(moment))
        print(f"| sigint | {moment:.2f} | {latency:.3f} | {status} |", flush=True)
        # An interrupted search is kept for resuming, in reference cycles (its generator): free its
        # tables before the next fit, whose memory check counts what this process holds.
        gc.collect()
    began = time.perf_counter()
    clf = OptimalTreeClassifier(time_limit=args.time_limit, **settings).fit(X, y)
    print(f"| time_limit | {args.time_limit:g} | {time.perf_counter() - began - args.time_limit:.3f} | "
          f"{_status_and_stage(clf)} |", flush=True)
    began = time.perf_counter()
    solver = make_solver(X, y, **settings)
    print(f"| setup | - | {time.perf_counter() - began:.3f} | make_solver's wall time (where the moments fall) |",
          flush=True)
    longest, began = 0.0, time.perf_counter()
    while time.perf_counter() - began < args.unit_seconds:
        start = time.perf_counter()
        alive = solver.step(1)
        longest = max(longest, time.perf_counter() - start)
        if not alive:
            break
    print(f"| unit | first {args.unit_seconds:g} | {longest:.3f} | {solver.status} (longest step) |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

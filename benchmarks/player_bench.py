"""Throughput of SolverPlayer at full speed against Solver.run() on the same problem.

Not a test (no timing assertion anywhere in the suite): run it by hand,

    .venv/bin/python benchmarks/player_bench.py [--repeats 3]

and it writes ``benchmarks/results_player.md``. The player plays on an
asyncio event loop exactly as in Jupyter (slices of ``speed`` units, a turn
for the loop between slices, throttled redraws of every default view); the
target is at least half of ``run()``'s expansions per second.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import time
from pathlib import Path

from treeopt import make_solver
from treeopt.datasets import load_monk
from treeopt.widgets import explore

PROBLEMS = [
    ("monk2", 2, 0.005),
    ("monk2", 2, 0.001),
]


def run_rate(X, y, regularization: float) -> tuple[float, int]:
    solver = make_solver(X, y, regularization=regularization)
    start = time.perf_counter()
    result = solver.run()
    seconds = time.perf_counter() - start
    return result.expansions / seconds, result.expansions


def player_rate(X, y, regularization: float, views, speed: int) -> tuple[float, int, str]:
    player = explore(X, y, regularization=regularization, views=views, speed=speed)
    start = time.perf_counter()
    status = asyncio.run(player.play_until_done())
    seconds = time.perf_counter() - start
    return player.n_steps / seconds, player.n_steps, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=str(Path(__file__).with_name("results_player.md")))
    args = parser.parse_args()

    explore(*load_monk(1), regularization=0.5)           # warm up imports (plotly's FigureWidget: seconds)
    rows = []
    for name, problem, lam in PROBLEMS:
        X, y = load_monk(problem)
        runs = [run_rate(X, y, lam) for _ in range(args.repeats)]
        base = statistics.median(r[0] for r in runs)
        for label, views, speed in [("player, no views, speed 5000", None, 5000),
                                    ("player, default views, speed 5000", "default", 5000),
                                    ("player, default views, speed 200 (default)", "default", 200)]:
            rates = [player_rate(X, y, lam, views, speed) for _ in range(args.repeats)]
            rate = statistics.median(r[0] for r in rates)
            assert all(r[1] == runs[0][1] for r in rates), "player and run() did different searches"
            rows.append((f"{name} λ={lam}", runs[0][1], base, label, rate, rate / base))
            print(f"{name} λ={lam}: run() {base:,.0f}/s; {label}: {rate:,.0f}/s ({rate / base:.0%})")

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        "# SolverPlayer throughput against run()",
        "",
        "`.venv/bin/python benchmarks/player_bench.py` "
        f"(median of {args.repeats}; Python {platform.python_version()}, {os.cpu_count()} cores, "
        f"load average {load:.1f} at the end).",
        "",
        "Expansions per second of GOSDT on the same problem: `run()` (the fast path) against the player "
        "playing to the end on an asyncio loop (as in Jupyter), with redraws throttled to every 0.25 s "
        "and plot rebuilds to every 2.5 s. Target: the player at full speed reaches at least half of "
        "`run()`'s rate.",
        "",
        "| problem | expansions | run() /s | player | player /s | ratio |",
        "| --- | ---: | ---: | --- | ---: | ---: |",
    ]
    for problem, n, base, label, rate, ratio in rows:
        lines.append(f"| {problem} | {n} | {base:,.0f} | {label} | {rate:,.0f} | {ratio:.0%} |")
    Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()

"""SolverPlayer in numbers: bytes sent per redraw, Pause latency, and throughput against Solver.run().

Not a test (no timing assertion anywhere in the suite): run it by hand,

    flock /tmp/treeopt-bench.lock .venv/bin/python benchmarks/player_bench.py [--repeats 1]

and it writes ``benchmarks/results_player.md``. Three measurements:

1. **Bytes per redraw** while the player plays a search to the end with the
   default views: every widget message counted by
   :func:`treeopt.widgets.traffic.count_traffic` (JSON plus binary buffers,
   what crosses the websocket), for the in-place plot updates of
   ``widgets/live_figure.py`` and, for comparison, for the strategy it
   replaced (a new ``FigureWidget`` per redraw, at most one per 2.5 s while
   playing; emulated here by swapping ``LiveFigure.flush``).
2. **Pause latency** with steps that cost 30 ms each (an OSDT step on AUC
   costs about that; emulated by sleeping in ``step``), optionally with
   another process keeping one core busy: seconds from asking for Pause
   (``loop.call_later``) to the play task's end, for slices bounded by time
   (``slice_seconds=0.05``, the default) and by count only (the old player).
3. **Throughput**: expansions per second of the player playing to the end
   on an asyncio loop (as in Jupyter) against ``run()`` on the same problem.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

from treeopt import make_solver
from treeopt.datasets import load_monk
from treeopt.widgets import explore
from treeopt.widgets import live_figure
from treeopt.widgets.traffic import count_traffic

PROBLEMS = [
    ("monk2", 2, 0.005),
    ("monk2", 2, 0.001),
]


@contextmanager
def rebuilding_figures():
    """Emulate the replaced strategy: every change builds a new FigureWidget (throttled to 2.5 s)."""
    flush, interval = live_figure.LiveFigure.flush, live_figure.LiveFigure.__init__.__defaults__

    def rebuild(self):
        state = live_figure._fingerprint((self._data, self._layout))
        if state == self._drawn:
            return False
        old = self._figure
        self._figure = live_figure.figure_widget(data=self._data, layout=self._layout)
        self.box.children = [self._figure]
        if old is not None:
            old.close()
        self._drawn, self._last = state, time.perf_counter()
        self.updates += 1
        return True

    live_figure.LiveFigure.flush = rebuild
    live_figure.LiveFigure.__init__.__defaults__ = (2.5,)
    try:
        yield
    finally:
        live_figure.LiveFigure.flush = flush
        live_figure.LiveFigure.__init__.__defaults__ = interval


def traffic(X, y, regularization: float, rebuild: bool) -> dict:
    with (rebuilding_figures() if rebuild else _nothing()):
        player = explore(X, y, regularization=regularization)
        redraws = [0]
        player.observe(lambda change: redraws.__setitem__(0, redraws[0] + 1), names="frame")
        with count_traffic() as counted:
            start = time.perf_counter()
            asyncio.run(player.play_until_done())
            seconds = time.perf_counter() - start
    return {"redraws": redraws[0], "seconds": seconds, "bytes": counted.total, "opened": counted.n_opened,
            "figure_bytes": counted.by_class.get("FigureWidget", 0), "by_class": dict(counted.by_class)}


@contextmanager
def _nothing():
    yield


@contextmanager
def busy_core(enabled: bool):
    """Another process spinning on one core while the block runs."""
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if enabled else None
    try:
        yield
    finally:
        if proc is not None:
            proc.kill()
            proc.wait()


def pause_latency(slice_seconds: float, step_cost: float = 0.03, play_for: float = 0.5) -> float:
    X, y = load_monk(2)
    player = explore(X, y, regularization=0.001, slice_seconds=slice_seconds)
    real = player.solver.step

    def slow_step(n=1):
        time.sleep(step_cost * n)
        return real(n)

    player.solver.step = slow_step

    async def scenario_via_loop():
        # Pause is asked for at a fixed moment through the loop, as a click would be: the loop runs it
        # only when the current slice yields, so the latency counts from the moment it was due.
        loop = asyncio.get_running_loop()
        task = player.play()
        due = time.perf_counter() + play_for
        loop.call_later(play_for, player.pause)
        await task
        return time.perf_counter() - due

    return asyncio.run(scenario_via_loop())


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
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--no-busy", action="store_true", help="measure Pause latency without a busy core")
    parser.add_argument("--out", default=str(Path(__file__).with_name("results_player.md")))
    args = parser.parse_args()

    explore(*load_monk(1), regularization=0.5)           # warm up imports (plotly's FigureWidget: seconds)
    load = [os.getloadavg()[0]] if hasattr(os, "getloadavg") else []

    traffic_rows = []
    X, y = load_monk(2)
    for label, rebuild in [("new FigureWidget per redraw (before)", True), ("in place, batch_update (now)", False)]:
        t = traffic(X, y, 0.005, rebuild)
        traffic_rows.append((label, t))
        print(f"traffic {label}: {t['bytes'] / max(t['redraws'], 1):,.0f} B/redraw, "
              f"{t['bytes'] / t['seconds']:,.0f} B/s, {t['opened']} widgets opened, by class {t['by_class']}")

    latency_rows = []
    with busy_core(not args.no_busy):
        for label, slice_seconds in [("time-bounded slices (slice_seconds=0.05, now)", 0.05),
                                     ("count-bounded slices (speed=200 only, before)", 1e9)]:
            values = [pause_latency(slice_seconds) for _ in range(args.repeats)]
            latency_rows.append((label, statistics.median(values)))
            print(f"pause latency, {label}: {statistics.median(values):.2f} s")

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

    if hasattr(os, "getloadavg"):
        load.append(os.getloadavg()[0])
    busy = "no other load added" if args.no_busy else "another process spinning on one core"
    lines = [
        "# SolverPlayer: bytes per redraw, Pause latency, throughput",
        "",
        "`flock /tmp/treeopt-bench.lock .venv/bin/python benchmarks/player_bench.py"
        f"{' --no-busy' if args.no_busy else ''}` (median of {args.repeats}; Python {platform.python_version()}, "
        f"{os.cpu_count()} cores shared with other jobs, load average "
        f"{' → '.join(f'{v:.1f}' for v in load)} at start → end).",
        "",
        "## Bytes sent to the browser while playing",
        "",
        "GOSDT on monk2, λ = 0.005, played to the end with the default views (trace, tree, queue, bounds). "
        "Every widget message is counted as JSON plus binary buffers (`treeopt.widgets.traffic.count_traffic`), "
        "which is what crosses the websocket. \"Before\" emulates the replaced strategy of "
        "`widgets/live_figure.py` (a new `FigureWidget` per change, at most one per 2.5 s while playing); "
        "each new figure carries plotly's JavaScript bundle.",
        "",
        "| plot updates | redraws | seconds | bytes per redraw | of which plotly figures | bytes per second "
        "| widgets created |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for label, t in traffic_rows:
        n = max(t["redraws"], 1)
        lines.append(f"| {label} | {t['redraws']} | {t['seconds']:.1f} | {t['bytes'] / n:,.0f} | "
                     f"{t['figure_bytes'] / n:,.0f} | {t['bytes'] / t['seconds']:,.0f} | {t['opened']} |")
    lines += [
        "",
        "## Pause latency with 30 ms steps",
        "",
        f"Seconds from asking for Pause to the play task's end ({busy}); each unit of work sleeps 30 ms "
        "(about an OSDT step on the AUC objective). Headless: the browser's round trip is not included.",
        "",
        "| slices | Pause latency (s) |",
        "| --- | ---: |",
    ]
    lines += [f"| {label} | {value:.2f} |" for label, value in latency_rows]
    lines += [
        "",
        "## Throughput against run()",
        "",
        "Expansions per second of GOSDT on the same problem: `run()` (the fast path) against the player "
        "playing to the end on an asyncio loop (as in Jupyter), slices of at most 0.05 s and `speed` units, "
        "redraws at most every 0.2 s.",
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

"""The player in a real browser with one core kept busy: Pause, Step ×N, websocket bytes, throughput.

Not a test (timings are measured and reported, never asserted): run it by hand,

    flock /tmp/treeopt-bench.lock .venv/bin/python benchmarks/browser_bench.py

It serves a one-cell dashboard (tic-tac-toe, λ = 0.005, default views and
settings: a search of many minutes) with Voila, drives it with Playwright in
Debian's headless Chromium (``/usr/bin/chromium``; never a downloaded
browser) while another process spins on one core, and appends to
``benchmarks/results_player.md``:

- Pause latency: seconds from the click to the page reading "paused";
- whether the step counter then stays still (3 s);
- Step ×N latency: seconds from the click to the counter showing the N steps;
- websocket bytes per second received by the page while playing;
- page errors;
- throughput: steps per second shown by the page while playing, against
  ``Solver.run(time_limit=...)`` expansions per second on the same problem
  (measured in this process, also with the busy core).

The targets: Pause ≤ 1 s, Step ×N ≤ 1.5 s, ≤ 300 KB/s, no page
errors, throughput ≥ 70 % of ``run()``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

REGULARIZATION = 0.005
CELL = f"""from treeopt.datasets import load_tic_tac_toe
from treeopt.widgets import explore

X, y = load_tic_tac_toe()
player = explore(X, y, regularization={REGULARIZATION}{{extra}})
player"""


@contextmanager
def busy_core():
    """Another process spinning on one core for the duration."""
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def run_rate(seconds: float) -> float:
    """Expansions per second of ``run()`` on the dashboard's problem, over ``seconds``."""
    from treeopt import make_solver
    from treeopt.datasets import load_tic_tac_toe
    solver = make_solver(*load_tic_tac_toe(), regularization=REGULARIZATION)
    start = time.perf_counter()
    result = solver.run(time_limit=seconds)
    return result.expansions / (time.perf_counter() - start)


def _notebook(directory: Path, extra: str = "") -> Path:
    path = directory / "browser_bench.ipynb"
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": CELL.format(extra=extra)}
    nb = {"cells": [cell], "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                      "language": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb))
    return path


def drive(url: str, rounds: int, play_seconds: float) -> dict:
    from playwright.sync_api import sync_playwright
    from voila_server import CHROMIUM, CHROMIUM_ARGS

    out = {"pause": [], "step": [], "still": [], "bytes_per_s": [], "steps_per_s": [], "errors": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1800})
            received = [0]
            page.on("pageerror", lambda error: out["errors"].append(str(error)))
            page.on("websocket", lambda ws: ws.on(
                "framereceived", lambda payload: received.__setitem__(0, received[0] + len(payload))))
            page.goto(url, timeout=300_000)
            page.wait_for_selector(".treeopt-steps-value", timeout=300_000)
            page.wait_for_selector(".treeopt-trace .js-plotly-plot", state="attached", timeout=300_000)

            def steps() -> int:
                return int(page.locator(".treeopt-steps-value").inner_text())

            def status() -> str:
                return page.locator(".treeopt-status").inner_text()

            def wait_text(selector: str, predicate_js: str, timeout: float) -> float:
                start = time.perf_counter()
                page.wait_for_function(
                    f"() => {{ const e = document.querySelector('{selector}'); return e && ({predicate_js}); }}",
                    timeout=timeout * 1000, polling=20)
                return time.perf_counter() - start

            n = 100                                         # the N box's default
            for _ in range(rounds):
                page.get_by_role("button", name="Play", exact=True).click()
                wait_text(".treeopt-status", "e.innerText.includes('running')", 60)
                time.sleep(1.0)                              # let the first redraws pass
                s0, b0, t0 = steps(), received[0], time.perf_counter()
                time.sleep(play_seconds)
                s1, b1, t1 = steps(), received[0], time.perf_counter()
                out["steps_per_s"].append((s1 - s0) / (t1 - t0))
                out["bytes_per_s"].append((b1 - b0) / (t1 - t0))
                page.get_by_role("button", name="Pause", exact=True).click()
                out["pause"].append(wait_text(".treeopt-status", "e.innerText.includes('paused')", 120))
                time.sleep(0.5)                              # the redraw at Pause lands
                paused_at = steps()
                time.sleep(3.0)
                out["still"].append(steps() == paused_at)
                page.get_by_role("button", name="Step ×N", exact=True).click()
                out["step"].append(wait_text(".treeopt-steps-value", f"Number(e.innerText) >= {paused_at + n}", 60))
        finally:
            browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="Play, Pause, Step ×N rounds")
    parser.add_argument("--play-seconds", type=float, default=5.0)
    parser.add_argument("--refresh-interval", type=float, default=None,
                        help="explore's refresh_interval (default: explore's own, 0.5 s)")
    parser.add_argument("--out", default=str(Path(__file__).with_name("results_player.md")))
    args = parser.parse_args()
    from voila_server import serve_process

    load = [os.getloadavg()[0]]
    with busy_core():
        base = run_rate(10.0)
        print(f"run(): {base:,.0f} expansions/s", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            extra = "" if args.refresh_interval is None else f", refresh_interval={args.refresh_interval}"
            with serve_process(_notebook(tmp, extra), tmp) as url:
                result = drive(url, args.rounds, args.play_seconds)
    load.append(os.getloadavg()[0])
    print(json.dumps(result, indent=1), flush=True)

    rate = statistics.median(result["steps_per_s"])
    rows = [
        ("Pause → page shows \"paused\" (s)", "≤ 1", ", ".join(f"{v:.2f}" for v in result["pause"])),
        ("counter still for 3 s after Pause", "yes", ", ".join("yes" if v else "NO" for v in result["still"])),
        ("Step ×N (N = 100) → page shows the steps (s)", "≤ 1.5", ", ".join(f"{v:.2f}" for v in result["step"])),
        ("websocket bytes received while playing (KB/s)", "≤ 300",
         ", ".join(f"{v / 1000:.1f}" for v in result["bytes_per_s"])),
        ("page errors", "0", str(len(result["errors"]))),
        ("steps/s in the browser while playing", "", ", ".join(f"{v:,.0f}" for v in result["steps_per_s"])),
        ("run() expansions/s (10 s, same problem)", "", f"{base:,.0f}"),
        ("browser / run() (median)", "≥ 70 %", f"{rate / base:.0%}"),
    ]
    lines = ["", "## In a real browser, one core busy", "",
             f"`flock /tmp/treeopt-bench.lock .venv/bin/python benchmarks/browser_bench.py --rounds {args.rounds} "
             f"--play-seconds {args.play_seconds}"
             + ("" if args.refresh_interval is None else f" --refresh-interval {args.refresh_interval}")
             + f"` (Python {platform.python_version()}, 2 cores shared with other "
             f"jobs, load average {load[0]:.1f} → {load[-1]:.1f}). Tic-tac-toe, λ = {REGULARIZATION}, GOSDT, "
             + ("`explore` defaults (default views, refresh_interval 0.5 s)" if args.refresh_interval is None
              else f"`explore` defaults but refresh_interval={args.refresh_interval}")
             + ", served by Voila, headless Debian Chromium driven by Playwright, "
             "another process spinning on one core throughout (including the run() measurement). One value per "
             f"round ({args.rounds} rounds of Play {args.play_seconds:g} s, Pause, 3 s still, Step ×N).", "",
             "| measure | target | measured |", "| --- | --- | --- |"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    if result["errors"]:
        lines += ["", "Page errors: " + "; ".join(result["errors"][:5])]
    with open(args.out, "a") as fh:
        fh.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

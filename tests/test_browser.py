"""A real-browser test: the player served by Voila, driven in headless Chromium by Playwright.

Play, Pause (the page then stays still), Step ×N (its steps show), the views
drawn, no page errors, and the bytes the page receives over the websocket
while playing stay far below one plotly bundle (issue 14: plots are updated
in place, never rebuilt). Bounds are in bytes and steps, not seconds.

Debian's ``chromium`` package is used (``/usr/bin/chromium``); a browser is
never downloaded (``make test`` installs chromium through ``system-deps``).
Skipped, not failed, when chromium, voila or playwright is missing.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).parent / "notebooks" / "player.ipynb"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]

pytestmark = pytest.mark.browser


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"voila exited early with code {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"voila did not open port {port} within {timeout} s")


@pytest.fixture
def voila_url(tmp_path):
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip("Debian's chromium is not installed (make system-deps installs it)")
    pytest.importorskip("voila")
    pytest.importorskip("playwright.sync_api")
    port = _free_port()
    env = dict(os.environ)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR"):
        path = tmp_path / name.lower()
        path.mkdir()
        env[name] = str(path)
    log = open(tmp_path / "voila.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "voila", str(NOTEBOOK), "--no-browser", f"--port={port}",
         "--Voila.ip=127.0.0.1", "--show_tracebacks=True"],
        cwd=NOTEBOOK.parent, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_for_port(port, proc, timeout=120)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def _steps(page) -> int:
    return int(page.locator(".treeopt-steps-value").inner_text())


def _wait_until(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def test_play_pause_and_see_the_views_in_a_real_browser(voila_url, tmp_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1800})
            errors, received = [], [0]
            page.on("pageerror", lambda error: errors.append(str(error)))

            def on_websocket(ws):
                ws.on("framereceived", lambda payload: received.__setitem__(0, received[0] + len(payload)))

            page.on("websocket", on_websocket)
            page.goto(voila_url, timeout=180_000)
            # Voila runs the notebook, then the widgets render.
            page.wait_for_selector(".treeopt-steps-value", timeout=180_000)
            page.wait_for_selector(".treeopt-trace .js-plotly-plot .scatterlayer .trace", state="attached",
                                   timeout=120_000)
            assert _steps(page) == 0

            before_play = received[0]
            page.get_by_role("button", name="Play", exact=True).click()
            _wait_until(lambda: "running" in page.locator(".treeopt-status").inner_text(), 60,
                        "the status to read 'running'")
            _wait_until(lambda: _steps(page) > 0, 120, "the step counter to move")
            _wait_until(lambda: _steps(page) > 50, 120, "the step counter to pass 50")

            page.get_by_role("button", name="Pause", exact=True).click()
            _wait_until(lambda: "paused" in page.locator(".treeopt-status").inner_text(), 120,
                        "the status to read 'paused'")
            paused_at = _steps(page)
            time.sleep(2.0)
            assert _steps(page) == paused_at, "the step counter moved after Pause"
            assert paused_at > 50
            # Playing and pausing (with the redraw at Pause) sent kilobytes: a rebuilt plotly figure alone
            # would be about 5 MB.
            played_bytes = received[0] - before_play
            assert 0 < played_bytes < 1_500_000, f"{played_bytes} bytes received while playing"

            n = 100                                    # the N box's default
            page.get_by_role("button", name="Step ×N", exact=True).click()
            _wait_until(lambda: _steps(page) == paused_at + n, 60, "Step ×N to show its steps")

            # The queue table, the trace plot (>= 2 points per trace) and the tree SVG are visible.
            queue = page.locator(".treeopt-queue select")
            assert queue.is_visible()
            _wait_until(lambda: queue.locator("option").count() > 0, 20, "queue rows")
            # After Pause the plot shows the latest data (updated in place).
            read_lengths = ("() => Array.from(document.querySelectorAll('.treeopt-trace .js-plotly-plot'))"
                            ".map(e => (e.data || []).slice(0, 2).map(t => (t.x || []).length))")

            def trace_plotted() -> bool:
                return any(len(lengths) == 2 and min(lengths) >= 2 for lengths in page.evaluate(read_lengths))

            _wait_until(trace_plotted, 60, "the trace plot to show >= 2 points per trace")
            assert page.locator(".treeopt-trace .js-plotly-plot").last.is_visible()
            tree = page.locator(".treeopt-tree-svg svg").first
            assert tree.is_visible()
            assert page.locator(".treeopt-tree-svg svg g.node").count() >= 1
            page.screenshot(path=str(tmp_path / "player.png"), full_page=True)
            assert (tmp_path / "player.png").stat().st_size > 10_000
            assert errors == [], errors
        finally:
            browser.close()

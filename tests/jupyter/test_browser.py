"""A real-browser test: the player served by Voila, driven in headless Chromium by Playwright.

Play, Pause (the page then stays still), Step ×N (its steps show), the views
drawn, no page errors, and the bytes the page receives over the websocket
while playing stay far below one plotly bundle and at most 300 KB per redraw
shown (plots are updated in place, never rebuilt). Bounds are in bytes and steps, not seconds.

Debian's ``chromium`` package is used (``/usr/bin/chromium``); a browser is
never downloaded (``make test`` installs chromium through ``system-deps``).
Skipped, not failed, when chromium, voila or playwright is missing.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from voila_server import CHROMIUM, CHROMIUM_ARGS, serve, wait_until

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "player.ipynb"

pytestmark = pytest.mark.browser


@pytest.fixture
def voila_url(tmp_path):
    with serve(NOTEBOOK, tmp_path) as url:
        yield url


def _steps(page) -> int:
    return int(page.locator(".treeopt-steps-value").inner_text())


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

            # Every step count the page shows is one redraw that reached it.
            page.evaluate("""() => {
                window.__shownSteps = new Set();
                const box = document.querySelector('.treeopt-steps-value').closest('.widget-html') || document.body;
                new MutationObserver(() => {
                    const e = document.querySelector('.treeopt-steps-value');
                    if (e) window.__shownSteps.add(e.innerText);
                }).observe(box, {subtree: true, childList: true, characterData: true});
            }""")
            before_play = received[0]
            page.get_by_role("button", name="Play", exact=True).click()
            wait_until(lambda: "running" in page.locator(".treeopt-status").inner_text(), 60,
                        "the status to read 'running'")
            wait_until(lambda: _steps(page) > 0, 120, "the step counter to move")
            wait_until(lambda: _steps(page) > 50, 120, "the step counter to pass 50")

            page.get_by_role("button", name="Pause", exact=True).click()
            wait_until(lambda: "paused" in page.locator(".treeopt-status").inner_text(), 120,
                        "the status to read 'paused'")
            paused_at = _steps(page)
            time.sleep(2.0)
            assert _steps(page) == paused_at, "the step counter moved after Pause"
            assert paused_at > 50
            # Playing and pausing (with the redraw at Pause) sent kilobytes: a rebuilt plotly figure alone
            # would be about 5 MB.
            played_bytes = received[0] - before_play
            assert 0 < played_bytes < 1_500_000, f"{played_bytes} bytes received while playing"
            # The bound, in bytes: at most 300 KB per second of play; the notebook redraws at most once a
            # second (refresh_interval=1.0), so at most 300 KB per redraw shown (plus the redraw at Pause).
            redraws = page.evaluate("() => window.__shownSteps.size")
            assert redraws >= 2, f"only {redraws} step counts shown while playing"
            assert played_bytes <= 300_000 * (redraws + 1), f"{played_bytes} bytes for {redraws} redraws"

            n = 100                                    # the N box's default
            page.get_by_role("button", name="Step ×N", exact=True).click()
            wait_until(lambda: _steps(page) == paused_at + n, 60, "Step ×N to show its steps")

            # The queue table, the trace plot (>= 2 points per trace) and the tree SVG are visible.
            queue = page.locator(".treeopt-queue select")
            assert queue.is_visible()
            wait_until(lambda: queue.locator("option").count() > 0, 20, "queue rows")
            # After Pause the plot shows the latest data (updated in place).
            read_lengths = ("() => Array.from(document.querySelectorAll('.treeopt-trace .js-plotly-plot'))"
                            ".map(e => (e.data || []).slice(0, 2).map(t => (t.x || []).length))")

            def trace_plotted() -> bool:
                return any(len(lengths) == 2 and min(lengths) >= 2 for lengths in page.evaluate(read_lengths))

            wait_until(trace_plotted, 60, "the trace plot to show >= 2 points per trace")
            assert page.locator(".treeopt-trace .js-plotly-plot").last.is_visible()
            tree = page.locator(".treeopt-tree-svg svg").first
            assert tree.is_visible()
            assert page.locator(".treeopt-tree-svg svg g.node").count() >= 1
            page.screenshot(path=str(tmp_path / "player.png"), full_page=True)
            assert (tmp_path / "player.png").stat().st_size > 10_000
            assert errors == [], errors
        finally:
            browser.close()

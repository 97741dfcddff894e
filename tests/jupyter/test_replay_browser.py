"""The offline replay of notebook 02's search, opened from disk in headless Chromium.

No kernel and no server: the page is loaded through ``file://``. Every
request the page makes is recorded and none may go to the network. Moving the
slider to sampled frames shows that frame's bounds, rules, queue and trace (as
recorded: the :class:`~widgets.recording.Frame` objects, not the page's own
data), and Play advances the frames until Pause.

Debian's ``chromium`` package is used (``/usr/bin/chromium``); a browser is
never downloaded. Skipped, not failed, when chromium or playwright is missing.
"""

from __future__ import annotations

import math
import shutil
import time
from pathlib import Path

import pytest

from treeopt import make_solver
from treeopt.datasets import load_tic_tac_toe
from treeopt.widgets import record_replay

from voila_server import CHROMIUM, CHROMIUM_ARGS, wait_until

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def replay(tmp_path_factory):
    """Notebook 02's search (``explore(X, y, regularization=0.01, depth_budget=5)``) saved as a replay."""
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    pytest.importorskip("playwright")
    X, y = load_tic_tac_toe()
    path = tmp_path_factory.mktemp("replay") / "watching_a_search.html"
    recording = record_replay(make_solver(X, y, regularization=0.01, depth_budget=5), path, max_frames=200)
    return path, recording


def _shown_number(page, name: str):
    text = page.locator(f"#treeopt-{name}").inner_text()
    return None if text == "\u2014" else float(text)


def _expected(value: float):
    return float(f"{value:.6g}") if math.isfinite(value) else None


def test_the_replay_plays_offline_and_shows_the_recorded_frames(replay):
    from playwright.sync_api import sync_playwright

    path, recording = replay
    frames = recording.frames
    n = len(frames)
    assert n > 20 and frames[-1].snapshot.status == "optimal"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1200})
            requests, errors = [], []
            page.on("request", lambda request: requests.append(request.url))
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(path.resolve().as_uri())
            page.wait_for_selector("#treeopt-tree svg g.node")
            slider = page.locator("#treeopt-slider")
            assert slider.get_attribute("max") == str(n - 1)

            for k in sorted({0, 1, 2, n // 4, n // 2, 3 * n // 4, n - 2, n - 1}):
                slider.fill(str(k))
                s = frames[k].snapshot
                assert page.locator("#treeopt-position").inner_text() == f"frame {k + 1} of {n}"
                assert page.locator("#treeopt-steps").inner_text() == str(s.expansions), k
                assert page.locator("#treeopt-status-value").inner_text() == s.status, k
                assert _shown_number(page, "lower") == _expected(s.lower_bound), k
                assert _shown_number(page, "upper") == _expected(s.upper_bound), k
                rules = s.best_tree.rules() if s.best_tree is not None else ""
                assert page.locator("#treeopt-rules").text_content() == rules, k
                assert page.locator("#treeopt-queue tbody tr").count() == len(s.queue), k
                assert page.locator("#treeopt-queue tbody td.rule").all_text_contents() == [e.rule for e in s.queue]
                # The trace drawn is the recording's trace up to frame k (Frame.points).
                points = frames[k].points
                drawn = page.evaluate(f"() => window.treeoptReplay.points({k})")
                assert [[q[1], q[2], q[3]] for q in drawn] == \
                    [[e, lb if math.isfinite(lb) else None, ub if math.isfinite(ub) else None]
                     for _, e, lb, ub in points], k
                finite_lower = sum(math.isfinite(lb) for _, _, lb, _ in points)
                assert page.locator("polyline.treeopt-lower").get_attribute("data-n") == str(finite_lower), k
                improvements = sum(f.improved and math.isfinite(f.snapshot.upper_bound) for f in frames[:k + 1])
                assert page.locator("circle.treeopt-improvement").count() == improvements, k

            # Play from the start advances the frames (fastest speed); Pause holds the frame shown.
            page.select_option("#treeopt-speed", "40")
            slider.fill("0")
            play = page.locator("#treeopt-play")
            play.click()
            assert play.inner_text() == "Pause"
            position = lambda: int(page.evaluate("() => window.treeoptReplay.position()"))  # noqa: E731
            wait_until(lambda: position() >= 5, 30, "Play to advance five frames")
            play.click()
            assert play.inner_text() == "Play"
            held = position()
            time.sleep(0.5)
            assert position() == held and slider.input_value() == str(held)
            shown = frames[held].snapshot
            assert page.locator("#treeopt-steps").inner_text() == str(shown.expansions)
            # The keys step like the buttons.
            page.locator("h1").click()
            page.keyboard.press("ArrowRight")
            assert position() == held + 1
            page.keyboard.press("ArrowLeft")
            page.keyboard.press("ArrowLeft")
            assert position() == held - 1
            page.locator("#treeopt-next").click()
            assert position() == held
            # Played to the end, it stops on the last frame: the certified tree.
            play.click()
            wait_until(lambda: position() == n - 1 and play.inner_text() == "Play", 60, "Play to reach the end")
            assert page.locator("#treeopt-rules").text_content() == frames[-1].snapshot.best_tree.rules()

            assert errors == [], errors
            assert requests and all(url.startswith("file://") for url in requests), requests
            assert not [url for url in requests if url.startswith(("http:", "https:", "ws:", "wss:"))]
        finally:
            browser.close()

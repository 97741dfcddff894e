"""A real-browser test of RashomonExplorer: served by Voila, driven in headless Chromium by Playwright.

The explorer updates its plotly figures in place; this checks that a filter chosen in the page
reaches the plot the browser draws (the icicle's total and the caption change), and that choosing
a group in the page draws that group's best tree. Skipped, not
failed, when chromium, voila or playwright is missing (as ``tests/jupyter/test_browser.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from voila_server import CHROMIUM, CHROMIUM_ARGS, serve, wait_until

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "rashomon_explorer.ipynb"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def voila_url(tmp_path_factory):
    """One Voila server for the module: every page it serves runs the notebook in a kernel of its own."""
    with serve(NOTEBOOK, tmp_path_factory.mktemp("voila")) as url:
        yield url


def test_a_filter_chosen_in_the_page_updates_the_drawn_icicle(voila_url, tmp_path):
    from playwright.sync_api import sync_playwright

    from treeopt import rashomon_set
    from treeopt.datasets import load_monk

    X, y = load_monk(3)
    rs = rashomon_set(X, y, regularization=0.02, epsilon=0.5)
    name = rs.variable_importance().index[0]
    expected = len(rs.filter(avoid=name))
    total = ("() => { const e = document.querySelector('.treeopt-rashomon-icicle .js-plotly-plot');"
             " return e && e.data ? e.data[0].values[0] : null; }")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1600})
            page.goto(voila_url, timeout=180_000)
            page.wait_for_selector(".treeopt-rashomon-icicle .js-plotly-plot", state="attached", timeout=180_000)
            wait_until(lambda: page.evaluate(total) == len(rs), 60, f"the icicle to show {len(rs)} trees")
            assert page.locator(".treeopt-tree-svg svg").first.is_visible()
            page.locator(".treeopt-rashomon-avoid select").select_option(label=name)
            wait_until(lambda: page.evaluate(total) == expected, 60,
                        f"the icicle to show {expected} trees after avoiding {name}")
            assert f"{expected:,} trees" in page.locator(".treeopt-rashomon-caption").inner_text()
            page.screenshot(path=str(tmp_path / "rashomon.png"), full_page=True)
        finally:
            browser.close()


CAPTION = ".treeopt-rashomon-tree-caption"
SLICES = ".treeopt-rashomon-icicle .js-plotly-plot g.slice"


def _choose_a_group(voila_url, screenshot, choose) -> None:
    """Open the explorer in Chromium, wait for the set's best tree, ``choose(page)`` a group, then check
    that the group's best tree is drawn and no page error happened."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        errors = []
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1600})
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(voila_url, timeout=180_000)
            page.wait_for_selector(SLICES, state="attached", timeout=180_000)
            wait_until(lambda: "best tree of the set" in page.locator(CAPTION).inner_text(), 60,
                       "the caption of the set's best tree")
            wait_until(lambda: page.locator(SLICES).count() > 1, 60, "the icicle's groups to be drawn")
            choose(page)
            wait_until(lambda: "best tree of group" in page.locator(CAPTION).inner_text(), 60,
                       "the caption of the chosen group's tree")
            assert page.locator(".treeopt-rashomon-group select").input_value() != ""
            assert page.locator(".treeopt-tree-svg svg").first.is_visible()
            page.screenshot(path=str(screenshot), full_page=True)
        finally:
            browser.close()
        assert not errors, errors


def test_choosing_a_group_in_the_page_draws_its_best_tree(voila_url, tmp_path):
    """Choosing a group shows its best tree, in a real browser (the group control)."""
    def choose(page):
        select = page.locator(".treeopt-rashomon-group select")
        select.select_option(label=select.locator("option").nth(1).inner_text())

    _choose_a_group(voila_url, tmp_path / "rashomon_group.png", choose)


def test_a_click_on_the_drawn_icicle_draws_the_group_s_best_tree(voila_url, tmp_path):
    """A real mouse click on a group of the icicle plotly draws in the page shows that group's
    best tree (plotly's click event reaches the kernel through the FigureWidget), with no page error.

    The pointer first rests on the group, as a person's does. plotly's FigureWidget sends hover and
    click events through one synchronised value, and ipywidgets merges the changes of a value while an
    earlier message is still on its way to the kernel, keeping the last: a click within a few
    milliseconds of the pointer's arrival (what a bare ``click()`` does) is replaced by the hover
    that follows it, and never reaches the kernel (seen in the page's websocket frames)."""
    import time

    def choose(page):
        group = page.locator(SLICES).nth(1)                  # 0: the whole set
        group.hover()
        time.sleep(2.0)                                      # the hover's message reaches the kernel first
        group.click()

    _choose_a_group(voila_url, tmp_path / "rashomon_click.png", choose)

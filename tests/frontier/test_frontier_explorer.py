"""FrontierExplorer, headless: drive the player, click points, move the λ slider, read traits and figure data."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from treeopt import Dataset, frontier  # noqa: E402
from treeopt.datasets import load_monk  # noqa: E402
from treeopt.frontier.search import FrontierSearch  # noqa: E402
from treeopt.widgets import FrontierExplorer  # noqa: E402


@pytest.fixture(scope="module")
def monk2():
    X, y = load_monk(2)
    y = np.asarray(y)
    return X.iloc[::2], y[::2], X.iloc[1::2], y[1::2]


def test_it_fills_in_while_the_search_runs_and_marks_uncertified_points(monk2):
    X, y, X_test, y_test = monk2
    search = FrontierSearch(Dataset.from_arrays(X, y), max_leaves=10)
    explorer = FrontierExplorer(search, X_test=X_test, y_test=y_test, backend="python")
    assert explorer.player.status == "not_started"
    assert list(explorer.figure.data[0].x) == [1]                     # the single leaf, before any work
    seen_partial = False
    # Every step redraws the figure from the whole frontier; 250 units a step still shows the search
    # partway many times over (a hundred-odd redraws, the early ones with few certified points).
    while explorer.player.step(250):
        table = explorer.frontier.table
        assert list(explorer.figure.data[0].x) == table["leaves"].tolist()
        assert list(explorer.figure.data[1].y) == pytest.approx(table["test_accuracy"].tolist())
        symbols = list(explorer.figure.data[0].marker.symbol)
        assert symbols == ["circle" if c else "circle-open" for c in table["certified"]]
        if not explorer.complete:
            seen_partial = seen_partial or explorer.certified_leaves < 10
    assert seen_partial
    assert explorer.complete and explorer.certified_leaves == 10
    final = frontier(X, y, max_leaves=10, X_test=X_test, y_test=y_test)
    assert explorer.frontier.table["leaves"].tolist() == final.table["leaves"].tolist()
    assert set(explorer.figure.data[0].marker.symbol) == {"circle"}
    assert [d.name for d in explorer.figure.data] == ["training", "test", "selected"]


def test_slider_moves_along_the_hull_and_clicks_select_points():
    X, y = load_monk(1)
    front = frontier(X, y, max_leaves=10)
    explorer = FrontierExplorer(front, backend="python")
    table = explorer.frontier.table
    hull = table[table["on_hull"]]
    assert len(hull) >= 3 and front.complete
    for row, item in hull.iterrows():
        lo, hi = item["lambda_min"], min(item["lambda_max"], 1.0)
        if lo <= 0 or hi <= lo:
            continue
        explorer.regularization = math.sqrt(lo * hi)
        assert explorer.selected == row
        tree = explorer.frontier.tree(row)
        assert explorer.svg.startswith("<svg") and f"{tree.n_leaves} leaves" in explorer.caption.value
        marker = explorer.figure.data[-1]
        assert list(marker.x) == [item["leaves"]] and list(marker.y) == [pytest.approx(item["accuracy"])]
    # A click on a point selects its tree and moves the slider into its λ interval.
    for row in range(len(table)):
        explorer._on_click(explorer.figure.data[0], SimpleNamespace(point_inds=[row]))
        assert explorer.selected == row
        if table.at[row, "on_hull"] and table.at[row, "lambda_max"] >= 10 ** explorer.lambda_slider.min:
            assert table.at[row, "lambda_min"] - 1e-12 <= explorer.regularization
            assert explorer.regularization <= table.at[row, "lambda_max"] + 1e-12
        else:
            assert "for no λ" in explorer.lambda_label.value or not table.at[row, "on_hull"]
    html = explorer._repr_mimebundle_()
    assert "text/html" in html and "<svg" in html["text/html"]


def test_a_lambda_below_the_certified_range_is_flagged():
    X, y = load_monk(2)
    explorer = FrontierExplorer(frontier(X, y, max_leaves=3), backend="python")
    assert explorer.frontier.min_certified_regularization > 1e-3
    explorer.regularization = 1e-3
    assert "below the certified range" in explorer.lambda_label.value


def test_bad_input():
    X, y = load_monk(1)
    with pytest.raises(TypeError, match="FrontierSearch or a Frontier"):
        FrontierExplorer((X, y))
    search = FrontierSearch(Dataset.from_arrays(X, y), max_leaves=3)
    with pytest.raises(ValueError, match="X_test and y_test"):
        FrontierExplorer(search, X_test=X)
    with pytest.raises(ValueError, match="backend"):
        FrontierExplorer(search, backend="svg")
    explorer = FrontierExplorer(search, backend="python")
    with pytest.raises(ValueError, match="row must be between"):
        explorer.select(5)

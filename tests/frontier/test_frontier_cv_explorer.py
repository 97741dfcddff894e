"""FrontierExplorer with a cross-validated frontier, headless: figure data, in-place updates, the button."""

from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("plotly")

from sklearn.model_selection import KFold  # noqa: E402

from treeopt import OptimalTreeClassifierCV, cross_validate_frontier, frontier  # noqa: E402
from treeopt.datasets import load_monk  # noqa: E402
from treeopt.widgets import FrontierExplorer  # noqa: E402

CV = KFold(3, shuffle=True, random_state=0)


@pytest.fixture(scope="module")
def data():
    X, y = load_monk(3)
    return X, np.asarray(y)


@pytest.fixture(scope="module")
def cvf(data):
    return cross_validate_frontier(*data, cv=CV, max_leaves=8)


def test_the_cv_curve_has_error_bars_and_marks_the_chosen_lambda(data, cvf):
    explorer = FrontierExplorer(frontier(*data, max_leaves=8), cv=cvf, backend="python")
    fig = explorer.cv_figure
    curve, points, chosen, slider = fig.data
    table = cvf.table
    assert list(points.x) == pytest.approx(table["regularization"].tolist())
    assert list(points.y) == pytest.approx(table["mean_test_score"].tolist())
    assert list(points.error_y.array) == pytest.approx(table["std_test_score"].tolist())
    assert list(points.marker.symbol) == ["circle" if c else "circle-open" for c in table["certified"]]
    # The step curve holds each row's mean across its whole λ interval.
    for i, (_, row) in enumerate(table.iterrows()):
        assert curve.y[2 * i] == curve.y[2 * i + 1] == pytest.approx(row["mean_test_score"])
        assert curve.x[2 * i] == pytest.approx(min(row["lambda_max"], 1.0))
    assert list(chosen.x) == [cvf.best_regularization] * 2
    assert explorer.cv_regularization == cvf.best_regularization
    assert "chosen λ" in explorer.cv_label.value


def test_the_slider_moves_its_marker_in_place_and_the_button_selects_the_chosen_tree(data, cvf):
    front = frontier(*data, max_leaves=8)
    explorer = FrontierExplorer(front, cv=cvf, backend="python")
    fig = explorer.cv_figure
    table = cvf.table
    for _, row in table.iterrows():
        lam = row["regularization"]
        if not 10 ** explorer.lambda_slider.min <= lam <= 1:
            continue
        explorer.regularization = lam
        assert explorer.cv_figure is fig                         # updated in place, never rebuilt
        assert list(fig.data[-1].x) == [lam]
        assert list(fig.data[-1].y) == [pytest.approx(row["mean_test_score"])]
        assert f"{row['mean_test_score']:.4f}" in explorer.cv_label.value
    explorer.regularization = 0.5
    explorer.use_chosen.click()
    assert explorer.regularization == cvf.best_regularization
    assert explorer.selected == front.row_for(cvf.best_regularization)
    assert front.tree(explorer.selected).n_leaves == table.at[cvf.best_index, "leaves"]


def test_show_cv_updates_the_same_figure_and_takes_a_fitted_estimator(data, cvf):
    X, y = data
    explorer = FrontierExplorer(frontier(X, y, max_leaves=8), backend="python")
    assert explorer.cv_figure is None and explorer.cv_regularization is None
    explorer.show_cv(cvf, rule="one_se")
    fig = explorer.cv_figure
    assert list(fig.data[2].x) == [cvf.one_se_regularization] * 2
    clf = OptimalTreeClassifierCV(cv=KFold(4, shuffle=True, random_state=1), max_leaves=6).fit(X, y)
    explorer.show_cv(clf)
    assert explorer.cv_figure is fig
    assert list(fig.data[1].x) == pytest.approx(clf.cv_results_["param_regularization"].tolist())
    assert list(fig.data[2].x) == [clf.regularization_] * 2
    assert "4 folds" in explorer.cv_label.value and math.isfinite(explorer.cv_regularization)
    assert "chosen λ" in explorer._repr_mimebundle_()["text/html"]
    with pytest.raises(TypeError, match="CVFrontier"):
        explorer.show_cv(object())

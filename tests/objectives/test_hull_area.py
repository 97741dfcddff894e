"""hull_area (plain Python, used by the AUC objectives) equals the area of roc_hull's vertices."""

from __future__ import annotations

import numpy as np
import pytest

from treeopt.objectives import get_objective
from treeopt.roc import hull_area, roc_hull


@pytest.mark.parametrize("seed", range(5))
def test_hull_area_equals_the_hull_vertices_area(seed):
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(400):
        table = rng.integers(0, 6, size=(int(rng.integers(1, 9)), 2)).astype(float)
        if table[:, 0].sum() == 0 or table[:, 1].sum() == 0:
            continue
        theta = float(rng.choice([1.0, 0.1, 0.25, rng.random() * 0.99 + 0.01]))
        hull = roc_hull(table)
        expected = hull.auc if theta == 1.0 else hull.partial_auc(theta)
        assert hull_area(table.tolist(), theta) == pytest.approx(expected, abs=1e-12)
        checked += 1
    assert checked > 300


def test_vertex_exactly_at_theta_and_ties():
    table = [[2, 0], [2, 2], [0, 4], [1, 1]]          # fractions 0, 1/2, 1, 1/2: a shared segment
    hull = roc_hull(table)
    assert hull_area(table) == pytest.approx(hull.auc, abs=1e-15)
    assert hull_area(table, 0.6) == pytest.approx(hull.partial_auc(0.6), abs=1e-15)   # a vertex at FPR 0.6
    assert get_objective("partial_auc", theta=0.6).tree_loss(table) == pytest.approx(1 - hull.partial_auc(0.6))


def test_one_class_is_refused():
    with pytest.raises(ValueError, match="both classes"):
        hull_area([[0, 3], [0, 1]])

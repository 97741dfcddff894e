"""The ROC convex hull of leaves: shape, area, partial area, dominance, and scikit-learn trees."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score, roc_curve
from sklearn.tree import DecisionTreeClassifier

from reference_metrics import auc_by_pairs, expand, partial_auc_by_segments, tables
from treeopt.roc import estimator_hull, hull_auc, leaf_class_counts, partial_hull_auc, roc_hull


@given(table=st.one_of(tables(), tables(weights="float")))
def test_hull_is_a_concave_monotone_curve_from_origin_to_one(table):
    hull = roc_hull(table)
    assert (hull.fpr[0], hull.tpr[0]) == (0.0, 0.0) and (hull.fpr[-1], hull.tpr[-1]) == (1.0, 1.0)
    assert (np.diff(hull.fpr) >= 0).all() and (np.diff(hull.tpr) >= 0).all()
    # Concave: the cross product of consecutive segments is never positive (slopes decrease).
    dx, dy = np.diff(hull.fpr), np.diff(hull.tpr)
    assert (dx[:-1] * dy[1:] - dy[:-1] * dx[1:] <= 1e-12).all()
    assert (np.diff(hull.positive_fraction) < 0).all()
    # One segment per distinct positive fraction among non-empty leaves.
    weight = table.sum(axis=1)
    fractions = {table[i, 1] / weight[i] for i in range(len(table)) if weight[i] > 0}
    assert len(hull.fpr) == len(fractions) + 1
    assert ((hull.segment_of_leaf == -1) == (weight == 0)).all()


@given(table=tables(), seed=st.integers(0, 2 ** 16))
def test_hull_does_not_depend_on_leaf_order(table, seed):
    shuffled = table[np.random.default_rng(seed).permutation(len(table))]
    a, b = roc_hull(table), roc_hull(shuffled)
    assert np.allclose(a.fpr, b.fpr) and np.allclose(a.tpr, b.tpr)


def test_leaves_with_equal_positive_fraction_share_one_segment():
    hull = roc_hull([[1, 2], [4, 0], [2, 4], [0, 3]])     # leaves 0 and 2 both have fraction 2/3
    assert hull.segment_of_leaf.tolist() == [1, 2, 1, 0]             # fraction 1 first, then 2/3, then 0
    assert hull.fpr.tolist() == pytest.approx([0, 0, 3 / 7, 1])
    assert hull.tpr.tolist() == pytest.approx([0, 3 / 9, 1, 1])


@given(table=st.one_of(tables(), tables(weights="float")))
def test_auc_is_roc_auc_score_of_leaf_positive_fractions(table):
    """Exactly when each row is scored by its leaf's positive fraction on the same rows."""
    leaf, y, w = expand(table)
    score = (table[:, 1] / np.maximum(table.sum(axis=1), 1e-300))[leaf]
    assert hull_auc(table) == pytest.approx(roc_auc_score(y, score, sample_weight=w), abs=1e-12)
    assert hull_auc(table) == pytest.approx(auc_by_pairs(y, score, w), abs=1e-12)
    # Any other scoring of the leaves gives an ROC curve under the hull.
    other = np.random.default_rng(len(table)).random(len(table))[leaf]
    assert roc_auc_score(y, other, sample_weight=w) <= hull_auc(table) + 1e-12


def test_scores_from_other_rows_can_fall_below_the_hull():
    """Scores learnt on training rows, evaluated on new rows, can rank leaves wrongly: then sklearn < hull."""
    table = np.array([[3.0, 1.0], [1.0, 3.0]])       # on these rows leaf 1 is the more positive
    leaf, y, w = expand(table)
    training_score = np.array([0.9, 0.2])[leaf]      # but the scores rank leaf 0 first
    assert roc_auc_score(y, training_score, sample_weight=w) == pytest.approx(1 - hull_auc(table))
    assert roc_auc_score(y, training_score, sample_weight=w) < hull_auc(table)


@given(table=st.one_of(tables(), tables(weights="float")), theta=st.sampled_from([0.01, 0.1, 0.25, 0.6, 1.0]))
def test_partial_auc_in_unit_interval_and_auc_at_theta_one(table, theta):
    hull = roc_hull(table)
    value = partial_hull_auc(table, theta)
    assert -1e-12 <= value <= 1 + 1e-12
    leaf, y, w = expand(table)
    score = (table[:, 1] / np.maximum(table.sum(axis=1), 1e-300))[leaf]
    assert value == pytest.approx(partial_auc_by_segments(y, score, w, theta), abs=1e-12)
    assert hull.partial_auc(1.0) == pytest.approx(hull.auc, abs=1e-12)


@given(table=tables())
def test_tpr_at_follows_the_hull(table):
    hull = roc_hull(table)
    assert np.allclose(hull.tpr_at(hull.fpr[1:]), hull.tpr[1:])     # upper value at every vertex
    grid = np.linspace(0, 1, 41)
    values = hull.tpr_at(grid)
    assert (np.diff(values) >= -1e-12).all()
    leaf, y, w = expand(table)
    score = (table[:, 1] / np.maximum(table.sum(axis=1), 1e-300))[leaf]
    fpr, tpr, _ = roc_curve(y, score, sample_weight=w, drop_intermediate=False)
    inner = (grid > 0) & (grid < 1)
    assert np.allclose(values[inner], np.interp(grid[inner], fpr, tpr), atol=1e-9)


@given(table=tables(max_leaves=6), groups=st.lists(st.integers(0, 2), min_size=6, max_size=6))
def test_splitting_leaves_never_lowers_the_hull(table, groups):
    """Lemma C.1 (and more): the hull of a refinement dominates the hull of the merged leaves."""
    group = np.asarray(groups[:len(table)])
    merged = np.zeros((group.max() + 1, 2))
    np.add.at(merged, group, table)
    fine, coarse = roc_hull(table), roc_hull(merged)
    assert fine.dominates(coarse)
    assert fine.auc >= coarse.auc - 1e-12
    for theta in (0.1, 0.5):
        assert fine.partial_auc(theta) >= coarse.partial_auc(theta) - 1e-12


def test_dominates_is_strict_about_crossing_hulls():
    a = roc_hull([[0, 5], [10, 5]])       # steep start
    b = roc_hull([[5, 10], [5, 0]])       # good middle
    assert a.dominates(a) and b.dominates(b)
    assert not a.dominates(b) and not b.dominates(a)


def test_hull_of_a_scikit_learn_tree_matches_its_predict_proba():
    rng = np.random.default_rng(0)
    X = rng.random((200, 2))
    y = (X[:, 0] + 0.3 * rng.standard_normal(200) > 0.5).astype(int)
    cart = DecisionTreeClassifier(max_leaf_nodes=5, random_state=0).fit(X, y)
    hull = estimator_hull(cart, X, y)
    assert hull.auc == pytest.approx(roc_auc_score(y, cart.predict_proba(X)[:, 1]), abs=1e-12)
    assert len(hull.fpr) <= 6
    table = leaf_class_counts(np.unique(cart.apply(X), return_inverse=True)[1], y, classes=[0, 1])
    assert table.shape == (5, 2) and table.sum() == 200


def test_leaf_class_counts_and_errors():
    table = leaf_class_counts([1, 1, 0], ["b", "a", "a"], classes=["a", "b"], sample_weight=[2, 1, 3], n_leaves=3)
    assert table.tolist() == [[3, 0], [1, 2], [0, 0]]
    with pytest.raises(ValueError, match="not one of the classes"):
        leaf_class_counts([0], ["c"], classes=["a", "b"])
    with pytest.raises(ValueError, match="same length"):
        leaf_class_counts([0, 1], ["a"], classes=["a", "b"])
    with pytest.raises(ValueError, match="both classes"):
        roc_hull([[1, 0], [3, 0]])
    with pytest.raises(ValueError, match="binary"):
        roc_hull([[1, 0, 1]])
    with pytest.raises(ValueError, match="theta"):
        partial_hull_auc([[1, 1]], 0.0)
    with pytest.raises(TypeError, match="apply"):
        estimator_hull(object(), [[0]], [0])

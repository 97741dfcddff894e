"""predict_proba: leaf class frequencies with optional additive smoothing."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from conftest import read_binary, require_datasets
from treeopt import OptimalTreeClassifier
from treeopt.datasets import load_monk
from treeopt.roc import estimator_hull
from treeopt.binarize import BinaryFeature
from treeopt.tree import Leaf, Split, Tree


def hand_tree() -> Tree:
    # Three classes; one leaf without training weight.
    features = [BinaryFeature("p", 0, "binary", 1, "p"), BinaryFeature("q", 1, "binary", 1, "q")]
    return Tree(Split(0, Split(1, Leaf(0, (6, 2, 0)), Leaf(2, (0, 0, 0))), Leaf(1, (1, 3, 0))), features,
                ["a", "b", "c"])


def test_unsmoothed_probabilities_are_the_leaf_frequencies():
    table = hand_tree().leaf_probabilities()
    np.testing.assert_array_equal(table, [[0.75, 0.25, 0.0], [0.0, 0.0, 1.0], [0.25, 0.75, 0.0]])


def test_smoothed_probabilities_follow_the_additive_formula():
    alpha = 0.5
    table = hand_tree().leaf_probabilities(smoothing=alpha)
    np.testing.assert_allclose(table[0], [(6 + alpha) / (8 + 3 * alpha), (2 + alpha) / (8 + 3 * alpha),
                                          alpha / (8 + 3 * alpha)])
    np.testing.assert_allclose(table[1], [1 / 3] * 3)              # no training weight: uniform
    np.testing.assert_allclose(table[2], [(1 + alpha) / 5.5, (3 + alpha) / 5.5, alpha / 5.5])
    np.testing.assert_allclose(table.sum(axis=1), 1.0)


def test_predict_proba_routes_rows_to_their_leaf_probabilities():
    tree = hand_tree()
    Z = np.array([[False, False], [False, True], [True, False], [True, True]])
    for alpha in (0.0, 1.0):
        table = tree.leaf_probabilities(alpha)
        np.testing.assert_array_equal(tree.predict_proba(Z, smoothing=alpha), table[[0, 1, 2, 2]])


def test_default_estimator_probabilities_are_unchanged():
    X, y = load_monk(1)
    clf = OptimalTreeClassifier(regularization=0.03).fit(X, y)
    assert clf.proba_smoothing == 0.0
    counts = clf.tree_.leaf_counts(X, y)      # the training rows in each leaf
    expected = counts / counts.sum(axis=1, keepdims=True)
    np.testing.assert_array_equal(clf.predict_proba(X), expected[clf.apply(X)])


def test_estimator_smoothing_with_sample_weights_counts_weight():
    X, y = load_monk(1)
    weights = np.where(np.asarray(y) == 1, 2.0, 1.0)
    clf = OptimalTreeClassifier(regularization=0.03, proba_smoothing=1.0).fit(X, y, sample_weight=weights)
    counts = clf.tree_.leaf_counts(X, y, sample_weight=weights)
    expected = (counts + 1.0) / (counts.sum(axis=1, keepdims=True) + 2.0)
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba, expected[clf.apply(X)])
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)
    unsmoothed = OptimalTreeClassifier(regularization=0.03).fit(X, y, sample_weight=weights)
    np.testing.assert_array_equal(clf.predict(X), unsmoothed.predict(X))     # the search ignores it


@pytest.mark.parametrize("alpha", [-0.1, float("nan"), float("inf")])
def test_bad_smoothing_is_refused_before_any_search(alpha):
    X, y = load_monk(1)
    with pytest.raises(ValueError, match="proba_smoothing"):
        OptimalTreeClassifier(proba_smoothing=alpha).fit(X, y)
    with pytest.raises(ValueError, match="smoothing must be a finite number >= 0"):
        hand_tree().leaf_probabilities(alpha)


@given(counts=st.lists(st.lists(st.integers(0, 30), min_size=3, max_size=3), min_size=1, max_size=6),
       alpha=st.floats(0.0, 10.0))
def test_property_rows_sum_to_one_and_the_favourite_class_is_kept(counts, alpha):
    leaves = [Leaf(int(np.argmax(c)), tuple(c)) for c in counts]
    node = leaves[0]
    for leaf in leaves[1:]:
        node = Split(0, node, leaf)
    tree = Tree(node, [], ["a", "b", "c"])
    table = tree.leaf_probabilities(alpha)
    np.testing.assert_allclose(table.sum(axis=1), 1.0)
    assert (table >= 0).all()
    ordered = [c for _, leaf in tree.leaves() for c in [leaf.counts]]
    for row, c in zip(table, ordered):
        if sum(c) > 0:
            assert int(np.argmax(row)) == int(np.argmax(c))


def test_roc_hull_ranks_leaves_by_unsmoothed_frequencies():
    require_datasets()
    X, y = read_binary("compas-binary")
    clf = OptimalTreeClassifier(regularization=0.002, depth_budget=3).fit(X, y)
    smoothed = OptimalTreeClassifier(**{**clf.get_params(), "proba_smoothing": 50.0}).fit(X, y)
    hull = estimator_hull(smoothed, X, y)
    assert hull.auc == estimator_hull(clf, X, y).auc                 # smoothing does not move the hull
    # The hull's area is the AUC of the unsmoothed scores (GOSDT eq. 2 with ties as one half) ...
    assert hull.auc == pytest.approx(roc_auc_score(y, clf.predict_proba(X)[:, 1]), abs=1e-12)
    # ... and the hull's leaf order is the order of those frequencies, not necessarily of smoothed ones.
    counts = clf.tree_.leaf_counts(X, y)
    np.testing.assert_allclose(np.sort(hull.positive_fraction), np.sort(np.unique(counts[:, 1] / counts.sum(1))))

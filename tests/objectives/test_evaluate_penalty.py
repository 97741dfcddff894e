"""``evaluate()`` charges λ as the fit did: per leaf, or per split with ``penalty="split"`` (Branches).

On the training data, the fitted objective (``upper_bound_``, ``objective_``) must equal what
:func:`treeopt.metrics.evaluate` recomputes from the tree's predictions, and what
:meth:`Tree.objective` recomputes with the same penalty, for both conventions, on multiway
categorical data where a k-way split adds k - 1 leaves (so leaves - 1 != splits).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from treeopt import OptimalTreeClassifier
from treeopt.datasets import load_monk, load_tic_tac_toe
from treeopt.metrics import evaluate

CASES = {
    "monk1": lambda: load_monk(1),
    "monk3": lambda: load_monk(3),
    "tic-tac-toe": load_tic_tac_toe,
}


@pytest.fixture(scope="module", params=sorted(CASES))
def fitted(request):
    X, y = CASES[request.param]()
    with warnings.catch_warnings():
        warnings.simplefilter("error")          # both fits certify their optimum
        fits = {penalty: OptimalTreeClassifier(solver="branches", penalty=penalty, regularization=0.02).fit(X, y)
                for penalty in ("leaf", "split")}
    return X, y, fits


@pytest.mark.parametrize("penalty", ["leaf", "split"])
def test_training_objective_equals_evaluate_penalized(fitted, penalty):
    X, y, fits = fitted
    clf = fits[penalty]
    assert clf.optimal_
    report = clf.evaluate(X, y)
    assert report["penalized"] == pytest.approx(clf.upper_bound_, abs=1e-9)
    assert report["penalized"] == pytest.approx(clf.objective_, abs=1e-9)
    assert report["n_leaves"] == clf.tree_.n_leaves and report["n_splits"] == clf.tree_.n_splits
    # The same number from the tree's own recomputation with the same convention.
    recomputed = clf.tree_.objective(X, np.asarray(y), clf.regularization, penalty=penalty, binarized=False)
    assert report["penalized"] == pytest.approx(recomputed, abs=1e-9)


def test_the_two_conventions_differ_by_lambda_times_leaves_minus_splits(fitted):
    X, y, fits = fitted
    lam = 0.02
    for clf in fits.values():
        tree, data = clf.tree_, clf._tree_input(X)
        leaf = evaluate(tree, *data[:1], y, regularization=lam, binarized=data[1], penalty="leaf")
        split = evaluate(tree, *data[:1], y, regularization=lam, binarized=data[1], penalty="split")
        assert leaf["loss"] == split["loss"]
        assert leaf["penalized"] - split["penalized"] == pytest.approx(lam * (tree.n_leaves - tree.n_splits))


def test_some_fit_has_a_multiway_split_so_the_conventions_are_told_apart():
    """Guard for the tests above: with only binary splits, leaves - splits is the constant 1."""
    X, y = load_monk(1)
    clf = OptimalTreeClassifier(solver="branches", penalty="split", regularization=0.02).fit(X, y)
    assert clf.tree_.n_leaves - clf.tree_.n_splits > 1
    report = clf.evaluate(X, y)
    charged_per_leaf = report["loss"] + 0.02 * report["n_leaves"]        # what evaluate used to report
    assert report["penalized"] != pytest.approx(charged_per_leaf)


def test_evaluate_rejects_an_unknown_penalty():
    X, y = load_monk(1)
    clf = OptimalTreeClassifier(regularization=0.05).fit(X, y)
    data, binarized = clf._tree_input(X)
    with pytest.raises(ValueError, match="penalty must be 'leaf'.*'split'"):
        evaluate(clf.tree_, data, y, regularization=0.05, binarized=binarized, penalty="node")
    # The default stays λ per leaf.
    assert evaluate(clf.tree_, data, y, regularization=0.05, binarized=binarized)["penalized"] == \
        pytest.approx(clf.objective_)

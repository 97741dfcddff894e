"""OSDT on the non-additive objectives (F1 with the ω labelling, AUC and partial AUC of the ROC hull).

The oracle here enumerates every tree shape (``oracle.enumerate_trees``),
routes the rows itself and scores each tree with its own, straightforward
metric code (no :mod:`treeopt.objectives`), which is first cross-checked
against scikit-learn where the two coincide: the hull AUC of leaves equals
``roc_auc_score`` on the leaves' positive fractions (ranking by positive
fraction makes the ROC curve convex), and F1 with fixed leaf labels is
``f1_score``.
"""

from __future__ import annotations

import functools
import gc
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import f1_score, roc_auc_score

from oracle import enumerate_trees
from treeopt.data import Dataset
from treeopt.objectives import FScore, get_objective
from treeopt.solvers.osdt.leafset_bounds import (dominating_split, equivalent_points_bound, f1_errors_bound,
                                                 hierarchical_bound, split_gain_bound)
from treeopt.solvers.osdt import OSDT


# -- the oracle's own metrics -------------------------------------------------------------------
def leaf_counts_of(tree, X, y, w) -> np.ndarray:
    """(negatives, positives) weight of every leaf of a nested-tuple tree (empty leaves included)."""
    paths = {}

    def collect(node, path):
        if node[0] == "leaf":
            paths[path] = len(paths)
            return
        collect(node[2], path + (0,))
        collect(node[3], path + (1,))

    collect(tree, ())
    counts = np.zeros((len(paths), 2))
    for row, label, weight in zip(X.tolist(), y.tolist(), w.tolist()):
        node, path = tree, ()
        while node[0] == "split":
            side = int(row[node[1]])
            node, path = node[2 + side], path + (side,)
        counts[paths[path], label] += weight
    return counts


def roc_points(counts) -> tuple[np.ndarray, np.ndarray]:
    """Vertices of the ROC curve of leaves ranked by positive fraction (ties merged)."""
    counts = counts[counts.sum(axis=1) > 0]
    fraction = counts[:, 1] / counts.sum(axis=1)
    fpr, tpr = [0.0], [0.0]
    negatives, positives = counts[:, 0].sum(), counts[:, 1].sum()
    for value in sorted(set(fraction.tolist()), reverse=True):
        group = counts[fraction == value].sum(axis=0)
        fpr.append(fpr[-1] + group[0] / negatives)
        tpr.append(tpr[-1] + group[1] / positives)
    return np.array(fpr), np.array(tpr)


def auc_loss(counts) -> float:
    fpr, tpr = roc_points(counts)
    return 1.0 - float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


def partial_auc_loss(counts, theta) -> float:
    fpr, tpr = roc_points(counts)
    grid = np.linspace(0.0, theta, 2001)
    area = np.trapezoid(np.interp(grid, fpr, tpr), grid) if hasattr(np, "trapezoid") else \
        np.trapz(np.interp(grid, fpr, tpr), grid)
    return 1.0 - area / theta


def f1_loss(counts, omega) -> float:
    labels = omega * counts[:, 1] > counts[:, 0]
    fp = counts[labels, 0].sum()
    fn = counts[~labels, 1].sum()
    return float((fp + fn) / (2 * counts[:, 1].sum() + fp - fn))


def all_leaf_counts(X, y, w, max_depth) -> list:
    """The leaf counts (``leaf_counts_of``) of every tree shape up to ``max_depth``, each distinct array once
    (the metrics read nothing else, and many shapes share their leaves' counts)."""
    distinct = {}
    for shape in enumerate_trees(X.shape[1], max_depth):
        counts = leaf_counts_of(shape, X, y, w)
        distinct.setdefault((counts.shape, counts.tobytes()), counts)
    return list(distinct.values())


def oracle(X, y, w, lam, metric, max_depth, leaf_counts=None):
    """The least ``metric + lam * leaves`` over every tree shape; ``leaf_counts``: ``all_leaf_counts`` of the
    same arguments when they are at hand already (they do not depend on the metric)."""
    if leaf_counts is None:
        leaf_counts = all_leaf_counts(X, y, w, max_depth)
    return min(metric(counts) + lam * len(counts) for counts in leaf_counts)


METRICS = {
    "f1": (lambda omega, theta: lambda c: f1_loss(c, omega)),
    "auc": (lambda omega, theta: auc_loss),
    "partial_auc": (lambda omega, theta: lambda c: partial_auc_loss(c, theta)),
}


@st.composite
def problems(draw):
    n_features = draw(st.integers(1, 3))
    n_rows = draw(st.integers(4, 18))
    X = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=n_features, max_size=n_features),
                               min_size=n_rows, max_size=n_rows)))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n_rows, max_size=n_rows)))
    y[0], y[1] = 0, 1                                         # both classes
    w = np.array(draw(st.lists(st.sampled_from([1.0, 1.0, 2.0]), min_size=n_rows, max_size=n_rows)))
    lam = draw(st.sampled_from([0.005, 0.02, 0.05]))
    return X, y, w, lam


# -- the oracle's metrics agree with scikit-learn ---------------------------------------------------
@settings(max_examples=30)
@given(problem=problems(), omega=st.sampled_from([0.5, 1.0, 2.0]))
def test_oracle_metrics_match_scikit_learn(problem, omega):
    X, y, w, _ = problem
    tree = ("split", 0, ("leaf", None), ("split", X.shape[1] - 1, ("leaf", None), ("leaf", None)))
    counts = leaf_counts_of(tree, X, y, w)
    leaf_of_row = []
    for row in X.tolist():
        leaf_of_row.append(0 if row[0] == 0 else (1 if row[X.shape[1] - 1] == 0 else 2))
    leaf_of_row = np.array(leaf_of_row)
    fraction = counts[:, 1] / np.maximum(counts.sum(axis=1), 1e-300)
    assert auc_loss(counts) == pytest.approx(1 - roc_auc_score(y, fraction[leaf_of_row], sample_weight=w))
    labels = (omega * counts[:, 1] > counts[:, 0]).astype(int)
    assert f1_loss(counts, omega) == pytest.approx(
        1 - f1_score(y, labels[leaf_of_row], sample_weight=w, zero_division=0.0))
    # ... and treeopt's objectives agree with the oracle's metrics.
    nonempty = counts[counts.sum(axis=1) > 0]
    assert get_objective("auc").tree_loss(nonempty) == pytest.approx(auc_loss(counts))
    assert get_objective("f1", omega=omega).tree_loss(nonempty) == pytest.approx(f1_loss(counts, omega))
    assert get_objective("partial_auc", theta=0.3).tree_loss(nonempty) == pytest.approx(
        partial_auc_loss(counts, 0.3), abs=1e-6)


# -- OSDT finds the oracle's optimum ------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(METRICS))
@settings(max_examples=20)
@given(problem=problems(), omega=st.sampled_from([0.5, 1.0, 3.0]), theta=st.sampled_from([0.2, 0.5]),
       depth=st.sampled_from([1, 2]), off=st.sampled_from([None, "hierarchical", "equivalent_points",
                                                           "incremental_progress", "lookahead",
                                                           "permutation", "one_split_left"]))
def test_osdt_matches_exhaustive_oracle(name, problem, omega, theta, depth, off):
    X, y, w, lam = problem
    params = {"omega": omega} if name == "f1" else ({"theta": theta} if name == "partial_auc" else {})
    objective = get_objective(name, **params)
    expected = oracle(X, y, w, lam, METRICS[name](omega, theta), depth)
    solver = OSDT(Dataset.from_binary(X, y, sample_weight=w), regularization=lam, objective=objective,
                  depth_budget=depth, bounds={} if off is None else {off: False})
    result = solver.run()
    assert result.optimal
    tol = 1e-6 if name == "partial_auc" else 1e-9
    assert result.objective == pytest.approx(expected, abs=tol)
    counts = leaf_counts_of(_as_tuple(result.tree.root), X, y, w)
    assert METRICS[name](omega, theta)(counts) + lam * len(counts) == pytest.approx(expected, abs=tol)


def _as_tuple(node):
    if hasattr(node, "prediction"):
        return ("leaf", None)
    return ("split", node.feature, _as_tuple(node.left), _as_tuple(node.right))


def test_f1_needs_the_omega_labelling():
    """Theorem D.2's situation: majority labels are not F1-optimal, and ω fixes it.

    Leaves (negatives, positives) = (9, 6) and (0, 4): majority labelling calls
    the first leaf negative (F1 loss 6/14), although calling it positive is
    better (9/29): the best label of a leaf depends on the other leaves.
    """
    counts = np.array([[9.0, 6.0], [0.0, 4.0]])
    every_labelling = {labels: (counts[np.array(labels) == 1, 0].sum() + counts[np.array(labels) == 0, 1].sum())
                       / (2 * 10 + counts[np.array(labels) == 1, 0].sum() - counts[np.array(labels) == 0, 1].sum())
                       for labels in [(0, 0), (0, 1), (1, 0), (1, 1)]}
    assert min(every_labelling, key=every_labelling.get) == (1, 1)
    assert get_objective("f1", omega=1.0).leaf_predictions(counts).tolist() == [0, 1]      # majority
    assert get_objective("f1", omega=1.0).tree_loss(counts) == pytest.approx(6 / 14)
    assert get_objective("f1", omega=2.0).leaf_predictions(counts).tolist() == [1, 1]      # ω rule
    assert get_objective("f1", omega=2.0).tree_loss(counts) == pytest.approx(9 / 29)
    # The solver scores trees with the objective's ω labelling, and finds the oracle's optimum with it.
    X = np.array([[0, 0]] * 9 + [[0, 1]] * 6 + [[1, 1]] * 4)
    y = np.array([0] * 9 + [1] * 6 + [1] * 4)
    w = np.ones(len(y))
    for omega in (1.0, 2.0):
        result = OSDT(Dataset.from_binary(X, y), regularization=0.001,
                      objective=get_objective("f1", omega=omega)).run()
        assert result.objective == pytest.approx(oracle(X, y, w, 0.001, lambda c: f1_loss(c, omega), 2))
        predicted = result.tree.predict(X, binarized=True)
        assert 1 - f1_score(y, predicted) + 0.001 * result.tree.n_leaves == pytest.approx(result.objective)


@settings(max_examples=40)
@given(fixed=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=3),
       split=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=4),
       name=st.sampled_from(["f1", "auc", "partial_auc"]))
def test_bounds_never_exceed_any_refinement(fixed, split, name):
    """Every bound is below the loss of the split rows' finest partition and of leaving them as they are."""
    fixed = [c for c in fixed if sum(c) > 0]
    split = [c for c in split if sum(c) > 0]
    rows = np.array(fixed + split, dtype=float).reshape(-1, 2)
    if not len(split) or rows[:, 0].sum() == 0 or rows[:, 1].sum() == 0:
        return
    objective = get_objective(name, **({"theta": 0.4} if name == "partial_auc" else {}))
    negatives = sum(n for n, _ in split)
    positives = sum(p for _, p in split)
    impure = [c for c in split if c[0] > 0 and c[1] > 0]
    pure_neg = sum(n for n, p in split if p == 0)
    pure_pos = sum(p for n, p in split if n == 0)
    b_h = hierarchical_bound(objective, fixed, negatives, positives)
    b_eq = equivalent_points_bound(objective, fixed, pure_neg, pure_pos, impure)
    # The split "leaves" are taken as equivalence classes: any descendant keeps each of them whole,
    # e.g. the tree that leaves them as leaves, or merges some of them.
    as_is = objective.tree_loss(rows)
    merged = objective.tree_loss(np.array(fixed + [(negatives, positives)], dtype=float).reshape(-1, 2))
    assert b_h <= b_eq + 1e-12
    assert b_eq <= as_is + 1e-12 and b_eq <= merged + 1e-12
    # The gain bound covers the gain of splitting the merged split leaf into the classes.
    gain = split_gain_bound(objective, (negatives, positives), rows[:, 0].sum(), rows[:, 1].sum())
    assert merged - as_is <= gain + 1e-12


@functools.cache
def _skipping_case(seed):
    """(X, y, w, every shape's leaf counts) of one seed, shared by both metrics."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(40, 3))
    y = (rng.random(40) < 0.3 + 0.4 * (X[:, 0] ^ X[:, 1])).astype(int)
    y[0], y[1] = 0, 1
    w = np.ones(40)
    return X, y, w, all_leaf_counts(X, y, w, 3)


@pytest.mark.parametrize("name", ["auc", "partial_auc"])
@pytest.mark.parametrize("seed", range(3))
def test_osdt_matches_the_oracle_where_complete_trees_are_skipped(name, seed):
    """Depth 3 with small λ: expansions with several split leaves, where OSDT evaluates a complete
    tree's hull only when the hierarchical bound of its first splits can still beat the incumbent."""
    X, y, w, leaf_counts = _skipping_case(seed)
    theta = 0.5
    expected = oracle(X, y, w, 0.005, METRICS[name](1.0, theta), 3, leaf_counts)
    objective = get_objective(name, **({"theta": theta} if name == "partial_auc" else {}))
    result = OSDT(Dataset.from_binary(X, y), regularization=0.005, objective=objective, depth_budget=3).run()
    assert result.optimal
    assert result.objective == pytest.approx(expected, abs=1e-6 if name == "partial_auc" else 1e-9)


# -- one split left: the last level's splits bound every completion ------------------------------------
@st.composite
def leaves_with_splits(draw):
    """A leaf's rows as small groups, and its options: each a partition of the groups into two sides."""
    groups = draw(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)).filter(lambda g: sum(g) > 0),
                           min_size=2, max_size=5))
    options = []
    for mask in draw(st.lists(st.integers(1, 2 ** len(groups) - 2), min_size=1, max_size=4)):
        left = [g for i, g in enumerate(groups) if mask >> i & 1]
        right = [g for i, g in enumerate(groups) if not mask >> i & 1]
        options.append((tuple(map(sum, zip(*left))), tuple(map(sum, zip(*right)))))
    return tuple(map(sum, zip(*groups))), options


@settings(max_examples=60)
@given(fixed=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), max_size=3),
       last=st.lists(leaves_with_splits(), min_size=1, max_size=2),
       name=st.sampled_from(["auc", "partial_auc"]))
def test_dominating_split_bounds_every_choice_of_splits(fixed, last, name):
    """The virtual pair of each last-level leaf gives a hull loss below that of every choice of their splits."""
    objective = get_objective(name, **({"theta": 0.3} if name == "partial_auc" else {}))
    rows = [c for c in fixed if sum(c) > 0]
    totals = np.array(rows + [counts for counts, _ in last], dtype=float).reshape(-1, 2).sum(axis=0)
    if (totals <= 0).any():
        return
    virtual = [row for counts, options in last for row in dominating_split(counts, options)]
    bound = objective.tree_loss(np.array(rows + virtual, dtype=float))
    for choice in itertools.product(*[options for _, options in last]):
        completed = rows + [side for pair in choice for side in pair]
        table = np.array([c for c in completed if sum(c) > 0], dtype=float)
        assert bound <= objective.tree_loss(table) + 1e-12
    assert dominating_split((3, 3), []) is None


@settings(max_examples=60)
@given(fp=st.integers(0, 5), fn=st.integers(0, 5),
       options=st.lists(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=3),
                        min_size=1, max_size=3),
       forced=st.integers(0, 3))
def test_f1_errors_bound_is_below_every_choice(fp, fn, options, forced):
    """Choosing one (FP, FN) per leaf, plus forced errors of either kind: the loss is never below the bound."""
    positives = 10.0
    bound = f1_errors_bound(fp, fn, positives, sum(min(o[0] for o in leaf) for leaf in options),
                            sum(min(o[1] for o in leaf) for leaf in options),
                            sum(min(o[0] + o[1] for o in leaf) for leaf in options) + forced)
    for choice in itertools.product(*options):
        for as_fn in range(forced + 1):
            total_fp = fp + sum(o[0] for o in choice) + forced - as_fn
            total_fn = fn + sum(o[1] for o in choice) + as_fn
            if total_fn <= positives:
                assert bound <= FScore.loss_of_errors(total_fp, total_fn, positives) + 1e-12


def _last_level_data():
    # four features: at depth two a leaf's rows still form several equivalence classes, so the last
    # split's bound is tighter than the equivalent points bound
    rng = np.random.default_rng(2)
    X = rng.integers(0, 2, size=(60, 4))
    y = (rng.random(60) < 0.15 + 0.5 * (X[:, 0] & X[:, 2]) + 0.25 * (X[:, 1] & X[:, 3])).astype(int)
    y[0], y[1] = 0, 1
    return X, y


LAST_LEVEL_DATA = _last_level_data()


@functools.cache
def _last_level_leaf_counts():
    X, y = LAST_LEVEL_DATA
    return all_leaf_counts(X, y, np.ones(len(y)), 3)


@functools.cache
def _last_level_optimum(name):
    X, y = LAST_LEVEL_DATA
    return oracle(X, y, np.ones(len(y)), 0.004, METRICS[name](2.0, 0.3), 3, _last_level_leaf_counts())


@pytest.mark.parametrize("name", ["f1", "auc", "partial_auc"])
@pytest.mark.parametrize("off", [None, "one_split_left", "hierarchical"])
def test_last_level_search_matches_the_oracle(name, off):
    """Depth 3: expansions whose split leaves all have one split left search their complete trees depth
    first; the optimum is the oracle's with the prefix bounds and the one_split_left bound on or off."""
    X, y = LAST_LEVEL_DATA
    params = {"omega": 2.0} if name == "f1" else ({"theta": 0.3} if name == "partial_auc" else {})
    expected = _last_level_optimum(name)
    solver = OSDT(Dataset.from_binary(X, y), regularization=0.004, objective=get_objective(name, **params),
                  depth_budget=3, bounds={} if off is None else {off: False})
    result = solver.run()
    assert result.optimal
    assert result.objective == pytest.approx(expected, abs=1e-6 if name == "partial_auc" else 1e-9)
    if off is None:
        assert result.prune_counts["one_split_left"] > 0
    else:
        assert result.prune_counts["one_split_left"] == 0


def test_f1_loss_of_errors_is_the_tree_loss():
    counts = np.array([[9.0, 6.0], [0.0, 4.0], [5.0, 1.0]])
    f1 = get_objective("f1", omega=2.0)
    errors = [f1.leaf_errors(n, p) for n, p in counts]
    assert [label for label, _, _ in errors] == f1.leaf_predictions(counts).tolist()
    fp, fn = sum(e[1] for e in errors), sum(e[2] for e in errors)
    assert FScore.loss_of_errors(fp, fn, counts[:, 1].sum()) == f1.tree_loss(counts)


@pytest.mark.parametrize("name", ["f1", "partial_auc"])
def test_units_of_work_end_with_the_unit_budget_and_the_result_does_not_depend_on_them(name):
    """Expansions are cut into units by the clock (``unit_budget``); the heap is frozen only inside a unit."""
    X, y = LAST_LEVEL_DATA
    params = {"omega": 2.0} if name == "f1" else {"theta": 0.3}

    def solve(unit_budget, watch):
        solver = OSDT(Dataset.from_binary(X, y), regularization=0.004, objective=get_objective(name, **params),
                      depth_budget=3)
        solver.unit_budget = unit_budget
        frozen_inside = []
        bound = solver._nonadditive_bound

        def watched(*args):
            # Counting the frozen objects walks all of them (the whole heap of a long test session), so
            # a few calls are sampled: the root's (before any unit) and the first ones of the first unit.
            if watch and len(frozen_inside) < 6:
                frozen_inside.append(gc.get_freeze_count() > 0)
            return bound(*args)

        solver._nonadditive_bound = watched
        units = 0
        while solver.step(1):
            units += 1
            assert gc.get_freeze_count() == 0              # nothing stays frozen between units
        return solver.result(), units, frozen_inside

    whole, units, frozen_inside = solve(60.0, watch=True)
    sliced, sliced_units, _ = solve(0.0, watch=False)      # every check of the clock ends the unit
    assert sliced_units > units
    assert sliced.objective == whole.objective and sliced.tree.to_dict() == whole.tree.to_dict()
    assert sliced.expansions == whole.expansions and sliced.prune_counts == whole.prune_counts
    if gc.isenabled():                                     # the first bound is the root's, before any unit
        assert len(frozen_inside) > 1 and all(frozen_inside[1:])

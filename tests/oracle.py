"""A brute-force oracle for optimal decision trees on tiny binary problems.

Tests of every solver compare against this module, so it is written to be
obviously correct rather than fast, and it shares no search code with the
solvers: no bitsets, no bounds, no queue, no ``Dataset`` bookkeeping for
losses. Import it from any test as ``from oracle import ...`` (``tests/`` is
on ``sys.path`` under pytest).

Two independent ways to find the optimum:

* :func:`brute_force` (additive objectives): plain recursion. The best
  subtree for the rows reaching a node is either a leaf or, for *every*
  feature, the best subtree on each side of it; the result is memoised on
  (rows reaching the node, depth left), which is exactly the definition of
  the optimum unrolled, with no pruning.
* :func:`enumerate_trees` + :func:`best_by_enumeration`: list every tree
  shape up to a depth, score each one, keep the minimum. Works for any loss
  (including non-additive ones like F-score or AUC, whose leaf labels are
  enumerated too with ``label_leaves=True``), but only for very small depths.

For the k best trees (a view of the Rashomon set), :func:`all_tree_objectives`
lists every distinct tree's objective: a tree is its *leaf set* (the set of
its leaves' clause conjunctions, so trees that differ only by the order of
their splits are one tree), every leaf holds at least one row, and each leaf
predicts its best label.

Trees are nested tuples: ``("leaf", label)`` or ``("split", j, left, right)``
where ``left`` gets the rows with ``X[:, j] == 0`` (the same convention as
:class:`treeopt.tree.Split`). Objectives are in objective units:
``loss + λ × number of leaves``.

Splits with an empty side are skipped in :func:`brute_force`: such a split
keeps all rows on one side (the same subproblem, one depth lower) and adds an
empty leaf costing λ, so it is always strictly worse than not splitting.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterator

import numpy as np

from treeopt.data import Dataset
from treeopt.objectives import get_objective

__all__ = ["OracleResult", "class_costs", "brute_force", "enumerate_trees", "best_by_enumeration",
           "tree_predict", "tree_objective", "tree_leaves", "to_treeopt_tuple", "leaf_sets",
           "all_tree_objectives"]


@dataclass
class OracleResult:
    """The optimum found by the oracle.

    Attributes
    ----------
    objective : float
        ``loss + λ × leaves`` of the best tree (objective units).
    tree : tuple
        One optimal tree, as nested tuples.
    n_leaves : int
    """

    objective: float
    tree: tuple
    n_leaves: int


#: The answers of :func:`once_per_table`, by table and settings.
_ANSWERS: dict = {}


def once_per_table(compute: Callable[[], object], X, y, sample_weight, *settings):
    """``compute()``, a reference answer for the table ``(X, y, sample_weight)`` with ``settings``,
    computed once per test process: a parametrization that checks many solver settings against one
    table's oracle pays for the oracle once.

    >>> X, y = np.eye(2, dtype=int), np.array([0, 1])
    >>> calls = []
    >>> [once_per_table(lambda: calls.append(1) or len(calls), X, y, None, "doctest") for _ in range(2)]
    [1, 1]
    """
    key = (np.asarray(X).tobytes(), np.shape(X), np.asarray(y).tobytes(),
           None if sample_weight is None else np.asarray(sample_weight).tobytes(), settings)
    if key not in _ANSWERS:
        _ANSWERS[key] = compute()
    return _ANSWERS[key]


def _inputs(X, y, sample_weight):
    X = np.asarray(X)
    if X.ndim != 2 or not np.isin(X, [0, 1]).all():
        raise ValueError("the oracle needs a 2-D 0/1 matrix X")
    y = np.asarray(y)
    if len(y) != X.shape[0]:
        raise ValueError("X and y must have the same number of rows")
    w = np.ones(len(y)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    return X.astype(int), y, w


def class_costs(X, y, sample_weight=None, objective="accuracy", classes=None) -> tuple[np.ndarray, np.ndarray]:
    """(classes, cost of misclassifying one unit of weight of each class) for an additive objective.

    The costs come from :mod:`treeopt.objectives` (they define the objective);
    everything the oracle does with them is its own.

    Examples
    --------
    >>> classes, costs = class_costs([[0], [1]], ["a", "b"])
    >>> classes.tolist(), costs.tolist()
    (['a', 'b'], [0.5, 0.5])
    """
    X, y, w = _inputs(X, y, sample_weight)
    classes = np.unique(y) if classes is None else np.asarray(classes)
    obj = get_objective(objective)
    ds = Dataset.from_binary(X, y, sample_weight=w, classes=classes)
    return classes, np.asarray(obj.class_costs(ds), dtype=float)


def _leaf(rows, y_index, w, costs) -> tuple[float, int]:
    """(loss, best class index) of one leaf, by straightforward loops."""
    best_loss, best_label = None, None
    for label in range(len(costs)):
        loss = 0.0
        for i in rows:
            if y_index[i] != label:
                loss += w[i] * costs[y_index[i]]
        if best_loss is None or loss < best_loss - 1e-15:
            best_loss, best_label = loss, label
    return best_loss, best_label


def brute_force(X, y, regularization: float, *, sample_weight=None, objective="accuracy",
                depth: int | None = None, classes=None) -> OracleResult:
    """The optimal objective of an additive objective by exhaustive recursion.

    Parameters
    ----------
    X : array_like of 0/1, shape (n_rows, n_features)
        At most about 6 features and 40 rows (it is exponential).
    y : array_like of shape (n_rows,)
        Any number of classes.
    regularization : float
        λ, the cost of a leaf.
    sample_weight : array_like, optional
    objective : str or Objective, default="accuracy"
        Any class-cost objective of :mod:`treeopt.objectives`.
    depth : int, optional
        Maximum depth (a single leaf has depth 0); default unlimited.
    classes : array_like, optional
        The label values (default: those in ``y``).

    Returns
    -------
    OracleResult

    Examples
    --------
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1]] * 3
    >>> y = [0, 1, 1, 0] * 3                          # XOR
    >>> r = brute_force(X, y, 0.05)
    >>> round(r.objective, 12), r.n_leaves
    (0.2, 4)
    >>> round(brute_force(X, y, 0.05, depth=1).objective, 12)   # a leaf: half wrong
    0.55
    """
    X, y, w = _inputs(X, y, sample_weight)
    classes, costs = class_costs(X, y, w, objective, classes)
    index = {c: k for k, c in enumerate(classes.tolist())}
    y_index = [index[v] for v in y.tolist()]
    n_features = X.shape[1]
    columns = [X[:, j].tolist() for j in range(n_features)]
    lam = float(regularization)

    @lru_cache(maxsize=None)
    def best(rows: tuple, depth_left) -> tuple[float, tuple]:
        loss, label = _leaf(rows, y_index, w, costs)
        result = (loss + lam, ("leaf", classes[label].item() if hasattr(classes[label], "item") else classes[label]))
        if depth_left == 0:
            return result
        below = None if depth_left is None else depth_left - 1
        for j in range(n_features):
            left = tuple(i for i in rows if columns[j][i] == 0)
            right = tuple(i for i in rows if columns[j][i] == 1)
            if not left or not right:
                continue
            left_obj, left_tree = best(left, below)
            right_obj, right_tree = best(right, below)
            if left_obj + right_obj < result[0] - 1e-12:
                result = (left_obj + right_obj, ("split", j, left_tree, right_tree))
        return result

    w = w.tolist()
    costs = costs.tolist()
    objective_value, tree = best(tuple(range(len(y))), depth)
    return OracleResult(float(objective_value), tree, tree_leaves(tree))


def tree_leaves(tree: tuple) -> int:
    """Number of leaves of a nested-tuple tree.

    Examples
    --------
    >>> tree_leaves(("split", 0, ("leaf", 0), ("split", 1, ("leaf", 1), ("leaf", 0))))
    3
    """
    if tree[0] == "leaf":
        return 1
    return tree_leaves(tree[2]) + tree_leaves(tree[3])


def tree_predict(tree: tuple, X) -> list:
    """Label of every row of a 0/1 matrix under a nested-tuple tree.

    Examples
    --------
    >>> tree_predict(("split", 1, ("leaf", "n"), ("leaf", "y")), [[0, 1], [1, 0]])
    ['y', 'n']
    """
    out = []
    for row in np.asarray(X).tolist():
        node = tree
        while node[0] == "split":
            node = node[3] if row[node[1]] else node[2]
        out.append(node[1])
    return out


def _leaf_ids(tree: tuple, X) -> list:
    out = []
    for row in np.asarray(X).tolist():
        node, path = tree, ()
        while node[0] == "split":
            side = 1 if row[node[1]] else 0
            node, path = node[2 + side], path + (side,)
        out.append(path)
    return out


def tree_objective(tree: tuple, X, y, regularization: float, *, sample_weight=None,
                   objective="accuracy", classes=None) -> float:
    """``loss + λ × leaves`` of a nested-tuple tree (leaves predict their stored labels).

    Examples
    --------
    >>> tree_objective(("leaf", 0), [[0], [1]], [0, 1], 0.1)
    0.6
    """
    X, y, w = _inputs(X, y, sample_weight)
    classes, costs = class_costs(X, y, w, objective, classes)
    index = {c: k for k, c in enumerate(classes.tolist())}
    loss = 0.0
    for i, predicted in enumerate(tree_predict(tree, X)):
        if predicted != y[i]:
            loss += w[i] * costs[index[y[i].item() if hasattr(y[i], "item") else y[i]]]
    return float(loss + regularization * tree_leaves(tree))


def enumerate_trees(n_features: int, max_depth: int, labels=None) -> Iterator[tuple]:
    """Every binary tree over ``n_features`` features up to ``max_depth``.

    Parameters
    ----------
    n_features : int
    max_depth : int
        A single leaf has depth 0. The count grows as ``T(d) = 1 + n T(d-1)²``:
        keep ``n_features ** (2 ** max_depth)`` small.
    labels : sequence, optional
        When given, every labelling of the leaves is enumerated too; otherwise
        leaves hold ``None`` (to be labelled by the caller).

    Yields
    ------
    tuple
        ``("leaf", label)`` or ``("split", j, left, right)``.

    Examples
    --------
    >>> len(list(enumerate_trees(2, 1)))         # a leaf, or a split on x0 or x1
    3
    >>> len(list(enumerate_trees(2, 1, labels=[0, 1])))
    10
    >>> len(list(enumerate_trees(3, 2)))         # 1 + 3 * 4**2
    49
    """
    leaf_labels = [None] if labels is None else list(labels)
    for label in leaf_labels:
        yield ("leaf", label)
    if max_depth <= 0:
        return
    subtrees = list(enumerate_trees(n_features, max_depth - 1, labels))
    for j in range(n_features):
        for left, right in itertools.product(subtrees, subtrees):
            yield ("split", j, left, right)


def _label_leaves(tree: tuple, X, y_index, w, costs, classes) -> tuple:
    """Give every leaf its best label under the class costs (empty leaves: the first class)."""
    X = np.asarray(X)
    ids = _leaf_ids(tree, X)

    def walk(node, path):
        if node[0] == "leaf":
            rows = [i for i, p in enumerate(ids) if p == path]
            _, label = _leaf(rows, y_index, w, costs)
            return ("leaf", classes[label].item() if hasattr(classes[label], "item") else classes[label])
        return ("split", node[1], walk(node[2], path + (0,)), walk(node[3], path + (1,)))

    return walk(tree, ())


def best_by_enumeration(X, y, regularization: float, max_depth: int, *, sample_weight=None,
                        objective="accuracy", loss: Callable | None = None) -> OracleResult:
    """The best tree of depth ≤ ``max_depth`` by scoring every tree.

    Parameters
    ----------
    X, y, regularization, sample_weight, objective
        As in :func:`brute_force` (``objective`` is used when ``loss`` is None).
    max_depth : int
    loss : callable, optional
        ``loss(y_true, y_pred, sample_weight) -> float`` for any (also
        non-additive) objective. Leaf labels are then enumerated, so keep
        ``max_depth <= 2`` and few features. Without it, each leaf gets its
        best label under the additive objective's class costs.

    Examples
    --------
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1]] * 3
    >>> y = [0, 1, 1, 0] * 3
    >>> round(best_by_enumeration(X, y, 0.05, 2).objective, 12)
    0.2
    >>> def error(t, p, w): return float(np.sum(w * (np.asarray(t) != np.asarray(p))) / np.sum(w))
    >>> round(best_by_enumeration(X, y, 0.05, 2, loss=error).objective, 12)
    0.2
    """
    X, y, w = _inputs(X, y, sample_weight)
    best = None
    if loss is None:
        classes, costs = class_costs(X, y, w, objective)
        index = {c: k for k, c in enumerate(classes.tolist())}
        y_index = [index[v] for v in y.tolist()]
        for shape in enumerate_trees(X.shape[1], max_depth):
            tree = _label_leaves(shape, X, y_index, w, costs, classes)
            value = tree_objective(tree, X, y, regularization, sample_weight=w, objective=objective,
                                   classes=classes)
            if best is None or value < best[0] - 1e-12:
                best = (value, tree)
    else:
        labels = [c.item() if hasattr(c, "item") else c for c in np.unique(y)]
        for tree in enumerate_trees(X.shape[1], max_depth, labels=labels):
            value = float(loss(y, np.asarray(tree_predict(tree, X)), w)) + regularization * tree_leaves(tree)
            if best is None or value < best[0] - 1e-12:
                best = (value, tree)
    return OracleResult(float(best[0]), best[1], tree_leaves(best[1]))


def to_treeopt_tuple(tree) -> tuple:
    """Convert a :class:`treeopt.tree.Tree` into the oracle's nested tuples (labels are class values).

    Examples
    --------
    >>> from treeopt.tree import Tree, Leaf, Split
    >>> from treeopt.binarize import BinaryFeature
    >>> t = Tree(Split(0, Leaf(0), Leaf(1)), [BinaryFeature("a", 0, "binary", 1, "a")], ["n", "y"])
    >>> to_treeopt_tuple(t)
    ('split', 0, ('leaf', 'n'), ('leaf', 'y'))
    """
    def walk(node):
        if hasattr(node, "prediction"):
            return ("leaf", tree.classes[node.prediction])
        return ("split", node.feature, walk(node.left), walk(node.right))

    return walk(tree.root)


def leaf_sets(X, depth: int | None = None) -> list:
    """Every distinct tree over the rows of a 0/1 matrix whose leaves all hold rows, as leaf sets.

    A leaf is ``(clauses, rows)``: a frozenset of ``(feature, value)`` tests
    and the tuple of row indices satisfying them. A tree is the frozenset of
    its leaves, so the two orders of splitting on ``a`` and ``b`` everywhere
    give one tree. Plain recursion: the trees under a node are the leaf, and
    for every feature splitting its rows into two non-empty sides, every
    pair of trees of the two sides.

    Examples
    --------
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> len(leaf_sets(X))        # leaf; x0 or x1 then 0, 1 or 2 more splits; "both sides" counted once
    8
    >>> len(leaf_sets(X, depth=1))
    3
    """
    X = np.asarray(X).astype(int)
    n_features = X.shape[1]

    @lru_cache(maxsize=None)
    def trees(rows: tuple, depth_left) -> tuple:
        found = {frozenset([(frozenset(), rows)])}
        if depth_left == 0:
            return tuple(found)
        below = None if depth_left is None else depth_left - 1
        for j in range(n_features):
            left = tuple(i for i in rows if X[i, j] == 0)
            right = tuple(i for i in rows if X[i, j] == 1)
            if not left or not right:
                continue
            for left_tree in trees(left, below):
                for right_tree in trees(right, below):
                    leaves = [(clauses | {(j, 0)}, r) for clauses, r in left_tree]
                    leaves += [(clauses | {(j, 1)}, r) for clauses, r in right_tree]
                    found.add(frozenset(leaves))
        return tuple(found)

    return list(trees(tuple(range(X.shape[0])), depth))


def all_tree_objectives(X, y, regularization: float, *, sample_weight=None, objective="accuracy",
                        depth: int | None = None) -> list:
    """``loss + λ × leaves`` of every distinct tree of :func:`leaf_sets`, sorted.

    Parameters
    ----------
    X, y, regularization, sample_weight, depth
        As in :func:`brute_force` (keep X to about 4 features and 20 rows).
    objective : str or Objective, default="accuracy"
        Additive objectives: each leaf's best label under the class costs
        (plain loops). Others (F-score, AUC): the objective's ``tree_loss``
        of the leaves' class-count table (their definition).

    Returns
    -------
    list of float
        One objective per distinct tree, smallest first.

    Examples
    --------
    >>> X = [[0, 0], [0, 1], [1, 0], [1, 1]] * 3
    >>> y = [0, 1, 1, 0] * 3                          # XOR
    >>> [round(v, 12) for v in all_tree_objectives(X, y, 0.05)[:3]]   # x0-x1 = x1-x0: one tree
    [0.2, 0.4, 0.4]
    """
    X, y, w = _inputs(X, y, sample_weight)
    obj = get_objective(objective)
    classes = np.unique(y)
    index = {c: k for k, c in enumerate(classes.tolist())}
    y_index = [index[v] for v in y.tolist()]
    values = []
    if obj.additive:
        _, costs = class_costs(X, y, w, obj, classes)
        costs, weights = costs.tolist(), w.tolist()
        for tree in leaf_sets(X, depth):
            loss = sum(_leaf(rows, y_index, weights, costs)[0] for _, rows in tree)
            values.append(float(loss + regularization * len(tree)))
    else:
        for tree in leaf_sets(X, depth):
            table = np.zeros((len(tree), len(classes)))
            for k, (_, rows) in enumerate(tree):
                for i in rows:
                    table[k, y_index[i]] += w[i]
            loss = float(obj.tree_loss(table))
            values.append(loss + regularization * len(tree))
    return sorted(values)

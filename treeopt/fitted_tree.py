"""What scikit-learn's tree estimators answer about their fitted tree, for every treeopt estimator.

``DecisionTreeClassifier`` offers ``apply``, ``decision_path``, ``get_depth``, ``get_n_leaves`` and
``feature_importances_``; :class:`FittedTreeMixin` gives the same to :class:`~treeopt.OptimalTreeClassifier`
and the greedy trees, read from their fitted :class:`~treeopt.tree.Tree` (``tree_``) through its
public ``apply``. Two numberings are used, each the tree's own:

* a *leaf index* (``apply``): the leaf's position in :meth:`Tree.leaves <treeopt.tree.Tree.leaves>`
  (left to right), the numbering of ``predict_proba``'s leaves and of ``Tree.leaf_counts``;
* a *node id* (the columns of ``decision_path``): the node's position in a pre-order walk that
  visits a binary split's true branch first, as :meth:`Tree.to_dot <treeopt.tree.Tree.to_dot>`
  and :meth:`Tree.decision_path <treeopt.tree.Tree.decision_path>` number them.

``leaf_node_ids`` maps the first numbering to the second.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.utils.validation import check_is_fitted

from .greedy.criteria import impurity, node_weight
from .nodes import Leaf, Split, children_in_display_order

__all__ = ["FittedTreeMixin", "impurity_importances", "leaf_node_ids", "leaf_paths"]


def leaf_paths(tree) -> list[list[int]]:
    """The node ids from the root to each leaf, leaves in :meth:`Tree.leaves` order.

    Examples
    --------
    >>> from treeopt.tree import Tree
    >>> tree = Tree(Split(0, Leaf(0), Split(1, Leaf(1), Leaf(0))), [], ["a", "b"])
    >>> leaf_paths(tree)      # node 0 is the root, 1 its true branch (a split), 4 its false branch
    [[0, 4], [0, 1, 3], [0, 1, 2]]
    """
    paths: dict[int, list[int]] = {}
    next_id = 0
    stack = [(tree.root, [])]
    while stack:
        node, above = stack.pop()
        path = above + [next_id]
        next_id += 1
        if isinstance(node, Leaf):
            paths[id(node)] = path
            continue
        for child in reversed(children_in_display_order(node)):
            stack.append((child, path))
    return [paths[id(leaf)] for _, leaf in tree.leaves()]


def leaf_node_ids(tree) -> np.ndarray:
    """The node id of each leaf (leaves in :meth:`Tree.leaves` order).

    Examples
    --------
    >>> from treeopt.tree import Tree
    >>> leaf_node_ids(Tree(Split(0, Leaf(0), Leaf(1)), [], ["a", "b"])).tolist()
    [2, 1]
    """
    return np.array([path[-1] for path in leaf_paths(tree)], dtype=np.intp)


def impurity_importances(tree, n_columns: int, criterion: str,
                         leaf_statistics: Callable[[Leaf], np.ndarray]) -> np.ndarray:
    """Normalised total impurity decrease of the splits on each original column.

    scikit-learn's definition (``DecisionTreeClassifier.feature_importances_``, the "mean decrease
    in impurity" of Breiman et al., *Classification and Regression Trees*): each split adds
    ``w(node) × impurity(node) − Σ w(child) × impurity(child)`` to the column it tests, with the
    training weights ``w``; the sums are divided by their total (all zeros for a single leaf).
    A binary feature counts for the column it was made from, so the thresholds of one column
    and the one-hot features of one category column add up to that column's importance.

    Parameters
    ----------
    tree : Tree
    n_columns : int
        Columns of the table the tree was fitted on (``n_features_in_``).
    criterion : str
        An impurity of :func:`treeopt.greedy.criteria.impurity` (``"gini"``, ``"entropy"``,
        ``"misclassification"``, ``"squared_error"``).
    leaf_statistics : callable
        A leaf's statistics for ``criterion``: its weighted class counts, or ``(w, Σwy, Σwy²)``.

    Returns
    -------
    ndarray of shape (n_columns,)

    Examples
    --------
    >>> from treeopt.binarize import BinaryFeature
    >>> from treeopt.tree import Tree
    >>> f = [BinaryFeature("a", 0, "binary", 1, "a"), BinaryFeature("b", 1, "binary", 1, "b")]
    >>> tree = Tree(Split(0, Leaf(0, (4, 0)), Split(1, Leaf(1, (0, 3)), Leaf(0, (1, 0)))), f, [0, 1])
    >>> impurity_importances(tree, 3, "gini", lambda leaf: np.asarray(leaf.counts, float)).round(3).tolist()
    [0.6, 0.4, 0.0]
    """
    decrease = np.zeros(n_columns)

    def weighted_impurity(stats) -> float:
        return float(node_weight(stats, criterion) * impurity(stats, criterion))

    # Post-order with a stack (a tree may be deeper than the recursion limit): a node is seen
    # twice, first to queue its children, then to add their statistics up.
    done: list[np.ndarray] = []
    stack: list = [(tree.root, False)]
    while stack:
        node, children_done = stack.pop()
        if isinstance(node, Leaf):
            done.append(np.asarray(leaf_statistics(node), dtype=float))
            continue
        children = children_in_display_order(node)
        if not children_done:
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(children))
            continue
        child_stats = done[len(done) - len(children):]
        del done[len(done) - len(children):]
        stats = np.sum(child_stats, axis=0)
        column = tree.features[node.feature].column_index if isinstance(node, Split) else node.column_index
        decrease[column] += weighted_impurity(stats) - sum(weighted_impurity(child) for child in child_stats)
        done.append(stats)
    decrease = np.maximum(decrease, 0.0)       # a decrease is never negative; clear float noise
    total = decrease.sum()
    return decrease / total if total > 0 else decrease


class FittedTreeMixin:
    """``apply``, ``decision_path``, ``get_depth``, ``get_n_leaves``, ``n_leaves_`` and
    ``feature_importances_`` of an estimator with a fitted ``tree_``.

    The estimator provides ``_tree_input(X)`` (the arguments ``(data, binarized)`` of the tree's
    ``apply`` for a validated ``X``) and may override ``_importance_statistics()`` (the impurity
    and the leaf statistics that ``feature_importances_`` sums; default: Gini of the leaves'
    weighted class counts).
    """

    def apply(self, X) -> np.ndarray:
        """Index of the leaf each row reaches (leaves numbered left to right, as ``tree_.leaves()``).

        Parameters
        ----------
        X : array_like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of int, shape (n_samples,)
            ``leaf_node_ids(tree_)[apply(X)]`` gives the node ids of :meth:`decision_path`.
        """
        data = self._tree_input(X)                 # checks fitted before tree_ is read
        return self.tree_.apply(*data)

    def decision_path(self, X):
        """The nodes each row passes through, as scikit-learn's ``decision_path``.

        Parameters
        ----------
        X : array_like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_samples, n_nodes)
            Entry ``(i, j)`` is 1 when row ``i`` passes node ``j``. Nodes are numbered in pre-order
            with the true branch of a binary split first, as ``tree_.to_dot()`` and
            ``tree_.decision_path(x)`` number them (node 0 is the root).
        """
        leaves = self.apply(X)
        paths = leaf_paths(self.tree_)
        lengths = np.array([len(path) for path in paths], dtype=np.intp)[leaves]
        indptr = np.concatenate([[0], np.cumsum(lengths)])
        indices = np.concatenate([np.asarray(paths[leaf], dtype=np.intp) for leaf in leaves]) \
            if len(leaves) else np.zeros(0, dtype=np.intp)
        n_nodes = 1 + max(path[-1] for path in paths)
        return csr_matrix((np.ones(len(indices), dtype=np.intp), indices, indptr), shape=(len(leaves), n_nodes))

    def get_depth(self) -> int:
        """Splits on the longest root-to-leaf path (a single leaf has depth 0)."""
        check_is_fitted(self, "tree_")
        return self.tree_.depth

    def get_n_leaves(self) -> int:
        """Number of leaves of the fitted tree."""
        check_is_fitted(self, "tree_")
        return self.tree_.n_leaves

    @property
    def n_leaves_(self) -> int:
        """Number of leaves of the fitted tree (``tree_.n_leaves``)."""
        return self.get_n_leaves()

    @property
    def feature_importances_(self) -> np.ndarray:
        """Impurity-based importance of each input column (``n_features_in_`` of them), summing to 1.

        The total weighted impurity decrease of the splits on each column, normalised, as
        scikit-learn defines it (:func:`impurity_importances`; all zeros for a single leaf). Each
        estimator documents its impurity; the binary features made from one column (its
        thresholds, its categories) add up to that column's importance.
        """
        check_is_fitted(self, "tree_")
        criterion, leaf_statistics = self._importance_statistics()
        return impurity_importances(self.tree_, self.n_features_in_, criterion, leaf_statistics)

    def _importance_statistics(self) -> tuple[str, Callable[[Leaf], np.ndarray]]:
        """The impurity of ``feature_importances_`` and a leaf's statistics for it: Gini of the
        leaf's weighted class counts (classifiers)."""
        return "gini", lambda leaf: np.asarray(leaf.counts, dtype=float)

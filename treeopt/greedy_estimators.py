"""``GreedyTreeClassifier`` and ``GreedyTreeRegressor``: C4.5 and CART from the lecture slides.

Baselines, warm starts and teaching material beside the optimal solvers
("Decision trees" lecture slides). Both return a core :class:`~treeopt.tree.Tree`, so the
greedy tree prints, draws, predicts and is scored like an optimal one.

* C4.5: ``GreedyTreeClassifier(criterion="gain_ratio", multiway=True,
  pruning="pessimistic")``.
* CART: ``GreedyTreeClassifier(criterion="gini", pruning="cost_complexity",
  ccp_alpha=...)``; with ``pruning_risk="impurity"`` the pruning is
  scikit-learn's (``DecisionTreeClassifier(ccp_alpha=...)``).
* CART regression: ``GreedyTreeRegressor`` (squared loss, leaf means,
  cost-complexity pruning on the squared loss).
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin
from sklearn.utils import Bunch
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted

from .binarize import Binarizer, table_input_tags
from .building import make_solver
from .fitted_tree import FittedTreeMixin
from .greedy.criteria import impurity
from .greedy.grown_tree import GrownNode, route
from .greedy.prunings import cost_complexity_pruning
from .greedy.solver import CLASSIFICATION_CRITERIA, PRUNING_RISKS, GreedyInduction, SplitFinder
from .input_validation import check_labels, validate_fit_input, validate_predict_input
from .objectives import OBJECTIVES
from .regularization import DEFAULT_REGULARIZATION
from .tree import Leaf, Tree

__all__ = ["GreedyTreeClassifier", "GreedyTreeRegressor"]


def weighted_rows(table, y: np.ndarray, sample_weight) -> tuple:
    """``(table, y, weights)`` without the rows of weight 0; ``weights`` None when not given.

    A row of weight 0 is a row left out (scikit-learn's contract for ``sample_weight``), so it
    must not place a threshold either: the binarizer only sees the rows that count.

    Examples
    --------
    >>> table, y, w = weighted_rows(np.array([[1.0], [5.0], [9.0]]), np.array([0, 1, 1]), [1, 0, 2])
    >>> table.ravel().tolist(), y.tolist(), w.tolist()
    ([1.0, 9.0], [0, 1], [1.0, 2.0])
    """
    if sample_weight is None:
        return table, y, None
    weights = np.asarray(sample_weight, dtype=float)
    if weights.shape != (len(y),):
        raise ValueError(f"sample_weight has shape {weights.shape}; expected ({len(y)},), one weight per row.")
    if not np.all(np.isfinite(weights)) or (weights < 0).any():
        raise ValueError("sample_weight must be finite and non-negative.")
    kept = weights > 0
    if not kept.any():
        raise ValueError("sample_weight sums to zero; at least one row needs a positive weight.")
    if kept.all():
        return table, y, weights
    rows = table.iloc[kept] if isinstance(table, pd.DataFrame) else table[kept]
    return rows, y[kept], weights[kept]


class GreedyTreeClassifier(FittedTreeMixin, ClassifierMixin, BaseEstimator):
    """Greedy decision tree (C4.5 or CART) with the lecture's criteria and prunings.

    Parameters
    ----------
    criterion : {"gini", "entropy", "gain_ratio", "misclassification"}, default="gini"
        Split criterion (slides parts 1-2): Gini index (CART), information
        gain, Quinlan's gain ratio (C4.5), misclassification error.
    multiway : bool, default=False
        One branch per category of a categorical column (C4.5); otherwise
        binary splits on one-hot features (CART).
    max_depth : int, optional
    min_samples_split : float, default=2
    min_samples_leaf : float, default=1
    min_gain : float, default=0.0
        A split must score at least this (0: keep splitting until the
        leaves are pure or no feature separates their rows).
    pruning : {None, "pessimistic", "cost_complexity"}, default=None
        C4.5's pessimistic pruning (binomial upper bound at ``confidence``)
        or CART's minimal cost-complexity pruning at ``ccp_alpha``.
    confidence : float, default=0.25
    ccp_alpha : float, default=0.0
        Cost of a leaf as a fraction of the training weight (the slides'
        ``C`` in rows is ``ccp_alpha × n``).
    pruning_risk : {"misclassification", "impurity", "objective"}, default="misclassification"
        What cost-complexity pruning charges a node: its errors (the slides),
        weight × impurity (scikit-learn), or the objective's loss.
    regularization : float, default=0.05
        λ used to report ``objective_ = loss + λ × leaves`` (and by
        ``pruning_risk="objective"``).
    objective : str, default="accuracy"
    thresholds : {"all", "quantile"}, default="all"
    max_thresholds : int, optional
    missing : {"error", "indicator"}, default="error"
        Missing values in ``X``: refuse them, or add a feature ``x is
        missing`` per column that has them (missing values are false on
        every other test; see :class:`~treeopt.Binarizer`). With
        ``multiway=True`` the missing category is one more branch.

    Attributes
    ----------
    tree_ : Tree
    classes_ : ndarray
    binarizer_ : Binarizer
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` had string column names.
    solver_ : GreedyInduction
        The finished stepwise builder (its ``trace`` and ``snapshot()``). Not pickled with the
        estimator (it holds its finished search generator); a pickled estimator keeps the tree.
    objective_ : float
        ``loss + λ × leaves`` of ``tree_`` on the training data.
    lower_bound_ : float
        A valid lower bound on the optimal objective (not tight: greedy trees prove nothing).
    n_leaves_ : int
    feature_importances_ : ndarray of shape (n_features,)
        The normalised total decrease of the split criterion's impurity (entropy for
        ``"gain_ratio"``) by the splits on each input column, weighted by training weight, as
        scikit-learn defines it; thresholds and categories of one column add up to that column.
    trace_ : DataFrame
    n_steps_ : int

    Notes
    -----
    ``get_depth()``, ``get_n_leaves()``, ``apply(X)`` (leaf index) and ``decision_path(X)``
    (sparse node indicator) read ``tree_`` as scikit-learn's trees do
    (:class:`~treeopt.fitted_tree.FittedTreeMixin`). A row of ``sample_weight`` 0 counts as a
    row left out: it places no threshold either.

    Examples
    --------
    C4.5 on the slides' pruning example collapses the split on ``Crowded``:

    >>> from treeopt.datasets import load_restaurant_pruning
    >>> X, y = load_restaurant_pruning()
    >>> c45 = GreedyTreeClassifier(criterion="gain_ratio", multiway=True, pruning="pessimistic").fit(X, y)
    >>> c45.n_leaves_, c45.solver_.prune_counts["pessimistic_leaf"]
    (1, 1)
    >>> GreedyTreeClassifier(criterion="gain_ratio", multiway=True).fit(X, y).n_leaves_
    3
    """

    _parameter_constraints = {
        "criterion": [StrOptions(set(CLASSIFICATION_CRITERIA))],
        "multiway": ["boolean"],
        "max_depth": [Interval(Integral, 0, None, closed="left"), None],
        "min_samples_split": [Interval(Real, 0, None, closed="left")],
        "min_samples_leaf": [Interval(Real, 0, None, closed="left")],
        "min_gain": [Interval(Real, 0, None, closed="left")],
        "pruning": [StrOptions({"pessimistic", "cost_complexity"}), None],
        "confidence": [Interval(Real, 0, 1, closed="neither")],
        "ccp_alpha": [Interval(Real, 0, None, closed="left")],
        "pruning_risk": [StrOptions(set(PRUNING_RISKS))],
        "regularization": [Interval(Real, 0, 1, closed="right")],
        "objective": [StrOptions(set(OBJECTIVES))],
        "thresholds": [StrOptions({"all", "quantile"})],
        "max_thresholds": [Interval(Integral, 1, None, closed="left"), None],
        "missing": [StrOptions({"error", "indicator"})],
    }

    def __init__(self, *, criterion: str = "gini", multiway: bool = False, max_depth: int | None = None,
                 min_samples_split: float = 2, min_samples_leaf: float = 1, min_gain: float = 0.0,
                 pruning: str | None = None, confidence: float = 0.25, ccp_alpha: float = 0.0,
                 pruning_risk: str = "misclassification", regularization: float = DEFAULT_REGULARIZATION,
                 objective: str = "accuracy", thresholds: str = "all", max_thresholds: int | None = None,
                 missing: str = "error"):
        self.criterion = criterion
        self.multiway = multiway
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_gain = min_gain
        self.pruning = pruning
        self.confidence = confidence
        self.ccp_alpha = ccp_alpha
        self.pruning_risk = pruning_risk
        self.regularization = regularization
        self.objective = objective
        self.thresholds = thresholds
        self.max_thresholds = max_thresholds
        self.missing = missing

    def _solver(self, X, y, sample_weight, pruning) -> GreedyInduction:
        self._validate_params()
        table, y = validate_fit_input(self, X, y)
        check_labels(y)
        check_classification_targets(y)       # a continuous y: "Unknown label type"
        self.classes_ = np.unique(y)
        table, y, sample_weight = weighted_rows(table, y, sample_weight)
        options = {"criterion": self.criterion, "multiway": self.multiway, "min_samples_split": self.min_samples_split,
                   "min_samples_leaf": self.min_samples_leaf, "min_gain": self.min_gain, "pruning": pruning,
                   "confidence": self.confidence, "ccp_alpha": self.ccp_alpha, "pruning_risk": self.pruning_risk}
        solver = make_solver(table, y, solver="greedy", sample_weight=sample_weight, classes=self.classes_,
                             thresholds=self.thresholds, max_thresholds=self.max_thresholds, missing=self.missing,
                             regularization=self.regularization, objective=self.objective,
                             depth_budget=self.max_depth, solver_options=options)
        self.binarizer_ = solver.dataset.binarizer
        return solver

    def fit(self, X, y, sample_weight=None):
        """Grow (and prune) the greedy tree on ``(X, y)``.

        Parameters
        ----------
        X : array_like or DataFrame of shape (n_samples, n_features)
            Numeric, binary or categorical columns. No NaN unless ``missing="indicator"``.
        y : array_like of shape (n_samples,)
        sample_weight : array_like of shape (n_samples,), optional

        Returns
        -------
        self
        """
        solver = self._solver(X, y, sample_weight, self.pruning)
        result = solver.run()
        self.solver_ = solver
        self.tree_ = result.tree
        self.objective_ = float(result.objective)
        self.lower_bound_ = float(result.lower_bound)
        self.trace_ = result.trace_frame()
        self.n_steps_ = int(result.expansions)
        return self

    def cost_complexity_pruning_path(self, X, y, sample_weight=None) -> Bunch:
        """The weakest-link pruning path of the unpruned tree (as scikit-learn's method of that name).

        Returns
        -------
        Bunch
            ``ccp_alphas`` (0 first, then the effective alpha of each
            collapse, in fractions of the training weight), ``impurities``
            (total risk of the tree at each stage over the training weight,
            risk = ``pruning_risk``) and ``n_leaves``.
        """
        solver = self._solver(X, y, sample_weight, None)
        solver.run()
        total = solver.dataset.total_weight
        risk = solver._risk_function()
        start = sum(risk(leaf) for leaf in solver.root.leaves())
        alphas, risks, leaves = [0.0], [start / total], [solver.root.n_leaves]
        for link in cost_complexity_pruning(solver.root, risk):
            alphas.append(link.alpha / total)
            risks.append(link.risk / total)
            leaves.append(link.n_leaves)
        return Bunch(ccp_alphas=np.asarray(alphas), impurities=np.asarray(risks), n_leaves=np.asarray(leaves))

    def _tree_input(self, X) -> tuple:
        """``(table, binarized=False)`` for the tree's methods: the validated original table."""
        check_is_fitted(self, "tree_")
        return validate_predict_input(self, X), False

    def predict(self, X) -> np.ndarray:
        """Predicted label of each row."""
        data = self._tree_input(X)                 # checks fitted before tree_ is read
        return self.classes_[self.tree_.predict_index(*data)]

    def predict_proba(self, X) -> np.ndarray:
        """Class frequencies of the leaf each row reaches."""
        data = self._tree_input(X)
        return self.tree_.predict_proba(*data)

    def _importance_statistics(self) -> tuple:
        """``feature_importances_`` decrease the split criterion's impurity (entropy for the gain ratio,
        whose gain is the information gain) over the leaves' weighted class counts."""
        criterion = "entropy" if self.criterion == "gain_ratio" else self.criterion
        return criterion, lambda leaf: np.asarray(leaf.counts, dtype=float)

    def to_sklearn(self, *, input: str = "auto", node_values: str = "frequencies"):
        """The fitted tree as a fitted ``sklearn.tree.DecisionTreeClassifier``.

        See :func:`treeopt.sklearn_export.to_sklearn`; trees grown with
        ``multiway=True`` are refused (scikit-learn trees split in two).
        """
        from .sklearn_export import to_sklearn
        check_is_fitted(self, "tree_")
        return to_sklearn(self, input=input, node_values=node_values)

    def __getstate__(self):
        state = dict(super().__getstate__())  # a copy: BaseEstimator may hand back __dict__ itself
        state.pop("solver_", None)          # holds its search generator, which cannot be pickled
        return state

    def __sklearn_tags__(self):
        return table_input_tags(super().__sklearn_tags__(), getattr(self, "missing", "error"))


class GreedyTreeRegressor(FittedTreeMixin, RegressorMixin, BaseEstimator):
    """CART regression tree: squared loss, the mean in every leaf (slides part 4).

    Each split is chosen by a line search over every feature and split point
    (all midpoint thresholds) minimising the children's squared loss around
    their means; cost-complexity pruning charges each node its squared loss.

    Parameters
    ----------
    max_depth : int, optional
    min_samples_split : float, default=2
    min_samples_leaf : float, default=1
    ccp_alpha : float, default=0.0
        Cost of a leaf in mean squared error units (scikit-learn's ``ccp_alpha``).
    thresholds : {"all", "quantile"}, default="all"
    max_thresholds : int, optional
    missing : {"error", "indicator"}, default="error"
        Missing values in ``X``: refuse them, or add a feature ``x is
        missing`` per column that has them (see :class:`~treeopt.Binarizer`).

    Attributes
    ----------
    tree_ : Tree
        Its ``classes`` are the distinct leaf means, so ``tree_.predict`` returns means.
    binarizer_ : Binarizer
    root_ : GrownNode
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` had string column names.
    n_leaves_ : int
    feature_importances_ : ndarray of shape (n_features,)
        The normalised total squared-error decrease by the splits on each input column,
        weighted by training weight (scikit-learn's ``DecisionTreeRegressor`` definition).

    Examples
    --------
    >>> X = np.array([[1.0], [2.0], [3.0], [10.0], [11.0]])
    >>> reg = GreedyTreeRegressor(max_depth=1).fit(X, [1.0, 1.0, 1.0, 5.0, 7.0])
    >>> reg.predict([[0.0], [12.0]]).tolist()
    [1.0, 6.0]
    """

    _parameter_constraints = {
        "max_depth": [Interval(Integral, 0, None, closed="left"), None],
        "min_samples_split": [Interval(Real, 0, None, closed="left")],
        "min_samples_leaf": [Interval(Real, 0, None, closed="left")],
        "ccp_alpha": [Interval(Real, 0, None, closed="left")],
        "thresholds": [StrOptions({"all", "quantile"})],
        "max_thresholds": [Interval(Integral, 1, None, closed="left"), None],
        "missing": [StrOptions({"error", "indicator"})],
    }

    def __init__(self, *, max_depth: int | None = None, min_samples_split: float = 2, min_samples_leaf: float = 1,
                 ccp_alpha: float = 0.0, thresholds: str = "all", max_thresholds: int | None = None,
                 missing: str = "error"):
        self.max_depth = max_depth
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.ccp_alpha = ccp_alpha
        self.thresholds = thresholds
        self.max_thresholds = max_thresholds
        self.missing = missing

    def fit(self, X, y, sample_weight=None):
        """Grow (and prune) the regression tree.

        Parameters
        ----------
        X : array_like or DataFrame of shape (n_samples, n_features)
            Numeric, binary or categorical columns. No NaN unless ``missing="indicator"``.
        y : array_like of shape (n_samples,)
            Numbers.
        sample_weight : array_like of shape (n_samples,), optional
            Non-negative; a row of weight 0 counts as a row left out.

        Returns
        -------
        self
        """
        self._validate_params()
        table, y = validate_fit_input(self, X, y)
        try:
            y = np.asarray(y, dtype=float)
        except (TypeError, ValueError):
            raise ValueError("y must be numeric for a regression tree; use GreedyTreeClassifier for labels.") \
                from None
        if not np.all(np.isfinite(y)):
            raise ValueError("y has NaN or infinite values; drop or fill them before fitting.")
        table, y, w = weighted_rows(table, y, sample_weight)
        w = np.ones(len(y)) if w is None else w
        self.binarizer_ = Binarizer(thresholds=self.thresholds, max_thresholds=self.max_thresholds,
                                    missing=self.missing).fit(table)
        Z = self.binarizer_.transform(table)
        points, inverse = np.unique(Z, axis=0, return_inverse=True)
        stats = np.zeros((len(points), 3))
        np.add.at(stats, inverse.ravel(), np.column_stack([w, w * y, w * y * y]))
        features = list(self.binarizer_.features_)
        finder = SplitFinder(points, stats, features, "squared_error", min_samples_leaf=self.min_samples_leaf)
        root = GrownNode(np.arange(len(points)), stats.sum(axis=0))
        frontier = [root]
        while frontier:
            node = frontier.pop()
            if not self._splittable(node):
                continue
            candidates = finder.candidates(node.index, node.stats)
            if not candidates:
                continue
            node.split = candidates[0]
            for branch, (part, child_stats) in enumerate(zip(route(points, node.index, node.split),
                                                             node.split.child_stats)):
                child = GrownNode(part, np.asarray(child_stats), node.depth + 1, node.child_rule(branch))
                node.children.append(child)
                frontier.append(child)
        if self.ccp_alpha > 0:
            squared_loss = lambda node: float(node.stats[0] * impurity(node.stats, "squared_error"))  # noqa: E731
            for _ in cost_complexity_pruning(root, squared_loss, max_alpha=self.ccp_alpha * root.stats[0]):
                pass
        means = sorted({float(leaf.stats[1] / leaf.stats[0]) for leaf in root.leaves()})
        position = {m: k for k, m in enumerate(means)}
        total = float(root.stats[0])

        def make_leaf(leaf_stats, parent):
            mean = float(leaf_stats[1] / leaf_stats[0])
            sse = float(leaf_stats[0] * impurity(leaf_stats, "squared_error"))
            return Leaf(position[mean], (float(leaf_stats[0]),), sse / total)

        self.root_ = root
        self.tree_ = Tree(root.to_node(make_leaf), features, means, binarizer=self.binarizer_)
        return self

    def _splittable(self, node: GrownNode) -> bool:
        weight, mean = node.stats[0], node.stats[1] / node.stats[0]
        if impurity(node.stats, "squared_error") <= 1e-12 * (1.0 + mean * mean):
            return False
        if self.max_depth is not None and node.depth >= self.max_depth:
            return False
        return weight >= self.min_samples_split

    def _tree_input(self, X) -> tuple:
        """``(table, binarized=False)`` for the tree's methods: the validated original table."""
        check_is_fitted(self, "tree_")
        return validate_predict_input(self, X), False

    def predict(self, X) -> np.ndarray:
        """The mean of the leaf each row reaches."""
        data = self._tree_input(X)                 # checks fitted before tree_ is read
        return np.asarray(self.tree_.predict(*data), dtype=float)

    def _importance_statistics(self) -> tuple:
        """``feature_importances_`` decrease the squared error (scikit-learn's ``"squared_error"``), from
        each leaf's weight, mean and squared loss: ``(w, w·mean, loss + w·mean²)`` over the total weight
        (a leaf keeps its squared loss as a fraction of the total weight; a common scale changes no
        importance)."""
        total = sum(leaf.counts[0] for _, leaf in self.tree_.leaves())
        means = self.tree_.classes

        def statistics(leaf):
            weight, mean = leaf.counts[0] / total, means[leaf.prediction]
            return np.array([weight, weight * mean, leaf.loss + weight * mean * mean])

        return "squared_error", statistics

    def __sklearn_tags__(self):
        return table_input_tags(super().__sklearn_tags__(), getattr(self, "missing", "error"))

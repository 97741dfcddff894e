"""What a guessed tree is guaranteed to achieve (McTavish et al., AAAI 2022).

Guessing gives up the proof of optimality; these reports say what is proved
instead, from the returned tree's own predictions on the training rows. All
losses are in objective units: the weighted loss of the chosen additive
objective (for accuracy, the misclassification rate).

* :func:`threshold_guarantee`, Theorem 4.1: an optimal tree ``t*`` on the
  guessed thresholds has ``R(t*) <= L(T') + λ H(t') <= L(T) + λ H(t')`` where
  ``T`` is the booster on the original data, ``T'`` the booster on the kept
  thresholds and ``t'`` a tree reproducing ``T'`` (here: a fully grown CART
  tree on the kept features with ``T'``'s labels). The first inequality is
  the proof's (``t'`` is a candidate of the search); the second is the
  theorem's statement and needs ``L(T') <= L(T)``. With a depth budget
  the search only considers ``t'`` if ``depth(t') <= budget``.
* :func:`lower_bound_guarantee`, Theorem 4.3: the tree returned with
  lower-bound guesses has, for every tree ``t`` within the depth budget,
  ``R(t_guess) <= guess_bound(t)`` with ``guess_bound(t) = L(reference) +
  (loss of t on rows the reference gets right) + λ H(t)``. Hence
  ``R(t_guess) - R(t*) <=`` the reference's loss on rows ``t*`` gets right
  ``<= L(reference)``.
"""

from __future__ import annotations

import numpy as np

from ..data import Dataset
from ..objectives import get_objective
from .lower_bounds import class_index

__all__ = ["guess_bound", "threshold_guarantee", "lower_bound_guarantee", "row_costs"]


def row_costs(dataset: Dataset, y, objective="accuracy", sample_weight=None) -> tuple[np.ndarray, np.ndarray]:
    """(class index of every row, the objective-unit cost of misclassifying that row).

    Examples
    --------
    >>> ds = Dataset.from_binary([[0], [1], [1], [1]], [0, 1, 1, 1])
    >>> index, cost = row_costs(ds, [0, 1, 1, 1])
    >>> index.tolist(), cost.tolist()
    ([0, 1, 1, 1], [0.25, 0.25, 0.25, 0.25])
    """
    y_index = class_index(dataset, y, "y")
    weights = np.ones(len(y_index)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    costs = get_objective(objective).class_costs(dataset)
    return y_index, weights * costs[y_index]


def guess_bound(predictions, n_leaves: int, y, y_ref, dataset: Dataset, regularization: float,
                objective="accuracy", sample_weight=None) -> float:
    """The right-hand side of Theorem 4.3 for one tree ``t``.

    ``L(reference) + (loss of t on the rows the reference gets right) + λ H(t)``:
    the union of the reference's and ``t``'s errors, plus ``t``'s leaves.

    Parameters
    ----------
    predictions : array_like
        ``t``'s labels for the training rows.
    n_leaves : int
        ``H(t)``.
    y, y_ref : array_like
        True labels and reference predictions of the training rows.
    dataset : Dataset
        Supplies the classes and the objective's class costs.
    regularization : float
        λ.
    objective : str or Objective, default="accuracy"
    sample_weight : array_like, optional

    Returns
    -------
    float

    Examples
    --------
    >>> ds = Dataset.from_binary([[0], [0], [1], [1]], [0, 1, 1, 1])
    >>> # reference wrong on row 0; t wrong on row 1 (where the reference is right)
    >>> guess_bound([0, 0, 1, 1], 2, [0, 1, 1, 1], [1, 1, 1, 1], ds, 0.1)
    0.7
    """
    y_index, cost = row_costs(dataset, y, objective, sample_weight)
    ref_wrong = class_index(dataset, y_ref, "y_ref") != y_index
    t_wrong = class_index(dataset, predictions, "predictions") != y_index
    return float(cost[ref_wrong].sum() + cost[~ref_wrong & t_wrong].sum() + regularization * n_leaves)


def lower_bound_guarantee(tree, X, y, y_ref, dataset: Dataset, regularization: float, objective="accuracy",
                          sample_weight=None, finished: bool = True) -> dict:
    """Theorem 4.3's report for a tree returned with lower-bound guesses.

    Parameters
    ----------
    tree : Tree
        The returned tree ``t_guess`` (fitted through ``dataset``'s binarizer, or on binary ``X``).
    X : array_like
        The training table (original columns when the tree has a binarizer).
    y, y_ref : array_like
        True labels and the reference model's labels for the rows of ``X``.
    dataset : Dataset
    regularization : float
    objective : str or Objective, default="accuracy"
    sample_weight : array_like, optional
    finished : bool, default=True
        Whether the search completed (the theorem is about completed searches).

    Returns
    -------
    dict
        ``theorem``; ``objective`` (R(t_guess)); ``reference_loss`` (L(reference));
        ``reference_errors_tree_correct`` (the reference's loss on rows t_guess
        gets right: the slack of the bound at t = t_guess); ``bound_at_t_guess``;
        ``optimality_gap_bound`` (R(t_guess) - R* is at most this: the
        reference loss) and ``lower_bound_on_optimum``, both None when the
        search did not finish; ``holds`` (R(t_guess) <= bound_at_t_guess).

    Examples
    --------
    >>> from treeopt.solvers import GOSDT
    >>> from treeopt.guessing import reference_errors
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> y = np.array([0, 1, 1, 1] * 5)
    >>> ds = Dataset.from_binary(X, y)
    >>> y_ref = np.array([0, 1, 1, 0] * 5)                   # a reference that misses one point
    >>> result = GOSDT(ds, regularization=0.01, reference_errors=reference_errors(ds, y, y_ref)).run()
    >>> report = lower_bound_guarantee(result.tree, X, y, y_ref, ds, 0.01)
    >>> report["reference_loss"], report["holds"]
    (0.25, True)
    """
    y_index, cost = row_costs(dataset, y, objective, sample_weight)
    predictions = tree.predict(X)
    ref_wrong = class_index(dataset, y_ref, "y_ref") != y_index
    t_wrong = class_index(dataset, predictions, "tree predictions") != y_index
    objective_value = float(cost[t_wrong].sum() + regularization * tree.n_leaves)
    reference_loss = float(cost[ref_wrong].sum())
    slack = float(cost[ref_wrong & ~t_wrong].sum())
    bound = guess_bound(predictions, tree.n_leaves, y, y_ref, dataset, regularization, objective, sample_weight)
    return {
        "theorem": "McTavish et al. 2022, Theorem 4.3",
        "objective": objective_value,
        "reference_loss": reference_loss,
        "reference_errors_tree_correct": slack,
        "bound_at_t_guess": bound,
        "optimality_gap_bound": reference_loss if finished else None,
        "lower_bound_on_optimum": objective_value - reference_loss if finished else None,
        "holds": bool(objective_value <= bound + 1e-12),
    }


def threshold_guarantee(binarizer, tree, X, y, dataset: Dataset, regularization: float, objective="accuracy",
                        sample_weight=None, depth_budget: int | None = None) -> dict:
    """Theorem 4.1's report for a tree fitted on guessed thresholds.

    Parameters
    ----------
    binarizer : ThresholdGuessBinarizer
        Fitted on ``(X, y)``.
    tree : Tree
        The tree fitted on ``binarizer``'s features.
    X, y : array_like
        The training table (original columns) and labels.
    dataset : Dataset
    regularization : float
    objective : str or Objective, default="accuracy"
    sample_weight : array_like, optional
    depth_budget : int, optional
        The search's depth budget.

    Returns
    -------
    dict
        ``theorem``; ``objective`` (R of ``tree``); ``reference_loss`` (L(T) on the
        original columns); ``reduced_reference_loss`` (L(T')); ``t_prime_leaves`` and
        ``t_prime_depth`` (H and depth of the tree t' reproducing T');
        ``objective_bound`` (L(T) + λ H(t'), the theorem); ``reduced_objective_bound``
        (L(T') + λ H(t')); ``applies`` (t' fits the depth budget, so an optimal
        tree satisfies ``objective <= reduced_objective_bound``); ``holds``
        (``tree`` does); ``n_features``, ``n_features_all``.

    Examples
    --------
    >>> import pandas as pd
    >>> from treeopt.guessing import ThresholdGuessBinarizer
    >>> from treeopt.solvers import GOSDT
    >>> X = pd.DataFrame({"x": [1, 2, 3, 4, 5, 6, 7, 8]})
    >>> y = np.array([0, 0, 1, 1, 0, 0, 1, 1])
    >>> guess = ThresholdGuessBinarizer(n_estimators=20, max_depth=2, random_state=0).fit(X, y)
    >>> ds = Dataset.from_arrays(X, y, binarizer=guess)
    >>> tree = GOSDT(ds, regularization=0.01).run().tree
    >>> report = threshold_guarantee(guess, tree, X, y, ds, 0.01)
    >>> report["reference_loss"], report["t_prime_leaves"], report["holds"]
    (0.0, 4, True)
    """
    from sklearn.tree import DecisionTreeClassifier

    y_index, cost = row_costs(dataset, y, objective, sample_weight)
    initial = binarizer.predict_initial(X)
    reduced = binarizer.predict_reference(X)
    Z = binarizer.transform(X)
    if Z.shape[1]:
        t_prime = DecisionTreeClassifier(random_state=0).fit(Z, reduced)
        matches = bool((t_prime.predict(Z) == reduced).all())
        leaves, depth = int(t_prime.get_n_leaves()), int(t_prime.get_depth())
    else:
        matches, leaves, depth = bool((reduced == reduced[0]).all()), 1, 0
    loss_T = float(cost[class_index(dataset, initial, "reference predictions") != y_index].sum())
    loss_T_reduced = float(cost[class_index(dataset, reduced, "reference predictions") != y_index].sum())
    t_wrong = class_index(dataset, tree.predict(X), "tree predictions") != y_index
    objective_value = float(cost[t_wrong].sum() + regularization * tree.n_leaves)
    reduced_bound = loss_T_reduced + regularization * leaves
    return {
        "theorem": "McTavish et al. 2022, Theorem 4.1",
        "objective": objective_value,
        "reference_loss": loss_T,
        "reduced_reference_loss": loss_T_reduced,
        "t_prime_leaves": leaves,
        "t_prime_depth": depth,
        "t_prime_matches": matches,
        "objective_bound": loss_T + regularization * leaves,
        "reduced_objective_bound": reduced_bound,
        "applies": bool(matches and (depth_budget is None or depth <= depth_budget)),
        "holds": bool(objective_value <= reduced_bound + 1e-12),
        "n_features": len(binarizer.features_),
        "n_features_all": binarizer.n_features_all_,
    }


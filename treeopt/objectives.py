"""Objectives: what a tree's loss is, leaf by leaf.

Every solver minimises ``loss(tree) + λ × leaves``. An *additive* objective
is a sum of per-leaf losses, so dynamic programming over subproblems (GOSDT,
Branches, the frontier) applies. The additive objectives here are all
*class-cost* losses: misclassifying one unit of weight of class ``c`` costs
``cost_c``, so a leaf predicting ``k`` loses ``sum_{c != k} n_c cost_c`` and
the best label maximises ``n_k cost_k``.

* :class:`Accuracy`: misclassification rate, ``cost_c = 1 / N``.
* :class:`BalancedAccuracy`: mean per-class error rate,
  ``cost_c = 1 / (K · N_c)``; loss = 1 − balanced accuracy.
* :class:`WeightedAccuracy`: false negatives weigh ``ω``:
  loss = (FP + ω·FN) / (ω·N⁺ + N⁻) (binary only; class 1 is positive).

Solvers work in *weight units*: the loss of a leaf multiplied by the total
training weight ``N``, so that accuracy losses are exact integer counts.
:meth:`LossModel.to_objective` divides back.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .data import Dataset, SubsetSum, mask_of

__all__ = ["Objective", "Accuracy", "BalancedAccuracy", "WeightedAccuracy", "LossModel",
           "get_objective", "OBJECTIVES"]


class Objective:
    """Base class of objectives.

    Attributes
    ----------
    name : str
        Short name used by the estimator and CLI (``objective="accuracy"``).
    additive : bool
        Whether the loss is a sum of per-leaf losses (required by the dynamic
        programming solvers).
    """

    name = "objective"
    additive = True
    binary_only = False

    def validate(self, dataset: Dataset) -> None:
        """Raise ``ValueError`` if this objective cannot be used on ``dataset``."""
        if self.binary_only and dataset.n_classes != 2:
            raise ValueError(f"objective {self.name!r} needs exactly two classes; the data has "
                             f"{dataset.n_classes}. Use 'accuracy' or 'balanced_accuracy' for multiclass.")

    def class_costs(self, dataset: Dataset) -> np.ndarray:
        """Cost of misclassifying one unit of weight of each class (objective units)."""
        raise NotImplementedError

    def loss_model(self, dataset: Dataset) -> "LossModel":
        """Precompute what a solver needs to evaluate leaves of this objective on ``dataset``."""
        self.validate(dataset)
        return LossModel(dataset, self.class_costs(dataset) * dataset.total_weight)

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({params})"


class Accuracy(Objective):
    """Misclassification rate: (weight of misclassified rows) / (total weight).

    Examples
    --------
    >>> import numpy as np
    >>> ds = Dataset.from_binary(np.array([[0], [1], [1]]), [0, 1, 0])
    >>> model = Accuracy().loss_model(ds)
    >>> model.leaf(ds.class_counts(ds.all_points))   # predict class 0, one error
    (1, 0)
    """

    name = "accuracy"

    def class_costs(self, dataset: Dataset) -> np.ndarray:
        return np.full(dataset.n_classes, 1.0 / dataset.total_weight)


class BalancedAccuracy(Objective):
    """One minus balanced accuracy: the mean over classes of the class's error rate.

    Each class ``c`` with total weight ``N_c`` gets cost ``1 / (K N_c)``.
    """

    name = "balanced_accuracy"

    def class_costs(self, dataset: Dataset) -> np.ndarray:
        totals = dataset.counts.sum(axis=0)
        if (totals <= 0).any():
            raise ValueError("balanced_accuracy needs every class to have positive weight.")
        return 1.0 / (len(totals) * totals)


class WeightedAccuracy(Objective):
    """Weighted misclassification: (FP + ω·FN) / (ω·N⁺ + N⁻), binary labels.

    Parameters
    ----------
    omega : float, default=1.0
        Weight of a false negative (a positive row predicted negative).
    """

    name = "weighted_accuracy"
    binary_only = True

    def __init__(self, omega: float = 1.0):
        self.omega = omega

    def validate(self, dataset: Dataset) -> None:
        super().validate(dataset)
        if not (np.isfinite(self.omega) and self.omega > 0):
            raise ValueError(f"omega must be a positive number, got {self.omega!r}.")

    def class_costs(self, dataset: Dataset) -> np.ndarray:
        negatives, positives = dataset.counts.sum(axis=0)
        denominator = self.omega * positives + negatives
        return np.array([1.0, self.omega]) / denominator


class LossModel:
    """An additive objective bound to a dataset, in weight units (loss × total weight).

    Attributes
    ----------
    costs : ndarray
        Per-class cost of one unit of misclassified weight, in weight units.
    unit_costs : bool
        True when every cost is 1 (plain accuracy): losses are then exact
        weighted error counts.
    """

    def __init__(self, dataset: Dataset, costs: np.ndarray):
        self.dataset = dataset
        self.costs = np.asarray(costs, dtype=float)
        self.unit_costs = bool(np.allclose(self.costs, 1.0, rtol=0, atol=1e-12))
        if self.unit_costs:
            self.costs = np.ones_like(self.costs)
            self._eq = dataset.equivalent_points_loss
        else:
            # The best label of each point, then the equivalent-points loss as a sum of
            # per-class sums over the points that do not predict that class (exact popcounts).
            scored = dataset.counts * self.costs
            best = scored.argmax(axis=1)
            self._not_best = [SubsetSum(np.where(best != c, dataset.counts[:, c], 0))
                              for c in range(dataset.n_classes)]
            self._eq = self._weighted_eq
        self.scale = 1.0 / dataset.total_weight

    def leaf(self, counts) -> tuple:
        """(loss in weight units, predicted class) of a leaf with these class counts."""
        if self.unit_costs:
            best = max(range(len(counts)), key=counts.__getitem__)
            return sum(counts) - counts[best], best
        scored = [n * w for n, w in zip(counts, self.costs)]
        best = max(range(len(scored)), key=scored.__getitem__)
        return sum(scored) - scored[best], best

    def equivalent_points(self, support: int):
        """Loss that every tree incurs on a support set: each point labelled by its own best class."""
        return self._eq(support)

    def _weighted_eq(self, support: int) -> float:
        return sum(w * s(support) for w, s in zip(self.costs, self._not_best))

    def to_objective(self, weight_units: float) -> float:
        """Convert a loss in weight units to objective units."""
        return weight_units * self.scale


OBJECTIVES = {
    "accuracy": Accuracy,
    "balanced_accuracy": BalancedAccuracy,
    "weighted_accuracy": WeightedAccuracy,
}


def get_objective(objective="accuracy", **params) -> Objective:
    """Return an :class:`Objective` from a name or an instance.

    Examples
    --------
    >>> get_objective("weighted_accuracy", omega=2.0)
    WeightedAccuracy(omega=2.0)
    """
    if isinstance(objective, Objective):
        return objective
    try:
        cls = OBJECTIVES[objective]
    except (KeyError, TypeError):
        raise ValueError(f"unknown objective {objective!r}; choose one of {sorted(OBJECTIVES)}.") from None
    accepted = {k: v for k, v in params.items() if v is not None and k in cls.__init__.__code__.co_varnames}
    return cls(**accepted)

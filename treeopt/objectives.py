"""Objectives: what a tree's loss is.

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

The non-additive objectives (GOSDT section 2, appendices C and D) need a
search over whole trees (the leaf-set solver), binary labels only:

* :class:`FScore`: loss = 1 − F1 = (FP + FN) / (2N⁺ + FP − FN), with leaf
  ``i`` labelled 0 when ``ω·n_i⁺ <= n_i⁻`` (appendix D).
* :class:`AUC`: loss = 1 − AUC of the ROC convex hull of the leaves
  (equation 2, see :mod:`treeopt.roc`).
* :class:`PartialAUC`: loss = 1 − (area under the hull for FPR <= θ) / θ.

Every objective evaluates a whole tree from its leaves' class counts with
:meth:`Objective.tree_loss` (objective units, in [0, 1]).

Solvers of additive objectives work in *weight units*: the loss of a leaf
multiplied by the total training weight ``N``, so that accuracy losses are
exact integer counts. :meth:`LossModel.to_objective` divides back.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from .data import Dataset, SubsetSum
from .roc import check_theta

__all__ = ["Objective", "ClassCostObjective", "Accuracy", "BalancedAccuracy", "WeightedAccuracy",
           "FScore", "AUC", "PartialAUC", "LossModel", "get_objective", "OBJECTIVES"]


def _positive_number(name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not np.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive number, got {value!r}.")


class Objective:
    """Base class of objectives.

    Attributes
    ----------
    name : str
        Short name used by the estimator and CLI (``objective="accuracy"``).
    additive : bool
        Whether the loss is a sum of per-leaf losses (required by the dynamic
        programming solvers).
    binary_only : bool
        Whether the objective needs exactly two classes (class index 1 is
        the positive class).
    """

    name = "objective"
    additive = True
    binary_only = False

    def validate(self, dataset: Dataset) -> None:
        """Raise ``ValueError`` if this objective cannot be used on ``dataset``."""
        if self.binary_only and dataset.n_classes != 2:
            raise ValueError(f"objective {self.name!r} needs exactly two classes; the data has "
                             f"{dataset.n_classes}. Use 'accuracy' or 'balanced_accuracy' for multiclass.")

    def tree_loss(self, leaf_counts, predictions=None) -> float:
        """Loss of a tree (objective units, in [0, 1]) from the class counts of its leaves.

        Parameters
        ----------
        leaf_counts : array_like of shape (n_leaves, n_classes)
            Weighted class counts of each leaf (class index 1 = positive for
            binary objectives). The class totals are the column sums.
        predictions : array_like of int, optional
            Class index predicted by each leaf. Default: the objective's own
            labelling (:meth:`leaf_predictions`). Rank objectives ignore it.
        """
        raise NotImplementedError

    def leaf_predictions(self, leaf_counts) -> np.ndarray:
        """Class index each leaf predicts under this objective's labelling rule."""
        raise NotImplementedError

    def _table(self, leaf_counts) -> np.ndarray:
        table = np.asarray(leaf_counts, dtype=float)
        if table.ndim != 2 or table.shape[0] == 0 or table.shape[1] < 2:
            raise ValueError(f"leaf_counts must be a non-empty array of shape (n_leaves, n_classes) with at "
                             f"least two classes, got shape {table.shape}.")
        if self.binary_only and table.shape[1] != 2:
            raise ValueError(f"objective {self.name!r} needs exactly two classes; leaf_counts has "
                             f"{table.shape[1]} columns.")
        if not np.isfinite(table).all() or (table < 0).any():
            raise ValueError("leaf_counts must be finite and non-negative.")
        return table

    def _labels(self, table: np.ndarray, predictions) -> np.ndarray:
        if predictions is None:
            return self.leaf_predictions(table)
        labels = np.asarray(predictions)
        if labels.shape != (len(table),) or not np.issubdtype(labels.dtype, np.integer) \
                or (labels < 0).any() or (labels >= table.shape[1]).any():
            raise ValueError(f"predictions must be {len(table)} class indices in [0, {table.shape[1]}), "
                             f"got {predictions!r}.")
        return labels

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({params})"


class ClassCostObjective(Objective):
    """An additive objective in which misclassified weight of class ``c`` costs ``cost_c``.

    Subclasses define :meth:`costs_for_totals`. A leaf's best label maximises
    ``n_k cost_k`` (ties: the lowest class index).
    """

    additive = True

    def costs_for_totals(self, totals: np.ndarray) -> np.ndarray:
        """Per-class cost (objective units) given the total weight of each class."""
        raise NotImplementedError

    def class_costs(self, dataset: Dataset) -> np.ndarray:
        """Cost of misclassifying one unit of weight of each class (objective units)."""
        return self.costs_for_totals(np.asarray(dataset.counts, dtype=float).sum(axis=0))

    def loss_model(self, dataset: Dataset) -> "LossModel":
        """Precompute what a solver needs to evaluate leaves of this objective on ``dataset``."""
        self.validate(dataset)
        return LossModel(dataset, self.class_costs(dataset) * dataset.total_weight)

    def leaf_predictions(self, leaf_counts) -> np.ndarray:
        table = self._table(leaf_counts)
        return (table * self.costs_for_totals(table.sum(axis=0))).argmax(axis=1)

    def tree_loss(self, leaf_counts, predictions=None) -> float:
        table = self._table(leaf_counts)
        scored = table * self.costs_for_totals(table.sum(axis=0))
        labels = self._labels(table, predictions)
        return float(scored.sum() - scored[np.arange(len(table)), labels].sum())


class Accuracy(ClassCostObjective):
    """Misclassification rate: (weight of misclassified rows) / (total weight).

    Examples
    --------
    >>> import numpy as np
    >>> ds = Dataset.from_binary(np.array([[0], [1], [1]]), [0, 1, 0])
    >>> model = Accuracy().loss_model(ds)
    >>> model.leaf(ds.class_counts(ds.all_points))   # predict class 0, one error
    (1, 0)
    >>> round(Accuracy().tree_loss([[2, 1], [0, 3]]), 4)   # one error in six rows
    0.1667
    """

    name = "accuracy"

    def costs_for_totals(self, totals):
        total = float(np.sum(totals))
        if total <= 0:
            raise ValueError("accuracy needs positive total weight.")
        return np.full(len(totals), 1.0 / total)


class BalancedAccuracy(ClassCostObjective):
    """One minus balanced accuracy: the mean over classes of the class's error rate.

    Each class ``c`` with total weight ``N_c`` gets cost ``1 / (K N_c)``; for
    two classes loss = (FN / N⁺ + FP / N⁻) / 2.

    Examples
    --------
    >>> BalancedAccuracy().tree_loss([[8, 1], [0, 1]])   # FN = 1 of N⁺ = 2, FP = 0
    0.25
    """

    name = "balanced_accuracy"

    def costs_for_totals(self, totals):
        totals = np.asarray(totals, dtype=float)
        if (totals <= 0).any():
            raise ValueError("balanced_accuracy needs every class to have positive weight.")
        return 1.0 / (len(totals) * totals)


class WeightedAccuracy(ClassCostObjective):
    """Weighted misclassification: loss = (FP + ω·FN) / (ω·N⁺ + N⁻), binary labels.

    Parameters
    ----------
    omega : float, default=1.0
        Weight of a false negative (a positive row predicted negative).

    Examples
    --------
    >>> WeightedAccuracy(omega=3.0).tree_loss([[2, 1]])   # predict positive: FP = 2 of 3·1 + 2
    0.4
    """

    name = "weighted_accuracy"
    binary_only = True

    def __init__(self, omega: float = 1.0):
        self.omega = omega

    def validate(self, dataset: Dataset) -> None:
        super().validate(dataset)
        _positive_number("omega", self.omega)

    def costs_for_totals(self, totals):
        _positive_number("omega", self.omega)
        negatives, positives = totals
        denominator = self.omega * positives + negatives
        if denominator <= 0:
            raise ValueError("weighted_accuracy needs positive total weight.")
        return np.array([1.0, self.omega]) / denominator


class FScore(Objective):
    """One minus F1 score, with the ω leaf labelling of GOSDT appendix D.

    loss = 1 − F1 = (FP + FN) / (2N⁺ + FP − FN), where leaf ``i`` is labelled
    0 when ``ω·n_i⁺ <= n_i⁻`` and 1 otherwise.

    The loss is not a sum over leaves (FP and FN appear in the denominator),
    and the best label of a leaf depends on the labels of the others
    (Lemma D.1, Theorem D.2), so the labelling is fixed by this rule.
    For every tree some ω makes the rule F-optimal: the best labelling
    labels positive exactly the leaves with positive fraction above
    ``F*/2`` (``F*`` = the tree's best F1), i.e. ``ω = 2 / F* − 1`` ≥ 1;
    ``ω = 1`` is majority labelling, optimal only when ``F* = 1``.
    :meth:`best_labelling` finds that labelling by sweeping the leaves from
    the highest positive fraction down (GOSDT section 2).

    Parameters
    ----------
    omega : float, default=1.0
        A leaf predicts positive when ``omega × positives > negatives``.

    Examples
    --------
    >>> counts = [[9, 6], [0, 4]]                   # (negatives, positives) per leaf
    >>> f = FScore()
    >>> f.leaf_predictions(counts).tolist()          # majority: first leaf negative
    [0, 1]
    >>> round(f.tree_loss(counts), 4)                # (0 + 6) / (20 + 0 - 6)
    0.4286
    >>> labels, loss = FScore.best_labelling(counts)
    >>> labels.tolist(), round(loss, 4)              # (9 + 0) / (20 + 9)
    ([1, 1], 0.3103)
    >>> round(FScore(omega=2.0).tree_loss(counts), 4)
    0.3103
    """

    name = "f1"
    additive = False
    binary_only = True

    def __init__(self, omega: float = 1.0):
        self.omega = omega

    def validate(self, dataset: Dataset) -> None:
        super().validate(dataset)
        _positive_number("omega", self.omega)
        if np.asarray(dataset.counts, dtype=float)[:, 1].sum() <= 0:
            raise ValueError("f1 needs at least one positive row (class index 1); F1 is undefined without.")

    def leaf_predictions(self, leaf_counts) -> np.ndarray:
        _positive_number("omega", self.omega)
        table = self._table(leaf_counts)
        return (self.omega * table[:, 1] > table[:, 0]).astype(int)

    def tree_loss(self, leaf_counts, predictions=None) -> float:
        table = self._table(leaf_counts)
        return self._loss(table, self._labels(table, predictions))

    @staticmethod
    def _loss(table: np.ndarray, labels: np.ndarray) -> float:
        positives = table[:, 1].sum()
        if positives <= 0:
            raise ValueError("F1 is undefined without positive rows (class index 1).")
        false_pos = table[labels == 1, 0].sum()
        false_neg = table[labels == 0, 1].sum()
        return FScore.loss_of_errors(float(false_pos), float(false_neg), float(positives))

    @staticmethod
    def loss_of_errors(false_pos: float, false_neg: float, positives: float) -> float:
        """The loss from a tree's total errors: ``(FP + FN) / (2N⁺ + FP − FN)``.

        FP and FN are sums over the leaves (each leaf's label depends on its own counts only), so a
        search can keep them per leaf and score a tree from two sums. The loss grows in both.
        ``positives`` (N⁺) must be positive.

        Examples
        --------
        >>> FScore.loss_of_errors(9.0, 0.0, 10.0) == FScore(omega=2.0).tree_loss([[9, 6], [0, 4]])
        True
        """
        return (false_pos + false_neg) / (2 * positives + false_pos - false_neg)

    def leaf_errors(self, negatives: float, positives: float) -> tuple:
        """(label, false positives, false negatives) of one leaf under the ω labelling.

        Examples
        --------
        >>> FScore(omega=2.0).leaf_errors(9.0, 6.0)      # 2 × 6 > 9: labelled positive
        (1, 9.0, 0.0)
        """
        if self.omega * positives > negatives:
            return 1, float(negatives), 0.0
        return 0, 0.0, float(positives)

    @classmethod
    def best_labelling(cls, leaf_counts) -> tuple:
        """The F-optimal labelling of the leaves and its loss.

        Sweeps the leaves from the highest positive fraction to the lowest,
        labelling a growing prefix positive (leaves of equal fraction
        together), and keeps the best. This is exact: by Dinkelbach's
        argument, the best labelling labels positive the leaves whose
        positive fraction exceeds ``F*/2``, which is such a prefix.

        Returns
        -------
        labels : ndarray of int
        loss : float
        """
        table = cls()._table(leaf_counts)
        weight = table.sum(axis=1)
        fraction = np.divide(table[:, 1], weight, out=np.zeros(len(table)), where=weight > 0)
        best_labels, best_loss = None, np.inf
        for cut in [np.inf] + sorted(set(fraction.tolist()), reverse=True):
            labels = (fraction >= cut).astype(int)
            loss = cls._loss(table, labels)
            if loss < best_loss - 1e-15:
                best_labels, best_loss = labels, loss
        return best_labels, best_loss


class AUC(Objective):
    """One minus the area under the ROC convex hull of the leaves (GOSDT equation 2).

    Leaves are ranked by their fraction of positives; leaves with equal
    fractions share one hull segment (see :mod:`treeopt.roc`). The loss is
    ``1 − (1 / (N⁺N⁻)) Σ_i n_i⁻ [Σ_{j<i} n_j⁺ + n_i⁺ / 2]`` and does not
    depend on the leaves' labels.

    :meth:`leaf_predictions` gives the hull vertex with the best (weighted)
    accuracy: a leaf predicts positive when it has more positive than
    negative weight (ties: negative).

    Examples
    --------
    >>> round(AUC().tree_loss([[1, 3], [3, 1], [2, 0]]), 4)
    0.1667
    >>> AUC().leaf_predictions([[1, 3], [3, 1], [2, 0]]).tolist()
    [1, 0, 0]
    """

    name = "auc"
    additive = False
    binary_only = True

    def validate(self, dataset: Dataset) -> None:
        super().validate(dataset)
        if (np.asarray(dataset.counts, dtype=float).sum(axis=0) <= 0).any():
            raise ValueError(f"{self.name} needs rows of both classes; the ROC curve is undefined otherwise.")

    def leaf_predictions(self, leaf_counts) -> np.ndarray:
        table = self._table(leaf_counts)
        return (table[:, 1] > table[:, 0]).astype(int)

    def tree_loss(self, leaf_counts, predictions=None, check_input: bool = True) -> float:
        """One minus the hull's area; ``check_input=False`` takes ``(negative, positive)`` pairs as they
        are (a search's inner loop, whose counts are known to be valid)."""
        from .roc import hull_area
        return 1.0 - hull_area(self._table(leaf_counts).tolist() if check_input else leaf_counts,
                               self._theta())

    def _theta(self) -> float:
        return 1.0


class PartialAUC(AUC):
    """One minus the partial area under the ROC convex hull up to FPR θ (GOSDT appendix C.5).

    loss = 1 − (area under the hull for FPR <= θ) / θ, in [0, 1]; at θ = 1
    it equals the :class:`AUC` loss. Labels as :class:`AUC`.

    Parameters
    ----------
    theta : float, default=0.1
        Largest false-positive rate that counts, in (0, 1].

    Examples
    --------
    >>> round(PartialAUC(theta=0.5).tree_loss([[1, 3], [3, 1], [2, 0]]), 4)   # 1 − 0.3403 / 0.5
    0.3194
    """

    name = "partial_auc"

    def __init__(self, theta: float = 0.1):
        self.theta = theta

    def validate(self, dataset: Dataset) -> None:
        check_theta(self.theta)
        super().validate(dataset)

    def _theta(self) -> float:
        return check_theta(self.theta)


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
        # (np.allclose(costs, 1, rtol=0, atol=1e-12) without its wrappers, paid on every fit)
        self.unit_costs = bool((np.abs(self.costs - 1.0) <= 1e-12).all())
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
    "f1": FScore,
    "auc": AUC,
    "partial_auc": PartialAUC,
}


@functools.cache
def _parameters_of(cls: type) -> frozenset:
    """The keyword names an objective class takes (read once per class: every fit asks)."""
    return frozenset(inspect.signature(cls).parameters)


def get_objective(objective="accuracy", **params) -> Objective:
    """Return an :class:`Objective` from a name or an instance.

    ``None`` values are ignored; a value for a parameter the objective does
    not take (``omega`` with ``"accuracy"``) raises, since it would change nothing.

    Examples
    --------
    >>> get_objective("weighted_accuracy", omega=2.0)
    WeightedAccuracy(omega=2.0)
    >>> get_objective("partial_auc", omega=None, theta=0.2)
    PartialAUC(theta=0.2)
    """
    if isinstance(objective, Objective):
        return objective
    try:
        cls = OBJECTIVES[objective]
    except (KeyError, TypeError):
        raise ValueError(f"unknown objective {objective!r}; choose one of {sorted(OBJECTIVES)}.") from None
    taken = _parameters_of(cls)
    ignored = sorted(k for k, v in params.items() if v is not None and k not in taken)
    if ignored:
        raise ValueError(f"objective {objective!r} takes no {', '.join(ignored)}; it would be ignored. "
                         f"Drop it, or choose an objective that uses it (e.g. 'weighted_accuracy' for omega, "
                         f"'partial_auc' for theta).")
    accepted = {k: v for k, v in params.items() if v is not None and k in taken}
    return cls(**accepted)

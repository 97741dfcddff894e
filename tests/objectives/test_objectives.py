"""Every objective's ``tree_loss`` equals a second, row-by-row implementation and scikit-learn.

Leaf count tables are random (hypothesis); the reference implementations are
in ``reference_metrics.py``. Also: the labelling rules are the optimal (or
the documented) ones, the F-score situation of Theorem D.2, and clear errors.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, balanced_accuracy_score, f1_score, roc_auc_score

from reference_metrics import (auc_by_pairs, balanced_error, error_rate, expand, f_loss, majority_labels,
                               omega_labels, partial_auc_by_segments, tables, weighted_error)
from treeopt.data import Dataset
from treeopt.objectives import (AUC, OBJECTIVES, Accuracy, BalancedAccuracy, FScore, PartialAUC,
                                WeightedAccuracy, get_objective)


def rows(table, labels):
    """Expanded rows with each row's prediction from its leaf's label."""
    leaf, y, w = expand(table)
    return y, np.asarray(labels)[leaf], w


def all_labellings(table):
    return itertools.product(range(table.shape[1]), repeat=table.shape[0])


# -- additive objectives ---------------------------------------------------------------------------

@given(table=st.one_of(tables(), tables(weights="float"), tables(n_classes=3)))
def test_accuracy_matches_rows_and_sklearn(table):
    labels = Accuracy().leaf_predictions(table)
    y, pred, w = rows(table, labels)
    loss = Accuracy().tree_loss(table)
    assert loss == pytest.approx(error_rate(y, pred, w), abs=1e-12)
    assert loss == pytest.approx(1 - accuracy_score(y, pred, sample_weight=w), abs=1e-12)
    # Additive: the leaf-by-leaf best label is the best labelling of the tree.
    assert loss == pytest.approx(min(error_rate(*rows(table, lab)) for lab in all_labellings(table)), abs=1e-12)
    assert list(labels) == majority_labels(table)


@given(table=st.one_of(tables(), tables(weights="float"), tables(n_classes=3, max_leaves=4)))
def test_balanced_accuracy_matches_rows_and_sklearn(table):
    objective = BalancedAccuracy()
    labels = objective.leaf_predictions(table)
    y, pred, w = rows(table, labels)
    loss = objective.tree_loss(table)
    assert loss == pytest.approx(balanced_error(y, pred, w), abs=1e-12)
    assert loss == pytest.approx(1 - balanced_accuracy_score(y, pred, sample_weight=w), abs=1e-12)
    best = min(balanced_error(*rows(table, lab)) for lab in all_labellings(table))
    assert loss == pytest.approx(best, abs=1e-12)


@given(table=st.one_of(tables(), tables(weights="float")), omega=st.sampled_from([0.25, 1.0, 2.0, 7.5]))
def test_weighted_accuracy_matches_rows_and_sklearn(table, omega):
    objective = WeightedAccuracy(omega=omega)
    labels = objective.leaf_predictions(table)
    y, pred, w = rows(table, labels)
    loss = objective.tree_loss(table)
    assert loss == pytest.approx(weighted_error(y, pred, w, omega), abs=1e-12)
    # Weighting positives by ω turns the weighted error into plain error.
    cost_weight = w * np.where(y == 1, omega, 1.0)
    assert loss == pytest.approx(1 - accuracy_score(y, pred, sample_weight=cost_weight), abs=1e-12)
    best = min(weighted_error(*rows(table, lab), omega) for lab in all_labellings(table))
    assert loss == pytest.approx(best, abs=1e-12)


@given(table=tables(), objective=st.sampled_from([Accuracy(), BalancedAccuracy(), WeightedAccuracy(2.0),
                                                  FScore(1.5)]))
def test_tree_loss_with_given_predictions(table, objective):
    """``predictions=`` scores any labelling (it is how Tree.objective checks stored labels)."""
    for labels in itertools.islice(all_labellings(table), 16):
        y, pred, w = rows(table, labels)
        expected = {"accuracy": error_rate(y, pred, w), "balanced_accuracy": balanced_error(y, pred, w),
                    "weighted_accuracy": weighted_error(y, pred, w, 2.0), "f1": f_loss(y, pred, w)}
        assert objective.tree_loss(table, predictions=np.array(labels)) == \
            pytest.approx(expected[objective.name], abs=1e-12)


def test_class_costs_unchanged_for_the_dp_solvers():
    """GOSDT's LossModel still gets the per-class costs it always did."""
    X = np.array([[0], [1], [1], [0], [1]])
    ds = Dataset.from_binary(X, [0, 1, 0, 1, 1])
    assert Accuracy().class_costs(ds).tolist() == [0.2, 0.2]
    assert BalancedAccuracy().class_costs(ds) == pytest.approx([1 / 4, 1 / 6])
    assert WeightedAccuracy(2.0).class_costs(ds) == pytest.approx(np.array([1.0, 2.0]) / 8)
    model = WeightedAccuracy(2.0).loss_model(ds)
    assert model.leaf(ds.class_counts(ds.all_points)) == (pytest.approx(2.0 * 5 / 8), 1)


# -- F-score ---------------------------------------------------------------------------------------

@given(table=st.one_of(tables(), tables(weights="float")), omega=st.sampled_from([0.5, 1.0, 1.5, 3.0]))
def test_f_score_matches_rows_and_sklearn(table, omega):
    objective = FScore(omega=omega)
    labels = objective.leaf_predictions(table)
    assert list(labels) == omega_labels(table, omega)
    y, pred, w = rows(table, labels)
    loss = objective.tree_loss(table)
    assert loss == pytest.approx(f_loss(y, pred, w), abs=1e-12)
    assert loss == pytest.approx(1 - f1_score(y, pred, sample_weight=w, zero_division=0.0), abs=1e-12)
    assert 0.0 <= loss <= 1.0


@given(table=st.one_of(tables(), tables(weights="float")))
def test_f_score_best_labelling_is_optimal_and_an_omega_labelling(table):
    """The sweep finds the best of all 2^H labellings, and ω = 2/F* − 1 reproduces it."""
    labels, loss = FScore.best_labelling(table)
    brute = min(f_loss(*rows(table, lab)) for lab in all_labellings(table))
    assert loss == pytest.approx(brute, abs=1e-12)
    assert FScore().tree_loss(table, predictions=labels) == pytest.approx(loss, abs=1e-12)
    f_star = 1 - loss
    if f_star > 0:
        assert FScore(omega=2 / f_star - 1).tree_loss(table) == pytest.approx(brute, abs=1e-9)


def test_majority_labelling_is_not_f_optimal():
    """Appendix D: with ω = 1 (majority) a 60%-negative leaf is labelled 0, but labelling it 1 raises F1."""
    table = np.array([[9.0, 6.0], [0.0, 4.0]])        # (negatives, positives)
    majority = FScore(omega=1.0)
    assert majority.leaf_predictions(table).tolist() == [0, 1]
    assert majority.tree_loss(table) == pytest.approx(6 / 14)           # FN = 6
    labels, best = FScore.best_labelling(table)
    assert labels.tolist() == [1, 1] and best == pytest.approx(9 / 29)  # FP = 9
    assert best < majority.tree_loss(table)
    assert 1 - f1_score([0] * 9 + [1] * 6 + [1] * 4, [1] * 19) == pytest.approx(best)
    # The ω rule with ω ≥ 9/6 labels the first leaf positive and reaches the optimum.
    assert FScore(omega=2.0).leaf_predictions(table).tolist() == [1, 1]
    assert FScore(omega=2.0).tree_loss(table) == pytest.approx(best)


def test_theorem_d2_labellings_better_on_some_leaves_can_lose_on_the_tree():
    """Theorem D.2: labelling Γ1 beats Γ2 on the first H−1 leaves, yet loses once the last leaf is added.

    So the F-score of a tree cannot be optimised leaf by leaf (no dynamic programming over
    subtrees); treeopt fixes the labelling by the ω rule and searches whole trees.
    """
    table = np.array([[0.0, 1.0], [2.0, 0.0], [2.0, 2.0]])   # leaf 3 is labelled positive in both
    positives = table[:, 1].sum()

    def partial_loss(labels):            # equation (39) over the first two leaves only
        fp = sum(table[i, 0] for i, lab in enumerate(labels) if lab == 1)
        fn = sum(table[i, 1] for i, lab in enumerate(labels) if lab == 0)
        return (fp + fn) / (2 * positives + fp - fn)

    gamma1, gamma2 = (0, 0), (1, 1)
    assert partial_loss(gamma1) == pytest.approx(0.2) and partial_loss(gamma2) == pytest.approx(0.25)
    whole1 = FScore().tree_loss(table, predictions=np.array(gamma1 + (1,)))
    whole2 = FScore().tree_loss(table, predictions=np.array(gamma2 + (1,)))
    assert whole1 == pytest.approx(3 / 7) and whole2 == pytest.approx(4 / 10)
    assert whole2 < whole1
    # The sweep still finds the best whole-tree labelling.
    _, best = FScore.best_labelling(table)
    assert best == pytest.approx(min(f_loss(*rows(table, lab)) for lab in all_labellings(table)))
    assert best <= whole2


# -- AUC and partial AUC ---------------------------------------------------------------------------

def positive_fraction_scores(table):
    leaf, y, w = expand(table)
    fraction = table[:, 1] / np.maximum(table.sum(axis=1), 1e-300)
    return y, fraction[leaf], w


@given(table=st.one_of(tables(), tables(weights="float")))
def test_auc_matches_pairs_and_sklearn(table):
    y, score, w = positive_fraction_scores(table)
    loss = AUC().tree_loss(table)
    assert 1 - loss == pytest.approx(auc_by_pairs(y, score, w), abs=1e-12)
    assert 1 - loss == pytest.approx(roc_auc_score(y, score, sample_weight=w), abs=1e-12)
    # Rank statistics do not depend on the labels.
    assert AUC().tree_loss(table, predictions=np.zeros(len(table), dtype=int)) == loss


@given(table=st.one_of(tables(), tables(weights="float")), theta=st.sampled_from([0.05, 0.1, 0.3, 0.5, 1.0]))
def test_partial_auc_matches_segments_and_sklearn(table, theta):
    y, score, w = positive_fraction_scores(table)
    value = 1 - PartialAUC(theta=theta).tree_loss(table)
    assert value == pytest.approx(partial_auc_by_segments(y, score, w, theta), abs=1e-12)
    assert -1e-12 <= value <= 1 + 1e-12
    if theta < 1:
        # scikit-learn's max_fpr returns McClish's standardisation 1/2 (1 + (A − θ²/2) / (θ − θ²/2)).
        standardized = roc_auc_score(y, score, sample_weight=w, max_fpr=theta)
        raw_area = theta ** 2 / 2 + (2 * standardized - 1) * (theta - theta ** 2 / 2)
        assert value == pytest.approx(raw_area / theta, abs=1e-9)
    else:
        assert value == pytest.approx(1 - AUC().tree_loss(table), abs=1e-12)


def test_auc_of_two_leaves_and_a_perfect_tree():
    assert AUC().tree_loss([[0, 5], [5, 0]]) == 0.0
    assert AUC().tree_loss([[3, 3]]) == pytest.approx(0.5)
    assert PartialAUC(theta=0.1).tree_loss([[0, 5], [5, 0]]) == 0.0
    # A single leaf is the diagonal: partial area θ²/2 over θ.
    assert PartialAUC(theta=0.2).tree_loss([[3, 3]]) == pytest.approx(0.9)


def test_auc_leaf_predictions_give_the_hull_point_of_best_accuracy():
    table = np.array([[1.0, 3.0], [3.0, 1.0], [2.0, 0.0], [2.0, 2.0]])
    labels = AUC().leaf_predictions(table)
    assert labels.tolist() == [1, 0, 0, 0]
    order = np.argsort(-(table[:, 1] / table.sum(axis=1)), kind="stable")
    prefixes = [np.isin(np.arange(4), order[:k]).astype(int) for k in range(5)]
    best_prefix = min(prefixes, key=lambda lab: error_rate(*rows(table, lab)))
    assert error_rate(*rows(table, labels)) == pytest.approx(error_rate(*rows(table, best_prefix)))


# -- protocol and errors ---------------------------------------------------------------------------

def test_registry_and_flags():
    assert set(OBJECTIVES) == {"accuracy", "balanced_accuracy", "weighted_accuracy", "f1", "auc", "partial_auc"}
    additive = {name for name, cls in OBJECTIVES.items() if cls.additive}
    assert additive == {"accuracy", "balanced_accuracy", "weighted_accuracy"}
    assert not Accuracy.binary_only and not BalancedAccuracy.binary_only
    assert all(OBJECTIVES[n].binary_only for n in ("weighted_accuracy", "f1", "auc", "partial_auc"))
    assert get_objective("f1", omega=2.0).omega == 2.0
    assert get_objective("partial_auc", theta=0.3).theta == 0.3
    with pytest.raises(ValueError, match="takes no theta"):
        get_objective("f1", omega=2.0, theta=0.3)
    assert get_objective("auc", omega=None, theta=None).name == "auc"


@pytest.mark.parametrize("make, message", [
    (lambda: FScore(omega=0).tree_loss([[1, 1]]), "omega"),
    (lambda: FScore(omega=float("nan")).leaf_predictions([[1, 1]]), "omega"),
    (lambda: PartialAUC(theta=0).tree_loss([[1, 1]]), "theta"),
    (lambda: PartialAUC(theta=1.5).tree_loss([[1, 1]]), "theta"),
    (lambda: AUC().tree_loss([[1, 0], [2, 0]]), "both classes"),
    (lambda: FScore().tree_loss([[1, 0], [2, 0]]), "positive"),
    (lambda: AUC().tree_loss([[1, 1, 1]]), "two classes"),
    (lambda: Accuracy().tree_loss([[1, -1]]), "non-negative"),
    (lambda: Accuracy().tree_loss([1, 2]), "shape"),
    (lambda: Accuracy().tree_loss([[1, 2]], predictions=np.array([2])), "class indices"),
    (lambda: get_objective("roc"), "unknown objective"),
])
def test_bad_input_is_a_clear_value_error(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_validate_rejects_data_the_objective_cannot_use():
    three = Dataset.from_binary(np.array([[0], [1], [1]]), [0, 1, 2])
    for name in ("weighted_accuracy", "f1", "auc", "partial_auc"):
        with pytest.raises(ValueError, match="two classes"):
            get_objective(name).validate(three)
    with pytest.raises(ValueError, match="theta"):
        PartialAUC(theta=2).validate(Dataset.from_binary(np.array([[0], [1]]), [0, 1]))

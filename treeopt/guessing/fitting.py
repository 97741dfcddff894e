"""How ``OptimalTreeClassifier`` uses the guesses: binarizer, reference predictions, guarantee report.

The binarizer itself (``thresholds="auto" | "all" | "quantile" | "guess"``) is the policy of
:mod:`treeopt.encoding`, which every front end calls whether or not anything is guessed. Here:

* :func:`reference_kwargs` turns ``fit(..., y_ref=...)`` or ``reference="gbdt"``
  into the solver's ``reference_errors`` (section 4.3). With guessed
  thresholds, ``"gbdt"`` uses the booster ``T'`` refitted on them
  (Corollary 4.3.1); otherwise a booster is fitted on the original columns;
* :func:`guarantee_report` computes ``guarantee_`` and the honest certificate the
  estimator stores: over guessed thresholds a certificate covers those thresholds
  only (``status_ == "optimal_over_guessed_thresholds"``, ``optimal_`` False); with
  lower-bound guesses the search's closing bound is a guess, so ``optimal_`` is
  False, ``status_`` is ``"guessed"`` and ``lower_bound_`` is what is proved (the
  equivalent-points bound, and Theorem 4.3's ``R(t_guess) - L(reference)``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..data import Dataset
from ..objectives import get_objective
from .guarantees import lower_bound_guarantee, threshold_guarantee
from .lower_bounds import reference_errors
from .reference import fit_reference_model
from .thresholds import ThresholdGuessBinarizer

__all__ = ["reference_kwargs", "guarantee_report", "GuessedCertificate", "OPTIMAL_OVER_GUESSED_THRESHOLDS"]


def reference_kwargs(solver_cls, solver_name: str, reference, y_ref, dataset: Dataset, table, y,
                     sample_weight, binarizer, random_state) -> tuple[dict, np.ndarray | None]:
    """Solver keyword arguments for lower-bound guessing, and the reference predictions used (or None)."""
    if y_ref is not None and reference is not None:
        raise ValueError("give either fit(..., y_ref=...) or reference='gbdt', not both: both name the "
                         "reference model of lower-bound guessing.")
    if y_ref is None and reference is None:
        return {}, None
    if "reference_lower_bound" not in getattr(solver_cls, "BOUNDS", {}):
        raise ValueError(f"solver {solver_name!r} does not support lower-bound guessing (y_ref / reference); "
                         "use solver='gosdt'.")
    if y_ref is not None:
        predictions = np.asarray(y_ref)
        if predictions.ndim == 2 and 1 in predictions.shape:
            predictions = predictions.ravel()
        if predictions.shape != (dataset.n_rows,):
            raise ValueError(f"y_ref has shape {predictions.shape}; give one reference prediction per row of X "
                             f"({dataset.n_rows}).")
    elif isinstance(binarizer, ThresholdGuessBinarizer):
        predictions = binarizer.predict_reference(table)                 # T' (Corollary 4.3.1)
    else:
        predictions = fit_reference_model(table, y, sample_weight, random_state=random_state)[2]
    return {"reference_errors": reference_errors(dataset, y, predictions, sample_weight)}, predictions


#: ``status_`` of a search that certified its tree over guessed thresholds (section 4.1): the
#: optimum over the kept thresholds, not over every threshold of the numeric columns.
OPTIMAL_OVER_GUESSED_THRESHOLDS = "optimal_over_guessed_thresholds"


@dataclass(frozen=True)
class GuessedCertificate:
    """What the guesses leave of a search's certificate: the estimator stores it as it is.

    Attributes
    ----------
    report : dict
        ``guarantee_``: Theorem 4.1 under ``"thresholds"``, Theorem 4.3 under ``"lower_bound"``.
    status : str
        The search's status, or :data:`OPTIMAL_OVER_GUESSED_THRESHOLDS` for a certificate over
        guessed thresholds, or ``"guessed"`` for a completed search with lower-bound guesses.
    optimal : bool
        Certified optimal over every tree the options allow (false whenever something was guessed).
    lower_bound : float
        What is proved of the optimum over the searched features.
    """

    report: dict
    status: str
    optimal: bool
    lower_bound: float


def guarantee_report(estimator, solver, result, table, y, y_ref, sample_weight) -> GuessedCertificate:
    """The guesses' guarantees and the honest certificate of ``result`` (read, never written, on ``estimator``).

    Over guessed thresholds a certified search proves its tree optimal among the trees on the
    kept thresholds only: the status says so and ``optimal`` is False. With lower-bound guesses
    the search's closing bound is a guess: ``optimal`` is False, a completed search is
    ``"guessed"`` and the lower bound is what is proved (the equivalent-points bound, and
    Theorem 4.3's ``R(t_guess) - L(reference)``).
    """
    report = {}
    status, optimal, lower_bound = result.status, bool(result.optimal), float(result.lower_bound)
    objective = get_objective(estimator.objective, omega=getattr(estimator, "omega", None),
                              theta=getattr(estimator, "theta", None))
    dataset = solver.dataset
    lam = estimator.regularization
    guessed_thresholds = isinstance(solver.dataset.binarizer, ThresholdGuessBinarizer)
    if guessed_thresholds and optimal:
        status, optimal = OPTIMAL_OVER_GUESSED_THRESHOLDS, False
    if not objective.additive:
        if guessed_thresholds or y_ref is not None:
            report["note"] = f"guarantees are stated for additive objectives; {objective.name!r} is not"
        return GuessedCertificate(report, status, optimal, lower_bound)
    if guessed_thresholds:
        report["thresholds"] = threshold_guarantee(solver.dataset.binarizer, result.tree, table, y, dataset, lam,
                                                   objective, sample_weight, estimator.depth_budget)
    if y_ref is not None and solver.bounds.get("reference_lower_bound", False):
        finished = result.status in ("optimal", "guessed")   # the solver says "guessed" on completion
        lb_report = lower_bound_guarantee(result.tree, table, y, y_ref, dataset, lam, objective,
                                          sample_weight, finished=finished)
        report["lower_bound"] = lb_report
        model = objective.loss_model(dataset)
        proven = model.to_objective(model.equivalent_points(dataset.all_points)) + lam
        if finished:
            proven = max(proven, lb_report["lower_bound_on_optimum"])
            status = "guessed"
        optimal = False
        lower_bound = float(min(proven, result.objective))
    return GuessedCertificate(report, status, optimal, lower_bound)

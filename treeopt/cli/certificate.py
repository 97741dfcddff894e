"""What ``treeopt fit`` reports about its tree: the certificate (status, objective, bounds, gap, λ, solver, time).

:func:`certificate_of` reads it off a fitted :class:`~treeopt.OptimalTreeClassifier`.
:func:`single_leaf` is the answer when the setup (binarizing the table) ran out of time or memory
before any search: the one-leaf tree, whose objective is exact on the whole table, with the lower
bound every tree has (no loss is below 0, and a tree has at least one leaf, so λ under the leaf
penalty). ``--json`` writes the certificate beside the tree (:func:`treeopt.model_json.fit_document`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ..building import check_labels
from ..nodes import Leaf
from ..objectives import get_objective
from ..tree import Tree

__all__ = ["Certificate", "certificate_of", "single_leaf"]


@dataclass
class Certificate:
    """The outcome of a fit, as ``--json`` writes it under ``"certificate"``.

    Attributes
    ----------
    status : str
        ``optimal``, ``time_limit``, ``memory``, ``interrupted``, ... (see :mod:`treeopt.cli.exits`).
    optimal : bool
        Whether the tree is certified optimal.
    objective : float
        The tree's objective, ``loss + λ × leaves`` (or ``× splits``).
    lower_bound, upper_bound, gap : float
        No tree has an objective below ``lower_bound``; ``gap = upper_bound - lower_bound``.
    regularization : float
        λ.
    penalty : str
        What λ is charged for: ``leaf`` or ``split``.
    loss : str
        The objective's name (``accuracy``, ``f1``, ...).
    solver : str
        The solver that ran (the one ``auto`` chose), or ``none`` when no search ran.
    time : float
        Seconds from the start of reading the table to the end of the search.
    n_steps : int
        The search's units of work.
    """

    status: str
    optimal: bool
    objective: float
    lower_bound: float
    upper_bound: float
    gap: float
    regularization: float
    penalty: str
    loss: str
    solver: str
    time: float
    n_steps: int

    def as_dict(self) -> dict:
        """The certificate as plain JSON data."""
        return asdict(self)


def certificate_of(clf, elapsed: float) -> Certificate:
    """The certificate of a fitted estimator; ``elapsed`` seconds since the command started."""
    solver = getattr(clf, "solver_", None)
    return Certificate(status=str(clf.status_), optimal=bool(clf.optimal_), objective=float(clf.objective_),
                       lower_bound=float(clf.lower_bound_), upper_bound=float(clf.upper_bound_),
                       gap=float(clf.gap_), regularization=float(clf.regularization),
                       penalty=str(getattr(clf, "penalty", "leaf")), loss=str(get_objective(clf.objective).name),
                       solver=str(getattr(solver, "name", clf.solver)), time=float(elapsed),
                       n_steps=int(clf.n_steps_))


def single_leaf(X, y, *, regularization: float, objective: str = "accuracy", omega: float | None = None,
                theta: float | None = None, penalty: str = "leaf", status: str, elapsed: float
                ) -> tuple[Tree, Certificate]:
    """The one-leaf tree on ``(X, y)`` and its honest certificate, for a setup stopped by ``status``.

    The leaf predicts the class the objective's labelling rule picks for all the rows; its
    objective is exact. The lower bound is the one every tree meets: λ (one leaf at least)
    under the leaf penalty, 0 under the split penalty.

    Examples
    --------
    >>> import pandas as pd
    >>> tree, certificate = single_leaf(pd.DataFrame({"x": [1, 2, 3, 4]}), ["a", "b", "b", "b"],
    ...                                 regularization=0.1, status="time_limit", elapsed=1.0)
    >>> print(tree.rules())
    predict b  (counts: a=1, b=3)
    >>> certificate.objective, certificate.lower_bound, round(certificate.gap, 6), certificate.optimal
    (0.35, 0.1, 0.25, False)
    """
    labels = np.asarray(y).ravel()
    check_labels(labels)
    loss_function = get_objective(objective, omega=omega, theta=theta)
    classes, counts = np.unique(labels, return_counts=True)
    table = counts.astype(float).reshape(1, -1)
    prediction = int(loss_function.leaf_predictions(table)[0])
    loss = float(loss_function.tree_loss(table, predictions=np.array([prediction])))
    tree = Tree(Leaf(prediction, tuple(int(c) for c in counts), loss), [], classes,
                columns_in=[str(c) for c in getattr(X, "columns", [])] or None)
    lower = float(regularization) if penalty == "leaf" else 0.0
    value = loss + (float(regularization) if penalty == "leaf" else 0.0)
    return tree, Certificate(status=status, optimal=False, objective=value, lower_bound=lower, upper_bound=value,
                             gap=value - lower, regularization=float(regularization), penalty=penalty,
                             loss=loss_function.name, solver="none", time=float(elapsed), n_steps=0)

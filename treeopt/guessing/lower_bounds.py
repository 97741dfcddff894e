"""Lower-bound guessing inputs (McTavish et al., AAAI 2022, section 4.3).

The guessed lower bound of a subproblem ``s_a`` is the reference model's loss
on it plus λ (equation 4). GOSDT reads it from per-point, per-class error
weights (``GOSDT(reference_errors=...)``): entry ``[u, c]`` is the weight of
the training rows of equivalence class ``u`` with label ``c`` that the
reference model gets wrong. Keeping the class separate lets the solver weigh
the errors by the objective's class costs (balanced and weighted accuracy), and
lets two rows of the same point disagree with the reference model.
"""

from __future__ import annotations

import numpy as np

from ..data import Dataset

__all__ = ["reference_errors", "class_index"]


def class_index(dataset: Dataset, labels, what: str = "y") -> np.ndarray:
    """Index in ``dataset.classes`` of every label; ``ValueError`` naming ``what`` for unknown labels.

    Examples
    --------
    >>> ds = Dataset.from_binary([[0], [1]], ["no", "yes"])
    >>> class_index(ds, ["yes", "no", "yes"]).tolist()
    [1, 0, 1]
    """
    labels = np.asarray(labels)
    if labels.ndim == 2 and 1 in labels.shape:
        labels = labels.ravel()
    lookup = {c: k for k, c in enumerate(dataset.classes.tolist())}
    try:
        return np.array([lookup[v] for v in labels.tolist()], dtype=np.int64)
    except KeyError as error:
        raise ValueError(f"{what} has the label {error.args[0]!r}, which is not among the training classes "
                         f"{dataset.classes.tolist()}.") from None


def reference_errors(dataset: Dataset, y, y_ref, sample_weight=None) -> np.ndarray:
    """Weight of the rows a reference model misclassifies, per point and true class.

    Parameters
    ----------
    dataset : Dataset
        The training data the solver will search (its ``row_point`` maps rows to points).
    y : array_like of shape (n_rows,)
        True labels of the training rows (as given to the dataset).
    y_ref : array_like of shape (n_rows,)
        The reference model's predicted labels for the same rows.
    sample_weight : array_like of shape (n_rows,), optional
        The row weights the dataset was built with (default 1).

    Returns
    -------
    ndarray of shape (n_points, n_classes)
        Pass it as ``GOSDT(..., reference_errors=...)``.

    Raises
    ------
    ValueError
        When the lengths differ or ``y_ref`` has labels outside the training classes.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0], [0], [1], [1]])
    >>> ds = Dataset.from_binary(X, [0, 1, 1, 1])
    >>> reference_errors(ds, [0, 1, 1, 1], [0, 0, 1, 0]).tolist()   # point 0: the row of class 1 is wrong
    [[0.0, 1.0], [0.0, 1.0]]
    """
    y_index = class_index(dataset, y, "y")
    if len(y_index) != dataset.n_rows:
        raise ValueError(f"y has {len(y_index)} labels but the dataset has {dataset.n_rows} rows.")
    ref_values = np.asarray(y_ref)
    if ref_values.ndim == 2 and 1 in ref_values.shape:
        ref_values = ref_values.ravel()
    if ref_values.shape != (dataset.n_rows,):
        raise ValueError(f"y_ref has shape {ref_values.shape}; it needs one reference prediction per training row "
                         f"({dataset.n_rows}).")
    ref_index = class_index(dataset, ref_values, "y_ref")
    weights = np.ones(dataset.n_rows) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    wrong = ref_index != y_index
    errors = np.zeros((dataset.n_points, dataset.n_classes))
    np.add.at(errors, (dataset.row_point[wrong], y_index[wrong]), weights[wrong])
    return errors

"""The boosted reference model of guessing, built defensively.

McTavish et al. (AAAI 2022), section 4, use a gradient-boosted tree ensemble
(scikit-learn's ``GradientBoostingClassifier``) as the model whose accuracy
the optimal tree should match. We pass only the parameters that have been
stable across scikit-learn versions (``n_estimators``, ``max_depth``,
``learning_rate``, ``random_state``) and leave ``loss`` at its default
(``"log_loss"``; the old name ``"deviance"`` was removed in scikit-learn 1.3
and broke gosdt-guesses).

The booster sees numeric columns as they are and categorical columns one-hot
encoded (one 0/1 column per value), so each of its splits maps back to a
:class:`~treeopt.binarize.BinaryFeature` of the original table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..binarize import Binarizer, as_frame, is_binary_numeric

__all__ = ["make_reference_model", "ReferenceInput", "fit_reference_model"]


def make_reference_model(*, n_estimators: int = 40, max_depth: int = 1, learning_rate: float = 0.1,
                         random_state=None):
    """A ``GradientBoostingClassifier`` with only version-stable parameters.

    Parameters
    ----------
    n_estimators : int, default=40
        Number of boosting stages (weak classifiers).
    max_depth : int, default=1
        Depth of each weak classifier (1 = stumps).
    learning_rate : float, default=0.1
    random_state : int, RandomState or None, default=None
        Fix it for reproducible thresholds.

    Returns
    -------
    sklearn.ensemble.GradientBoostingClassifier
        Unfitted.

    Examples
    --------
    >>> model = make_reference_model(n_estimators=20, max_depth=3, random_state=0)
    >>> model.n_estimators, model.max_depth, model.loss
    (20, 3, 'log_loss')
    """
    from sklearn.ensemble import GradientBoostingClassifier

    return GradientBoostingClassifier(n_estimators=n_estimators, max_depth=max_depth,
                                      learning_rate=learning_rate, random_state=random_state)


@dataclass
class ReferenceInput:
    """How a table is shown to the booster: numeric columns raw, categorical columns one-hot.

    Attributes
    ----------
    columns : list of tuple
        One ``(column name, column index, kind, value)`` per booster input
        column; ``kind`` is ``"numeric"``, ``"binary"`` (a 0/1 column) or
        ``"category"`` (indicator of ``value``).

    Examples
    --------
    >>> X = pd.DataFrame({"age": [20, 30, 40], "color": ["red", "blue", "red"]})
    >>> spec = ReferenceInput.fit(X)
    >>> [c[2] for c in spec.columns]
    ['numeric', 'category', 'category']
    >>> spec.transform(X).tolist()
    [[20.0, 0.0, 1.0], [30.0, 1.0, 0.0], [40.0, 0.0, 1.0]]
    """

    columns: list

    @classmethod
    def fit(cls, X, categorical_features="auto") -> "ReferenceInput":
        """Learn the input columns of table ``X`` (categorical columns as in :class:`Binarizer`)."""
        frame = as_frame(X)
        categorical = Binarizer(categorical_features=categorical_features)._categorical_columns(frame)
        columns = []
        for index, column in enumerate(frame.columns):
            name = str(column)
            values = frame[column].to_numpy()
            if name in categorical:
                for feature in Binarizer._category_features(name, index, values):
                    columns.append((name, index, "category", feature.value))
            elif is_binary_numeric(values):
                columns.append((name, index, "binary", 1))
            else:
                try:
                    values.astype(float)
                except (TypeError, ValueError) as error:
                    raise TypeError(f"column {name!r} is neither numeric nor categorical: {error}") from None
                columns.append((name, index, "numeric", None))
        return cls(columns)

    def transform(self, X) -> np.ndarray:
        """The booster's float matrix for table ``X``."""
        frame = as_frame(X)
        out = np.empty((len(frame), len(self.columns)), dtype=float)
        for k, (_, index, kind, value) in enumerate(self.columns):
            values = frame.iloc[:, index].to_numpy()
            if kind == "category":
                out[:, k] = values == value
            elif kind == "binary":
                out[:, k] = values.astype(float) == 1
            else:
                out[:, k] = values.astype(float)
        return out


def fit_reference_model(X, y, sample_weight=None, *, n_estimators: int = 40, max_depth: int = 1,
                        learning_rate: float = 0.1, random_state=None, categorical_features="auto"):
    """Fit the boosted reference model on a table; return it, its input encoding and its training predictions.

    Parameters
    ----------
    X : array_like or DataFrame
    y : array_like
    sample_weight : array_like, optional
    n_estimators, max_depth, learning_rate, random_state
        See :func:`make_reference_model`.
    categorical_features : "auto" or list of str, default="auto"

    Returns
    -------
    model : GradientBoostingClassifier
    encoding : ReferenceInput
    predictions : ndarray
        The model's labels for the rows of ``X``.

    Examples
    --------
    >>> X = pd.DataFrame({"x": [1, 2, 3, 4, 5, 6]})
    >>> model, encoding, pred = fit_reference_model(X, [0, 0, 0, 1, 1, 1], random_state=0)
    >>> pred.tolist()
    [0, 0, 0, 1, 1, 1]
    """
    y = np.asarray(y)
    if len(np.unique(y)) < 2:
        raise ValueError("y has a single class; the boosted reference model needs at least two classes.")
    encoding = ReferenceInput.fit(X, categorical_features)
    matrix = encoding.transform(X)
    model = make_reference_model(n_estimators=n_estimators, max_depth=max_depth, learning_rate=learning_rate,
                                 random_state=random_state)
    model.fit(matrix, y, sample_weight=sample_weight)
    return model, encoding, model.predict(matrix)

"""scikit-learn's input validation for estimators that read a table through a :class:`~treeopt.Binarizer`.

The estimators (:class:`~treeopt.OptimalTreeClassifier`, the greedy trees) validate ``X`` and ``y``
with scikit-learn's ``validate_data``, which records ``n_features_in_`` and ``feature_names_in_`` at
``fit`` and checks them at ``predict``. A DataFrame is kept as it is: the binarizer reads it column
by column, with each column's own dtype (numbers, booleans, strings, ``category``), and refuses
what it cannot read with a message naming the column. ``check_array`` would instead convert the
whole frame to one numpy array, which fails on a frame of boolean and ``category`` columns (pandas
cannot cast the categories to the floats the booleans call for); so a DataFrame passes through
``validate_data(..., skip_check_array=True)``, scikit-learn's own switch for estimators that read
frames themselves. Anything else is checked by ``check_array`` with ``dtype=None`` (strings stay
strings) and NaN allowed through to the binarizer, which refuses it unless ``missing="indicator"``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.utils.validation import check_consistent_length, column_or_1d, validate_data

__all__ = ["validate_fit_input", "validate_predict_input", "check_labels"]


def validate_fit_input(estimator, X, y) -> tuple:
    """Validate ``(X, y)`` for ``fit``; return ``(table, y)``, ``y`` a one-dimensional array.

    Records ``n_features_in_`` (and ``feature_names_in_`` for string column names) on
    ``estimator``. ``table`` is ``X`` itself when it is a DataFrame, else the validated array.

    Parameters
    ----------
    estimator : BaseEstimator
    X : array_like or DataFrame of shape (n_samples, n_features)
    y : array_like of shape (n_samples,)
        None is refused with scikit-learn's message when the estimator requires ``y``.

    Returns
    -------
    table : DataFrame or ndarray
    y : ndarray of shape (n_samples,)

    Examples
    --------
    >>> from treeopt import GreedyTreeClassifier
    >>> X = pd.DataFrame({"member": [True, False, True], "size": pd.Categorical(["S", "M", "S"])})
    >>> clf = GreedyTreeClassifier()
    >>> table, y = validate_fit_input(clf, X, ["a", "b", "a"])
    >>> table is X, clf.n_features_in_, clf.feature_names_in_.tolist(), y.tolist()
    (True, 2, ['member', 'size'], ['a', 'b', 'a'])
    """
    if isinstance(X, pd.DataFrame):
        repeated = X.columns[X.columns.duplicated()]
        if len(repeated):
            raise ValueError(f"X has duplicate column names {sorted({str(c) for c in repeated})}; rename or drop "
                             "the repeated columns (a tree names its splits by column).")
        validate_data(estimator, X, y, skip_check_array=True)
        _check_frame(estimator, X)
        y = column_or_1d(y, warn=True)
        check_consistent_length(X, y)
        return X, y
    X, y = validate_data(estimator, X, y, dtype=None, ensure_all_finite=False)
    return X, np.asarray(y)


def validate_predict_input(estimator, X):
    """Validate ``X`` for ``predict`` against what ``fit`` recorded; return the table to binarize.

    Parameters
    ----------
    estimator : BaseEstimator
        Fitted: its ``n_features_in_`` (and ``feature_names_in_``) are checked.
    X : array_like or DataFrame of shape (n_samples, n_features)

    Returns
    -------
    DataFrame or ndarray
        ``X`` itself when it is a DataFrame; else the validated array, as a DataFrame under the fitted
        names when the estimator was fitted on named columns.

    Examples
    --------
    >>> from treeopt import GreedyTreeClassifier
    >>> clf = GreedyTreeClassifier().fit([[0.0, 1.0], [1.0, 0.0]], [0, 1])
    >>> validate_predict_input(clf, [[1.0, 2.0, 3.0]])
    Traceback (most recent call last):
    ...
    ValueError: X has 3 features, but GreedyTreeClassifier is expecting 2 features as input.
    """
    if isinstance(X, pd.DataFrame):
        validate_data(estimator, X, skip_check_array=True, reset=False)
        return _check_frame(estimator, X)
    array = validate_data(estimator, X, dtype=None, ensure_all_finite=False, reset=False)
    names = getattr(estimator, "feature_names_in_", None)
    if names is not None:
        # Fitted on named columns: scikit-learn has just warned that an array is read by position; the
        # tree then reads it under the fitted names, so it does not warn a second time.
        return pd.DataFrame(array, columns=list(names))
    return array


def _check_frame(estimator, X: pd.DataFrame) -> pd.DataFrame:
    """What ``check_array`` refuses in a frame before reading its values, with its messages: no rows,
    no columns, complex numbers (the binarizer refuses the other values it cannot read)."""
    name = type(estimator).__name__
    for axis, what in ((0, "sample"), (1, "feature")):
        if X.shape[axis] < 1:
            raise ValueError(f"Found array with 0 {what}(s) (shape={X.shape}) while a minimum of 1 is required "
                             f"by {name}.")
    complex_columns = [str(c) for c, dtype in X.dtypes.items() if pd.api.types.is_complex_dtype(dtype)]
    if complex_columns:
        raise ValueError(f"Complex data not supported: columns {complex_columns} of X hold complex numbers; "
                         "split them into real columns (e.g. real and imaginary parts).")
    return X


def check_labels(y, *, single_class: bool = False) -> None:
    """Refuse labels a classifier cannot learn from: missing values, or a single class.

    Parameters
    ----------
    y : array_like
    single_class : bool, default=False
        Accept labels of one class (for a search whose answer is then the single leaf, such as the
        frontier's one-leaf frontier).

    Examples
    --------
    >>> check_labels(np.array([0, 0]))
    Traceback (most recent call last):
    ...
    ValueError: y has only one class ([0]); a classifier needs at least two classes to learn anything.
    >>> check_labels(np.array([0, 0]), single_class=True)
    """
    y = np.asarray(y)
    if pd.isna(y).any():
        raise ValueError("y has missing values (NaN); drop those rows or fill them in.")
    try:
        classes = np.unique(y)
    except TypeError:                     # labels that cannot be ordered, e.g. 1 and "1" together
        kinds = sorted({type(value).__name__ for value in y.ravel().tolist()})
        raise ValueError(f"y mixes label types {kinds}, which cannot be ordered into classes; convert the "
                         "labels to one type first (for example y.astype(str)).") from None
    if len(classes) < 2 and not single_class:
        raise ValueError(f"y has only one class ({classes.tolist()}); a classifier needs at least "
                         "two classes to learn anything.")

"""Turning a table of binary, categorical and numeric columns into binary features.

Every optimal-tree solver in treeopt works on binary features. This module
turns the user's columns into them and remembers how, so that a fitted tree
predicts on the original table:

* a binary column (two distinct values, e.g. 0/1 or ``True``/``False``) stays
  one feature, true for its larger value;
* a categorical column (strings, ``category`` dtype, booleans as strings)
  becomes one feature per value, named ``color = red``;
* a numeric column becomes one threshold feature ``x <= t`` for every midpoint
  ``t`` between adjacent distinct values. Using *all* midpoints preserves
  optimality (GOSDT paper, section 3: a coarser binarization can lose the
  optimal tree). ``thresholds="quantile"`` with ``max_thresholds=k`` caps the
  count per column.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

__all__ = ["BinaryFeature", "Binarizer", "format_threshold"]


def format_threshold(value: float) -> str:
    """Format a threshold for display with the fewest digits that still read well.

    Parameters
    ----------
    value : float
        The exact threshold.

    Returns
    -------
    str
        A short representation (``26.5`` rather than ``26.499999523``).

    Examples
    --------
    >>> format_threshold(26.5)
    '26.5'
    >>> format_threshold(0.30000000000000004)
    '0.3'
    """
    value = float(value)
    for digits in range(0, 13):
        if abs(round(value, digits) - value) <= 1e-9 * max(1.0, abs(value)):
            text = f"{value:.{digits}f}"
            return text.rstrip("0").rstrip(".") if "." in text else text
    return repr(value)


@dataclass(frozen=True)
class BinaryFeature:
    """One binary feature and how it is computed from an original column.

    Parameters
    ----------
    column : str
        Name of the original column.
    column_index : int
        Position of the original column in the fitted table.
    kind : {"binary", "category", "threshold"}
        ``binary``: true when the column equals ``value``; ``category``: true
        when the column equals ``value`` (one feature per category);
        ``threshold``: true when the column is ``<= value``.
    value : object
        The category, the true value of a binary column, or the threshold.
    name : str
        Display name, e.g. ``age <= 26.5`` or ``color = red``.

    Examples
    --------
    >>> f = BinaryFeature("age", 0, "threshold", 26.5, "age <= 26.5")
    >>> f.evaluate(np.array([20, 30])).tolist()
    [True, False]
    >>> f.negated_name
    'age > 26.5'
    """

    column: str
    column_index: int
    kind: str
    value: Any
    name: str

    def evaluate(self, values: np.ndarray) -> np.ndarray:
        """Return the feature's boolean value for an array of original values."""
        values = np.asarray(values)
        if self.kind == "threshold":
            return values.astype(float) <= self.value
        return values == self.value

    @property
    def negated_name(self) -> str:
        """Display name of the feature being false (``age > 26.5``, ``color != red``)."""
        if self.kind == "threshold":
            return f"{self.column} > {format_threshold(self.value)}"
        if self.kind in ("category", "binary") and " = " in self.name:
            return self.name.replace(" = ", " != ", 1)
        return f"not ({self.name})"


def _is_binary_numeric(values: np.ndarray) -> bool:
    uniq = np.unique(values)
    return len(uniq) <= 2 and set(uniq.tolist()) <= {0, 1, 0.0, 1.0, True, False}


class Binarizer(TransformerMixin, BaseEstimator):
    """Binarize a table: one-hot categoricals, threshold features for numbers.

    Parameters
    ----------
    thresholds : {"all", "quantile"}, default="all"
        ``"all"``: every midpoint between adjacent distinct values of a numeric
        column (optimality-preserving). ``"quantile"``: at most
        ``max_thresholds`` midpoints per column, chosen at evenly spaced
        quantiles of the distinct values.
    max_thresholds : int or None, default=None
        Cap on threshold features per numeric column. With ``thresholds="all"``
        and a cap, the quantile rule is used for columns above the cap.
    categorical_features : "auto" or list of str, default="auto"
        Which columns to one-hot encode. ``"auto"``: object, string,
        ``category`` and boolean-like string columns.

    Attributes
    ----------
    features_ : list of BinaryFeature
        The binary features, in output column order.
    feature_names_in_ : ndarray of str
        Original column names (``x0, x1, ...`` for arrays).
    n_features_in_ : int
        Number of original columns.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"age": [20, 30, 40], "color": ["red", "blue", "red"]})
    >>> b = Binarizer().fit(X)
    >>> list(b.get_feature_names_out())
    ['age <= 25', 'age <= 35', 'color = blue', 'color = red']
    >>> b.transform(X).astype(int).tolist()
    [[1, 1, 0, 1], [0, 1, 1, 0], [0, 0, 0, 1]]
    """

    def __init__(self, *, thresholds: str = "all", max_thresholds: int | None = None,
                 categorical_features: str | Sequence[str] = "auto"):
        self.thresholds = thresholds
        self.max_thresholds = max_thresholds
        self.categorical_features = categorical_features

    # -- fitting --------------------------------------------------------------
    def fit(self, X, y=None):
        """Learn the binary features of ``X``.

        Raises
        ------
        ValueError
            On an empty table, missing values, or an unknown ``thresholds``.
        TypeError
            On a column that is neither numeric nor categorical.
        """
        if self.thresholds not in ("all", "quantile"):
            raise ValueError(
                f"thresholds={self.thresholds!r} is not supported; use 'all' or 'quantile' "
                "(threshold guessing lives in treeopt.ThresholdGuessBinarizer).")
        if self.max_thresholds is not None and int(self.max_thresholds) < 1:
            raise ValueError(f"max_thresholds must be a positive integer or None, got {self.max_thresholds!r}.")
        frame = _as_frame(X)
        self.feature_names_in_ = np.asarray([str(c) for c in frame.columns], dtype=object)
        self.n_features_in_ = frame.shape[1]
        categorical = self._categorical_columns(frame)
        features: list[BinaryFeature] = []
        for index, column in enumerate(frame.columns):
            name = str(column)
            values = frame[column].to_numpy()
            if name in categorical:
                features.extend(self._category_features(name, index, values))
            elif _is_binary_numeric(values):
                features.append(BinaryFeature(name, index, "binary", 1, name))
            else:
                features.extend(self._threshold_features(name, index, values))
        self.features_ = features
        return self

    def _categorical_columns(self, frame: pd.DataFrame) -> set[str]:
        if self.categorical_features != "auto":
            missing = set(self.categorical_features) - {str(c) for c in frame.columns}
            if missing:
                raise ValueError(f"categorical_features names columns that do not exist: {sorted(missing)}.")
            return set(self.categorical_features)
        chosen = set()
        for column in frame.columns:
            series = frame[column]
            if (pd.api.types.is_bool_dtype(series) or pd.api.types.is_numeric_dtype(series)) \
                    and not isinstance(series.dtype, pd.CategoricalDtype):
                continue
            if pd.api.types.is_object_dtype(series) and not isinstance(series.dtype, pd.CategoricalDtype):
                odd = [v for v in series.tolist() if not isinstance(v, _CATEGORY_VALUE_TYPES)]
                if odd:
                    raise TypeError(
                        f"column {column!r} holds {type(odd[0]).__name__} values such as {odd[0]!r}, which are "
                        "neither numbers nor categories; convert them to numbers or to strings before fitting.")
            if isinstance(series.dtype, pd.CategoricalDtype) or pd.api.types.is_object_dtype(series) \
                    or pd.api.types.is_string_dtype(series):
                chosen.add(str(column))
                continue
            raise TypeError(
                f"column {column!r} has dtype {series.dtype}, which is neither numeric nor "
                "categorical; convert it to numbers or to strings/category before fitting.")
        return chosen

    @staticmethod
    def _category_features(name: str, index: int, values: np.ndarray) -> list[BinaryFeature]:
        categories = sorted(set(values.tolist()), key=lambda v: (str(type(v)), str(v)))
        return [BinaryFeature(name, index, "category", value, f"{name} = {value}") for value in categories]

    def _threshold_features(self, name: str, index: int, values: np.ndarray) -> list[BinaryFeature]:
        try:
            numbers = values.astype(float)
        except (TypeError, ValueError) as error:
            raise TypeError(f"column {name!r} is neither numeric nor categorical: {error}") from None
        distinct = np.unique(numbers)
        midpoints = (distinct[:-1] + distinct[1:]) / 2.0
        cap = self.max_thresholds
        if cap is None and self.thresholds == "quantile":
            cap = 10
        if cap is not None and len(midpoints) > cap:
            picks = np.unique(np.round(np.linspace(0, len(midpoints) - 1, int(cap))).astype(int))
            midpoints = midpoints[picks]
        return [BinaryFeature(name, index, "threshold", float(t), f"{name} <= {format_threshold(float(t))}")
                for t in midpoints]

    # -- transforming ---------------------------------------------------------
    def transform(self, X) -> np.ndarray:
        """Return the boolean matrix of the binary features (rows × features)."""
        check_is_fitted(self, "features_")
        frame = _as_frame(X)
        if frame.shape[1] != self.n_features_in_:
            raise ValueError(
                f"X has {frame.shape[1]} columns but the binarizer was fitted on {self.n_features_in_}.")
        out = np.zeros((len(frame), len(self.features_)), dtype=bool)
        columns = [frame.iloc[:, i].to_numpy() for i in range(frame.shape[1])]
        for j, feature in enumerate(self.features_):
            out[:, j] = feature.evaluate(columns[feature.column_index])
        return out

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """Display names of the binary features, in output order."""
        check_is_fitted(self, "features_")
        return np.asarray([f.name for f in self.features_], dtype=object)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.string = True
        tags.input_tags.categorical = True
        return tags


#: Values an object column may hold to be one-hot encoded as categories.
_CATEGORY_VALUE_TYPES = (str, bytes, bool, int, float, np.bool_, np.integer, np.floating, np.str_)


def _as_frame(X) -> pd.DataFrame:
    """Wrap ``X`` as a DataFrame, naming array columns ``x0, x1, ...``."""
    if isinstance(X, pd.DataFrame):
        frame = X
    else:
        array = np.asarray(X, dtype=object if not _is_numeric_array(X) else None)
        if array.ndim != 2:
            raise ValueError(f"X must be 2-dimensional (rows × columns), got shape {array.shape}.")
        frame = pd.DataFrame(array, columns=[f"x{i}" for i in range(array.shape[1])])
    if frame.shape[0] == 0 or frame.shape[1] == 0:
        raise ValueError(f"X is empty (shape {frame.shape}); give at least one row and one column.")
    if frame.isna().to_numpy().any():
        bad = [str(c) for c in frame.columns if frame[c].isna().any()]
        raise ValueError(f"X has missing values (NaN) in columns {bad}; impute or drop them before fitting.")
    infinite = [str(c) for c in frame.columns if pd.api.types.is_float_dtype(frame[c]) and np.isinf(frame[c]).any()]
    if infinite:
        raise ValueError(f"X has infinite values in columns {infinite}; clip or drop them before fitting.")
    return frame


def _is_numeric_array(X) -> bool:
    try:
        array = np.asarray(X)
    except Exception:  # pragma: no cover - exotic inputs
        return False
    return array.dtype.kind in "biuf"

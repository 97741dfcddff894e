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
  count per column. Integers are compared as integers and floats in float64,
  and ``t`` is printed as exactly the number compared with
  (:mod:`treeopt.numeric_thresholds`);
* a fitted binarizer reads a table by column name when it was fitted on a
  DataFrame, by position when fitted on an array
  (:func:`treeopt.table_columns.read_columns`);
* missing values (NaN, None, ``pd.NA``) are an error by default;
  ``missing="indicator"`` adds a feature ``x is missing`` to each column that
  has them (see :class:`Binarizer`, "Missing values").
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from dataclasses import dataclass
from typing import Any, Iterator, NamedTuple, Sequence

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from .numeric_thresholds import exact_numbers, less_equal, threshold_array, threshold_text, thresholds_between
from .setup_signals import answer_lost_signals
from .table_columns import FittedColumns, read_columns, table_array

__all__ = ["BinaryFeature", "Binarizer", "as_frame", "is_binary_numeric", "format_threshold", "format_thresholds",
           "name_features", "split_points", "is_missing_value", "missing_mask", "check_missing_policy",
           "MISSING_POLICIES", "BinarizationTimeout", "binarization_deadline", "check_deadline"]

#: Values of the ``missing`` option of :class:`Binarizer` (and of the estimators).
MISSING_POLICIES = ("error", "indicator")

#: ``(deadline, time_limit)`` of the running setup, or None: set by :func:`binarization_deadline`.
_DEADLINE: contextvars.ContextVar = contextvars.ContextVar("treeopt_binarization_deadline", default=None)


class BinarizationTimeout(TimeoutError):
    """``time_limit`` ran out while binarizing, before any search started (so no tree exists yet)."""


@contextlib.contextmanager
def binarization_deadline(time_limit: float | None) -> Iterator[None]:
    """Make every binarization inside the block stop once ``time_limit`` seconds have passed.

    The estimators and :func:`treeopt.frontier` count their setup against ``time_limit``; this
    cuts a long binarization short (between columns and between blocks of thresholds) with a
    :class:`BinarizationTimeout` that names the fix, instead of finishing it past the limit.

    Examples
    --------
    >>> import numpy as np
    >>> with binarization_deadline(60.0):
    ...     Binarizer().fit_transform(np.array([[0.5], [1.5], [2.5]])).shape
    (3, 2)
    """
    if time_limit is None:
        yield
        return
    token = _DEADLINE.set((time.perf_counter() + time_limit, time_limit))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def _check_deadline(where: str) -> None:
    """Raise :class:`BinarizationTimeout` if the running setup is past its deadline, and a Ctrl-C that
    was swallowed on its way out (:func:`treeopt.setup_signals.answer_lost_signals`)."""
    answer_lost_signals()
    deadline = _DEADLINE.get()
    if deadline is not None and time.perf_counter() > deadline[0]:
        raise BinarizationTimeout(
            f"time_limit={deadline[1]:g} s ran out while binarizing ({where}), "
            "before the search started. Raise time_limit, or binarize less: "
            "max_thresholds=k, thresholds='quantile' or thresholds='guess'.")


#: The setup's deadline check, for the other steps of a setup (threshold guessing) to call between theirs.
check_deadline = _check_deadline


def is_missing_value(value: Any) -> bool:
    """Whether one original value is missing (``None``, NaN, ``pd.NA``, ``NaT``).

    Examples
    --------
    >>> [is_missing_value(v) for v in (None, float("nan"), pd.NA, 0.0, "nan")]
    [True, True, True, False, False]
    """
    return bool(pd.api.types.is_scalar(value) and pd.isna(value)) or value is None


def missing_mask(values: np.ndarray) -> np.ndarray:
    """Boolean mask of the missing entries of a 1-d array of original values.

    Examples
    --------
    >>> missing_mask(np.array([1.0, np.nan, 3.0])).tolist()
    [False, True, False]
    """
    return np.asarray(pd.isna(np.asarray(values)), dtype=bool).reshape(-1)


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
    return format_thresholds([value])[0]


def format_thresholds(values) -> list[str]:
    """:func:`format_threshold` of many values at once (one numpy pass per number of digits).

    A column of a few hundred thresholds is formatted in about a millisecond, so that
    binarizing 15,000 thresholds does not spend a tenth of a second on their names.

    Examples
    --------
    >>> format_thresholds([26.5, 0.30000000000000004, 3.0, 1 / 3])
    ['26.5', '0.3', '3', '0.333333333']
    """
    values = np.asarray(values, dtype=float).reshape(-1)
    digits = np.full(len(values), -1)
    tolerance = 1e-9 * np.maximum(1.0, np.abs(values))
    with np.errstate(over="ignore", invalid="ignore"):          # huge values: rounding overflows, never close
        for d in range(0, 13):
            open_ = np.flatnonzero(digits < 0)
            if len(open_) == 0:                                 # every value has its digits: done
                break
            near = np.abs(np.round(values[open_], d) - values[open_]) <= tolerance[open_]
            digits[open_[near]] = d
    out = []
    for value, d in zip(values.tolist(), digits.tolist()):
        if d < 0:
            out.append(repr(value))
            continue
        text = f"{value:.{d}f}"
        out.append(text.rstrip("0").rstrip(".") if "." in text else text)
    return out


def name_features(features) -> None:
    """Give every threshold feature still without a name its name, ``column <= t``, with ``t`` exact.

    :class:`BinaryFeature` names a threshold when its name is first read (a binarization with
    every threshold makes thousands of features and reads few names); the number is
    :func:`~treeopt.numeric_thresholds.threshold_text` of the compared value, so it reads back
    as exactly that value.

    Examples
    --------
    >>> features = [BinaryFeature("x", 0, "threshold", t, None) for t in (0.5, 1.25)]
    >>> name_features(features)
    >>> [f.name for f in features]
    ['x <= 0.5', 'x <= 1.25']
    """
    unnamed = [f.__dict__ for f in features if "name" not in f.__dict__]
    if not unnamed:
        return
    for fields in unnamed:
        fields["name"] = f"{fields['column']} <= {threshold_text(fields['value'])}"


def split_points(lower, upper) -> np.ndarray:
    """The float64 thresholds between adjacent distinct values (:func:`~treeopt.numeric_thresholds.thresholds_between`).

    Each is the midpoint in its shortest decimal that still lies in ``[lower, upper)``, so the
    printed rule ``x <= 1.68`` is exactly the test :meth:`BinaryFeature.evaluate` makes.

    Parameters
    ----------
    lower, upper : array-like of float
        Adjacent distinct values, ``lower < upper`` elementwise.

    Returns
    -------
    ndarray of float64

    Examples
    --------
    >>> split_points([-1.86, 2.0], [-1.5, 3.0]).tolist()
    [-1.68, 2.5]
    """
    return np.asarray(thresholds_between(np.asarray(lower, dtype=float), np.asarray(upper, dtype=float)),
                      dtype=float)


@dataclass(frozen=True, init=False)
class BinaryFeature:
    """One binary feature and how it is computed from an original column.

    Parameters
    ----------
    column : str
        Name of the original column.
    column_index : int
        Position of the original column in the fitted table.
    kind : {"binary", "category", "threshold", "missing"}
        ``binary``: true when the column equals ``value``; ``category``: true
        when the column equals ``value`` (one feature per category);
        ``threshold``: true when the column is ``<= value``; ``missing``:
        true when the value is missing (NaN, None, ``pd.NA``; ``value`` is
        None). A missing value is false on every other kind.
    value : object
        The category, the true value of a binary column, or the threshold.
    name : str or None
        Display name, e.g. ``age <= 26.5``, ``color = red`` or ``age is missing``.
        None for a threshold: named ``column <= value`` when the name is first read, with the
        value written exactly (:func:`~treeopt.numeric_thresholds.threshold_text`).
    has_missing : bool, default=False
        The column had missing values when the binarizer was fitted. They
        evaluate false, so a threshold's false side is displayed as
        ``age > 26.5 or age is missing``.

    Examples
    --------
    >>> f = BinaryFeature("age", 0, "threshold", 26.5, "age <= 26.5")
    >>> f.evaluate(np.array([20, 30])).tolist()
    [True, False]
    >>> f.negated_name
    'age > 26.5'

    Missing values are false on a threshold (and true on the indicator):

    >>> g = BinaryFeature("age", 0, "threshold", 26.5, "age <= 26.5", has_missing=True)
    >>> g.evaluate(np.array([20, np.nan])).tolist(), g.negated_name
    ([True, False], 'age > 26.5 or age is missing')
    >>> BinaryFeature("age", 0, "missing", None, "age is missing").evaluate(np.array([20, np.nan])).tolist()
    [False, True]

    A threshold named when the name is first read, with its exact value; integers compare exactly:

    >>> BinaryFeature("age", 0, "threshold", 26.500001, None).name
    'age <= 26.500001'
    >>> BinaryFeature("id", 0, "threshold", 2**62, None).evaluate(np.array([2**62, 2**62 + 1])).tolist()
    [True, False]
    """

    column: str
    column_index: int
    kind: str
    value: Any
    name: str
    has_missing: bool = False

    def __init__(self, column: str, column_index: int, kind: str, value: Any, name: str | None,
                 has_missing: bool = False):
        # The fields go straight into the instance's dict: a frozen dataclass's own __init__ sets
        # each through object.__setattr__, twice as slow, and an all-threshold binarization makes
        # one feature per threshold (thousands on a wide numeric table). Still frozen afterwards.
        fields = self.__dict__
        fields["column"], fields["column_index"], fields["kind"] = column, column_index, kind
        fields["value"], fields["has_missing"] = value, has_missing
        if name is not None:
            fields["name"] = name
        elif kind != "threshold":
            raise ValueError(f"a {kind!r} feature needs a name; only thresholds are named by their value.")

    @classmethod
    def thresholds(cls, column: str, column_index: int, values: list,
                   has_missing: bool = False) -> list["BinaryFeature"]:
        """The threshold features ``column <= value`` of one numeric column, named when first read:
        ``BinaryFeature(column, column_index, "threshold", value, None, has_missing)`` for each, made
        faster by filling each instance's dict directly (an all-threshold binarization makes one per
        threshold).

        Examples
        --------
        >>> [f.name for f in BinaryFeature.thresholds("x", 0, [1.5, 2.5])]
        ['x <= 1.5', 'x <= 2.5']
        """
        new, made = object.__new__, []
        for value in values:
            feature = new(cls)
            fields = feature.__dict__
            fields["column"], fields["column_index"], fields["kind"] = column, column_index, "threshold"
            fields["value"], fields["has_missing"] = value, has_missing
            made.append(feature)
        return made

    def __getattr__(self, attribute: str):
        # Called only for attributes the instance lacks: a threshold's name before its first read.
        fields = self.__dict__
        if attribute != "name" or fields.get("kind") != "threshold":
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {attribute!r}")
        name_features([self])
        return fields["name"]

    def evaluate(self, values: np.ndarray) -> np.ndarray:
        """Return the feature's boolean value for an array of original values.

        A missing value (NaN, None, ``pd.NA``) is true on a ``missing``
        feature and false on every other feature.
        """
        values = np.asarray(values)
        absent = missing_mask(values) if values.dtype.kind in "fcOSUmM" else np.zeros(len(values), dtype=bool)
        if self.kind == "missing":
            return absent
        if absent.any():
            out = np.zeros(len(values), dtype=bool)
            out[~absent] = self._evaluate_present(values[~absent])
            return out
        return self._evaluate_present(values)

    def _evaluate_present(self, values: np.ndarray) -> np.ndarray:
        if self.kind == "threshold":
            return less_equal(exact_numbers(values), [self.value])[:, 0]
        return np.asarray(values == self.value, dtype=bool)

    @property
    def negated_name(self) -> str:
        """Display name of the feature being false (``age > 26.5``, ``color != red``)."""
        if self.kind == "missing":
            return f"{self.column} is not missing"
        # A missing value is false on every test but "x is missing": say so on the false side.
        either = f" or {self.column} is missing" if self.has_missing else ""
        if self.kind == "threshold":
            named = f"{self.column} <= "
            text = self.name[len(named):] if self.name.startswith(named) else threshold_text(self.value)
            return f"{self.column} > {text}{either}"
        if self.kind in ("category", "binary") and " = " in self.name:
            return self.name.replace(" = ", " != ", 1) + either
        return f"not ({self.name}){either}"


def is_binary_numeric(values: np.ndarray) -> bool:
    """Whether a column holds only 0/1 (or True/False) values, so it is a binary feature as it is.

    Examples
    --------
    >>> is_binary_numeric(np.array([0, 1, 1])), is_binary_numeric(np.array([0, 2]))
    (True, False)
    """
    values = np.asarray(values)
    if values.size == 0:
        return False
    if values.dtype.kind == "b":
        return True
    if values.dtype.kind in "iuf":                  # no sort needed: a pass over the column
        return bool(((values == 0) | (values == 1)).all())
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
    missing : {"error", "indicator"}, default="error"
        What to do with missing values (NaN, None, ``pd.NA``). ``"error"``:
        refuse them with a ``ValueError`` (impute or drop them first).
        ``"indicator"``: see "Missing values" below.

    Notes
    -----
    **Missing values** (``missing="indicator"``). Each column with missing
    values in ``fit`` gets one extra feature ``x is missing``, placed before
    the column's other features. The other features are learned from the
    present values only (thresholds are midpoints of the non-missing values;
    categories are the non-missing values, so no ``x = nan`` feature), and a
    missing value is **false on every other feature**: on a threshold
    ``x <= t`` it goes to the ``x > t`` side, unless the tree splits on
    ``x is missing`` first. The rules say so: the false branch of such a
    threshold reads ``else:  # x > t or x is missing``. A column without
    missing values in ``fit`` is binarized exactly as with ``"error"``; if it
    has a missing value at ``transform`` time, that value is false on every
    feature of the column (it follows the false branch of every test on it,
    as a training row would without the indicator). We chose this over an
    error so that one late missing value does not stop a deployed model;
    check ``X.isna()`` yourself if you want to reject such rows.

    Attributes
    ----------
    features_ : list of BinaryFeature
        The binary features, in output column order.
    feature_names_in_ : ndarray of str
        Original column names (``x0, x1, ...`` for arrays).
    n_features_in_ : int
        Number of original columns.
    fitted_columns_ : FittedColumns
        The fitted table's columns and whether they held numbers: :meth:`transform` reads a
        DataFrame by column name when fitted on one (any order; a missing, renamed or extra
        column is a ``ValueError``), a table by position when fitted on an array.

    Examples
    --------
    >>> import pandas as pd
    >>> X = pd.DataFrame({"age": [20, 30, 40], "color": ["red", "blue", "red"]})
    >>> b = Binarizer().fit(X)
    >>> list(b.get_feature_names_out())
    ['age <= 25', 'age <= 35', 'color = blue', 'color = red']
    >>> b.transform(X).astype(int).tolist()
    [[1, 1, 0, 1], [0, 1, 1, 0], [0, 0, 0, 1]]

    With missing values:

    >>> X = pd.DataFrame({"age": [20, None, 40], "color": ["red", None, "blue"]})
    >>> b = Binarizer(missing="indicator").fit(X)
    >>> list(b.get_feature_names_out())
    ['age is missing', 'age <= 30', 'color is missing', 'color = blue', 'color = red']
    >>> b.transform(X).astype(int).tolist()
    [[0, 1, 0, 0, 1], [1, 0, 1, 0, 0], [0, 0, 0, 1, 0]]
    """

    def __init__(self, *, thresholds: str = "all", max_thresholds: int | None = None,
                 categorical_features: str | Sequence[str] = "auto", missing: str = "error"):
        self.thresholds = thresholds
        self.max_thresholds = max_thresholds
        self.categorical_features = categorical_features
        self.missing = missing

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
        check_missing_policy(self.missing)
        table = _read_table(X, missing=self.missing)
        frame = table.frame
        self.feature_names_in_ = np.asarray([str(c) for c in frame.columns], dtype=object)
        self.n_features_in_ = frame.shape[1]
        self.fitted_columns_ = FittedColumns.of_table(frame, named=isinstance(X, pd.DataFrame), dtypes=table.dtypes)
        categorical = self._categorical_columns(frame, table.dtypes)
        features: list[BinaryFeature] = []
        # transform's plan (_transform_plan), made on the way: the features evaluated one by one, and
        # each numeric column's thresholds as one block.
        others, thresholds = [], {}

        def add(feature: BinaryFeature) -> None:
            others.append((len(features), feature))
            features.append(feature)

        for index, column in enumerate(frame.columns):
            _check_deadline(f"learning the features of column {index + 1} of {frame.shape[1]}")
            name = str(column)
            values = column_values(frame.iloc[:, index]) if table.columns is None else table.columns[index]
            absent = missing_mask(values)
            has_missing = bool(absent.any())
            if has_missing:
                add(BinaryFeature(name, index, "missing", None, f"{name} is missing"))
                values = values[~absent]
            if values.size == 0:
                continue
            if name in categorical:
                for feature in self._category_features(name, index, values, has_missing):
                    add(feature)
            elif is_binary_numeric(values):
                add(BinaryFeature(name, index, "binary", 1, name, has_missing))
            else:
                block, limits = self._threshold_features(name, index, values, has_missing)
                if block:
                    thresholds[index] = (list(range(len(features), len(features) + len(block))),
                                         threshold_array(limits))
                    features.extend(block)
        self.features_ = features
        self._plan = (features, others, thresholds)
        return self

    def _categorical_columns(self, frame: pd.DataFrame, dtypes: list | None = None) -> set[str]:
        if self.categorical_features != "auto":
            missing = set(self.categorical_features) - {str(c) for c in frame.columns}
            if missing:
                raise ValueError(f"categorical_features names columns that do not exist: {sorted(missing)}.")
            return set(self.categorical_features)
        chosen = set()
        for column, dtype in zip(frame.columns, frame.dtypes.tolist() if dtypes is None else dtypes):
            if (pd.api.types.is_bool_dtype(dtype) or pd.api.types.is_numeric_dtype(dtype)) \
                    and not isinstance(dtype, pd.CategoricalDtype):
                continue                            # numbers: decided by the dtype alone
            series = frame[column]
            if pd.api.types.is_object_dtype(series) and not isinstance(series.dtype, pd.CategoricalDtype):
                odd = [v for v in series.tolist()
                       if not isinstance(v, _CATEGORY_VALUE_TYPES) and not is_missing_value(v)]
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
    def _category_features(name: str, index: int, values: np.ndarray,
                           has_missing: bool = False) -> list[BinaryFeature]:
        """One feature per present category (missing values are left to the ``x is missing`` feature)."""
        present = [v for v in np.asarray(values, dtype=object).tolist() if not is_missing_value(v)]
        categories = sorted(set(present), key=lambda v: (str(type(v)), str(v)))
        return [BinaryFeature(name, index, "category", value, f"{name} = {value}", has_missing)
                for value in categories]

    def _threshold_features(self, name: str, index: int, values: np.ndarray,
                            has_missing: bool = False) -> tuple[list[BinaryFeature], np.ndarray]:
        """A numeric column's threshold features, and their values (where ``x <= value`` flips).

        Integers stay integers (:func:`~treeopt.numeric_thresholds.exact_numbers`): a cast to float64
        would merge ``2**62`` and ``2**62 + 1`` and lose the split between them.
        """
        try:
            numbers = exact_numbers(values)
        except (TypeError, ValueError) as error:
            raise TypeError(f"column {name!r} is neither numeric nor categorical: {error}") from None
        distinct = np.unique(numbers)
        lower, upper = distinct[:-1], distinct[1:]
        cap = self.max_thresholds
        if cap is None and self.thresholds == "quantile":
            cap = 10
        if cap is not None and len(lower) > cap:
            picks = np.unique(np.round(np.linspace(0, len(lower) - 1, int(cap))).astype(int))
            lower, upper = lower[picks], upper[picks]
        limits = threshold_array(thresholds_between(lower, upper)) if len(lower) else np.zeros(0)
        return BinaryFeature.thresholds(name, index, limits.tolist(), has_missing), limits

    # -- transforming ---------------------------------------------------------
    def transform(self, X) -> np.ndarray:
        """Return the boolean matrix of the binary features (rows × features)."""
        check_is_fitted(self, "features_")
        X = read_columns(X, self._fitted_columns(), reader=type(self).__name__)
        table = _read_table(X, missing=getattr(self, "missing", "error"))
        frame = table.frame
        out = np.zeros((len(frame), len(self.features_)), dtype=bool)
        columns = table.columns or [column_values(frame.iloc[:, i]) for i in range(frame.shape[1])]
        _, others, thresholds = self._transform_plan()
        for j, feature in others:
            out[:, j] = feature.evaluate(columns[feature.column_index])
        for done, (index, (js, limits)) in enumerate(thresholds.items()):
            _check_deadline(f"evaluating the thresholds of numeric column {done + 1} of {len(thresholds)}")
            _threshold_block(columns[index], limits, js, out)
        return out

    def _fitted_columns(self) -> FittedColumns:
        """``fitted_columns_``, or for a binarizer pickled by an older treeopt (without it), its
        column names, read by name unless they are an array's ``x0, x1, ...``."""
        fitted = self.__dict__.get("fitted_columns_")
        if fitted is not None:
            return fitted
        names = tuple(str(c) for c in self.feature_names_in_)
        kinds = self.__dict__.get("column_dtypes_") or [("unknown", None)] * len(names)
        return FittedColumns(names, tuple(numeric for _, numeric in kinds),
                             named=names != tuple(f"x{i}" for i in range(len(names))),
                             dtypes=tuple(dtype for dtype, _ in kinds))

    def _transform_plan(self) -> tuple:
        """How :meth:`transform` evaluates ``features_``: ``(features_, others, thresholds)``, with
        ``others`` the ``(j, feature)`` of features evaluated one by one and ``thresholds`` each numeric
        column's threshold features as ``column index -> (js, values)``, evaluated as one block.

        Made once by :meth:`fit` (with thousands of thresholds, grouping them feature by feature took
        as long as evaluating them), and again, not kept, when ``features_`` is another list.
        """
        plan = self.__dict__.get("_plan")
        if plan is not None and plan[0] is self.features_:
            return plan
        others, grouped = [], {}                    # column index -> indices of its threshold features
        for j, feature in enumerate(self.features_):
            if feature.kind == "threshold":
                grouped.setdefault(feature.column_index, []).append(j)
            else:
                others.append((j, feature))
        thresholds = {index: (js, threshold_array([self.features_[j].value for j in js]))
                      for index, js in grouped.items()}
        return self.features_, others, thresholds

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """Display names of the binary features, in output order."""
        check_is_fitted(self, "features_")
        name_features(self.features_)
        return np.asarray([f.name for f in self.features_], dtype=object)

    def __sklearn_tags__(self):
        tags = table_input_tags(super().__sklearn_tags__(), getattr(self, "missing", "error"))
        tags.transformer_tags.preserves_dtype = []          # the output is boolean, whatever the input
        return tags


#: Threshold features are evaluated in blocks of at most this many booleans (bounds the temporaries).
_BLOCK = 1 << 22


def _threshold_block(values: np.ndarray, thresholds, js: list, out: np.ndarray) -> None:
    """``out[:, js[k]] = values <= thresholds[k]`` for one column, missing values false.

    The same as :meth:`BinaryFeature.evaluate` feature by feature, with the column converted and
    its missing values found once instead of once per threshold (a column of 50,000 distinct
    values has 49,999 thresholds), in blocks of rows of at most ``_BLOCK`` booleans. Blocks of rows,
    not of thresholds: a row of the output is contiguous, so a block writes (and first touches) only
    its own rows' memory, where a block of a few columns over all rows would touch every page of a
    table of gigabytes at once. Exact for integers of any size
    (:func:`~treeopt.numeric_thresholds.less_equal`).
    """
    values = np.asarray(values)
    absent = missing_mask(values) if values.dtype.kind in "fcOSUmM" else np.zeros(len(values), dtype=bool)
    present = ~absent
    numbers = np.ascontiguousarray(exact_numbers(values[present] if absent.any() else values))
    # numbers[offsets[r]:offsets[s]] are the present values of rows r .. s - 1
    offsets = np.concatenate([[0], np.cumsum(present)]) if absent.any() else None
    thresholds = threshold_array(thresholds)
    contiguous = js == list(range(js[0], js[0] + len(js)))
    columns = slice(js[0], js[0] + len(js)) if contiguous else js
    rows = len(values)
    step = max(1, _BLOCK // max(1, len(js)))
    for start in range(0, rows, step):
        stop = min(rows, start + step)
        if start:
            _check_deadline(f"evaluating the thresholds of one column, rows {start + 1} to {stop} of {rows}")
        if offsets is None and contiguous:      # straight into the output's columns, no temporary block
            less_equal(numbers[start:stop], thresholds, out=out[start:stop, columns])
            continue
        block = np.zeros((stop - start, len(js)), dtype=bool)
        if offsets is None:
            block[:] = less_equal(numbers[start:stop], thresholds)
        else:
            block[present[start:stop]] = less_equal(numbers[offsets[start]:offsets[stop]], thresholds)
        out[start:stop, columns] = block


def column_values(column: pd.Series) -> np.ndarray:
    """A column's values as a numpy array, integers kept exact.

    A pandas nullable integer column (``Int64``, ``UInt64``) with a missing value becomes float64
    under ``to_numpy()``, which merges integers beyond ``2**53``; here it becomes an object array
    of Python ints and NaN.

    Examples
    --------
    >>> column_values(pd.Series([2**62 + 1, None], dtype="Int64")).tolist()
    [4611686018427387905, nan]
    """
    if pd.api.types.is_integer_dtype(column.dtype) and not isinstance(column.dtype, np.dtype):
        return column.to_numpy(dtype=object, na_value=np.nan)
    return column.to_numpy()


def table_input_tags(tags, missing: str = "error"):
    """Set the scikit-learn input tags of an estimator that reads tables through a :class:`Binarizer`.

    String and categorical columns are accepted (one-hot or native
    categories); NaN only with ``missing="indicator"``.

    Examples
    --------
    >>> tags = table_input_tags(Binarizer().__sklearn_tags__(), "indicator")
    >>> tags.input_tags.string, tags.input_tags.allow_nan
    (True, True)
    """
    tags.input_tags.string = True
    tags.input_tags.categorical = True
    tags.input_tags.allow_nan = missing == "indicator"
    return tags


#: Values an object column may hold to be one-hot encoded as categories.
_CATEGORY_VALUE_TYPES = (str, bytes, bool, int, float, np.bool_, np.integer, np.floating, np.str_)


def check_missing_policy(missing) -> None:
    """Raise a ``ValueError`` unless ``missing`` is one of :data:`MISSING_POLICIES`.

    Examples
    --------
    >>> check_missing_policy("indicator")
    >>> check_missing_policy("impute")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: missing='impute' is not supported; use 'error' (refuse missing values) or 'indicator' ...
    """
    if not isinstance(missing, str) or missing not in MISSING_POLICIES:
        raise ValueError(f"missing={missing!r} is not supported; use 'error' (refuse missing values) or "
                         "'indicator' (a feature 'x is missing' per column that has them).")


def as_frame(X, missing: str = "error") -> pd.DataFrame:
    """Wrap ``X`` as a DataFrame, naming array columns ``x0, x1, ...``.

    With ``missing="error"`` a missing value raises; with ``"indicator"`` it is kept.

    Examples
    --------
    >>> list(as_frame(np.array([[1, 2], [3, 4]])).columns)
    ['x0', 'x1']
    """
    return _read_table(X, missing).frame


def _read_table(X, missing: str = "error") -> "_Table":
    """:func:`as_frame` with what its checks read (:class:`_Table`): the binarizer's fit and transform
    read the same dtypes and columns, each a pandas call paid on every fit."""
    if isinstance(X, pd.DataFrame):
        frame = X
    else:
        array = table_array(X)
        frame = pd.DataFrame(array, columns=[f"x{i}" for i in range(array.shape[1])])
    if frame.shape[0] == 0 or frame.shape[1] == 0:
        raise ValueError(f"X is empty (shape {frame.shape}); give at least one row and one column.")
    dtypes = frame.dtypes.tolist()
    if all(isinstance(dtype, np.dtype) and dtype.kind == "f" for dtype in dtypes):
        # Every column numpy floats (measured data): one array answers both checks below, cheaper
        # than their pandas calls (paid at fit and at transform).
        values = frame.to_numpy(dtype=float)
        if np.isfinite(values).all():
            return _Table(frame, dtypes, [values[:, i] for i in range(values.shape[1])])
    if all(isinstance(dtype, np.dtype) and dtype.kind in "biu" for dtype in dtypes) and len(set(dtypes)) == 1:
        values = frame.to_numpy()                    # integers of one type (counts, codes): nothing missing
        return _Table(frame, dtypes, [values[:, i] for i in range(values.shape[1])])
    if missing == "error" and frame.isna().to_numpy().any():
        bad = [str(c) for c in frame.columns if frame[c].isna().any()]
        raise ValueError(f"X has missing values (NaN) in columns {bad}; impute them or drop those rows, or fit "
                         "with missing='indicator' to add a feature '<column> is missing' for them.")
    # One pass over the float columns together (a pandas call per column costs more than the check).
    floats = [i for i, dtype in enumerate(dtypes) if pd.api.types.is_float_dtype(dtype)]
    if floats and np.isinf(frame.iloc[:, floats].to_numpy(dtype=float, na_value=np.nan)).any():
        infinite = [str(frame.columns[i]) for i in floats
                    if np.isinf(frame.iloc[:, i].to_numpy(dtype=float, na_value=np.nan)).any()]
        raise ValueError(f"X has infinite values in columns {infinite}; clip or drop them before fitting.")
    return _Table(frame, dtypes, None)


class _Table(NamedTuple):
    """A checked table (:func:`_read_table`): the frame, its column dtypes, and its columns as numpy
    arrays when every column holds numpy floats, or integers of one type (else None: read them from
    the frame)."""

    frame: pd.DataFrame
    dtypes: list
    columns: list | None

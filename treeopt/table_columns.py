"""How a fitted tree reads a table: the one place where a table meets the columns it was fitted on.

A tree, a :class:`~treeopt.binarize.Binarizer`, the Rashomon set, the frontier and the exports
all read the user's table through :func:`read_columns`. It returns the columns in the order
they were fitted, so nothing downstream ever reads a column by position:

* fitted on a DataFrame, the table is read **by column name**: a reordered frame predicts
  exactly what the original one does; a missing, renamed or extra column is a ``ValueError``
  that lists the difference and the fix;
* fitted on an array, the table is read **by position** (an array has no names); only its
  width is checked;
* an array given to a tree fitted on named columns is read by position with a ``UserWarning``
  (an array has no names to check), as scikit-learn's estimators do;
* a column that held numbers at fit and holds strings now (or the reverse) is refused: ``'1'``
  never equals ``1``, so such a column would send every row the same way, silently.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["FittedColumns", "read_columns", "holds_numbers", "table_array"]


@dataclass(frozen=True)
class FittedColumns:
    """The columns a table had when a tree (or binarizer) was fitted on it.

    Parameters
    ----------
    names : tuple of str
        Column names in fitted order (``x0, x1, ...`` for an array).
    numeric : tuple of bool or None
        Whether each column held numbers (None: unknown, e.g. no value present).
    named : bool
        Fitted on a DataFrame: read later tables by name. False: fitted on an array, read by position.
    dtypes : tuple of str, optional
        The dtype of each column at fit, for the error messages.

    Examples
    --------
    >>> columns = FittedColumns(("a", "b"), (True, True), named=True)
    >>> read_columns(pd.DataFrame({"b": [1, 2], "a": [3, 4]}), columns).columns.tolist()
    ['a', 'b']
    """

    names: tuple
    numeric: tuple
    named: bool
    dtypes: tuple = ()

    @classmethod
    def of_table(cls, frame: pd.DataFrame, named: bool, dtypes: list | None = None) -> "FittedColumns":
        """The fitted columns of ``frame`` (``named``: it was given as a DataFrame, not as an array).

        Examples
        --------
        >>> FittedColumns.of_table(pd.DataFrame({"a": [1], "b": ["x"]}), named=True).numeric
        (True, False)
        """
        dtypes = frame.dtypes.tolist() if dtypes is None else dtypes
        numeric = tuple(True if _numeric_dtype(dtype) else holds_numbers(frame.iloc[:, i])
                        for i, dtype in enumerate(dtypes))
        return cls(tuple(str(c) for c in frame.columns), numeric, bool(named), tuple(str(d) for d in dtypes))


def read_columns(X, columns: FittedColumns, *, reader: str = "the tree") -> pd.DataFrame:
    """The columns of table ``X`` in the order they were fitted, named as fitted.

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_rows, n_columns)
    columns : FittedColumns
        What the table looked like at fit.
    reader : str, default="the tree"
        Who reads the table, for the error messages (``"the binarizer"``).

    Returns
    -------
    DataFrame
        ``X``'s columns in fitted order (``X`` itself when already in that order).

    Raises
    ------
    ValueError
        A DataFrame read by name lacks a fitted column, has one the fit did not see, or repeats
        a name; a table read by position has another number of columns; a column's values are
        numbers now and were not at fit, or the reverse.

    Examples
    --------
    >>> fitted = FittedColumns(("age", "income"), (True, True), named=True)
    >>> read_columns(pd.DataFrame({"income": [9], "age": [1]}), fitted).iloc[0].tolist()
    [1, 9]
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     read_columns(np.array([[1, 9]]), fitted).columns.tolist()
    ['age', 'income']
    >>> str(caught[0].message)[:61]
    'X does not have valid feature names, but the tree was fitted '
    >>> read_columns(pd.DataFrame({"age": [1], "salary": [9]}), fitted)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: X's columns differ from those the tree was fitted on: missing ['income'], not seen at fit ['salary'] ...
    """
    if isinstance(X, pd.DataFrame):
        frame = _by_name(X, columns, reader) if columns.named else _by_position(X, columns, reader)
    else:
        array = table_array(X)
        if array.shape[1] != len(columns.names):
            raise ValueError(f"X has {array.shape[1]} features, but {reader} is expecting {len(columns.names)} "
                             f"features as input (columns {list(columns.names)}); pass a table with exactly "
                             "these columns.")
        if columns.named:
            warnings.warn(f"X does not have valid feature names, but {reader} was fitted with feature names "
                          f"{list(columns.names)}: its columns are read by position. Pass a DataFrame with these "
                          "columns to have them read by name.", UserWarning, stacklevel=3)
        frame = pd.DataFrame(array, columns=list(columns.names))
    _refuse_changed_kinds(frame, columns, reader)
    return frame


def _by_name(X: pd.DataFrame, columns: FittedColumns, reader: str) -> pd.DataFrame:
    given = [str(c) for c in X.columns]
    if given == list(columns.names):
        return X
    if len(set(given)) != len(given):
        repeated = sorted({name for name in given if given.count(name) > 1})
        raise ValueError(f"X has duplicate column names {repeated}; {reader} reads columns by name, so each "
                         "name must appear once. Rename or drop the repeated columns.")
    fitted = set(columns.names)
    missing = [name for name in columns.names if name not in set(given)]
    extra = [name for name in given if name not in fitted]
    if missing or extra:
        renamed = ""
        if len(missing) == len(extra):
            renamed = " (renamed? " + ", ".join(f"{new!r} for {old!r}" for old, new in zip(missing, extra)) + ")"
        raise ValueError(
            f"X's columns differ from those {reader} was fitted on: missing {missing}, not seen at fit "
            f"{extra}{renamed}. Pass a DataFrame with exactly the fitted columns, in any order: "
            f"{list(columns.names)} (e.g. X[{list(columns.names)}] after renaming).")
    position = {name: i for i, name in enumerate(given)}
    return X.iloc[:, [position[name] for name in columns.names]].set_axis(list(columns.names), axis=1)


def _by_position(X: pd.DataFrame, columns: FittedColumns, reader: str) -> pd.DataFrame:
    if X.shape[1] != len(columns.names):
        raise ValueError(f"X has {X.shape[1]} features, but {reader} is expecting {len(columns.names)} features "
                         f"as input (it was fitted on an array, so it reads columns by position); pass a table "
                         f"of {len(columns.names)} columns in the fitted order.")
    if [str(c) for c in X.columns] == list(columns.names):
        return X
    return X.set_axis(list(columns.names), axis=1)


def table_array(X) -> np.ndarray:
    """A table given as an array (not a DataFrame), checked: dense, two-dimensional, real.

    Numbers keep their numpy dtype (integers stay integers); anything else becomes an object array.

    Raises
    ------
    TypeError
        A sparse matrix.
    ValueError
        Not two-dimensional, complex numbers, or no column.

    Examples
    --------
    >>> table_array([[1, 2], [3, 4]]).dtype.kind, table_array([[1, "a"]]).dtype
    ('i', dtype('O'))
    >>> table_array([1, 2])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: X must be 2-dimensional (rows × columns), got shape (2,). Reshape your data ...
    """
    if hasattr(X, "toarray") or type(X).__module__.startswith("scipy.sparse"):
        raise TypeError("sparse input is not supported: trees read dense tables; pass X.toarray() or a DataFrame.")
    array = np.asarray(X)
    if array.dtype.kind not in "biufc":
        array = np.asarray(X, dtype=object)
    if array.ndim != 2:
        raise ValueError(f"X must be 2-dimensional (rows × columns), got shape {array.shape}. Reshape your data "
                         "with X.reshape(-1, 1) for one column or X.reshape(1, -1) for one row.")
    if array.dtype.kind == "c":
        raise ValueError("Complex data not supported: X holds complex numbers; pass their real part "
                         "(X.real) or their magnitude (abs(X)) as numbers.")
    if array.shape[1] == 0:
        raise ValueError(f"Found array with 0 feature(s) (shape={array.shape}) while a minimum of 1 is required: "
                         "give at least one column.")
    return array


def _numeric_dtype(dtype) -> bool:
    return pd.api.types.is_numeric_dtype(dtype) and not isinstance(dtype, pd.CategoricalDtype)


def holds_numbers(column: pd.Series) -> bool | None:
    """True for a numeric column, or an object column whose present values are all numbers.

    None (unknown) for an object column with no value present.

    Examples
    --------
    >>> holds_numbers(pd.Series([1, None], dtype=object)), holds_numbers(pd.Series(["1"]))
    (True, False)
    """
    if _numeric_dtype(column.dtype):
        return True
    present = column.dropna()
    if len(present) == 0:
        return None
    return all(isinstance(v, (int, float, np.number)) and not isinstance(v, (bool, np.bool_)) for v in present)


def _refuse_changed_kinds(frame: pd.DataFrame, columns: FittedColumns, reader: str) -> None:
    dtypes = frame.dtypes.tolist()
    for i, (name, was_numeric) in enumerate(zip(columns.names, columns.numeric)):
        if was_numeric is None:
            continue
        now = dtypes[i]
        is_numeric = True if _numeric_dtype(now) else holds_numbers(frame.iloc[:, i])
        if is_numeric is not None and is_numeric != was_numeric:
            fitted = columns.dtypes[i] if i < len(columns.dtypes) else ("numbers" if was_numeric else "categories")
            raise ValueError(f"column {name!r} was {fitted} when fitted but is {now} now ({reader} compares it with "
                             "its fitted values); convert it to the dtype used for fitting (numbers and strings "
                             "never compare equal).")

"""Threshold tests ``x <= t`` that are exact for every number, and thresholds written as they compare.

A threshold feature ``x <= t`` (GOSDT section 3: one per midpoint between adjacent distinct
values of a numeric column) is compared, printed and exported from one value ``t``:

* integer columns (numpy ``int64``/``uint64``, pandas ``Int64``, Python ints of any size) are
  compared as integers, never cast through float64, which cannot tell ``2**62`` from
  ``2**62 + 1``; their thresholds are exact: the midpoint itself when it is a float64 value,
  else the integer below it (the same test on integers);
* float columns are compared in float64 against float64 thresholds; a threshold is the midpoint
  written with the fewest digits that still fall between the two values (``x <= 1.68``, not
  ``1.6800000000000002``), and the printed text parses back to exactly the compared value, so
  the rules, the exported Python and LaTeX and :meth:`~treeopt.tree.Tree.predict` agree on
  every value. Between two adjacent float64 values whose midpoint rounds up to the larger one,
  the threshold is the smaller value, which still separates them.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["exact_numbers", "thresholds_between", "threshold_text", "less_equal", "threshold_array",
           "comparable_thresholds"]

#: Integers up to this magnitude are exact in float64.
_FLOAT_EXACT = 2 ** 53


def exact_numbers(values) -> np.ndarray:
    """The present values of a numeric column as an array that compares them exactly.

    float64 for floats, int64 or uint64 for integers that fit, else an object array of Python
    ints. Raises ``TypeError`` on values that are not numbers.

    Examples
    --------
    >>> exact_numbers(np.array([2**62 + 1, 2**62], dtype=object)).dtype
    dtype('int64')
    >>> exact_numbers(np.array([2**64, -1], dtype=object)).dtype
    dtype('O')
    >>> exact_numbers(np.array([1, 2.5], dtype=object)).dtype
    dtype('float64')
    """
    values = np.asarray(values)
    if values.dtype.kind == "b":
        return values.astype(np.int64)
    if values.dtype.kind in "iu":
        return values
    if values.dtype.kind == "f":
        return values.astype(np.float64, copy=False)
    items = values.tolist() if values.dtype.kind == "O" else None
    if items is not None and items and all(isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))
                                           for v in items):
        ints = [int(v) for v in items]
        low, high = min(ints), max(ints)
        for dtype in (np.int64, np.uint64):
            if np.iinfo(dtype).min <= low and high <= np.iinfo(dtype).max:
                return np.asarray(ints, dtype=dtype)
        return np.asarray(ints, dtype=object)
    return values.astype(np.float64)


def thresholds_between(lower, upper) -> list:
    """One threshold ``t`` between each pair of adjacent distinct values: ``lower <= t < upper``.

    Integers give integers or half-integers (the exact midpoint, or the integer below it when
    float64 cannot hold it); floats give the midpoint in its shortest decimal that still lies
    between the two values (see the module notes).

    Parameters
    ----------
    lower, upper : array-like
        Adjacent distinct values, ``lower < upper`` elementwise, from :func:`exact_numbers`.

    Returns
    -------
    list of int or float, or ndarray of float64
        A list for integer values, an array for floats.

    Examples
    --------
    >>> thresholds_between([20, 2**62], [31, 2**62 + 1])
    [25.5, 4611686018427387904]
    >>> thresholds_between([-1.86, 50000.0, 0.1], [-1.5, 50000.2, np.nextafter(0.1, 1)]).tolist()
    [-1.68, 50000.1, 0.1]
    """
    lower, upper = np.asarray(lower), np.asarray(upper)
    if lower.dtype.kind in "iuO" and upper.dtype.kind in "iuO":
        out = []
        for a, b in zip(lower.tolist(), upper.tolist()):
            twice = int(a) + int(b)
            half, odd = divmod(twice, 2)
            out.append(half if not odd else (twice / 2 if abs(twice) < _FLOAT_EXACT else half))
        return out
    lower, upper = lower.astype(np.float64), upper.astype(np.float64)
    midpoints = (lower + upper) / 2.0
    chosen = np.where((lower <= midpoints) & (midpoints < upper), midpoints, lower)
    done = np.zeros(len(chosen), dtype=bool)
    tolerance = 1e-9 * np.maximum(1.0, np.abs(midpoints))
    with np.errstate(over="ignore", invalid="ignore"):
        for digits in range(0, 13):         # the fewest decimals that read as the midpoint and still split
            open_ = np.flatnonzero(~done)
            if len(open_) == 0:
                break
            short = np.round(midpoints[open_], digits)
            fits = (np.abs(short - midpoints[open_]) <= tolerance[open_]) & (lower[open_] <= short) \
                & (short < upper[open_])
            chosen[open_[fits]] = short[fits]
            done[open_[fits]] = True
    return chosen


def threshold_text(value) -> str:
    """The threshold as printed: the shortest decimal that reads back as exactly ``value``.

    Examples
    --------
    >>> threshold_text(26.5), threshold_text(3.0), threshold_text(2**62 + 1), threshold_text(0.1 + 0.2)
    ('26.5', '3', '4611686018427387905', '0.30000000000000004')
    """
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return str(int(value))
    value = float(value)
    if not math.isfinite(value):
        return repr(value)
    return np.format_float_positional(value, unique=True, trim="-")


def less_equal(values, thresholds, out: np.ndarray | None = None) -> np.ndarray:
    """``values[:, None] <= thresholds[None, :]``, exact for integers and floats of any size.

    Parameters
    ----------
    values : ndarray
        Present values of one column, from :func:`exact_numbers`.
    thresholds : sequence of int or float
    out : ndarray of bool, optional
        Where to write the result (a view into a larger matrix, say).

    Returns
    -------
    ndarray of bool, shape (len(values), len(thresholds))

    Examples
    --------
    >>> big = exact_numbers(np.array([2**62, 2**62 + 1], dtype=np.int64))
    >>> less_equal(big, [2**62]).ravel().tolist()
    [True, False]
    >>> less_equal(np.array([32.3, 32.7]), [32.5]).ravel().tolist()
    [True, False]
    """
    values = np.asarray(values)
    limits, always, never = comparable_thresholds(values.dtype, thresholds)
    if values.dtype.kind == "O":
        result = np.array([[v <= t for t in limits] for v in values.tolist()], dtype=bool).reshape(
            len(values), len(limits))
        if out is None:
            out = result
        else:
            out[...] = result
    else:
        out = np.less_equal(values[:, None], limits[None, :], out=out)
    if always.any():
        out[:, always] = True
    if never.any():
        out[:, never] = False
    return out


def threshold_array(thresholds) -> np.ndarray:
    """Thresholds as one array without losing any: float64 when all are floats, else an object
    array of Python ints and floats (an integer beyond ``2**53`` must not become a float).

    Examples
    --------
    >>> threshold_array([0.5, 1.5]).dtype, threshold_array([0.5, 2**62 + 1]).tolist()
    (dtype('float64'), [0.5, 4611686018427387905])
    """
    if isinstance(thresholds, np.ndarray) and thresholds.dtype.kind in "fO":
        return thresholds
    if all(isinstance(t, (float, np.floating)) for t in thresholds):
        return np.asarray(thresholds, dtype=np.float64).reshape(-1)
    return np.asarray([t if isinstance(t, (float, np.floating)) else int(t) for t in thresholds], dtype=object)


def comparable_thresholds(dtype: np.dtype, thresholds: list) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Thresholds in the values' own type, so that numpy's ``<=`` is exact: ``(limits, always, never)``.

    For a float64 column, ``t`` becomes the largest float64 at most ``t``; for an integer column,
    the largest integer at most ``t``, with ``always`` (every value of the type is ``<= t``) and
    ``never`` (none is) marking thresholds outside the type's range. An object column keeps
    Python numbers, which Python compares exactly.

    Examples
    --------
    >>> limits, always, never = comparable_thresholds(np.dtype(np.uint64), [-1, 2.5, 2**70])
    >>> limits.tolist(), always.tolist(), never.tolist()
    ([0, 2, 0], [False, False, True], [True, False, False])
    """
    n = len(thresholds)
    always, never = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
    if dtype.kind == "O":
        return np.asarray(thresholds, dtype=object), always, never
    given = threshold_array(thresholds)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        if given.dtype.kind == "f":
            floors = np.floor(given)
            never = floors < float(info.min)
            always = floors >= float(info.max)
            limits = np.where(never | always, 0.0, floors).astype(dtype)
            return limits, always, never
        limits = np.zeros(n, dtype=dtype)
        for k, t in enumerate(given.tolist()):
            f = math.floor(t)
            if f < info.min:
                never[k] = True
            elif f >= info.max:
                always[k] = True
            else:
                limits[k] = f
        return limits, always, never
    if given.dtype.kind == "f":
        return given.astype(np.float64, copy=False), always, never
    limits = np.empty(n, dtype=np.float64)
    for k, t in enumerate(given.tolist()):
        if isinstance(t, int) and abs(t) > _FLOAT_EXACT:   # the largest float64 at most t
            near = float(t)
            limits[k] = near if int(near) <= t else np.nextafter(near, -np.inf)
        else:
            limits[k] = float(t)
    return limits, always, never

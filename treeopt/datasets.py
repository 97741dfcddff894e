"""Small datasets that treeopt embeds or generates (no downloads).

Every dataset here is typed in or generated from its defining rule, so the
notebooks and the demo run anywhere, offline.
"""

from __future__ import annotations

from itertools import product

import pandas as pd

__all__ = ["load_monk", "MONK_ATTRIBUTES"]

#: The six MONK attributes and their values, in the order of the UCI files (value k is coded k+1 there).
MONK_ATTRIBUTES = {
    "head_shape": ["round", "square", "octagon"],
    "body_shape": ["round", "square", "octagon"],
    "is_smiling": ["yes", "no"],
    "holding": ["sword", "balloon", "flag"],
    "jacket_color": ["red", "yellow", "green", "blue"],
    "has_tie": ["yes", "no"],
}


def _monk_label(problem: int, row: dict) -> int:
    if problem == 1:
        return int(row["head_shape"] == row["body_shape"] or row["jacket_color"] == "red")
    if problem == 2:
        firsts = sum(row[a] == values[0] for a, values in MONK_ATTRIBUTES.items())
        return int(firsts == 2)
    if problem == 3:
        return int((row["jacket_color"] == "green" and row["holding"] == "sword")
                   or (row["jacket_color"] != "blue" and row["body_shape"] != "octagon"))
    raise ValueError(f"MONK problem must be 1, 2 or 3, got {problem!r}.")


def load_monk(problem: int = 1, *, codes: bool = False) -> tuple[pd.DataFrame, pd.Series]:
    """All 432 robots of a MONK problem, labelled by the problem's defining rule.

    The MONK's problems (Thrun et al., 1991) describe robots by six
    categorical attributes. The class is:

    1. ``head_shape == body_shape or jacket_color == red``;
    2. exactly two attributes take their first value;
    3. ``(jacket_color == green and holding == sword) or
       (jacket_color != blue and body_shape != octagon)`` (the UCI training
       set adds 5% label noise; this generated set has none).

    The 432 rows are the UCI ``monks-N.test`` files.

    Parameters
    ----------
    problem : {1, 2, 3}
    codes : bool, default=False
        Return the UCI integer codes (1, 2, ...) instead of value names.

    Returns
    -------
    X : DataFrame of shape (432, 6)
        Categorical (string) columns, or integer codes.
    y : Series of int
        The class (0/1), named ``class``.

    Examples
    --------
    >>> X, y = load_monk(1)
    >>> X.shape, int(y.sum())
    ((432, 6), 216)
    """
    rows = []
    for values in product(*MONK_ATTRIBUTES.values()):
        rows.append(dict(zip(MONK_ATTRIBUTES, values)))
    y = pd.Series([_monk_label(problem, r) for r in rows], name="class")
    X = pd.DataFrame(rows)
    if codes:
        X = pd.DataFrame({a: X[a].map({v: i + 1 for i, v in enumerate(vals)})
                          for a, vals in MONK_ATTRIBUTES.items()})
    return X, y

"""Reading the command line's input tables, with errors that name the problem and the fix."""

from __future__ import annotations

import pandas as pd

__all__ = ["read_table"]


def read_table(path: str, target: str | None, sep: str | None = None):
    """Read a CSV and split off the target column (``None``: the last one), with clear errors.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "t.csv")
    >>> _ = open(path, "w").write("a,b,y\\n1,0,1\\n0,1,0\\n")
    >>> X, y = read_table(path, "y")
    >>> list(X.columns), list(y)
    (['a', 'b'], [1, 0])
    >>> read_table(path, None)[1].name
    'y'
    """
    try:
        frame = pd.read_csv(path, sep=sep, engine="python") if sep is None else pd.read_csv(path, sep=sep)
    except FileNotFoundError:
        raise SystemExit(f"treeopt: no such file: {path}")
    frame.columns = [str(c).strip() for c in frame.columns]
    target = frame.columns[-1] if target is None else target
    if target not in frame.columns:
        raise SystemExit(f"treeopt: target column {target!r} is not in {path}; its columns are "
                         f"{list(frame.columns)}. Pass one of them with --target.")
    return frame.drop(columns=[target]), frame[target]

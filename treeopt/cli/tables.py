"""Reading the command line's input tables, with errors that name the problem and the fix.

Every error here is a ``SystemExit`` with one line (exit code 1, see :mod:`treeopt.cli.exits`):
a missing file or a directory, an empty file, a file that is not UTF-8 text, rows with the
wrong number of fields, a target column that does not exist. A UTF-8 byte order mark (as
Excel writes) is ignored.
"""

from __future__ import annotations

import csv
import os

import pandas as pd

__all__ = ["read_table"]


def _refuse(message: str):
    raise SystemExit(f"treeopt: {message}")


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
    >>> _ = open(path, "w").write("a,b,y\\n1,0,1\\n0,1\\n1,1,0,1\\n")
    >>> read_table(path, "y")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    SystemExit: treeopt: .../t.csv is not a rectangular table: line 4 has 4 fields, the header has 3. Fix the rows (a missing or extra separator, or an unquoted separator inside a value) or pass the right --sep.
    """
    if os.path.isdir(path):
        _refuse(f"{path} is a directory, not a CSV file; pass the file inside it.")
    if not os.path.exists(path):
        _refuse(f"no such file: {path}")
    if os.path.getsize(path) == 0:
        _refuse(f"{path} is empty; a CSV file needs a header row and at least one data row.")
    try:
        # utf-8-sig: a byte order mark (Excel's "CSV UTF-8") is not part of the first column's name.
        if sep is None:
            frame = pd.read_csv(path, sep=None, engine="python", encoding="utf-8-sig")
        else:
            frame = pd.read_csv(path, sep=sep, encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        _refuse(f"{path} is not UTF-8 text (byte 0x{error.object[error.start]:02x} at position {error.start}); "
                f"if it is a CSV in another encoding, convert it first, e.g. "
                f"`iconv -f latin1 -t utf-8 {path} > utf8.csv`.")
    except PermissionError:
        _refuse(f"cannot read {path}: permission denied.")
    except pd.errors.EmptyDataError:
        _refuse(f"{path} has no columns; a CSV file needs a header row and at least one data row.")
    except csv.Error as error:
        if "NUL" in str(error):
            _refuse(f"{path} is not a text file (it contains NUL bytes); pass a CSV file.")
        _refuse(f"could not read {path} as CSV ({error}); pass the column separator with --sep (e.g. --sep ';').")
    except pd.errors.ParserError as error:
        _refuse(_ragged_message(path, str(error)))
    frame.columns = [str(c).strip() for c in frame.columns]
    target = frame.columns[-1] if target is None else target
    if target not in frame.columns:
        _refuse(f"target column {target!r} is not in {path}; its columns are {list(frame.columns)}. "
                "Pass one of them with --target.")
    return frame.drop(columns=[target]), frame[target]


def _ragged_message(path: str, error: str) -> str:
    """One line for pandas' ParserError on rows with the wrong number of fields."""
    import re
    match = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", error)
    if match:
        expected, line, saw = match.groups()
        return (f"{path} is not a rectangular table: line {line} has {saw} fields, the header has {expected}. "
                "Fix the rows (a missing or extra separator, or an unquoted separator inside a value) or pass "
                "the right --sep.")
    return f"could not read {path} as CSV ({error.strip().splitlines()[-1]}); check its rows or pass --sep."

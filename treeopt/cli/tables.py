"""Reading the command line's input tables, with errors that name the problem and the fix.

Every error here is a ``SystemExit`` with one line (exit code 1, see :mod:`treeopt.cli.exits`):
a missing file or a directory, an empty file, a file that is not UTF-8 text, rows with the
wrong number of fields, a target column that does not exist, a table with no column besides
the target, an empty ``--sep``. A UTF-8 byte order mark (as Excel writes) is ignored.

With a deadline (``--time-limit``), the file is read in blocks of rows and reading stops with
:class:`ReadingTimeout` once the deadline has passed, instead of finishing a huge file past it.
"""

from __future__ import annotations

import csv
import os
import time

import pandas as pd

__all__ = ["read_table", "ReadingTimeout", "remaining_time"]

#: Rows read between two looks at the deadline.
CHUNK_ROWS = 20_000


class ReadingTimeout(TimeoutError):
    """The deadline passed while the CSV was being read: there are no data, so no tree."""


def remaining_time(deadline: float | None) -> float | None:
    """Seconds left until ``deadline`` (a ``time.perf_counter()`` value), at least a nanosecond; None: no limit.

    Examples
    --------
    >>> remaining_time(None) is None, remaining_time(time.perf_counter() - 5) > 0
    (True, True)
    """
    if deadline is None:
        return None
    return max(deadline - time.perf_counter(), 1e-9)


def _refuse(message: str):
    raise SystemExit(f"treeopt: {message}")


def read_table(path: str, target: str | None, sep: str | None = None, deadline: float | None = None):
    """Read a CSV and split off the target column (``None``: the last one), with clear errors.

    ``sep`` is the column separator (None: sniffed; ``\\t`` as typed in a shell is a tab).
    ``deadline``, a ``time.perf_counter()`` value, stops reading with :class:`ReadingTimeout`.

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
    if sep == "":
        _refuse("--sep is empty; give the column separator, e.g. --sep ',' or --sep ';' (or leave it out to "
                "have it sniffed).")
    if sep == "\\t":
        sep = "\t"
    if os.path.isdir(path):
        _refuse(f"{path} is a directory, not a CSV file; pass the file inside it.")
    if not os.path.exists(path):
        _refuse(f"no such file: {path}")
    if os.path.getsize(path) == 0:
        _refuse(f"{path} is empty; a CSV file needs a header row and at least one data row.")
    if sep is None and not any(mark in _first_line(path) for mark in ",;\t|"):
        sep = ","                       # one column: nothing to sniff (the sniffer would split the name)
    try:
        # utf-8-sig: a byte order mark (Excel's "CSV UTF-8") is not part of the first column's name.
        options = {"sep": None, "engine": "python"} if sep is None else {"sep": sep}
        if deadline is None:
            frame = pd.read_csv(path, encoding="utf-8-sig", **options)
        else:
            frame = _read_before(path, deadline, options)
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
    if frame.shape[1] < 2:
        _refuse(f"{path} has only the target column {target!r}; a tree needs at least one feature column "
                "(check --sep if the columns were not split).")
    return frame.drop(columns=[target]), frame[target]


def _first_line(path: str) -> str:
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            return handle.readline()
    except OSError:
        return ","                      # unreadable: pandas' own error below names it


def _read_before(path: str, deadline: float, options: dict) -> pd.DataFrame:
    """The CSV read in blocks of :data:`CHUNK_ROWS` rows, stopping at ``deadline``."""
    blocks, rows = [], 0
    with pd.read_csv(path, encoding="utf-8-sig", chunksize=CHUNK_ROWS, **options) as reader:
        for block in reader:
            # A block that arrives after the deadline means the file goes on: stop. (The first block
            # is always kept, and a file that ends in time is read whole.)
            if blocks and time.perf_counter() > deadline:
                raise ReadingTimeout(f"the time limit ran out while reading {path} ({rows} rows read), before "
                                     "any tree; raise --time-limit, or sample the file.")
            blocks.append(block)
            rows += len(block)
    return pd.concat(blocks) if len(blocks) > 1 else blocks[0]


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

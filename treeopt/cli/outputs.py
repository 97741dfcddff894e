"""The command line's output files: checked before the search, written whole or not at all.

:func:`check_output` runs before any work, so a search of an hour never ends in "cannot write":
it refuses an output path that is one of the input files (``treeopt fit d.csv --json d.csv``
would replace the training data), a directory, a path in a directory that does not exist, or a
file that cannot be written. :func:`write_output` writes to a temporary file beside the target
and renames it, so an interrupted write leaves the old file, not half a new one.
"""

from __future__ import annotations

import os

__all__ = ["check_output", "write_output"]


def _same_file(a: str, b: str) -> bool:
    if os.path.exists(a) and os.path.exists(b):
        return os.path.samefile(a, b)
    return os.path.realpath(a) == os.path.realpath(b)


def check_output(path: str | None, inputs, option: str) -> None:
    """Refuse (``SystemExit`` with one line) an output ``path`` that cannot or must not be written.

    Parameters
    ----------
    path : str or None
        The output file (None: no output asked for).
    inputs : iterable of str or None
        The command's input files.
    option : str
        The option that named ``path`` (``"--json"``), for the message.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> data = os.path.join(folder, "d.csv")
    >>> _ = open(data, "w").write("a,y\\n1,0\\n")
    >>> check_output(os.path.join(folder, "tree.json"), [data], "--json")     # fine: nothing happens
    >>> check_output(data, [data], "--json")                                  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    SystemExit: treeopt: --json .../d.csv is the input file .../d.csv: writing it would replace your data; choose another file name.
    """
    if path is None:
        return
    for source in inputs:
        if source is not None and _same_file(path, source):
            raise SystemExit(f"treeopt: {option} {path} is the input file {source}: writing it would replace your "
                             "data; choose another file name.")
    if os.path.isdir(path):
        raise SystemExit(f"treeopt: {option} {path} is a directory; give a file name such as "
                         f"{os.path.join(path, 'tree.json' if option == '--json' else 'table.csv')}.")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise SystemExit(f"treeopt: {option} {path}: the directory {folder} does not exist; create it "
                         f"(mkdir -p {folder}) or choose another path.")
    existed = os.path.exists(path)
    try:
        with open(path, "a"):              # "a": probes without truncating an existing file
            pass
    except OSError as error:
        raise SystemExit(f"treeopt: cannot write {option} {path} ({error.strerror}); choose a writable "
                         "location.") from None
    if not existed:
        os.remove(path)


def write_output(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a temporary file beside it, then a rename).

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "t.json")
    >>> write_output(path, "{}")
    >>> open(path).read()
    '{}'
    """
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)

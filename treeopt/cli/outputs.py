"""The command line's output files: checked before the search, written whole or not at all.

:func:`check_output` runs before any work, so a search of an hour never ends in "cannot write":
it refuses an output path that is one of the input files (``treeopt fit d.csv --json d.csv``
would replace the training data), a directory, a path in a directory that does not exist, or a
file that cannot be written. :func:`write_output` writes a regular file through a temporary file
beside it and a rename, so an interrupted write leaves the old file, not half a new one. A
symbolic link is written through (its target is replaced, the link stays a link), and a file
that is not a regular file (a FIFO, a terminal, ``/dev/stdout``) is opened and written in place,
never replaced. The path ``-`` means standard output.
"""

from __future__ import annotations

import os
import stat
import sys

__all__ = ["check_output", "write_output", "STDOUT"]

#: The output path that means standard output.
STDOUT = "-"


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
    if path is None or path == STDOUT:
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
    if _is_special(path):
        # A FIFO blocks an open until a reader comes; a device is not created or replaced: only ask.
        if not os.access(path, os.W_OK):
            raise SystemExit(f"treeopt: cannot write {option} {path} (permission denied); choose a writable "
                             "location.")
        return
    existed = os.path.exists(path)
    try:
        with open(path, "a"):              # "a": probes without truncating an existing file
            pass
    except OSError as error:
        raise SystemExit(f"treeopt: cannot write {option} {path} ({error.strerror}); choose a writable "
                         "location.") from None
    if not existed:
        os.remove(os.path.realpath(path))      # the probe's empty file (a dangling link's target), not the link


def _is_special(path: str) -> bool:
    """Whether ``path`` (followed through links) exists and is not a regular file: a FIFO, a device, a socket."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def write_output(path: str, text: str, option: str = "the output") -> None:
    """Write ``text`` to ``path``: atomically for a regular file, in place for a FIFO or device, ``-`` to stdout.

    A regular file (or a symbolic link to one) is written to a temporary file beside the file
    the path finally names and renamed over it, keeping its permission bits: an interrupted
    write leaves the old file, and a link stays a link to its (now updated) target. A file
    that is not a regular file is opened and written as it is, never replaced; so is a file
    in a directory where a temporary file cannot be made. A write that fails all the same (a full
    disk, a device that refuses it) is a one-line ``SystemExit`` naming ``option`` (``"--json"``)
    and the reason, never a traceback; a regular file then keeps its old content.

    Examples
    --------
    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "t.json")
    >>> write_output(path, "{}")
    >>> open(path).read()
    '{}'
    >>> os.symlink(path, os.path.join(folder, "link.json"))
    >>> write_output(os.path.join(folder, "link.json"), "[]")
    >>> open(path).read(), os.path.islink(os.path.join(folder, "link.json"))
    ('[]', True)
    >>> write_output("-", "to stdout")
    to stdout
    """
    try:
        _write(path, text)
    except OSError as error:
        raise SystemExit(f"treeopt: writing {option} {path} failed ({error.strerror or error}); the report "
                         "above is complete, the file is not.") from None


def _write(path: str, text: str) -> None:
    if path == STDOUT:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        sys.stdout.flush()
        return
    if _is_special(path):
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    target = os.path.realpath(path)             # through symbolic links: replace the file, not the link
    folder = os.path.dirname(target)
    if not os.access(folder, os.W_OK | os.X_OK):
        with open(target, "w", encoding="utf-8") as handle:    # a writable file in a read-only directory
            handle.write(text)
        return
    temporary = f"{target}.{os.getpid()}.tmp"
    try:
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(text)
        if os.path.exists(target):
            os.chmod(temporary, stat.S_IMODE(os.stat(target).st_mode))
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)

"""Errors of the library said in the command line's words: ``missing='indicator'`` becomes ``--missing indicator``.

The library's messages name the fix as a Python argument (``time_limit=``, ``max_thresholds=k``,
``missing='indicator'``). On the command line that is a flag, and only a flag the command has:
an argument the command has no flag for is left as it is, so a message never names a flag
that does not exist.
"""

from __future__ import annotations

import re

__all__ = ["in_flags"]

# name=value: a quoted string, or a bare token up to a space or closing punctuation.
_ARGUMENT = re.compile(r"\b([a-z][a-z_]*)=('([^']*)'|\"([^\"]*)\"|[^\s,;)]*)")


def in_flags(message: str, args) -> str:
    """``message`` with each ``name=value`` the command has a flag for written as ``--name value``.

    Parameters
    ----------
    message : str
        A library error message.
    args : argparse.Namespace
        The command's parsed arguments: their names are the flags it has.

    Examples
    --------
    >>> from argparse import Namespace
    >>> in_flags("pass missing='indicator' or raise time_limit=, or use n_jobs=2", Namespace(missing="error", time_limit=None))
    'pass --missing indicator or raise --time-limit, or use n_jobs=2'
    """
    flags = set(vars(args))

    def flag(match: re.Match) -> str:
        name = match.group(1)
        if name not in flags:
            return match.group(0)
        value = match.group(3) if match.group(3) is not None else match.group(4)
        value = match.group(2) if value is None else value
        option = "--" + name.replace("_", "-")
        return f"{option} {value}" if value else option

    return _ARGUMENT.sub(flag, message)

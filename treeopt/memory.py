"""The process's memory: ``memory_limit`` values (``"2GB"``) and the resident set size they cap.

``run(memory_limit=...)``, ``OptimalTreeClassifier(memory_limit=...)`` and ``treeopt fit
--memory-limit`` stop a search once the whole process's resident memory (what the operating
system has in RAM for it: the data, Python, numpy and the search) exceeds the limit. It is read
from ``/proc/self/statm`` on Linux; elsewhere from :func:`resource.getrusage`, which only knows the
peak resident size (so a process that once used more memory stops at once).

Examples
--------
>>> parse_memory_limit("2GB"), parse_memory_limit("1.5 GiB"), parse_memory_limit(10**6)
(2000000000, 1610612736, 1000000)
>>> resident_memory() > 0
True
"""

from __future__ import annotations

import os
import re

__all__ = ["parse_memory_limit", "resident_memory", "available_memory", "format_bytes"]

_UNITS = {"": 1, "b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}


def parse_memory_limit(value) -> int | None:
    """A memory limit in bytes: None, a positive number of bytes, or a string such as ``"2GB"``.

    Parameters
    ----------
    value : int, float, str or None
        Bytes, or a number with a unit: ``B``, ``KB``/``MB``/``GB``/``TB`` (powers of 1000) or
        ``KiB``/``MiB``/``GiB``/``TiB`` (powers of 1024), case-insensitive, spaces allowed.

    Returns
    -------
    int or None

    Examples
    --------
    >>> parse_memory_limit("512 MB"), parse_memory_limit(None)
    (512000000, None)
    >>> parse_memory_limit("lots")
    Traceback (most recent call last):
    ...
    ValueError: memory_limit must be a positive number of bytes or a string such as '2GB' or '512MiB', got 'lots'.
    """
    if value is None:
        return None
    message = (f"memory_limit must be a positive number of bytes or a string such as '2GB' or '512MiB', "
               f"got {value!r}.")
    if isinstance(value, bool):
        raise ValueError(message)
    if isinstance(value, str):
        match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([a-zA-Z]*)\s*", value)
        if match is None or match.group(2).lower() not in _UNITS:
            raise ValueError(message)
        number = float(match.group(1)) * _UNITS[match.group(2).lower()]
    else:
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise ValueError(message) from None
    if not number >= 1 or number == float("inf"):
        raise ValueError(message)
    return int(number)


def resident_memory() -> int:
    """Bytes of memory the process holds in RAM now (its resident set size).

    ``/proc/self/statm`` on Linux (cheap enough to read often); elsewhere the peak resident size from
    :func:`resource.getrusage`.

    Returns
    -------
    int

    Raises
    ------
    OSError
        When neither source exists (e.g. Windows): ``memory_limit`` is not available there.
    """
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:                                  # pragma: no cover - Windows
        raise OSError("memory_limit needs /proc/self/statm or the resource module; this platform has "
                      "neither. Use cache_limit to cap the search's memory instead.") from None
    import sys
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # pragma: no cover - not Linux
    return int(peak) if sys.platform == "darwin" else int(peak) * 1024  # pragma: no cover


def available_memory() -> int | None:
    """Bytes the system can still give without swapping (``MemAvailable`` of ``/proc/meminfo``), or None.

    Examples
    --------
    >>> available = available_memory()
    >>> available is None or available > 0
    True
    """
    try:
        with open("/proc/meminfo", "rb") as handle:
            for line in handle:
                if line.startswith(b"MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def format_bytes(n: float) -> str:
    """``n`` bytes for people: ``format_bytes(2.5e9) == '2.5 GB'``.

    Examples
    --------
    >>> format_bytes(2.5e9), format_bytes(1234), format_bytes(12)
    ('2.5 GB', '1.23 kB', '12 B')
    """
    for unit, size in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(n) >= size:
            return f"{n / size:.3g} {unit}"
    return f"{int(n)} B"

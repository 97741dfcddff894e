"""The process's memory: ``memory_limit`` values (``"2GB"``) and the resident set size they cap.

``run(memory_limit=...)``, ``OptimalTreeClassifier(memory_limit=...)`` and ``treeopt fit
--memory-limit`` stop a search once the whole process's resident memory (what the operating
system has in RAM for it: the data, Python, numpy and the search) exceeds the limit. It is read
from ``/proc/self/statm`` on Linux; elsewhere from :func:`resource.getrusage`, which only knows the
peak resident size (so a process that once used more memory stops at once).

Before a large table is built, :func:`memory_room` says how many more bytes this process can
get: the least of the system's available memory, the room left under the process's address-space
limit (``RLIMIT_AS``, set by ``ulimit -v``) and the room left in its control group (cgroup v2
``memory.max``, v1 ``memory.limit_in_bytes``), so a refusal comes before numpy's ``MemoryError``.

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

__all__ = ["parse_memory_limit", "resident_memory", "available_memory", "memory_room", "address_space_room",
           "format_bytes"]

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


def _read_number(path: str) -> int | None:
    """The integer in a one-line file such as ``/sys/fs/cgroup/memory.max`` (None: absent, or ``max``)."""
    try:
        with open(path, "rb") as handle:
            return int(handle.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _cgroup_room() -> int | None:
    """Bytes left under the memory limit of the process's control group, or None without a limit.

    cgroup v2: ``memory.max`` minus ``memory.current`` of the group in ``/proc/self/cgroup``'s
    ``0::`` line; cgroup v1: ``memory.limit_in_bytes`` minus ``memory.usage_in_bytes`` of the
    ``memory`` controller's group. Both are looked up where the group's path says and, as
    inside a container, at the controller's root.
    """
    try:
        with open("/proc/self/cgroup") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    candidates = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":
            for root in (f"/sys/fs/cgroup{path}", "/sys/fs/cgroup"):
                candidates.append((f"{root}/memory.max", f"{root}/memory.current"))
        elif "memory" in controllers.split(","):
            for root in (f"/sys/fs/cgroup/memory{path}", "/sys/fs/cgroup/memory"):
                candidates.append((f"{root}/memory.limit_in_bytes", f"{root}/memory.usage_in_bytes"))
    rooms = []
    for limit_path, usage_path in candidates:
        limit, usage = _read_number(limit_path), _read_number(usage_path)
        if limit is not None and usage is not None and limit < 2 ** 60:   # v1 writes "no limit" as ~2**63
            rooms.append(max(limit - usage, 0))
    return min(rooms) if rooms else None


def address_space_room() -> int | None:
    """Bytes of address space left under ``RLIMIT_AS`` (``ulimit -v``), or None without that limit."""
    try:
        import resource
    except ImportError:                                  # pragma: no cover - Windows
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY:
        return None
    try:
        with open("/proc/self/statm", "rb") as handle:
            virtual = int(handle.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        virtual = resident_memory()                      # pragma: no cover - not Linux: a lower estimate
    return max(soft - virtual, 0)


def memory_room() -> int | None:
    """Bytes this process can still allocate: the least of the limits it can see, or None if it sees none.

    The system's available memory (:func:`available_memory`), the room under the process's
    address-space limit (``RLIMIT_AS``: its soft limit minus the address space it maps now) and
    the room in its control group's memory limit (cgroup v1 or v2). A table larger than this
    cannot be built, whatever the machine's free memory says.

    Returns
    -------
    int or None

    Examples
    --------
    >>> room = memory_room()
    >>> room is None or room >= 0
    True
    """
    rooms = [room for room in (available_memory(), address_space_room(), _cgroup_room()) if room is not None]
    return min(rooms) if rooms else None


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

"""Address space set aside while a search runs, so that running out of memory can still end it honestly.

When a unit of work raises ``MemoryError`` the process is at its cap (an address-space limit such
as ``ulimit -v``, or an exhausted machine): the next allocation may fail too, wherever it happens,
and CPython's own bookkeeping then fails in odd ways (``SystemError: error return without exception
set``, a ``KeyError`` from restoring a signal handler, a second ``MemoryError`` while the first is
handled). The driver (:mod:`treeopt.solvers.base`) therefore keeps a block of address space mapped
while it runs units of work (:data:`RESERVE`), and unmaps it first thing after a ``MemoryError``: the
room it frees is what restores the signal handlers, builds the best tree and releases the search.
The block is an anonymous memory map that is never written, so it takes address space (what
``RLIMIT_AS`` counts) but no physical memory. One block serves the whole process; it is armed again
when the next search runs.

Not every library survives the cap: a BLAS that cannot get its work buffer may crash the process
instead of raising ``MemoryError``. So under an address-space limit the driver also stops *before*
the cap (:meth:`AddressReserve.running_short`): once less room is left than the reserve's own size,
the search ends as if memory had run out (status ``memory``), with the reserve still to spend.

Examples
--------
>>> reserve = AddressReserve(2**20)
>>> reserve.arm()
>>> reserve.armed
True
>>> reserve.spend()
>>> reserve.armed
False
"""

from __future__ import annotations

import mmap
import time

from ..memory import address_space_room

__all__ = ["AddressReserve", "RESERVE", "RESERVE_BYTES"]

#: Bytes of address space the driver keeps mapped while a search runs (enough to restore the signal
#: handlers, extract the best tree and drop a search's memo after a ``MemoryError``).
RESERVE_BYTES = 32 * 2**20


class AddressReserve:
    """A block of address space to give back when memory runs out (see the module docstring).

    Parameters
    ----------
    size : int
        Bytes to map.
    """

    __slots__ = ("size", "_block", "_next_check")

    #: Seconds between two readings of the address space by :meth:`running_short`.
    CHECK_SECONDS = 0.01

    def __init__(self, size: int):
        self.size = size
        self._block: mmap.mmap | None = None
        self._next_check = 0.0

    def running_short(self) -> bool:
        """Whether the process has less address space left under ``RLIMIT_AS`` than the reserve's size.

        Reads ``/proc/self/statm`` at most every :attr:`CHECK_SECONDS` (False in between, and always
        False without an address-space limit).
        """
        now = time.perf_counter()
        if now < self._next_check:
            return False
        self._next_check = now + self.CHECK_SECONDS
        room = address_space_room()
        return room is not None and room < self.size

    @property
    def armed(self) -> bool:
        """Whether the block is mapped (False when mapping it failed: memory is short already)."""
        return self._block is not None

    def arm(self) -> None:
        """Map the block unless it is mapped; quietly go without when even that fails."""
        if self._block is None:
            try:
                self._block = mmap.mmap(-1, self.size)
            except (OSError, MemoryError, ValueError):
                self._block = None

    def spend(self) -> None:
        """Unmap the block, so the allocations that follow a ``MemoryError`` find room."""
        block, self._block = self._block, None
        if block is not None:
            block.close()


#: The process's one reserve, armed by ``Solver.run``/``step``/``steps`` and spent on a ``MemoryError``.
RESERVE = AddressReserve(RESERVE_BYTES)

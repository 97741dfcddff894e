"""A resident-memory reading that passes a limit after a set number of frontier solves, for the tests of
``memory_limit`` on the frontier, its cross-validation and its command (no machine-dependent memory)."""

from __future__ import annotations

import treeopt.solvers.base as driver
from treeopt.frontier import search as frontier_search
from treeopt.memory import resident_memory


def fake_memory_past(monkeypatch, limit: int, solves: int) -> dict:
    """Make the driver read a resident memory above ``limit`` once the frontier search has solved ``solves``
    (subproblem, budget) pairs, and the real reading before that. Returns the counter of solves."""
    calls = {"n": 0}
    original = frontier_search.FrontierSearch._solve

    def counted(self, *args, **kwargs):
        calls["n"] += 1
        return (yield from original(self, *args, **kwargs))

    monkeypatch.setattr(frontier_search.FrontierSearch, "_solve", counted)
    monkeypatch.setattr(driver, "resident_memory", lambda: limit + 1 if calls["n"] >= solves else resident_memory())
    return calls

"""What a search reports: its queue entries, snapshots, trace points and result.

These are the protocol's plain data (:mod:`treeopt.solvers.base` produces them, the widgets and
front ends read them), kept apart from the driver so that a reader of either finds one concept.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..tree import Tree

__all__ = ["QueueEntry", "TracePoint", "Snapshot", "SearchResult", "trace_frame", "TRACE_COLUMNS"]

#: Columns of a trace as a DataFrame (the fields of :class:`TracePoint`).
TRACE_COLUMNS = ["elapsed", "expansions", "lower_bound", "upper_bound", "queue_size", "cache_size"]


@dataclass(order=True)
class QueueEntry:
    """One entry of a solver's queue as shown to people.

    Attributes
    ----------
    priority : tuple
        The key the queue orders by (smaller first).
    rule : str
        The conjunction of tests that leads to the subproblem (or a partial tree's leaves).
    support : float
        Weight of training rows in the subproblem.
    lower_bound, upper_bound : float
        Bounds on the subproblem's optimal objective (objective units).
    payload : object
        Solver-specific detail (not compared).
    """

    priority: tuple
    rule: str = field(compare=False)
    support: float = field(compare=False)
    lower_bound: float = field(compare=False)
    upper_bound: float = field(compare=False)
    payload: Any = field(default=None, compare=False, repr=False)

    def details(self) -> list[tuple[str, str]]:
        """The payload's plain values as ``(name, text)`` pairs, the same way for every solver.

        A payload is a solver's own object (GOSDT's problem, Branches' branch, greedy's
        candidate) or a mapping (OSDT's partial tree); either way its public plain values
        (numbers, booleans, short strings and tuples of numbers; bitsets as point counts) are
        listed, so a view shows any solver's queue without knowing the solver.

        Examples
        --------
        >>> QueueEntry((1,), "x", 3.0, 0.1, 0.2, payload={"n_leaves": 2, "schedule": "bfs"}).details()
        [('n_leaves', '2'), ('schedule', 'bfs')]
        """
        payload = self.payload
        if payload is None:
            return []
        if isinstance(payload, Mapping):
            names, read = list(payload), payload.get
        else:
            names = [name for cls in type(payload).__mro__ for name in getattr(cls, "__slots__", ())]
            names += list(getattr(payload, "__dict__", {}))
            read = lambda name: getattr(payload, name, None)   # noqa: E731
        out = []
        for name in dict.fromkeys(str(n) for n in names):
            if name.startswith("_"):
                continue
            text = _plain_text(read(name))
            if text is not None:
                out.append((name, text))
        return out


def _plain_text(value) -> str | None:
    """``value`` as short text if it is a plain value worth showing, else None."""
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, (int, np.integer)):
        value = int(value)
        return f"bitset of {value.bit_count()} points" if value.bit_length() > 64 else str(value)
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.6g}"
    if isinstance(value, str):
        return value if len(value) < 200 else None
    if isinstance(value, tuple) and len(value) <= 20 and all(isinstance(v, (int, float)) for v in value):
        return "(" + ", ".join(f"{v:.6g}" if isinstance(v, float) else str(v) for v in value) + ")"
    return None


@dataclass(frozen=True)
class TracePoint:
    """One row of the search trace."""

    elapsed: float
    expansions: int
    lower_bound: float
    upper_bound: float
    queue_size: int
    cache_size: int = 0


@dataclass
class Snapshot:
    """The state of a search at one moment (what the widgets display).

    Attributes
    ----------
    solver : str
    status : str
        ``not_started``, ``paused``, ``optimal``, ``time_limit``, ``node_limit``,
        ``cache_limit``, ``memory_limit``, ``interrupted`` (Ctrl-C; resumable), ``memory`` (a
        ``MemoryError``: the search state was released, it cannot resume), ``gap_reached``,
        ``finished`` (a heuristic that ran to its end), or ``guessed`` (ran to its end against a
        guessed lower bound: not certified).
    lower_bound, upper_bound, gap : float
        Global bounds (objective units) and ``upper - lower``; the lower bound
        is certified unless ``lower_bound_guessed``.
    best_tree : Tree or None
        The incumbent.
    queue_size : int
    queue : list of QueueEntry
        The first ``top_k`` queue entries in priority order.
    prune_counts : dict
        How often each bound acted.
    expansions : int
    elapsed : float
        Seconds spent searching (paused time excluded).
    extra : dict
        Solver-specific state (e.g. the current selection path of Branches).
    cache_size : int
        Entries the search holds in memory (:attr:`Solver.cache_size`).
    lower_bound_guessed : bool
        True when the lower bound is a guess from a reference model (McTavish
        et al. 2022, section 4.3), not a proof: the gap is then measured
        against the guess, and closing it does not certify optimality.
    top_trees : list of (float, Tree)
        The best distinct trees found so far with their objectives, best
        first, for solvers that keep several (``OSDT(top_k=k)``, k > 1);
        empty otherwise.
    """

    solver: str
    status: str
    lower_bound: float
    upper_bound: float
    gap: float
    best_tree: Tree | None
    queue_size: int
    queue: list
    prune_counts: dict
    expansions: int
    elapsed: float
    extra: dict = field(default_factory=dict)
    cache_size: int = 0
    lower_bound_guessed: bool = False
    top_trees: list = field(default_factory=list)


@dataclass
class SearchResult:
    """What :meth:`Solver.run` returns: the tree and its certificate.

    ``lower_bound_guessed`` is True when ``lower_bound`` (and so ``gap``) rest
    on a guessed lower bound (McTavish et al. 2022, section 4.3) rather than a
    proof: ``optimal`` is then False and a search that ran to its end has
    status ``guessed``; see :func:`treeopt.guessing.lower_bound_guarantee` for
    what is proved then.

    ``top_trees`` lists ``(objective, Tree)`` of the best distinct trees,
    best first, for solvers that keep several (``OSDT(top_k=k)``, k > 1;
    certified when ``optimal``); it is empty otherwise.
    """

    tree: Tree
    objective: float
    lower_bound: float
    upper_bound: float
    gap: float
    optimal: bool
    status: str
    expansions: int
    elapsed: float
    prune_counts: dict
    trace: list
    cache_size: int = 0
    lower_bound_guessed: bool = False
    top_trees: list = field(default_factory=list)

    def trace_frame(self) -> pd.DataFrame:
        """The trace as a DataFrame (elapsed, expansions, lower_bound, upper_bound, queue_size, cache_size)."""
        return trace_frame(self.trace)


def trace_frame(points: list) -> pd.DataFrame:
    """Trace points (:class:`TracePoint`) as a DataFrame with the columns :data:`TRACE_COLUMNS`.

    Examples
    --------
    >>> trace_frame([TracePoint(0.5, 10, 0.1, 0.3, 4, 20)]).upper_bound.tolist()
    [0.3]
    """
    return pd.DataFrame({column: [getattr(p, column) for p in points] for column in TRACE_COLUMNS},
                        columns=TRACE_COLUMNS)

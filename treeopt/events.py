"""What a solver yields while it works: small, frozen, labelled events.

A consumer iterates ``solver.steps()`` and receives these. ``run()`` never
builds them (its fast path), so they cost nothing unless someone watches.

Examples
--------
>>> Improved(step=3, objective=0.25, n_leaves=2)
Improved(step=3, objective=0.25, n_leaves=2)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Event", "Started", "Expanded", "Pruned", "Improved", "LowerBoundRaised", "Progress", "Finished"]


@dataclass(frozen=True)
class Event:
    """Base class: ``step`` is the number of expansions done when the event happened."""

    step: int


@dataclass(frozen=True)
class Started(Event):
    """The search initialised its root problem."""

    lower_bound: float
    upper_bound: float


@dataclass(frozen=True)
class Expanded(Event):
    """A subproblem was expanded (its children were generated or its bounds recomputed)."""

    rule: str
    lower_bound: float
    upper_bound: float
    n_children: int


@dataclass(frozen=True)
class Pruned(Event):
    """A bound removed ``count`` candidates during one step; ``bound`` names it."""

    bound: str
    count: int = 1


@dataclass(frozen=True)
class Improved(Event):
    """A better incumbent tree was found (``solver.best_tree`` returns it)."""

    objective: float
    n_leaves: int


@dataclass(frozen=True)
class LowerBoundRaised(Event):
    """The certified global lower bound went up."""

    lower_bound: float


@dataclass(frozen=True)
class Progress(Event):
    """Summary emitted every ``every`` expansions by ``steps(every=...)``."""

    lower_bound: float
    upper_bound: float
    queue_size: int
    elapsed: float


@dataclass(frozen=True)
class Finished(Event):
    """The search ended: ``optimal`` when the gap closed, else ``status`` says why it stopped."""

    optimal: bool
    gap: float
    status: str

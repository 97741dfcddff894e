"""What a solver lets you switch off, declared as objects of five kinds.

A solver's search is shaped by named parts that a user, a student or a benchmark may switch
off one at a time to see what each does. They are not all bounds, and the difference matters
for what switching one off means:

- a **bound** (``kind="bound"``) prunes with a theorem: switched off, the search proves the same
  optimum with more work. Each counts its prunes and emits ``Pruned(bound, n)``.
- a **search order** (``"search_order"``) chooses what to expand next: switched off, the proof is
  the same and good trees may come later.
- a **first incumbent** (``"first_incumbent"``) seeds the best tree before the search: switched
  off, the search starts from the single leaf.
- a **subsolver** (``"subsolver"``) hands whole subproblems to a specialised exact routine:
  switched off, the general search does that work itself.
- a **constraint** (``"constraint"``) is the user's own restriction (a depth budget): counted,
  like a bound, but not a theorem.

Each is a :class:`Switch` with its name, kind, the paper it comes from and whether it is on by
default. A solver class declares its switches in ``SWITCHES``; an instance may declare more
(:meth:`treeopt.solvers.base.Solver.declare_switch`), so that a bound written by a student plugs
into the same counters, events and views as the built-in ones.

Examples
--------
>>> from treeopt.solvers import OSDT
>>> lookahead = OSDT.SWITCHES["lookahead"]
>>> lookahead.kind, lookahead.citation.startswith("OSDT Lemma 2")
('bound', True)
>>> OSDT.SWITCHES.names("bound")[:3]
['hierarchical', 'lookahead', 'leaf_support']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

__all__ = ["Switch", "Switches", "KINDS", "bound", "search_order", "first_incumbent", "subsolver",
           "constraint"]

#: The kinds of switch, in the order views list them.
KINDS = ("bound", "constraint", "subsolver", "search_order", "first_incumbent")


@dataclass(frozen=True)
class Switch:
    """One named part of a search that can be switched off.

    Parameters
    ----------
    name : str
        The key of ``bounds={...}`` (kind ``"bound"``) or ``strategies={...}`` (the other kinds).
    kind : str
        One of :data:`KINDS`.
    citation : str
        Where it comes from (paper and theorem), shown as the switch's tooltip.
    default : bool, default=True
        Whether it is on unless the user says otherwise.

    Examples
    --------
    >>> Switch("lookahead", "bound", "OSDT Lemma 2").is_bound
    True
    >>> Switch("dives", "order", "")
    Traceback (most recent call last):
    ...
    ValueError: switch 'dives' has kind 'order'; the kinds are bound, constraint, subsolver, search_order, first_incumbent.
    """

    name: str
    kind: str
    citation: str = ""
    default: bool = True

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.isidentifier():
            raise ValueError(f"a switch's name must be an identifier, got {self.name!r}.")
        if self.kind not in KINDS:
            raise ValueError(f"switch {self.name!r} has kind {self.kind!r}; the kinds are {', '.join(KINDS)}.")

    @property
    def is_bound(self) -> bool:
        """Whether it is set through ``bounds=`` (bounds and constraints) rather than ``strategies=``."""
        return self.kind in ("bound", "constraint")


def bound(name: str, citation: str, default: bool = True) -> Switch:
    """A pruning theorem: ``Switch(name, "bound", citation)``."""
    return Switch(name, "bound", citation, default)


def constraint(name: str, citation: str) -> Switch:
    """The user's own restriction, counted like a bound: ``Switch(name, "constraint", citation)``."""
    return Switch(name, "constraint", citation)


def subsolver(name: str, citation: str) -> Switch:
    """A specialised exact routine for some subproblems: ``Switch(name, "subsolver", citation)``."""
    return Switch(name, "subsolver", citation)


def search_order(name: str, citation: str) -> Switch:
    """A choice of what to expand next: ``Switch(name, "search_order", citation)``."""
    return Switch(name, "search_order", citation)


def first_incumbent(name: str, citation: str) -> Switch:
    """A tree found before (or beside) the search: ``Switch(name, "first_incumbent", citation)``."""
    return Switch(name, "first_incumbent", citation)


class Switches(Mapping):
    """An ordered, read-only collection of :class:`Switch` by name.

    Parameters
    ----------
    switches : iterable of Switch

    Examples
    --------
    >>> s = Switches([bound("a", "Theorem 1"), search_order("b", "best first")])
    >>> list(s), s.names("search_order"), s.citations()["a"]
    (['a', 'b'], ['b'], 'Theorem 1')
    >>> (s + [bound("c", "Theorem 2")]).names()
    ['a', 'b', 'c']
    """

    def __init__(self, switches: Iterable[Switch] = ()):
        self._by_name: dict[str, Switch] = {}
        for switch in switches:
            if not isinstance(switch, Switch):
                raise TypeError(f"expected a Switch, got {type(switch).__name__}.")
            if switch.name in self._by_name:
                raise ValueError(f"switch {switch.name!r} is declared twice.")
            self._by_name[switch.name] = switch

    def __getitem__(self, name: str) -> Switch:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def __add__(self, more: Iterable[Switch]) -> "Switches":
        return Switches([*self._by_name.values(), *more])

    def __repr__(self) -> str:
        return f"Switches({list(self._by_name)})"

    def names(self, kind: str | None = None) -> list:
        """The names of every switch, or of those of one kind, in declaration order."""
        return [name for name, s in self._by_name.items() if kind is None or s.kind == kind]

    def citations(self) -> dict:
        """Name → citation of every switch (the shape of a solver's ``BOUNDS``)."""
        return {name: s.citation for name, s in self._by_name.items()}

    def split(self, states: Mapping) -> dict:
        """Switch states as constructor arguments: ``{"bounds": {...}, "strategies": {...}}``.

        Examples
        --------
        >>> s = Switches([bound("a", ""), search_order("b", "")])
        >>> s.split({"a": False, "b": True, "other": False})
        {'bounds': {'a': False}, 'strategies': {'b': True}}
        """
        return {"bounds": {n: bool(on) for n, on in states.items() if n in self and self[n].is_bound},
                "strategies": {n: bool(on) for n, on in states.items() if n in self and not self[n].is_bound}}

    def without(self, *names: str) -> "Switches":
        """The same switches less ``names``."""
        return Switches(s for name, s in self._by_name.items() if name not in names)


def switches_from_citations(citations: Mapping) -> Switches:
    """Read an old-style ``BOUNDS`` mapping (name → citation) as switches of kind ``"bound"``."""
    return Switches(bound(name, text) for name, text in citations.items())

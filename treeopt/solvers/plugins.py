"""Plug-in lower bounds and queue policies: a student's own rule, switched and counted like a theorem.

A branch-and-bound search has two places where a new idea plugs in: a *lower bound* (or a
rule "prune this"), which removes a partial tree whose descendants cannot beat the incumbent,
and a *queue policy*, which chooses what to expand next. :func:`lower_bound` and
:func:`queue_policy` wrap a plain function of a :class:`~treeopt.solvers.subproblem.Subproblem`
into a plug-in that OSDT and GOSDT take as ``plugins=[...]`` (GOSDT takes lower bounds only: its
queue is not ordered by a key of a subproblem). Each plug-in declares a switch on the solver
(:meth:`treeopt.solvers.base.Solver.declare_switch`, through :func:`declare_plugins`): it has a counter in ``prune_counts``, emits
``Pruned(name, n)`` events and shows in the bounds view beside the built-in bounds, and
``bounds={name: False}`` switches it off. Whether a lower bound is *safe* (never prunes an
optimal tree) is what :func:`treeopt.check_bound` tests.

Examples
--------
The one-step lookahead bound of OSDT (Lemma 2) written as a plug-in:

>>> import numpy as np
>>> from treeopt.data import Dataset
>>> from treeopt.solvers import OSDT
>>> my_lookahead = lower_bound(
...     "my_lookahead", lambda node: node.fixed_loss + node.regularization * (node.n_leaves + node.n_split),
...     citation="OSDT Lemma 2, written by hand")
>>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
>>> solver = OSDT(Dataset.from_binary(X, [0, 1, 1, 0] * 3), regularization=0.05,
...               bounds={"lookahead": False}, plugins=[my_lookahead])
>>> result = solver.run()
>>> round(result.objective, 12), solver.bounds["my_lookahead"], "my_lookahead" in solver.prune_counts
(0.2, True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .switches import Switch
from .subproblem import Subproblem

__all__ = ["PluginBound", "QueuePolicy", "lower_bound", "queue_policy", "check_plugins", "declare_plugins",
           "try_plugins"]


@dataclass(frozen=True)
class PluginBound:
    """A user's lower bound (or "prune this" rule) on the descendants of a partial tree.

    Build it with :func:`lower_bound`.

    Attributes
    ----------
    name : str
    function : callable
        ``function(node: Subproblem) -> float | bool``: a number is a lower bound (objective
        units) on the objective of every tree that can grow from ``node``, and prunes it when it
        reaches ``node.incumbent``; ``True`` prunes it outright, ``False`` keeps it.
    citation : str
    """

    name: str
    function: Callable = field(repr=False)
    citation: str = ""

    @property
    def switch(self) -> Switch:
        return Switch(self.name, "bound", self.citation or "plug-in lower bound")

    def __call__(self, node: Subproblem):
        value = self.function(node)
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        if isinstance(value, (int, float, np.integer, np.floating)) and not math.isnan(value):
            return float(value)
        raise TypeError(f"plug-in bound {self.name!r} returned {value!r}; it must return a number (a lower "
                        "bound on every descendant's objective) or True / False (prune this or not).")


@dataclass(frozen=True)
class QueuePolicy:
    """A user's rule for which partial tree to expand next (smaller keys first).

    Build it with :func:`queue_policy`.

    Attributes
    ----------
    name : str
    function : callable
        ``function(node: Subproblem) -> float``: the partial tree's priority; the smallest is
        expanded first, ties in creation order.
    citation : str
    """

    name: str
    function: Callable = field(repr=False)
    citation: str = ""

    @property
    def switch(self) -> Switch:
        return Switch(self.name, "search_order", self.citation or "plug-in queue policy")

    def __call__(self, node: Subproblem) -> float:
        value = self.function(node)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)) \
                or math.isnan(value):
            raise TypeError(f"queue policy {self.name!r} returned {value!r}; it must return a number "
                            "(smaller is expanded first).")
        return float(value)


def _make(kind, name, function, citation):
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"a plug-in's name must be an identifier such as 'my_lookahead', got {name!r}.")
    if not isinstance(citation, str):
        raise TypeError(f"citation must be a string (where the rule comes from), got {type(citation).__name__}.")
    if function is None:
        return lambda f: _make(kind, name, f, citation)
    if not callable(function):
        raise TypeError(f"plug-in {name!r} needs a function of one partial tree (a Subproblem), got "
                        f"{type(function).__name__}.")
    return kind(name, function, citation)


def lower_bound(name: str, function: Callable | None = None, *, citation: str = "") -> PluginBound:
    """A plug-in lower bound: ``function(node) -> number`` (a bound) or ``-> bool`` (prune this).

    Parameters
    ----------
    name : str
        Its switch's name (an identifier that no built-in bound uses).
    function : callable, optional
        ``function(node: Subproblem)``. Without it, ``lower_bound(name, citation=...)`` is a
        decorator.
    citation : str, default=""
        Where the bound comes from; shown as the switch's tooltip.

    Returns
    -------
    PluginBound

    Examples
    --------
    >>> @lower_bound("hierarchical_again", citation="OSDT Theorem 1")
    ... def mine(node):
    ...     return node.fixed_loss + node.regularization * node.n_leaves
    >>> mine.name, mine.switch.kind
    ('hierarchical_again', 'bound')
    """
    return _make(PluginBound, name, function, citation)


def queue_policy(name: str, function: Callable | None = None, *, citation: str = "") -> QueuePolicy:
    """A plug-in queue policy: ``function(node) -> number``, the smallest expanded first.

    Parameters
    ----------
    name : str
        Its switch's name; switched off, the solver's ``schedule`` orders the queue.
    function : callable, optional
        ``function(node: Subproblem)``; without it, a decorator.
    citation : str, default=""

    Returns
    -------
    QueuePolicy

    Examples
    --------
    >>> fewest_leaves = queue_policy("fewest_leaves", lambda node: node.n_leaves)
    >>> fewest_leaves.switch.kind
    'search_order'
    """
    return _make(QueuePolicy, name, function, citation)


def check_plugins(plugins, taken) -> tuple:
    """Validate a solver's ``plugins=`` argument; return it as a tuple.

    Parameters
    ----------
    plugins : iterable of PluginBound or QueuePolicy, or None
    taken : collection of str
        Names already used by the solver's own switches.

    Examples
    --------
    >>> check_plugins([lambda node: 0.0], taken=())
    Traceback (most recent call last):
    ...
    TypeError: plugins must be built with treeopt.lower_bound(name, function) or treeopt.queue_policy(name, function); got function.
    """
    if plugins is None:
        return ()
    if isinstance(plugins, (PluginBound, QueuePolicy)):
        plugins = [plugins]
    plugins = tuple(plugins)
    names = set()
    for plugin in plugins:
        if not isinstance(plugin, (PluginBound, QueuePolicy)):
            raise TypeError("plugins must be built with treeopt.lower_bound(name, function) or "
                            f"treeopt.queue_policy(name, function); got {type(plugin).__name__}.")
        if plugin.name in taken:
            raise ValueError(f"plug-in {plugin.name!r} has the name of a built-in switch; rename it "
                             "(e.g. 'my_" + plugin.name + "').")
        if plugin.name in names:
            raise ValueError(f"two plug-ins are named {plugin.name!r}; give each its own name.")
        names.add(plugin.name)
    if sum(isinstance(p, QueuePolicy) for p in plugins) > 1:
        raise ValueError("at most one queue policy can order the queue; pass one QueuePolicy in plugins.")
    return plugins


def declare_plugins(solver, plugins, *, fixed_order: str | None = None) -> tuple:
    """Validate a solver's ``plugins=`` and declare each plug-in's switch on it; return them.

    Called by a solver's ``__init__`` before :class:`~treeopt.solvers.base.Solver`'s, so that
    ``bounds=`` and ``strategies=`` can set the plug-ins' switches.

    Parameters
    ----------
    solver : Solver
        Not yet initialised.
    plugins : iterable of PluginBound or QueuePolicy, or None
    fixed_order : str, optional
        How the solver orders its queue when that order is not a key of a subproblem, so that it
        takes no queue policy: one is then refused with an error that says so and names what the
        solver takes.

    Returns
    -------
    tuple of PluginBound and QueuePolicy
    """
    plugins = check_plugins(plugins, taken=type(solver).SWITCHES)
    if fixed_order is not None:
        policies = [plugin.name for plugin in plugins if isinstance(plugin, QueuePolicy)]
        if policies:
            raise ValueError(f"{type(solver).__name__} takes plug-in lower bounds (treeopt.lower_bound) but no queue "
                             f"policy, got {policies}: its queue is ordered {fixed_order}, not by a key of a "
                             "subproblem. Run queue policies in OSDT (solver='osdt').")
    for plugin in plugins:
        solver.declare_switch(plugin.switch)
    return plugins


def try_plugins(plugins, node: Subproblem, where: str) -> None:
    """Call every plug-in once on ``node``, so that a broken one fails before the search starts.

    Parameters
    ----------
    plugins : iterable of PluginBound or QueuePolicy
    node : Subproblem
    where : str
        What ``node`` is, for the error message ("the single-leaf tree").

    Examples
    --------
    >>> typo = lower_bound("typo", lambda node: node.n_leafs)
    >>> node = Subproblem.of_support((3, 1), 0.1, 0.0, regularization=0.1, incumbent=0.2, depth=0, total=4.0)
    >>> try_plugins([typo], node, "the single-leaf tree")
    Traceback (most recent call last):
    ...
    ValueError: plug-in 'typo' fails on the single-leaf tree: AttributeError: 'Subproblem' object has no attribute 'n_leafs'. It receives a treeopt.Subproblem (fields fixed_counts, split_counts, fixed_losses, split_losses, split_equivalent_losses, regularization, incumbent, depth, total).
    """
    for plugin in plugins:
        try:
            plugin(node)
        except TypeError:
            raise
        except Exception as error:
            raise ValueError(f"plug-in {plugin.name!r} fails on {where}: {type(error).__name__}: {error}. It "
                             "receives a treeopt.Subproblem (fields fixed_counts, split_counts, fixed_losses, "
                             "split_losses, split_equivalent_losses, regularization, incumbent, depth, total).") \
                from error

"""Plug-in lower bounds in GOSDT: a student's bound raises a support's lower bound, never lowers it.

GOSDT (Lin et al., *Generalized and Scalable Optimal Sparse Decision Trees*, ICML 2020, section 4)
keeps bounds ``lb <= R*(p) <= ub`` on the optimum of every support ``p``, with
``R*(p) = min(leaf(p), best split of p)`` (equation 7). A plug-in built with
:func:`treeopt.lower_bound` sees the support as OSDT's partial tree with one split leaf
(:meth:`treeopt.Subproblem.of_support`), so its number ``b`` bounds every subtree that splits the
support, and ``min(leaf(p), b)`` bounds ``R*(p)``: the hook raises ``lb`` to it when it is larger
(Theorem B.3's hierarchical bound, the ``scope`` and ``_rebound`` then prune with it). A plug-in
that answers ``True`` ("prune this") says that no such subtree beats the subproblem's
``incumbent``, which is then its bound.

The plug-in's counter in ``prune_counts`` (and its ``Pruned`` events) counts the supports it
pruned: those it closed as a leaf (``b`` reaches the leaf's objective) and those whose bound
reaches what the parent that created them can use, the parent's target ``min(ub, scope)`` less
one leaf (a sibling subtree costs at least λ).

Examples
--------
>>> import numpy as np
>>> import treeopt
>>> from treeopt.data import Dataset
>>> from treeopt.solvers import GOSDT
>>> xor = Dataset.from_binary(np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3), [0, 1, 1, 0] * 3)
>>> lookahead = treeopt.lower_bound("my_lookahead", lambda node: node.fixed_loss
...                                 + node.regularization * (node.n_leaves + node.n_split))
>>> result = GOSDT(xor, regularization=0.05, bounds={"lookahead": False}, plugins=[lookahead]).run()
>>> result.optimal, result.tree.n_leaves
(True, 4)

A rule "never split below the root" (unsafe: XOR needs two levels) prunes both children of the
root, and the search returns the single leaf:

>>> one_level = treeopt.lower_bound("one_level", lambda node: node.depth >= 1)
>>> solver = GOSDT(xor, regularization=0.05, plugins=[one_level])
>>> solver.run().tree.n_leaves, solver.prune_counts["one_level"] > 0
(1, True)
"""

from __future__ import annotations

import math

from ..plugins import PluginBound, try_plugins
from ..subproblem import Subproblem
from .problem import Problem

__all__ = ["PluginLowerBounds"]


class PluginLowerBounds:
    """The plug-in lower bounds of one GOSDT search, called where a problem's lower bound is set.

    Parameters
    ----------
    solver : GOSDT
        Initialised: its switch states, counters, λ and loss model are read.
    plugins : sequence of PluginBound
    """

    def __init__(self, solver, plugins):
        self.solver = solver
        self.plugins = [plugin for plugin in plugins if isinstance(plugin, PluginBound)]
        self.total = float(solver.dataset.total_weight)

    def check_on_root(self) -> None:
        """Call every plug-in once on the whole data set, so a broken one fails before the search."""
        solver = self.solver
        support = solver.dataset.all_points
        counts = solver.dataset.class_counts(support)
        loss = solver.model.leaf(counts)[0]
        root = Subproblem.of_support(counts, loss / self.total, solver.model.equivalent_points(support) / self.total,
                                     regularization=solver.regularization,
                                     incumbent=(loss + solver.penalty) / self.total, depth=0, total=self.total)
        try_plugins(self.plugins, root, "the whole data set (the root's support)")

    def raise_bound(self, problem: Problem) -> None:
        """Raise ``problem.lb`` (weight units) to the plug-ins' bounds that are on; count their prunes."""
        solver = self.solver
        on = [plugin for plugin in self.plugins if solver.bounds[plugin.name]]
        if not on or problem.lb >= problem.ub:
            return
        W = self.total
        incumbent = self._incumbent(problem)
        eq = problem.eq if solver.bounds["equivalent_points"] else solver.model.equivalent_points(problem.support)
        node = Subproblem.of_support(problem.counts, problem.leaf_loss / W, eq / W,
                                     regularization=solver.regularization, incumbent=incumbent / W,
                                     depth=self._depth(problem), total=W)
        eps = solver.eps
        for plugin in on:
            value = plugin(node)
            if value is False:
                continue
            bound = incumbent if value is True else value * W
            if bound >= problem.leaf_obj - eps or bound >= incumbent - eps:
                solver.prune_counts[plugin.name] += 1
            bound = min(problem.leaf_obj, bound)
            if bound > problem.lb:
                problem.lb = problem.ub if bound >= problem.ub - eps else bound

    def _incumbent(self, problem: Problem) -> float:
        """What the parent that created ``problem`` can still use from it (weight units); at the root, its ub."""
        if problem.origin is None:
            return problem.ub
        parent = problem.origin[0]
        target = parent.ub if parent.scope == -math.inf else min(parent.ub, parent.scope)
        return target - self.solver.penalty

    def _depth(self, problem: Problem) -> int:
        """The depth of ``problem``'s node: exact under a depth budget, else that of its first path."""
        budget = self.solver.depth_budget
        if budget is not None and problem.depth_left is not None:
            return budget - problem.depth_left
        depth, node = 0, problem
        while node.origin is not None:
            depth, node = depth + 1, node.origin[0]
        return depth

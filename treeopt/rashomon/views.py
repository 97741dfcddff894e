"""Count tables of a Rashomon set, optionally filtered, and the trees they index.

A :class:`SetView` reads the subproblems of a :class:`~treeopt.rashomon.search.RashomonGraph` and
recounts them under filters by dynamic programming over the same graph, never by listing trees:

* ``avoid``: features no split may use (their splits are dropped from every subproblem);
* ``require``: features every tree must split on somewhere (each table cell also records which of
  them its trees use, a bitmask; the root keeps the cells that use them all);
* ``max_depth``: the subproblems are indexed by the depth still allowed;
* ``max_leaves``: cells with more leaves are dropped at every subproblem;
* ``bound``: the root keeps cells with objective ≤ ``bound`` (at most the graph's bound).

A cell is ``(loss, leaves, used)``; its trees are ordered leaf first, then by split feature,
then by left cell, right cell, left tree, right tree. The i-th tree of the view in objective order
is found by walking down these counts (unranking).
"""
from __future__ import annotations

import numpy as np

from treeopt.nodes import Leaf, Split

__all__ = ["SetView"]


class SetView:
    """The trees of a Rashomon graph within a bound, under optional filters.

    Parameters
    ----------
    graph : RashomonGraph
        Solved for at least ``bound`` (:meth:`~treeopt.rashomon.search.RashomonGraph.solve_root`).
    bound : float
        Largest objective kept (objective units).
    max_depth, max_leaves : int, optional
    avoid : iterable of int
        Binary feature indices no split may use.
    require : iterable of int or of sets of int
        Every tree must split on each of these features (on at least one feature of each set).

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.rashomon.search import RashomonGraph
    >>> graph = RashomonGraph(Dataset.from_binary(np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), [0, 0, 1, 1]), 0.1)
    >>> _ = graph.solve_root(0.45)
    >>> SetView(graph, 0.45).count(), SetView(graph, 0.45, avoid=[1]).count(), SetView(graph, 0.45, max_depth=1).count()
    (2, 1, 1)
    """

    def __init__(self, graph, bound: float, *, max_depth: int | None = None, max_leaves: int | None = None,
                 avoid=(), require=()):
        self.graph = graph
        self.bound = float(bound)
        self.max_depth = None if max_depth is None else int(max_depth)
        self.max_leaves = None if max_leaves is None else int(max_leaves)
        self.avoid = frozenset(int(j) for j in avoid)
        self.require = tuple(frozenset([int(group)]) if isinstance(group, (int, np.integer))
                             else frozenset(int(j) for j in group) for group in require)
        for group in self.require:
            if group <= self.avoid:
                raise ValueError(f"features {sorted(group)} are required but all avoided.")
        self.full = (1 << len(self.require)) - 1
        self._bit: dict = {}
        for i, group in enumerate(self.require):
            for j in group:
                self._bit[j] = self._bit.get(j, 0) | (1 << i)
        self.filtered = bool(self.avoid or self.require or self.max_depth is not None or self.max_leaves is not None)
        self._cells: dict = {}
        self._root_cells = None

    # -- structure -----------------------------------------------------------
    @property
    def root(self) -> tuple:
        """The key ``(support, depth left)`` of the root subproblem."""
        return (self.graph.root, self.max_depth)

    def node(self, key):
        """The graph node of a key."""
        return self.graph.nodes[key[0]]

    def leaf_key(self, key):
        """The cell of the single leaf at ``key`` (``None`` when it is out of budget)."""
        node = self.graph.nodes.get(key[0])
        return (node.leaf_loss, 1, 0) if node is not None and node.leaf_fits else None

    def splits(self, key) -> list:
        """``(feature, left key, right key, required bit, trivial)`` of every split allowed at ``key``.

        ``trivial`` is true when the two children as leaves predict the same class (that pair is not a tree).
        """
        support, depth = key
        if (depth is not None and depth <= 0) or support not in self.graph.nodes:
            return []
        child_depth = None if depth is None else depth - 1
        nodes = self.graph.nodes
        out = []
        for j, left, right in nodes[support].splits:
            if j in self.avoid:
                continue
            out.append((j, (left, child_depth), (right, child_depth), self._bit.get(j, 0),
                        nodes[left].label == nodes[right].label))
        return out

    def cells(self, key) -> list:
        """Sorted ``(objective in weight units, loss, leaves, used, count)`` of the trees at ``key``."""
        cells = self._cells.get(key)
        if cells is not None:
            return cells
        node = self.graph.nodes.get(key[0])
        if node is None:                                  # never solved: no tree fits (an empty set's root)
            return []
        if not self.filtered:
            cells = [(o, m, k, 0, c) for o, m, k, c in node.cells]
        else:
            cells = self._compute(key, node)
        self._cells[key] = cells
        return cells

    def _compute(self, key, node) -> list:
        cost = self.graph.leaf_cost
        out: dict = {}
        if node.leaf_fits:
            out[(node.leaf_loss, 1, 0)] = 1
        for _, cell_l, cell_r, cell in self.pairs(key):
            out[cell] = out.get(cell, 0) + cell_l[4] * cell_r[4]
        return sorted((m + cost * k, m, k, e, c) for (m, k, e), c in out.items() if c)

    def pairs(self, key):
        """Yield ``(split, left cell, right cell, cell)`` for every pair of child cells within budget at ``key``.

        ``cell`` is the ``(loss, leaves, used)`` the pair makes; the trivial pair of two same-class leaves
        is left out. Every analysis of the set (counts, agreement, importance) walks these pairs.
        """
        graph = self.graph
        limit, max_leaves = graph.nodes[key[0]].budget + graph.tol, self.max_leaves
        for split in self.splits(key):
            _, left, right, bit, trivial = split
            cells_right = self.cells(right)
            if not cells_right:
                continue
            first_right = cells_right[0][0]
            for cell_l in self.cells(left):
                o_l, m_l, k_l, e_l, _ = cell_l
                room = limit - o_l
                if room < first_right:
                    break
                for cell_r in cells_right:
                    o_r, m_r, k_r, e_r, _ = cell_r
                    if o_r > room:
                        break
                    if max_leaves is not None and k_l + k_r > max_leaves:
                        continue
                    if trivial and k_l == 1 and k_r == 1:
                        continue                          # the two leaves: the trivial extension
                    yield split, cell_l, cell_r, (m_l + m_r, k_l + k_r, e_l | e_r | bit)

    def root_cells(self) -> list:
        """The cells of the set: root cells within the bound that use every required feature."""
        if self._root_cells is None:
            limit = self.bound / self.graph.scale + self.graph.tol
            max_leaves = self.max_leaves
            self._root_cells = [cell for cell in self.cells(self.root)
                                if cell[0] <= limit and cell[3] == self.full
                                and (max_leaves is None or cell[2] <= max_leaves)]
        return self._root_cells

    def count(self) -> int:
        """Exact number of trees."""
        return sum(cell[4] for cell in self.root_cells())

    def objective(self, cell) -> float:
        """Objective (objective units) of a cell."""
        return self.graph.objective_of(cell[1], cell[2])

    # -- trees ---------------------------------------------------------------
    def _leaf(self, support: int) -> Leaf:
        return self.graph.leaf_node(support)

    def locate(self, index: int) -> tuple:
        """``(root cell, rank inside the cell)`` of the index-th tree in objective order."""
        if index < 0:
            raise IndexError(f"index {index} is negative")
        rank = index
        for cell in self.root_cells():
            if rank < cell[4]:
                return cell, rank
            rank -= cell[4]
        raise IndexError(f"index {index} out of range for a Rashomon set of {self.count()} trees")

    def tree_root(self, index: int):
        """Root node (:class:`Leaf` / :class:`Split`) of the index-th tree in objective order."""
        cell, rank = self.locate(index)
        return self._build(self.root, cell[1:4], rank)

    def _pairs(self, key, target):
        """Yield ``(split, left cell, right cell, count)`` of every child pair making the cell ``target``."""
        for split, cell_l, cell_r, cell in self.pairs(key):
            if cell == target:
                yield split, cell_l, cell_r, cell_l[4] * cell_r[4]

    def _build(self, key, target, rank):
        if self.leaf_key(key) == target:
            if rank == 0:
                return self._leaf(key[0])
            rank -= 1
        for split, cell_l, cell_r, count in self._pairs(key, target):
            if rank >= count:
                rank -= count
                continue
            j, left, right = split[:3]
            c_r = cell_r[4]
            return Split(j, self._build(left, cell_l[1:4], rank // c_r), self._build(right, cell_r[1:4], rank % c_r))
        raise IndexError("rank beyond the cell (inconsistent tables)")   # cannot happen

    def iter_roots(self):
        """Every tree's root node, in objective order (the order of :meth:`tree_root`)."""
        for cell in self.root_cells():
            yield from self._enumerate(self.root, cell[1:4])

    def _enumerate(self, key, target):
        if self.leaf_key(key) == target:
            yield self._leaf(key[0])
        for split, cell_l, cell_r, _ in self._pairs(key, target):
            j, left, right = split[:3]
            for tree_l in self._enumerate(left, cell_l[1:4]):
                for tree_r in self._enumerate(right, cell_r[1:4]):   # fresh nodes: trees share no objects
                    yield Split(j, tree_l, tree_r)

    def iter_shapes(self):
        """``(root cell, depth, features used)`` of every tree, in objective order (the order of :meth:`tree_root`).

        Cheaper than building the trees: the shapes of each subproblem's cell are listed once and reused.
        """
        memo: dict = {}
        for cell in self.root_cells():
            for depth, used in self._shapes(self.root, cell[1:4], memo):
                yield cell, depth, used

    def _shapes(self, key, target, memo) -> list:
        found = memo.get((key, target))
        if found is not None:
            return found
        out = [(0, frozenset())] if self.leaf_key(key) == target else []
        for split, cell_l, cell_r, _ in self._pairs(key, target):
            j, left, right = split[:3]
            rights = self._shapes(right, cell_r[1:4], memo)
            for depth_l, used_l in self._shapes(left, cell_l[1:4], memo):
                for depth_r, used_r in rights:
                    out.append((1 + max(depth_l, depth_r), used_l | used_r | {j}))
        memo[(key, target)] = out
        return out

    def postorder(self) -> list:
        """Every key reachable from the root, children before parents (none when the set is empty)."""
        if not self.root_cells():
            return []
        seen, order, stack = set(), [], [(self.root, False)]
        while stack:
            key, done = stack.pop()
            if done:
                order.append(key)
                continue
            if key in seen:
                continue
            seen.add(key)
            stack.append((key, True))
            for _, left, right, _, _ in self.splits(key):
                for child in (right, left):
                    if child not in seen:
                        stack.append((child, False))
        return order

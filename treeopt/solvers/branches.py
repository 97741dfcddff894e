"""Branches: dynamic programming and branch & bound over branches, with multiway splits.

Chaouki, Read, Bifet, *Branches: a fast dynamic programming and branch &
bound algorithm for optimal decision trees* (2024), sections 3-4 and
appendix B. Read it beside this file; the names below follow it.

A *branch* (section 3.1) is a conjunction of clauses ``column = category``
using each column at most once. Splitting a branch on an unused column gives
one child per category present in the branch's data (a multiway split on a
categorical column; a binary split on a binary column). The memo
(appendix B.1) identifies a branch by its *set* of clauses, whatever order
they were added in: we encode the sorted clauses as one integer, with a
small slot of bits per column holding ``category + 1`` (0: column unused),
which is the paper's sorted-clause string in a form Python hashes fast.
Unlike GOSDT's support-set keys, two branches with different clauses never
share an entry (the caution argued in appendix B.1).

The paper maximises ``accuracy − λ × splits`` (section 3.2). We minimise the
equivalent cost, in *weight units* (loss × total weight, as the other
solvers): a branch's optimal cost ``R*(b)`` is the least over its sub-trees of
the leaves' losses plus the price of their splits. The price of a split is
``λ`` with ``penalty="split"`` (Branches) and ``λ × (children − 1)`` with
``penalty="leaf"`` (OSDT/GOSDT), because a tree with ``L`` leaves made of
splits with ``k_s`` children has ``L = 1 + Σ (k_s − 1)``: the leaf objective
is the split-priced cost plus the constant ``λ`` of the root leaf. With
binary splits every split adds one leaf, so the two objectives differ by
exactly ``λ`` and have the same optimal trees; with multiway splits the leaf
penalty charges a ``k``-way split ``k − 1`` times.

Every branch keeps ``lb <= R*(b) <= ub``. ``lb`` is the optimistic estimate
of the paper (an upper bound on the optimal return, here a lower bound on
cost); ``ub`` is the cost of the best sub-tree found so far (the anytime
incumbent, which the paper does not need but our protocol reports).

Purification bound (Proposition 4.2, equations 3-4)
    A branch not yet visited cannot do better than a leaf, or than one split
    that makes every child pure: ``lb(b) = min(leaf loss, λ + 0)``. With the
    ``equivalent_points`` switch, the pure-children cost ``0`` is raised to
    the minority weight of the branch's equivalence classes (GOSDT Theorem
    B.9), which no tree can separate. A split action's estimate is
    ``price + Σ lb(children)`` (equations 1-3). Counted: split actions
    discarded at expansion because their estimate cannot beat the branch's
    best known sub-tree (with the switch off, unvisited branches start at the
    equivalent-points bound alone, or 0).

Each iteration (section 4.2, one ``yield``):

Selection
    From the root, take the action of least estimate (highest optimal-return
    estimate), then one of its incomplete children, until an unvisited
    branch. The paper's child criterion is lost in the text copy; we take the
    incomplete child with the widest ``ub − lb`` gap (any choice keeps
    Theorem 4.3). Memo-shared branches may hold stale (still valid) bounds
    from another parent: they are refreshed as the path passes them.
Expansion
    Evaluate every split of the branch (every unused column with at least
    two categories present), creating children in the memo with purification
    estimates. A branch with no split, a pure branch, or one at the depth
    budget is terminal: its value is its leaf.
Backpropagation
    Recompute estimates and incumbents along the path, bottom-up (the
    Bellman equations, Proposition 4.1), discarding actions whose estimate
    cannot beat the branch's incumbent (counted as ``backpropagation``).

Completion labels: a branch is *complete* when ``lb == ub``, i.e. the
action of best estimate is the leaf or a complete split (section 4.2). The
search ends when the root is complete, which certifies optimality
(Theorem 4.3); a stopped search reports the root's ``[lb, ub]`` as its gap.
"""

from __future__ import annotations

import heapq

from ..categorical import CategoricalDataset
from ..data import Dataset
from ..events import Expanded, Pruned, Started
from ..tree import Leaf, MultiwaySplit, Split, Tree
from .base import EPS, QueueEntry, Solver
from .capabilities import Capabilities

__all__ = ["Branches"]

PENALTIES = ("split", "leaf")


class Branch:
    """A branch of the memo: the rows in ``support``, bounds on its optimal cost (weight units)."""

    __slots__ = ("key", "support", "depth", "counts", "leaf_loss", "prediction", "lb", "ub", "actions",
                 "visited", "origin")

    def __init__(self, key, support, depth, counts, leaf_loss, prediction, lb, origin):
        self.key = key                # sorted clauses, encoded as an int (module docstring)
        self.support = support
        self.depth = depth
        self.counts = counts
        self.leaf_loss = leaf_loss
        self.prediction = prediction
        self.lb = lb
        self.ub = leaf_loss
        self.actions = None           # list of (column, categories, children, price), once visited
        self.visited = False
        self.origin = origin          # (parent, column) of the first path that created it

    @property
    def complete(self) -> bool:
        return self.lb >= self.ub


class Branches(Solver):
    """Optimal decision trees over categorical and binary columns (Branches).

    Minimises ``loss + λ × splits`` (``penalty="split"``, the paper's
    objective) or ``loss + λ × leaves`` (``penalty="leaf"``, as GOSDT) with
    multiway splits on categorical columns, binary splits on binary ones,
    any number of classes, and any additive objective.

    Parameters
    ----------
    dataset : CategoricalDataset or Dataset
        A plain binary :class:`~treeopt.data.Dataset` is searched with one
        binary column per feature.
    regularization : float
        λ, in (0, 1].
    penalty : {"split", "leaf"}, default="split"
        What λ is charged for (see the module docstring for how they relate).
    objective : str or Objective, default="accuracy"
    bounds : dict of str to bool, optional
        Switch bounds off by name: ``purification``, ``equivalent_points``.
    depth_budget : int, optional
        Maximum number of clauses in a branch (a single leaf has depth 0).

    Examples
    --------
    >>> import pandas as pd
    >>> from treeopt.categorical import CategoricalDataset
    >>> X = pd.DataFrame({"color": ["red", "green", "blue"] * 4, "size": ["S", "L"] * 6})
    >>> y = ["a", "b", "c"] * 4                          # three classes, one per color
    >>> solver = Branches(CategoricalDataset.from_arrays(X, y), regularization=0.1)
    >>> result = solver.run()
    >>> print(result.tree.rules(show_counts=False))
    if color = blue:  # and unseen values
        predict c
    elif color = green:
        predict b
    elif color = red:
        predict a
    >>> result.optimal, result.objective, result.tree.n_splits
    (True, 0.1, 1)
    """

    name = "branches"
    CAPABILITIES = Capabilities(dataset="categorical", penalties=("split", "leaf"))
    BOUNDS = {
        "purification": "Branches Proposition 4.2 (purification bounds, equations 3-4)",
        "equivalent_points": "GOSDT Theorem B.9 (equivalent points), tightening the purification bound",
        "depth": "depth_budget (not a theorem: the user's constraint)",
    }

    def __init__(self, dataset: Dataset, *, regularization: float, penalty: str = "split",
                 objective="accuracy", bounds: dict | None = None, depth_budget: int | None = None):
        if penalty not in PENALTIES:
            raise ValueError(f"penalty must be 'split' (λ per internal node, Branches) or 'leaf' (λ per leaf, "
                             f"OSDT/GOSDT), got {penalty!r}.")
        if isinstance(dataset, Dataset) and not isinstance(dataset, CategoricalDataset):
            dataset = CategoricalDataset.from_dataset(dataset)
        super().__init__(dataset, regularization=regularization, objective=objective, bounds=bounds,
                         depth_budget=depth_budget)
        if not self.objective.additive:
            raise ValueError(f"Branches needs an additive objective; {self.objective.name!r} is not.")
        self.penalty = penalty
        self.model = self.objective.loss_model(dataset)
        self.lam = self.regularization * dataset.total_weight   # λ in weight units
        self.eps = EPS * dataset.total_weight   # relative: tiny weights keep their ties
        self.prune_counts["backpropagation"] = 0
        self.columns = dataset.columns
        self.masks = dataset.column_masks
        # Memo keys: column c owns bits [offset_c, offset_c + width_c) holding category + 1.
        self._offsets, self._slots = [], []
        offset = 0
        for masks in self.masks:
            width = (len(masks) + 1).bit_length()
            self._offsets.append(offset)
            self._slots.append(((1 << width) - 1) << offset)
            offset += width
        self.memo: dict[int, Branch] = {}
        self.root: Branch | None = None
        self._frontier: dict[int, Branch] = {}
        self._path: list[Branch] = []

    # -- branches --------------------------------------------------------------
    def _new_branch(self, key: int, support: int, depth: int, origin) -> Branch:
        counts = self.dataset.class_counts(support)
        leaf_loss, prediction = self.model.leaf(counts)
        branch = Branch(key, support, depth, counts, leaf_loss, prediction, leaf_loss, origin)
        if leaf_loss <= self.eps:
            branch.lb = branch.ub = leaf_loss                     # pure: terminal
        elif self.depth_budget is not None and depth >= self.depth_budget:
            branch.lb = branch.ub = leaf_loss
            self.prune_counts["depth"] += 1
        else:
            eq = 0
            if self.bounds["equivalent_points"]:
                eq = self.model.equivalent_points(support)
                if eq > 0:
                    self.prune_counts["equivalent_points"] += 1
            if self.bounds["purification"]:
                lb = min(leaf_loss, eq + self.lam)                # Proposition 4.2, equation (4)
            else:
                lb = eq
            branch.lb = leaf_loss if lb >= leaf_loss - self.eps else lb
        return branch

    def _children_bounds(self, branch: Branch, column: int):
        """The parts of ``branch`` split on ``column``: (category, key, support, existing branch or None)."""
        support = branch.support
        offset = self._offsets[column]
        parts = []
        for k, mask in enumerate(self.masks[column]):
            part = support & mask
            if part:
                key = branch.key | ((k + 1) << offset)
                parts.append((k, key, part, self.memo.get(key)))
        return parts

    def _price(self, n_children: int) -> float:
        return self.lam if self.penalty == "split" else self.lam * (n_children - 1)

    # -- the search --------------------------------------------------------------
    def _search(self):
        ds = self.dataset
        self.root = self._new_branch(0, ds.all_points, 0, None)
        self.memo[0] = self.root
        if not self.root.complete:
            self._frontier[0] = self.root
        self._emit(Started(0, self.lower_bound, self.upper_bound))
        self._record()
        root = self.root
        while not root.complete:
            before = (root.lb, root.ub)
            if not self._iterate():
                break
            self.expansions += 1
            if (root.lb, root.ub) != before:
                self._record(improved=root.ub < before[1], raised=root.lb > before[0])
            yield
        if not root.complete:  # pragma: no cover - defensive
            raise RuntimeError("Branches stopped before the root was complete; please report this bug.")

    def _iterate(self) -> bool:
        """Selection, expansion, backpropagation (section 4.2); False once the root is complete."""
        root = self.root
        while True:
            path = [root]
            node = root
            while True:
                action = self._refresh(node) if node.visited else None
                if node.complete:
                    if node is root:
                        self._path = path
                        return False
                    self._backpropagate(path[:-1])     # a memo-shared branch was already complete
                    break
                if not node.visited:
                    self._expand(node)
                    self._backpropagate(path[:-1])
                    self._path = path
                    return True
                node = self._select_child(action)
                path.append(node)

    @staticmethod
    def _select_child(action) -> Branch:
        """The incomplete child of the selected action with the widest gap."""
        chosen, gap = None, -1.0
        for child in action[2]:
            if not child.complete and child.ub - child.lb > gap:
                chosen, gap = child, child.ub - child.lb
        if chosen is None:  # pragma: no cover - defensive
            raise RuntimeError("Branches selected a complete action of an incomplete branch; please report this bug.")
        return chosen

    def _expand(self, branch: Branch) -> None:
        """Evaluate every split of ``branch`` with purification estimates for new children."""
        branch.visited = True
        self._frontier.pop(branch.key, None)
        ub = branch.leaf_loss
        kept = []
        discarded = 0
        for column in range(len(self.columns)):
            if branch.key & self._slots[column]:
                continue                                          # a column is used once per branch
            parts = self._children_bounds(branch, column)
            if len(parts) < 2:
                continue
            price = self._price(len(parts))
            lb_a, ub_a = price, price
            fresh = []
            for k, key, part, child in parts:
                if child is None:
                    child = self._new_branch(key, part, branch.depth + 1, (branch, column))
                    fresh.append(child)
                lb_a += child.lb
                ub_a += child.ub
            if lb_a >= ub - self.eps:
                discarded += 1                                    # cannot beat the best known sub-tree
                continue
            for child in fresh:
                self.memo[child.key] = child
                if not child.complete:
                    self._frontier[child.key] = child
            children = [self.memo[key] for _, key, _, _ in parts]
            kept.append((column, tuple(k for k, _, _, _ in parts), tuple(children), price))
            if ub_a < ub:
                ub = ub_a
        branch.actions = kept
        if discarded:
            self.prune_counts["purification"] += discarded
        self._refresh(branch)
        if self._events is not None:
            self._emit(Expanded(self.expansions, self.rule(branch), self._obj(branch.lb),
                                self._obj(branch.ub), len(branch.actions)))
            if discarded:
                self._emit(Pruned(self.expansions, "purification", discarded))

    def _refresh(self, branch: Branch):
        """Bellman update (Proposition 4.1) of a visited branch from its children's current bounds.

        Returns the split action of least estimate (the one Selection follows), or None if complete.
        """
        if branch.complete:
            return None
        lb = ub = branch.leaf_loss
        best = None
        selected, selected_lb = None, None
        scored = []
        for action in branch.actions:
            price, children = action[3], action[2]
            lb_a = ub_a = price
            for child in children:
                lb_a += child.lb
                ub_a += child.ub
            scored.append((lb_a, action))
            if ub_a < ub:
                ub, best = ub_a, action
            if selected is None or lb_a < selected_lb:
                selected, selected_lb = action, lb_a
        if selected is not None and selected_lb < lb:
            lb = selected_lb
        limit = ub - self.eps
        keep = [action for lb_a, action in scored if lb_a < limit or action is best]
        dropped = len(scored) - len(keep)
        if dropped:
            branch.actions = keep
            self.prune_counts["backpropagation"] += dropped
        lb = max(lb, branch.lb)
        branch.ub = ub
        branch.lb = ub if lb >= limit else lb                     # completion label
        return selected

    def _backpropagate(self, path: list) -> None:
        for branch in reversed(path):
            self._refresh(branch)

    # -- reading the state -------------------------------------------------------
    def _constant(self) -> float:
        """The root leaf's λ under the leaf penalty (weight units)."""
        return self.lam if self.penalty == "leaf" else 0.0

    def _obj(self, cost: float) -> float:
        return self.model.to_objective(cost + self._constant())

    @property
    def lower_bound(self) -> float:
        return self._obj(self.root.lb) if self.root is not None else 0.0

    @property
    def upper_bound(self) -> float:
        if self.root is None:                       # before the first step: the single leaf
            counts = self.dataset.class_counts(self.dataset.all_points)
            return self._obj(self.model.leaf(counts)[0])
        return self._obj(self.root.ub)

    @property
    def queue_size(self) -> int:
        return len(self._frontier)

    @property
    def cache_size(self) -> int:
        """Branches in the memo (appendix B.1), each with its actions once visited.

        The frontier and the selection path only refer to memo branches, so
        they add nothing. Branches are never freed, so this never decreases.
        """
        return len(self.memo)

    def _incumbent(self) -> Tree:
        ds = self.dataset
        if self.root is None:
            counts = ds.class_counts(ds.all_points)
            loss, pred = self.model.leaf(counts)
            root = Leaf(pred, counts, self.model.to_objective(loss))
        else:
            root = self._extract(self.root)
        return Tree(root, ds.features, ds.classes, binarizer=ds.binarizer)

    def _extract(self, branch: Branch):
        """Follow, at each branch, the option (leaf or split) of least upper bound."""
        best, best_ub = None, branch.leaf_loss - self.eps
        for action in branch.actions or ():
            ub_a = action[3] + sum(child.ub for child in action[2])
            if ub_a < best_ub:
                best, best_ub = action, ub_a
        if best is None:
            return Leaf(branch.prediction, branch.counts, self.model.to_objective(branch.leaf_loss))
        column, categories, children, _ = best
        col = self.columns[column]
        subtrees = [self._extract(child) for child in children]
        if col.kind == "binary":
            return Split(col.feature, subtrees[0], subtrees[1])
        return MultiwaySplit(col.name, col.column_index, [col.values[k] for k in categories], subtrees)

    def _clauses(self, key: int) -> list:
        clauses = []
        for column, (offset, slot) in enumerate(zip(self._offsets, self._slots)):
            code = (key & slot) >> offset
            if code:
                clauses.append((column, code - 1))
        return clauses

    def rule(self, branch: Branch) -> str:
        """The branch's clauses, in column order (its memo identity)."""
        parts = []
        for column, k in self._clauses(branch.key):
            col = self.columns[column]
            if col.kind == "binary":
                feature = self.dataset.features[col.feature]
                parts.append(feature.name if k else feature.negated_name)
            else:
                parts.append(self.dataset.features[col.features[k]].name)   # "x = v", or "x is missing"
        return " and ".join(parts) or "(all rows)"

    def _entry(self, branch: Branch, priority: tuple) -> QueueEntry:
        return QueueEntry(priority=priority, rule=self.rule(branch), support=float(sum(branch.counts)),
                          lower_bound=self._obj(branch.lb), upper_bound=self._obj(branch.ub), payload=branch)

    def _queue_entries(self, k: int) -> list:
        """The unvisited branches of the memo, widest gap between their estimates first."""
        chosen = heapq.nsmallest(k, self._frontier.values(), key=lambda b: (b.lb - b.ub, b.depth))
        return [self._entry(b, (b.lb - b.ub, b.depth)) for b in chosen]

    def _snapshot_extra(self) -> dict:
        """The current selection path (root first) with its estimates, and the memo size."""
        return {"path": [self._entry(b, (i,)) for i, b in enumerate(self._path)],
                "memo": len(self.memo), "penalty": self.penalty}

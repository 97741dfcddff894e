"""The working tree of greedy induction and pruning (before it becomes a :class:`~treeopt.tree.Tree`).

Greedy induction (slides part 1: "split and prune") grows nodes top-down and
then prunes them bottom-up; both phases need more per node than a finished
:class:`~treeopt.tree.Tree` keeps: the points that reach the node, their
statistics (class counts, or ``(w, Σwy, Σwy²)`` for regression), the split
chosen and the alternatives it beat. :class:`GrownNode` holds that, and
:meth:`GrownNode.to_node` turns it into the core's ``Leaf``/``Split``/
``MultiwaySplit`` nodes.

Points are the rows of a *point table* (the distinct binary feature vectors
with summed statistics; for classification the equivalence classes of
:class:`~treeopt.data.Dataset`): a node holds the indices of its points.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Callable, Iterator

import numpy as np

__all__ = ["Candidate", "GrownNode", "route"]


@dataclass(order=True)
class Candidate:
    """One way to split a node, with its score.

    Candidates sort best first: by descending score, then by ``order`` (the
    position of the feature, so ties go to the first feature, deterministically).

    Attributes
    ----------
    sort_key : tuple
        ``(-score, order)``.
    score : float
        The criterion's value (impurity decrease or gain ratio).
    kind : {"binary", "multiway"}
        ``binary``: two branches, feature false then true. ``multiway``: one
        branch per category of an original column (C4.5).
    label : str
        What the split tests (``Crowded`` or ``age <= 30``).
    features : tuple of int
        ``binary``: the one binary feature. ``multiway``: one one-hot
        feature per branch.
    branch_names : tuple of str
        The test that leads into each branch (for rules).
    child_stats : ndarray of shape (n_branches, k)
        Statistics of each branch.
    gain : float
        Impurity decrease (equals ``score`` except for the gain ratio).
    column : str, optional
        The original column (multiway).
    column_index : int, optional
    values : tuple, optional
        The category of each branch (multiway).
    """

    sort_key: tuple
    score: float = field(compare=False)
    kind: str = field(compare=False)
    label: str = field(compare=False)
    features: tuple = field(compare=False)
    branch_names: tuple = field(compare=False)
    child_stats: np.ndarray = field(compare=False, repr=False)
    gain: float = field(compare=False, default=0.0)
    column: str | None = field(compare=False, default=None)
    column_index: int | None = field(compare=False, default=None)
    values: tuple = field(compare=False, default=())

    @property
    def default_branch(self) -> int:
        """Branch that rows of an unseen category follow (the heaviest; as ``MultiwaySplit``)."""
        return int(np.argmax(self.child_stats.sum(axis=-1))) if self.kind == "multiway" else 0


def route(points: np.ndarray, index: np.ndarray, candidate: Candidate) -> list[np.ndarray]:
    """Send the points ``index`` down a split: one index array per branch.

    Parameters
    ----------
    points : ndarray of bool, shape (n_points, n_features)
        The point table.
    index : ndarray of int
        Points reaching the node.
    candidate : Candidate

    Examples
    --------
    >>> P = np.array([[0, 1], [1, 0], [1, 1]], dtype=bool)
    >>> c = Candidate((0, 0), 0.0, "binary", "a", (0,), ("not a", "a"), np.zeros((2, 2)))
    >>> [b.tolist() for b in route(P, np.arange(3), c)]
    [[0], [1, 2]]
    """
    index = np.asarray(index, dtype=int)
    if candidate.kind == "binary":
        true = points[index, candidate.features[0]]
        return [index[~true], index[true]]
    member = points[np.ix_(index, list(candidate.features))]
    branches = [index[member[:, k]] for k in range(len(candidate.features))]
    unseen = ~member.any(axis=1)
    if unseen.any():
        k = candidate.default_branch
        branches[k] = np.sort(np.concatenate([branches[k], index[unseen]]))
    return branches


@dataclass(eq=False)
class GrownNode:
    """A node of a tree being grown or pruned.

    Attributes
    ----------
    index : ndarray of int
        Points (rows of the point table) that reach the node.
    stats : ndarray
        Their summed statistics.
    depth : int
    rule : str
        The conjunction of tests that leads here (``""`` at the root).
    split : Candidate or None
        The chosen split; None for a leaf.
    children : list of GrownNode
    candidates : list of Candidate or None
        Every valid split scored at this node, best first (once scored).
    stop_reason : str or None
        Why the node stayed a leaf (``pure``, ``no_split``, ``max_depth``, ...).
    """

    index: np.ndarray
    stats: np.ndarray
    depth: int = 0
    rule: str = ""
    split: Candidate | None = None
    children: list = field(default_factory=list)
    candidates: list | None = field(default=None, repr=False)
    stop_reason: str | None = None

    @property
    def is_leaf(self) -> bool:
        """Whether the node has no split."""
        return self.split is None

    def leaves(self) -> Iterator["GrownNode"]:
        """The leaves below (or at) this node, left to right."""
        stack = [self]
        while stack:
            node = stack.pop()
            if node.is_leaf:
                yield node
            else:
                stack.extend(reversed(node.children))

    def internal_nodes(self) -> Iterator["GrownNode"]:
        """Internal nodes below (or at) this node, children before parents (post-order)."""
        if self.is_leaf:
            return
        for child in self.children:
            yield from child.internal_nodes()
        yield self

    @property
    def n_leaves(self) -> int:
        """Number of leaves of the subtree."""
        return sum(1 for _ in self.leaves())

    def make_leaf(self) -> None:
        """Collapse the subtree into a leaf (pruning option 2)."""
        self.split = None
        self.children = []

    def child_rule(self, branch: int) -> str:
        """Rule of the given branch's child."""
        name = self.split.branch_names[branch]
        return name if not self.rule else f"{self.rule} and {name}"

    def reroute(self, points: np.ndarray, stats: np.ndarray, index: np.ndarray) -> None:
        """Send other points through this subtree and recompute every node's statistics.

        Used by C4.5's subtree replacement (option 3), where a branch's
        subtree takes all the data of its parent.
        """
        self.index = np.asarray(index, dtype=int)
        self.stats = stats[self.index].sum(axis=0) if len(self.index) else np.zeros(stats.shape[1])
        if self.split is None:
            return
        for branch, (child, part) in enumerate(zip(self.children, route(points, self.index, self.split))):
            child.depth = self.depth + 1
            child.rule = self.child_rule(branch)
            child.reroute(points, stats, part)

    def copy(self) -> "GrownNode":
        """A deep copy (point indices and statistics copied too)."""
        return copy.deepcopy(self)

    def to_node(self, make_leaf: Callable[[np.ndarray, "GrownNode | None"], object], parent=None):
        """Convert to the core's tree nodes.

        Parameters
        ----------
        make_leaf : callable
            ``make_leaf(stats, parent_grown_node)`` returns a :class:`~treeopt.tree.Leaf`.
        """
        from ..tree import Split

        if self.is_leaf:
            return make_leaf(self.stats, parent)
        children = [child.to_node(make_leaf, self) for child in self.children]
        if self.split.kind == "binary":
            return Split(self.split.features[0], children[0], children[1])
        from ..tree import MultiwaySplit

        return MultiwaySplit(self.split.column, self.split.column_index, list(self.split.values), children)

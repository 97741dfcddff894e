"""The two prunings of the lecture: C4.5's pessimistic pruning and CART's cost-complexity pruning.

Both work bottom-up on a :class:`~treeopt.greedy.grown_tree.GrownNode` tree and are
*generators*: each decision is yielded as it is made, so the greedy solver
can replay pruning one step at a time (slides part 3 and part 4).

Pessimistic pruning (C4.5, slides part 3)
    At every internal node, compare three options by an upper confidence
    bound on their error rate: (1) keep the subtree, (2) collapse it to a
    leaf, (3) replace it by the subtree of its most common branch, which then
    receives all the node's data. The bound of a leaf with ``E`` errors out
    of ``N`` rows is the ``p`` with ``P(Binomial(N, p) <= E) = α``, α = 0.25
    (:func:`pessimistic_error_bound`); an option's bound is the average of
    its leaves' bounds weighted by their sizes. The smallest bound wins
    (ties go to the simpler option).

Minimal cost-complexity pruning (CART, slides part 4)
    ``cost(subtree) = R(subtree) + C × leaves``. For each internal node ``t``
    the *effective alpha* ``g(t) = (R(t) - R(T_t)) / (leaves(T_t) - 1)`` is
    the per-leaf cost at which collapsing ``t`` stops costing anything;
    weakest-link pruning repeatedly collapses the node of smallest ``g``
    (Breiman et al. 1984). Pruning until ``g > C`` gives the smallest subtree
    of least cost for ``C``; the sequence of ``g`` values is the pruning path.
    ``R`` is the misclassification count (the slides), the squared loss
    (regression), an objective's loss, or, as scikit-learn does, the node's
    impurity times its weight.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from typing import Callable, Iterator

import numpy as np

from .grown_tree import GrownNode

__all__ = ["pessimistic_error_bound", "PessimisticDecision", "pessimistic_pruning", "WeakestLink",
           "cost_complexity_pruning"]


def pessimistic_error_bound(errors: float, n: float, confidence: float = 0.25) -> float:
    """Upper confidence bound on an error rate from ``errors`` mistakes in ``n`` rows.

    The ``p`` that solves ``P(Binomial(n, p) <= errors) = confidence``
    (slides part 3, ``binocdf(E, N, p) = .25``), computed through the
    regularized incomplete beta function, so weighted (non-integer) counts
    work too.

    Parameters
    ----------
    errors : float
        Misclassified weight at the leaf, ``0 <= errors <= n``.
    n : float
        Weight at the leaf.
    confidence : float, default=0.25
        C4.5's α ("CF").

    Returns
    -------
    float
        The bound; 0 for an empty leaf, 1 when every row is an error.

    Examples
    --------
    The three leaves of the slides' "Crowded" split (6, 9 and 1 rows, no errors)
    and the collapsed leaf (16 rows, 1 error):

    >>> [round(pessimistic_error_bound(0, n), 3) for n in (6, 9, 1)]
    [0.206, 0.143, 0.75]
    >>> round(pessimistic_error_bound(1, 16), 4)   # the slides read .157 (binocdf(1, 16, .157) = .2589)
    0.1596
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}; C4.5 uses 0.25.")
    if n <= 0:
        return 0.0
    if errors < 0 or errors > n + 1e-9:
        raise ValueError(f"errors must be between 0 and n={n}, got {errors!r}.")
    if errors >= n:
        return 1.0
    if errors == 0:
        return 1.0 - confidence ** (1.0 / n)
    from scipy.special import betaincinv

    # P(Binomial(n, p) <= e) = I_{1-p}(n - e, e + 1)
    return float(1.0 - betaincinv(n - errors, errors + 1.0, confidence))


@dataclass(frozen=True)
class PessimisticDecision:
    """One node's decision in pessimistic pruning.

    Attributes
    ----------
    rule : str
        The node (its conjunction of tests).
    weight : float
        Rows reaching it.
    keep, leaf, graft : float
        Upper bounds on the error rate of options 1, 2 and 3 (``graft`` is
        ``nan`` when the node has no subtree to graft).
    choice : {"keep", "leaf", "graft"}
    leaves_removed : int
    """

    rule: str
    weight: float
    keep: float
    leaf: float
    graft: float
    choice: str
    leaves_removed: int


def _errors(stats: np.ndarray) -> tuple[float, float]:
    n = float(stats.sum())
    return (n - float(stats.max())) if n > 0 else 0.0, n


def _subtree_bound(node: GrownNode, confidence: float) -> float:
    """Average upper bound over the leaves, as an expected number of errors (rate × weight)."""
    total = 0.0
    for leaf in node.leaves():
        errors, n = _errors(leaf.stats)
        total += n * pessimistic_error_bound(errors, n, confidence)
    return total


def pessimistic_pruning(root: GrownNode, points: np.ndarray, stats: np.ndarray, confidence: float = 0.25,
                        on_change: Callable[[GrownNode, str], None] | None = None
                        ) -> Iterator[PessimisticDecision]:
    """Prune a classification tree in place with C4.5's three options; yield each decision.

    Parameters
    ----------
    root : GrownNode
        A classification tree (statistics = class counts).
    points : ndarray of bool
        The point table the tree was grown on (to send data down a grafted subtree).
    stats : ndarray
        Class counts of each point.
    confidence : float, default=0.25
    on_change : callable, optional
        Called as ``on_change(node, "before")`` and ``on_change(node, "after")``
        around every change of a node's subtree (to keep running totals).

    Yields
    ------
    PessimisticDecision
        Children are decided before their parents; a grafted subtree is
        pruned again with its new data before the parent's decision is yielded.
    """
    notify = on_change if on_change is not None else (lambda node, when: None)
    yield from _prune_pessimistic(root, points, stats, confidence, notify)


def _prune_pessimistic(node, points, stats, confidence, notify):
    if node.is_leaf:
        return
    for child in node.children:
        yield from _prune_pessimistic(child, points, stats, confidence, notify)
    weight = float(node.stats.sum())
    scale = weight if weight > 0 else 1.0
    leaves_before = node.n_leaves
    keep = _subtree_bound(node, confidence) / scale
    errors, n = _errors(node.stats)
    leaf = pessimistic_error_bound(errors, n, confidence)
    largest = max(node.children, key=lambda child: float(child.stats.sum()))
    graft_tree = None
    graft = math.nan
    if not largest.is_leaf:
        graft_tree = largest.copy()
        graft_tree.depth, graft_tree.rule = node.depth, node.rule
        graft_tree.reroute(points, stats, node.index)
        graft = _subtree_bound(graft_tree, confidence) / scale
    # Option 3 with a leaf as the most common branch is option 2 (the slides' "Option 2 & 3").
    if leaf <= keep and (graft_tree is None or leaf <= graft):
        choice = "leaf"
        notify(node, "before")
        node.make_leaf()
        notify(node, "after")
    elif graft_tree is not None and graft <= keep:
        choice = "graft"
        notify(node, "before")
        node.split, node.children = graft_tree.split, graft_tree.children
        node.candidates = None
        notify(node, "after")
        # The grafted subtree now holds more data: its own decisions are revisited (as C4.5 does).
        for child in node.children:
            yield from _prune_pessimistic(child, points, stats, confidence, notify)
    else:
        choice = "keep"
    yield PessimisticDecision(node.rule, weight, keep, leaf, graft, choice, leaves_before - node.n_leaves)



@dataclass(frozen=True)
class WeakestLink:
    """One step of weakest-link pruning.

    Attributes
    ----------
    rule : str
        The collapsed node.
    alpha : float
        Its effective alpha ``g(t)`` in *risk units per leaf* (divide by the
        total weight for scikit-learn's ``ccp_alpha`` units).
    leaves_removed : int
    risk : float
        ``R`` of the whole tree after the collapse.
    n_leaves : int
        Leaves of the whole tree after the collapse.
    """

    rule: str
    alpha: float
    leaves_removed: int
    risk: float
    n_leaves: int


def cost_complexity_pruning(root: GrownNode, risk: Callable[[GrownNode], float], max_alpha: float | None = None,
                            on_change: Callable[[GrownNode, str], None] | None = None
                            ) -> Iterator[WeakestLink]:
    """Weakest-link pruning in place; yield each collapse.

    Parameters
    ----------
    root : GrownNode
    risk : callable
        ``risk(node)``: ``R(t)`` of the node as a leaf (e.g. its misclassified
        weight). ``R`` of a subtree is the sum over its leaves.
    max_alpha : float, optional
        Stop before collapsing a node whose effective alpha exceeds this
        (the slides' ``C``, in risk units). None: prune down to the root
        (the whole pruning path).
    on_change : callable, optional
        Called as ``on_change(node, "before")`` and ``on_change(node, "after")`` around each collapse.

    Yields
    ------
    WeakestLink
        In increasing order of alpha; ties are collapsed one after the other,
        the node found first in pre-order first.

    Examples
    --------
    >>> from treeopt.greedy.grown_tree import Candidate
    >>> split = Candidate((0, 0), 0.0, "binary", "a", (0,), ("not a", "a"), np.zeros((2, 2)))
    >>> leaf = lambda counts: GrownNode(np.arange(1), np.array(counts, dtype=float))
    >>> root = GrownNode(np.arange(1), np.array([5.0, 5.0]), split=split,
    ...                  children=[leaf([4, 1]), leaf([1, 4])])
    >>> errors = lambda node: float(node.stats.sum() - node.stats.max())
    >>> [step.alpha for step in cost_complexity_pruning(root, errors)]   # 5 errors as a leaf, 2 as a tree
    [3.0]
    """
    order = {}
    parent = {}
    for position, node in enumerate(_preorder(root)):
        order[id(node)] = position
        for child in node.children:
            parent[id(child)] = node
    branch_risk, n_leaves = {}, {}
    node_risk = {}
    for node in _postorder(root):
        node_risk[id(node)] = float(risk(node))
        if node.is_leaf:
            branch_risk[id(node)], n_leaves[id(node)] = node_risk[id(node)], 1
        else:
            branch_risk[id(node)] = sum(branch_risk[id(c)] for c in node.children)
            n_leaves[id(node)] = sum(n_leaves[id(c)] for c in node.children)
    version = {key: 0 for key in order}
    heap = []

    def push(node):
        key = id(node)
        alpha = (node_risk[key] - branch_risk[key]) / (n_leaves[key] - 1)
        heapq.heappush(heap, (alpha, order[key], version[key], node))

    for node in _preorder(root):
        if not node.is_leaf:
            push(node)
    while heap:
        alpha, _, seen, node = heapq.heappop(heap)
        key = id(node)
        if version.get(key) != seen or node.is_leaf:
            continue
        if max_alpha is not None and alpha > max_alpha:
            return
        removed = n_leaves[key] - 1
        for below in _preorder(node):
            version[id(below)] = -1
        if on_change is not None:
            on_change(node, "before")
        node.make_leaf()
        if on_change is not None:
            on_change(node, "after")
        branch_risk[key], n_leaves[key] = node_risk[key], 1
        above = parent.get(key)
        while above is not None:
            up = id(above)
            branch_risk[up] = sum(branch_risk[id(c)] for c in above.children)
            n_leaves[up] = sum(n_leaves[id(c)] for c in above.children)
            version[up] += 1
            push(above)
            above = parent.get(up)
        yield WeakestLink(node.rule, max(alpha, 0.0), removed, branch_risk[id(root)], n_leaves[id(root)])


def _preorder(node: GrownNode) -> Iterator[GrownNode]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def _postorder(node: GrownNode) -> Iterator[GrownNode]:
    for child in node.children:
        yield from _postorder(child)
    yield node

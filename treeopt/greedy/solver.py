"""Greedy top-down induction (C4.5 and CART, lecture slides "Decision trees" lecture slides) as a stepwise solver.

Greedy induction (slides part 1): start at the root; split the node on the
feature whose split is *least impure* (the largest impurity decrease, or
gain ratio); give every leaf the majority vote; keep splitting until every
leaf is pure or no feature separates its rows; then prune (slides parts 3 and
4, :mod:`treeopt.greedy.prunings`).

Candidate splits
    * every binary feature of the :class:`~treeopt.data.Dataset` (threshold
      features ``x <= t`` at every midpoint give CART's line search over
      split points, slides part 4);
    * with ``multiway=True`` (C4.5), each categorical column instead splits
      into one branch per category seen at the node
      (:class:`~treeopt.tree.MultiwaySplit`); its one-hot features are no
      longer offered as binary splits.

    Scoring is vectorised: the class counts on the true side of every feature
    are one matrix product of the node's points with their counts.
    Ties go to the first feature (deterministic; scikit-learn breaks them at
    random, see ``random_state`` there).

The stepwise protocol (:mod:`treeopt.solvers.base`)
    One step = one node of the frontier (breadth first) is scored and split
    (or stays a leaf), then one pruning decision per step. The snapshot's
    ``queue`` lists the candidate splits of the *next* node to expand, best
    first, so a class can see what the next step will choose; ``queue_size``
    is the number of nodes waiting; ``extra`` has the phase, the frontier
    and the last decision with its ranked alternatives.

    ``upper_bound`` is the objective (loss + λ × leaves) of the *current*
    tree, which can rise while the tree grows (every leaf costs λ) and falls
    when pruning removes leaves; ``lower_bound`` is the equivalent-points
    lower bound of the root with one-step lookahead (GOSDT Theorems B.9 and
    B.2), valid for every tree, so the gap is honest: greedy induction never
    proves optimality (``exact = False``; a finished run has status
    ``finished``).
"""

from __future__ import annotations

from collections import deque

import numpy as np

from .criteria import gain_ratio, impurity, impurity_decrease, node_weight
from ..data import Dataset, mask_of
from ..events import Expanded, Pruned, Started
from ..regularization import DEFAULT_REGULARIZATION
from .grown_tree import Candidate, GrownNode, route
from .prunings import cost_complexity_pruning, pessimistic_pruning
from ..tree import Leaf, Tree
from ..solvers.base import QueueEntry, Solver
from ..solvers.capabilities import Capabilities

__all__ = ["GreedyInduction", "SplitFinder", "CLASSIFICATION_CRITERIA",
           "PRUNINGS", "PRUNING_RISKS"]

#: Split criteria for classification (slides parts 1 and 2).
CLASSIFICATION_CRITERIA = ("entropy", "gain_ratio", "gini", "misclassification")
#: Pruning methods (slides parts 3 and 4).
PRUNINGS = (None, "pessimistic", "cost_complexity")
#: What cost-complexity pruning counts as the risk ``R`` of a node.
PRUNING_RISKS = ("misclassification", "impurity", "objective")


class SplitFinder:
    """Scores every candidate split of a node on a point table.

    Parameters
    ----------
    points : ndarray of bool, shape (n_points, n_features)
    stats : ndarray of shape (n_points, k)
        Class counts, or ``(w, Σwy, Σwy²)`` for ``criterion="squared_error"``.
    features : list of BinaryFeature
    criterion : str
    multiway : bool, default=False
        Offer one multiway split per categorical column instead of its one-hot features.
    min_samples_leaf : float, default=1
        Minimum weight in every branch of a valid split.

    Examples
    --------
    >>> from treeopt.binarize import BinaryFeature
    >>> P = np.array([[0, 1], [1, 0], [1, 1]], dtype=bool)
    >>> S = np.array([[2.0, 0.0], [0.0, 2.0], [0.0, 1.0]])
    >>> f = [BinaryFeature(n, j, "binary", 1, n) for j, n in enumerate("ab")]
    >>> best = SplitFinder(P, S, f, "gini").candidates(np.arange(3), S.sum(axis=0))[0]
    >>> best.label, round(best.score, 3)
    ('a', 0.48)
    """

    def __init__(self, points, stats, features, criterion: str, *, multiway: bool = False,
                 min_samples_leaf: float = 1):
        self.points = np.asarray(points, dtype=bool)
        self.points_float = self.points.astype(float)
        self.stats = np.asarray(stats, dtype=float)
        self.criterion = criterion
        self.min_samples_leaf = min_samples_leaf
        groups: dict[int, list[int]] = {}
        if multiway:
            categorical = {f.column_index for f in features if f.kind == "category"}
            for j, feature in enumerate(features):    # a categorical column's "x is missing" is one more branch
                if feature.kind == "category" or (feature.kind == "missing" and feature.column_index in categorical):
                    groups.setdefault(feature.column_index, []).append(j)
        grouped = {j for members in groups.values() for j in members}
        self.binary = np.array([j for j in range(len(features)) if j not in grouped], dtype=int)
        self.binary_names = [(features[j].negated_name, features[j].name) for j in self.binary]
        self.binary_labels = [features[j].name for j in self.binary]
        self.names = [f.name for f in features]
        self.groups = [(features[m[0]].column, column_index, np.array(m, dtype=int),
                        tuple(features[j].value for j in m)) for column_index, m in sorted(groups.items())]

    def candidates(self, index: np.ndarray, node_stats: np.ndarray) -> list[Candidate]:
        """Every valid split of the node holding points ``index``, best first."""
        if len(index) == 0:
            return []
        true_stats = self.points_float[index].T @ self.stats[index]          # (n_features, k)
        out: list[Candidate] = []
        if len(self.binary):
            true_b = true_stats[self.binary]
            children = np.stack([node_stats[None, :] - true_b, true_b], axis=1)  # (nb, 2, k)
            if self.criterion != "squared_error":     # counts: clear float noise (sums of y may be negative)
                children = np.maximum(children, 0.0)
            weights = node_weight(children, self.criterion)
            valid = (weights >= max(self.min_samples_leaf, 1e-12)).all(axis=1)
            scores = self._score(node_stats, children)
            gains = scores if self.criterion != "gain_ratio" else \
                impurity_decrease(node_stats, children, "entropy")
            for position in np.flatnonzero(valid):
                j = int(self.binary[position])
                out.append(Candidate((-float(scores[position]), j), float(scores[position]), "binary",
                                     self.binary_labels[position], (j,), self.binary_names[position],
                                     children[position], float(gains[position])))
        for column, column_index, members, values in self.groups:
            branch = true_stats[members]
            weights = node_weight(branch, self.criterion)
            keep = weights > 1e-12
            if keep.sum() < 2 or (weights[keep] < self.min_samples_leaf).any():
                continue
            branch, kept = branch[keep], members[keep]
            kept_values = tuple(v for v, k in zip(values, keep) if k)
            score = float(self._score(node_stats, branch))
            gain = score if self.criterion != "gain_ratio" else \
                float(impurity_decrease(node_stats, branch, "entropy"))
            out.append(Candidate((-score, int(members[0])), score, "multiway", column,
                                 tuple(int(j) for j in kept), tuple(self.names[j] for j in kept),
                                 branch, gain, column, column_index, kept_values))
        out.sort()
        return out

    def _score(self, parent, children):
        if self.criterion == "gain_ratio":
            return gain_ratio(parent, children)
        return impurity_decrease(parent, children, self.criterion)


class GreedyInduction(Solver):
    """Greedy tree induction (C4.5 or CART) that speaks the stepwise protocol.

    Parameters
    ----------
    dataset : Dataset
    regularization : float, default=0.05
        λ, used only to report the objective ``loss + λ × leaves`` of the
        current tree (and by ``pruning_risk="objective"``).
    objective : str or Objective, default="accuracy"
        How the tree is scored (the split criterion is ``criterion``).
    criterion : {"entropy", "gain_ratio", "gini", "misclassification"}, default="gini"
    multiway : bool, default=False
        C4.5's multiway splits on categorical columns (one branch per category).
    depth_budget : int, optional
        Maximum depth (a single leaf has depth 0).
    min_samples_split : float, default=2
        A node with less weight stays a leaf.
    min_samples_leaf : float, default=1
        Every branch of a split needs at least this weight.
    min_gain : float, default=0.0
        A split must score at least this (0: split whenever a feature separates the rows,
        as the slides' stopping rule says).
    pruning : {None, "pessimistic", "cost_complexity"}, default=None
    confidence : float, default=0.25
        α of pessimistic pruning.
    ccp_alpha : float, default=0.0
        Cost of one leaf for cost-complexity pruning, as a fraction of the
        total weight (scikit-learn's ``ccp_alpha``; the slides' ``C`` in
        misclassified rows is ``ccp_alpha × n``). 0 prunes nothing, as in
        scikit-learn.
    pruning_risk : {"misclassification", "impurity", "objective"}, default="misclassification"
        ``R`` of a node for cost-complexity pruning: misclassified weight
        (Breiman et al., the slides), weight × impurity of ``criterion``
        (scikit-learn), or the objective's loss.

    Attributes
    ----------
    root : GrownNode
        The tree being grown (available once stepping has started).
    phase : {"grow", "prune", "done"}

    Examples
    --------
    >>> from treeopt.datasets import load_restaurant
    >>> X, y = load_restaurant()
    >>> solver = GreedyInduction(Dataset.from_arrays(X, y), criterion="entropy", multiway=True)
    >>> solver.step()                                  # split the root
    True
    >>> last = solver.snapshot().extra["last_step"]
    >>> last["chosen"], round(last["score"], 3)        # Gain(S, Crowded), slides part 1
    ('Crowded', 0.541)
    >>> [(entry.rule, round(entry.payload.score, 3)) for entry in solver.snapshot(2).queue]
    [('Crowded = full: split on Plans', 0.252), ('Crowded = full: split on Price', 0.252)]
    >>> result = solver.run()
    >>> result.status, result.optimal, result.tree.n_leaves
    ('finished', False, 7)
    """

    name = "greedy"
    exact = False
    # The growing and pruning options, so that make_solver(..., solver="greedy", solver_options=...) passes them.
    CAPABILITIES = Capabilities(options=("criterion", "multiway", "min_samples_split", "min_samples_leaf", "min_gain",
                                         "pruning", "confidence", "ccp_alpha", "pruning_risk"))

    def __init__(self, dataset: Dataset, *, regularization: float = DEFAULT_REGULARIZATION, objective="accuracy",
                 bounds: dict | None = None, depth_budget: int | None = None, criterion: str = "gini",
                 multiway: bool = False, min_samples_split: float = 2, min_samples_leaf: float = 1,
                 min_gain: float = 0.0, pruning: str | None = None, confidence: float = 0.25,
                 ccp_alpha: float = 0.0, pruning_risk: str = "misclassification"):
        super().__init__(dataset, regularization=regularization, objective=objective, bounds=bounds,
                         depth_budget=depth_budget)
        if criterion not in CLASSIFICATION_CRITERIA:
            raise ValueError(f"criterion must be one of {list(CLASSIFICATION_CRITERIA)}, got {criterion!r} "
                             "(squared_error is for GreedyTreeRegressor).")
        if pruning not in PRUNINGS:
            raise ValueError(f"pruning must be one of {list(PRUNINGS)}, got {pruning!r}.")
        if pruning_risk not in PRUNING_RISKS:
            raise ValueError(f"pruning_risk must be one of {list(PRUNING_RISKS)}, got {pruning_risk!r}.")
        if not isinstance(multiway, (bool, np.bool_)):
            raise TypeError(f"multiway must be True or False, got {multiway!r}.")
        if not 0 < confidence < 1:
            raise ValueError(f"confidence must be in (0, 1), got {confidence!r}; C4.5 uses 0.25.")
        if not (np.isfinite(ccp_alpha) and ccp_alpha >= 0):
            raise ValueError(f"ccp_alpha must be a non-negative number, got {ccp_alpha!r}.")
        if not min_samples_split >= 0 or not min_samples_leaf >= 0 or not min_gain >= 0:
            raise ValueError("min_samples_split, min_samples_leaf and min_gain must be non-negative.")
        self.criterion = criterion
        self.multiway = bool(multiway)
        self.min_samples_split = min_samples_split
        self.min_samples_leaf = min_samples_leaf
        self.min_gain = min_gain
        self.pruning = pruning
        self.confidence = confidence
        self.ccp_alpha = float(ccp_alpha)
        self.pruning_risk = pruning_risk
        self.model = self.objective.loss_model(dataset)
        self.finder = SplitFinder(dataset.points, dataset.counts, dataset.features, criterion,
                                  multiway=self.multiway, min_samples_leaf=min_samples_leaf)
        self.prune_counts.update({"pure": 0, "max_depth": 0, "min_samples_split": 0, "no_split": 0,
                                  "min_gain": 0, "pessimistic_leaf": 0, "pessimistic_graft": 0,
                                  "cost_complexity": 0})
        self.root: GrownNode
        self.phase = "grow"
        self._frontier: deque = deque()
        self._last: dict = {}
        self._loss = 0.0            # loss (weight units) and leaves of the current tree, kept up to date
        self._n_leaves = 1
        counts = dataset.class_counts(dataset.all_points)
        leaf_loss, _ = self.model.leaf(counts)
        lam = self.regularization * dataset.total_weight
        eq = self.model.equivalent_points(dataset.all_points)
        self._lower_bound = self.model.to_objective(min(leaf_loss + lam, eq + 2 * lam))
        self._make_root()

    # -- the protocol -----------------------------------------------------------------
    @property
    def lower_bound(self) -> float:
        """Equivalent-points bound with lookahead at the root (valid for every tree)."""
        return self._lower_bound

    @property
    def upper_bound(self) -> float:
        """Objective (loss + λ × leaves) of the current tree."""
        return self.model.to_objective(self._loss) + self.regularization * self._n_leaves

    @property
    def queue_size(self) -> int:
        """Nodes waiting to be split."""
        return len(self._frontier)

    @property
    def cache_size(self) -> int:
        """Nodes of the tree being grown (the frontier's nodes are among them).

        It grows while the tree grows and falls when pruning collapses subtrees.
        """
        return self._n_nodes

    def _leaf_loss(self, stats) -> float:
        prediction = int(np.argmax(stats))
        costs = self.model.costs
        return float((stats * costs).sum() - stats[prediction] * costs[prediction])

    def _make_root(self) -> None:
        ds = self.dataset
        self.root = GrownNode(np.arange(ds.n_points), ds.counts.sum(axis=0), 0, "")
        self._n_nodes = 1
        self._loss = self._leaf_loss(self.root.stats)
        if self._stop_reason(self.root) is None:
            self._frontier.append(self.root)

    def _stop_reason(self, node: GrownNode) -> str | None:
        weight = float(node.stats.sum())
        if np.count_nonzero(node.stats > 0) <= 1:
            return "pure"
        if self.depth_budget is not None and node.depth >= self.depth_budget:
            return "max_depth"
        if weight < self.min_samples_split:
            return "min_samples_split"
        return None

    def _candidates(self, node: GrownNode) -> list[Candidate]:
        if node.candidates is None:
            node.candidates = self.finder.candidates(node.index, node.stats)
        return node.candidates

    def _search(self):
        self._emit(Started(0, self.lower_bound, self.upper_bound))
        self._record()
        while self._frontier:
            node = self._frontier.popleft()
            self._expand(node)
            self.expansions += 1
            self._record()
            yield
        self.phase = "prune"
        self._last_value = self.upper_bound
        if self.pruning == "pessimistic":
            for decision in pessimistic_pruning(self.root, self.dataset.points, self.dataset.counts,
                                                self.confidence, on_change=self._on_change):
                self._after_prune(decision.rule, decision.choice, decision.leaves_removed,
                                  {"keep": decision.keep, "leaf": decision.leaf, "graft": decision.graft})
                yield
        elif self.pruning == "cost_complexity" and self.ccp_alpha > 0:
            limit = self.ccp_alpha * self.dataset.total_weight
            for link in cost_complexity_pruning(self.root, self._risk_function(), max_alpha=limit,
                                                on_change=self._on_change):
                self._after_prune(link.rule, "leaf", link.leaves_removed,
                                  {"alpha": link.alpha / self.dataset.total_weight})
                yield
        self.phase = "done"

    def _on_change(self, node: GrownNode, when: str) -> None:
        sign = -1 if when == "before" else 1
        for leaf in node.leaves():
            self._loss += sign * self._leaf_loss(leaf.stats)
            self._n_leaves += sign
        self._n_nodes += sign * (1 + sum(1 for inner in node.internal_nodes() for _ in inner.children))

    def _after_prune(self, rule, choice, removed, detail) -> None:
        before = self._last_value
        self._last_value = self.upper_bound
        self.expansions += 1
        if choice != "keep":
            bound = "cost_complexity" if self.pruning == "cost_complexity" else f"pessimistic_{choice}"
            self._count(bound)
            self._emit(Pruned(self.expansions, bound, removed))
        self._last = {"kind": "prune", "rule": rule or "root", "choice": choice, "leaves_removed": removed,
                      **detail}
        self._record(improved=self._last_value < before)

    def _risk_function(self):
        if self.pruning_risk == "misclassification":
            return lambda node: float(node.stats.sum() - node.stats.max())
        if self.pruning_risk == "impurity":
            return lambda node: float(node.stats.sum() * impurity(node.stats, self.criterion))
        return lambda node: float(self.model.leaf(tuple(float(c) for c in node.stats))[0])

    def _expand(self, node: GrownNode) -> None:
        candidates = self._candidates(node)
        alternatives = [(c.label, c.score) for c in candidates]
        rule = node.rule or "root"
        if not candidates or candidates[0].score < self.min_gain - 1e-12:
            node.stop_reason = "no_split" if not candidates else "min_gain"
            self._count(node.stop_reason)
            self._last = {"kind": "leaf", "rule": rule, "reason": node.stop_reason, "candidates": alternatives}
            self._emit(Expanded(self.expansions, rule, self.lower_bound, self.upper_bound, 0))
            return
        best = candidates[0]
        node.split = best
        self._loss -= self._leaf_loss(node.stats)
        self._n_leaves -= 1
        for branch, (part, stats) in enumerate(zip(route(self.dataset.points, node.index, best),
                                                   best.child_stats)):
            child = GrownNode(part, np.asarray(stats, dtype=float), node.depth + 1, node.child_rule(branch))
            node.children.append(child)
            self._n_nodes += 1
            self._loss += self._leaf_loss(child.stats)
            self._n_leaves += 1
            reason = self._stop_reason(child)
            if reason is None:
                self._frontier.append(child)
            else:
                child.stop_reason = reason
                self._count(reason)
        ties = sum(1 for c in candidates[1:] if c.score >= best.score - 1e-12 * max(1.0, abs(best.score)))
        self._last = {"kind": "split", "rule": rule, "chosen": best.label, "score": best.score,
                      "gain": best.gain, "ties": ties, "candidates": alternatives}
        self._emit(Expanded(self.expansions, rule, self.lower_bound, self.upper_bound, len(node.children)))

    def _incumbent(self) -> Tree:
        ds = self.dataset
        costs, scale = self.model.costs, self.model.scale

        def make_leaf(stats, parent):
            source = stats if stats.sum() > 0 or parent is None else parent.stats
            prediction = int(np.argmax(source))
            loss = float((stats * costs).sum() - stats[prediction] * costs[prediction]) * scale
            return Leaf(prediction, tuple(float(c) for c in stats), loss)

        return Tree(self.root.to_node(make_leaf), list(ds.features), ds.classes, binarizer=ds.binarizer)

    def _queue_entries(self, k: int) -> list:
        if self.phase != "grow" or not self._frontier:
            return []
        node = self._frontier[0]
        lam = self.regularization * self.dataset.total_weight
        support = mask_of(node.index)
        eq = self.model.equivalent_points(support)
        lower = self.model.to_objective(min(self._leaf_loss(node.stats) + lam, eq + 2 * lam))
        entries = []
        for rank, candidate in enumerate(self._candidates(node)[:k]):
            leaves = sum(self._leaf_loss(s) for s in candidate.child_stats) + lam * len(candidate.child_stats)
            entries.append(QueueEntry((rank,), f"{node.rule or 'root'}: split on {candidate.label}",
                                      float(node.stats.sum()), lower, self.model.to_objective(leaves),
                                      candidate))
        return entries

    def _snapshot_extra(self) -> dict:
        return {"phase": self.phase, "criterion": self.criterion, "pruning": self.pruning,
                "frontier": [node.rule or "root" for node in self._frontier],
                "next_node": (self._frontier[0].rule or "root") if self._frontier else None,
                "last_step": dict(self._last)}

    def _incumbent_leaves(self) -> int:
        return self.root.n_leaves

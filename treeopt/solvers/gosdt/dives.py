"""GOSDT's search orders: dives that refine the incumbent before the queue's next pop.

A search order changes which problem is expanded next, never what is proved. These are the switches
of kind ``search_order`` of :class:`~treeopt.solvers.gosdt.search.GOSDT`:

- ``dives``: the unexpanded problems at the leaves of the incumbent tree first (the idea of
  Babbar, McTavish, Rudin and Seltzer, *Near-Optimal Decision Trees in a SPLIT Second*, ICML 2025);
- ``bound_dives``: from the root along the splits of least lower bound (best-first on one path);
- ``completion_dives``: into a known tree (CART's, an offered one), its subtrees becoming the
  children's upper bounds.

Search orders, each a switch of kind ``search_order`` (``strategies=``) with a counter in ``prune_counts``:

``dives``
    A search order, not a bound (the idea of LicketySPLIT/SPLIT, Babbar, McTavish,
    Rudin, Seltzer, *Near-Optimal Decision Trees in a SPLIT Second*, ICML 2025:
    optimise a little depth, then follow the best completion). Before each queue
    pop, the unexpanded problems at the leaves of the incumbent tree are expanded
    first, so with ``completions`` the incumbent grows as a depth-two-lookahead
    greedy tree within the first expansions, and is refined again whenever the
    exact search changes it. Counts dive expansions.
``bound_dives``
    A search order too. The queue is depth-first (subtrees close early and their
    bounds propagate), which certifies small problems fastest but can leave the
    root's lower bound flat for minutes on wide data: one unexplored split keeps it
    low. So once the incumbent has no unexpanded leaf, and after
    :attr:`GOSDT.bound_dives_after` expansions, dives also follow from the root, at
    every problem, the open split of least lower bound, and expand the unexpanded
    problems they reach: best-first on the lower bound along one path, alternating
    with the depth-first pops; on one-hot data the root's lower bound then rises
    where it stayed flat (``benchmarks/results_wide.md``). Counts its expansions.
``completion_dives``
    A search order too, for incumbents the dives cannot reach: a problem's *completion*
    may be a whole tree that is not made of problems (CART's pruned tree from
    ``cart_start``, a tree offered by another search through :meth:`GOSDT.offer_incumbent`,
    such as iterative deepening's best tree of the previous depth budget). Where such a
    tree is a problem's incumbent, its root split's two children get its two subtrees as
    completions (each is a tree over exactly that child's rows, so an upper bound there), and
    the dive goes on into them, so that tree too is refined from the top down: each of its
    nodes is expanded with completions and, within a depth budget, its bottom subtrees are
    solved again exactly by the depth-two and depth-three solvers. The dives then follow
    both the splits of least upper bound and the completion's, so iterative deepening's
    next depth starts by refining the previous depth's tree (``benchmarks/results_wide.md``).
    Counts children whose upper bound it lowered.
"""

from __future__ import annotations


import numpy as np

from ...tree import Split
from .depth_two import LEAF
from .problem import Problem

__all__ = ["Dives"]


class Dives:
    """The dives of a GOSDT search (a part of :class:`GOSDT`)."""

    def _dive_steps(self):
        """``dives`` (and ``bound_dives``): expand one problem off the exact search's order; False if there is none.

        First the unexpanded problems of the incumbent tree (with completions, so the incumbent
        grows). When there are none, and after :attr:`bound_dives_after` expansions, the
        unexpanded problems reached from the root by the splits of least lower bound.

        A generator (the search drives it with ``yield from``): a completion's pair counts over a
        large support are summed in slices of the unit budget before the expansion, which then
        reads them, so the dive is as many units of work as its counts need.
        """
        if not self._dive_targets and self._dived_at != self.root.ub:
            self._dived_at = self.root.ub
            self._dive_targets = self._incumbent_frontier()
            self._diving_weakest = False
        if not self._dive_targets and self.bounds["bound_dives"] and self.expansions >= self.bound_dives_after:
            self._dive_targets = self._weakest_frontier()
            self._diving_weakest = True
        weakest = self._diving_weakest
        while self._dive_targets:
            problem = self._dive_targets.pop()
            if not problem.expanded and not problem.solved:
                if not weakest and self._wants_completion_pairs(problem):
                    pairs = yield from self._pairs.solve_steps(problem.support, self.unit_budget)
                    if problem.solved:                 # another search's tree closed it meanwhile
                        return True
                    self._ready_pairs = (problem, pairs)
                self._expand(problem, dive=not weakest)       # completions only on the incumbent's path
                self.prune_counts["bound_dives" if weakest else "dives"] += 1
                if not weakest:
                    self._dived_at = None              # its new subtree may hold more targets
                return True
        return False

    def _weakest_frontier(self) -> list:
        """``bound_dives``: the unexpanded problems reached from the root by following, at each
        problem, the open split of least lower bound (where the root's lower bound is weakest)."""
        def weakest_split(problem):
            if problem.solved:
                return None
            open_splits = [s for s in problem.splits or () if not (s[1].solved and s[2].solved)]
            return min(open_splits, key=lambda s: s[1].lb + s[2].lb, default=None)
        return self._frontier(weakest_split)

    def _incumbent_frontier(self) -> list:
        """The unexpanded, unsolved problems reached by following the incumbent from the root."""
        def best_split(problem):
            best = self._best_split(problem)
            return best[1] if best is not None and best[0] < problem.leaf_obj - self.eps else None

        targets = self._frontier(best_split)
        if self.bounds["completion_dives"]:
            # The targets are popped from the end: the best splits' path first, then the completion's.
            seen = {id(problem) for problem in targets}
            targets = [p for p in self._frontier(self._completion_split) if id(p) not in seen] + targets
        return targets

    def _completion_split(self, problem: Problem):
        """``completion_dives``: the split to follow from an expanded problem on the incumbent's path.

        Where the problem's incumbent is its completion, a whole tree over its rows that its
        splits do not hold (CART's pruned tree, a tree offered by another search, such as the best
        tree of the previous depth budget), the dives could not refine it: its nodes are not
        problems. Its root split's children then get its two subtrees as their completions, and
        the dive goes on into them, so the incumbent is refined from the top down like the trees
        the dives grow. Elsewhere, the split of least upper bound.
        """
        best = self._best_split(problem)
        completion = problem.completion
        if completion is not None and completion[0] < problem.leaf_obj - self.eps and \
                (best is None or completion[0] < best[0] - self.eps):
            return self._hand_down(problem)
        return best[1] if best is not None and best[0] < problem.leaf_obj - self.eps else None

    def _hand_down(self, problem: Problem):
        """The split at the root of a problem's completion tree, with its subtrees passed to the children.

        Each subtree is a tree over exactly that child's rows, so its objective is an upper bound
        on the child's optimum (the premise of Theorem B.3) and becomes the child's completion if
        it is lower than what the child has. Returns the split, or None when the completion is a
        leaf or its root split is no longer viable (pruned: no tree through it beats the problem's
        upper bound).
        """
        node = problem.completion[1]
        if not isinstance(node, (Split, tuple, int, np.integer)) or node == LEAF:
            return None
        if not isinstance(node, Split):
            node = self._small_tree(problem.support, node)
            if not isinstance(node, Split):
                return None
        for split in problem.splits:
            if split[0] == node.feature:
                break
        else:
            return None
        changed = []
        for child, subtree in ((split[1], node.left), (split[2], node.right)):
            if child.solved:
                continue
            objective = self._tree_objective(subtree, child.support)
            if objective < child.ub - self.eps:
                child.ub = objective
                child.completion = (objective, subtree)
                if child.lb >= objective - self.eps:
                    child.lb = objective
                changed.append(child)
        self.prune_counts["completion_dives"] += len(changed)
        for child in changed:
            self._propagate(child)
        return split

    def _tree_objective(self, node, support: int) -> float:
        """A tree's objective over a support set (weight units): each leaf's loss there plus λ."""
        if isinstance(node, Split):
            true_rows = support & self.dataset.feature_mask(node.feature)
            return self._tree_objective(node.left, support ^ true_rows) + self._tree_objective(node.right, true_rows)
        return self.model.leaf(self.dataset.class_counts(support))[0] + self.penalty

    def _frontier(self, follow) -> list:
        """The unexpanded, unsolved problems reached from the root by following, at each expanded
        problem, the split ``(feature, left, right)`` that ``follow`` picks (None: stop there)."""
        targets, stack = [], [self.root]
        while stack:
            problem = stack.pop()
            if not problem.expanded:
                if not problem.solved:
                    targets.append(problem)
                continue
            split = follow(problem)
            if split is not None:
                stack.append(split[1])
                stack.append(split[2])
        return targets

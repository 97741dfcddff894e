"""Drop from GOSDT's memo the problems its search can no longer reach, once the memo grows large.

Every expansion creates a child problem for both sides of every split (Lin et al., *Generalized
and Scalable Optimal Sparse Decision Trees*, ICML 2020, Algorithm 1), and the memo keeps each one
by its support so that another path to the same rows finds its bounds. On wide data most of them
soon stop mattering: the hierarchical bound (Theorem B.3) removes a split from its parent's
``splits`` for good (a parent's upper bound never rises), and a solved problem needs only the
split its tree uses. Such problems are reached from the root by no open path: nothing the search
proves or returns reads them, yet they are most of its memory.

``MemoTrimming`` keeps what is *live*: the problems reachable from the root (through every
viable split of an unsolved problem, and the best split of a solved one, which is the tree
``GOSDT._extract`` returns), together with the queue, the dive targets and the problems whose
subsolver runs are under way, and everything reachable from those. Every other problem leaves
the memo; its links are cut so reference counting frees it at once (the memo is one large
reference cycle otherwise), and the live problems forget their links to it.

Exact and certificate-preserving: a lower bound is a property of a support set, so a dropped
problem reached again later is created afresh with bounds from the same theorems (its work,
if any, is repeated); no live problem's bounds change, and a live problem's ``explored`` mark
stays true because every child of its viable splits is live. Trimming only changes how much
work may repeat, never what is proved.

It runs when the memo's estimated size passes ``MemoTrimming.memo_trim_bytes``, and next
when the memo has doubled (or passed that size again), so its cost stays proportional to
the problems created.
"""

from __future__ import annotations

from .problem import Problem

__all__ = ["MemoTrimming", "problem_bytes"]

#: Bytes a problem takes in the memo besides its support sets: the object's slots, its counts,
#: bounds, parent links and the memo's dictionary entry (an estimate).
PROBLEM_OVERHEAD_BYTES = 700


def problem_bytes(n_points: int, budgeted: bool) -> int:
    """Estimated bytes of one memo problem over ``n_points`` rows.

    Its support is a Python integer of ``n_points`` bits; under a depth budget its memo key is
    another integer (the support with the remaining depth above it).

    Examples
    --------
    >>> problem_bytes(8000, budgeted=False), problem_bytes(8000, budgeted=True)
    (1728, 2756)
    """
    support = 28 + n_points // 8
    return PROBLEM_OVERHEAD_BYTES + support * (2 if budgeted else 1)


class MemoTrimming:
    """The memo trimming of a GOSDT search (a part of ``GOSDT``, see the module docstring)."""

    #: The memo's estimated size (bytes, ``problem_bytes`` per problem) from which problems the
    #: search can no longer reach are dropped. None keeps every problem.
    memo_trim_bytes: float | None = 5e8

    def _memo_trim_due(self) -> bool:
        """Whether the memo has grown past the size at which it is trimmed next."""
        if self.memo_trim_bytes is None:
            return False
        if self._trim_at is None:
            self._trim_at = self._memo_budget_problems()
        return len(self.problems) >= self._trim_at

    def _memo_budget_problems(self) -> int:
        """``memo_trim_bytes`` in problems of this data (at least one)."""
        per_problem = problem_bytes(self.dataset.n_points, self.depth_budget is not None)
        return max(int((self.memo_trim_bytes or 0) // per_problem), 1)

    def _live_problems(self) -> dict[int, Problem]:
        """The problems the search can still use, by ``id`` (see the module docstring)."""
        starts = [self.root, *self._dive_targets]
        starts.extend(problem for _, problem in self._queue)
        if self._ready_pairs is not None:
            starts.append(self._ready_pairs[0])
        if self._three_runs:
            running = self._three_runs.keys()
            starts.extend(problem for problem in self.problems.values() if id(problem) in running)
        live = {}
        stack = []
        for problem in starts:
            if id(problem) not in live:
                live[id(problem)] = problem
                stack.append(problem)
        while stack:
            problem = stack.pop()
            splits = problem.splits
            if not splits:
                continue
            if problem.solved:
                best = self._best_split(problem)
                splits = [best[1]]
            for _, left, right in splits:
                if id(left) not in live:
                    live[id(left)] = left
                    stack.append(left)
                if id(right) not in live:
                    live[id(right)] = right
                    stack.append(right)
        return live

    def _trim_memo(self) -> int:
        """Drop the problems that are not live from the memo; returns how many were dropped."""
        live = self._live_problems()
        kept, dropped = {}, []
        for key, problem in self.problems.items():
            if id(problem) in live:
                kept[key] = problem
            else:
                dropped.append(problem)
        for problem in dropped:
            # Cut the dropped problem's links (up and down) so that reference counting frees it and
            # what only it held. Its ``origin`` stays: a live problem first reached through it still
            # names its path by it (GOSDT.rule) and measures its depth by it (plug-in bounds).
            problem.splits = problem.parent_links = problem.lb_split = problem.similar = None
        for problem in kept.values():
            if problem.solved and problem.splits:
                # A solved problem answers with its best split only (GOSDT._extract); the others'
                # children are not live, so its list must not keep them alive.
                problem.splits = [self._best_split(problem)[1]]
                problem.lb_split = None
            links = problem.parent_links
            if links and any(id(parent) not in live for parent in links[::2]):
                pairs = iter(links)
                problem.parent_links = [item for parent, sibling in zip(pairs, pairs) if id(parent) in live
                                        for item in (parent, sibling)]
        self.problems = kept
        self.trimmed_problems += len(dropped)
        self._trim_at = max(self._memo_budget_problems(), 2 * len(kept))
        return len(dropped)

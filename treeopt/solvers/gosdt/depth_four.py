"""The depth-four solver: root splits with exact depth-three children, least bound first.

The loop of the depth-three solver (``treeopt/solvers/gosdt/depth_three.py``) one level up: a tree of
depth at most four is a root split ``j`` and two subtrees of depth at most three, which
:class:`~treeopt.solvers.gosdt.depth_three.DepthThreeSolver` solves exactly. Root splits are tried in
order of their lower bound, least first, and most are closed without solving their children by
the same bounds:

* **Child lower bounds**: each child costs at least the least of its leaf and its
  equivalent-points loss plus 2λ (GOSDT Theorems B.2 and B.9).
* **The similar-support bound** (GOSDT Theorem B.10, ``R*(B) >= R*(A) - w(A \\ B)`` at one
  depth budget): first with the whole support as the solved one, its depth-three optimum
  found before any root split (a child lacks the other child's rows), then with every
  solved child, through the pair weights ``w(f_j ∧ f_k)`` of the depth-two solver.
* **Slack on the children's targets** (ConTree's raised upper bounds: Briţa, van der Linden
  and Demirović, *Optimal Classification Trees for Continuous Feature Data Using Dynamic
  Programming with Branch-and-Bound*, AAAI 2025): each child is solved against its target plus
  the depth-three solver's slack, so a failed solve closes the neighbouring thresholds too.
* With whole weights a child's bound rises to the least objective a subtree of at most eight
  leaves can have (``achievable_at_least`` in ``treeopt/solvers/gosdt/depth_two.py``).

This is ConTree's search at depth four; GOSDT's own search at a remaining depth of four creates
every child problem and bounds them one by one, which on spiral with every threshold (100 points,
180 thresholds) runs 114 depth-three solves where this loop runs 65-98: depth budget 4 fits 1.6-1.9
times faster there, 1.15-2 times on compas (``benchmarks/results_contree.md``).

**Deeper.** The children may be solved by a depth-four solver in turn: ``DepthFourSolver(four)``
solves depth five, and so on (ConTree's whole search is this recursion). On threshold columns the
deeper loops certify sooner than GOSDT's search with depth-four loops below; on one-hot data they
take the same time and, inside iterative deepening, meet good trees later than GOSDT's dives
(``benchmarks/results_contree.md``, ``benchmarks/results_wide.md``).
GOSDT uses them up to :attr:`treeopt.solvers.gosdt.search.GOSDT.max_loop_depth` on threshold columns (the
``depth_five_six`` switch).

A run advances one step at a time (:meth:`~treeopt.solvers.gosdt.depth_three.RootSplitRun.advance`):
a step is one root split of a child's depth-three solve (or of the seed's), so a time limit or a
Pause waits for about one depth-two solve, never for a whole depth-three child.

Objectives are in weight units (scored loss + λ per leaf), like the solvers'.
"""

from __future__ import annotations

import numpy as np

from .depth_three import DepthThreeSolver, LoopSolver, SolvedRun, SupportMemo

__all__ = ["DepthFourSolver"]


class DepthFourSolver(LoopSolver):
    """Solve subproblems of depth at most four exactly, with a target to beat.

    Parameters
    ----------
    three : DepthThreeSolver or DepthFourSolver
        The solver of the children, one level less deep, on the same dataset (its slack on the
        children's targets is used here too): a depth-three solver, or a depth-four solver for a
        solver of depth five (and so on).
    results_size : int, default=20_000
        Its own results kept by support (:attr:`~treeopt.solvers.gosdt.depth_three.LoopSolver.results`:
        the same support is reached through both orders of two splits); cleared when full. The
        children's results are kept by the children's solver.

    Attributes
    ----------
    depth : int
        The depth of the trees it solves (four over a depth-three solver).
    solved_children : int
        The children's solves run (children of a tried root split, and each solve's whole support).
    skipped_splits : int
        Root splits never solved because a bound reached the target.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.solvers.gosdt.depth_two import DepthTwoSolver
    >>> X = np.array([[a, b, c, d] for a in (0, 1) for b in (0, 1) for c in (0, 1) for d in (0, 1)], dtype=bool)
    >>> parity = X.sum(axis=1) % 2
    >>> counts = np.stack([5 * (parity == 0), 5 * (parity == 1)], axis=1).astype(float)
    >>> four = DepthFourSolver(DepthThreeSolver(DepthTwoSolver(X, counts, penalty=1.0, eps=1e-9)))
    >>> objective, spec = four.solve(np.ones(16, dtype=bool), target=np.inf)
    >>> objective                 # parity of four bits: sixteen pure leaves
    16.0
    >>> spec[0] in (0, 1, 2, 3)
    True
    """

    def __init__(self, three: DepthThreeSolver | DepthFourSolver, results_size: int = 20_000):
        self.three = three
        self.depth = three.depth + 1
        #: The most leaves a child of a root split has (eight at depth three).
        self.child_max_leaves = 2 ** (self.depth - 2)
        self.two = three.two
        self.slack = three.slack
        self.results = SupportMemo(results_size, self.two.eps)
        self.solved_children = 0
        self.skipped_splits = 0

    def _seed_steps(self, columns, mask: np.ndarray, target: float):
        """The support's best tree at the children's depth (three for depth four; or a lower bound
        when nothing beats ``target``), and the pair weights ``w(f_j ∧ f_k)`` when a pair matrix
        fits: a generator of the run's steps, pausing after each root split of that solve."""
        objective, spec = yield from self._children_solver_steps(mask, target, hand_up_trees=True)
        both = None
        if columns.X.shape[1] <= self.two.max_pair_columns:
            both = self.two.best_with_pair_weights(columns)[2]
        return objective, spec, both

    def _child_steps(self, mask: np.ndarray, target: float):
        """A root split's child, its best tree at the children's depth if it beats ``target``: a
        generator of the run's steps, pausing after each root split of the child's solve."""
        return (yield from self._children_solver_steps(mask, target))

    def _children_solver_steps(self, mask: np.ndarray, target: float, hand_up_trees: bool = False):
        """The best tree at the children's depth if it beats ``target`` (results kept by support in
        the children's solver), one root split of a depth-three solve per step. With ``hand_up_trees``
        (the seed: its trees are trees of the run's whole support) each step yields the solve's best
        tree so far."""
        run = self.three.start(mask, target)
        if isinstance(run, SolvedRun):
            return run.objective, run.spec
        while not run.done:
            run.step()                     # inside the outer run's BLAS context
            yield (run.best, run.spec) if hand_up_trees else None
        self.solved_children += 1
        return run.objective, run.spec

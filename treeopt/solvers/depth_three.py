"""The depth-three solver: the best tree of depth at most three, with the similar-support bound.

A tree of depth at most three is a root split ``j`` and two subtrees of depth at most
two, which :class:`~treeopt.solvers.depth_two.DepthTwoSolver` solves exactly. Trying
every root split costs two depth-two solves per feature; most of them are skipped by
two bounds:

* **Child lower bounds.** Below split ``j`` each child costs at least the least of its
  leaf and its equivalent-points loss plus 2λ (Hu, Rudin and Seltzer, *Optimal Sparse
  Decision Trees*; Lin, Zhong, Hu, Rudin and Seltzer, *Generalized and Scalable
  Optimal Sparse Decision Trees* (GOSDT), Theorems B.2 and B.9).
* **The similar-support bound** (GOSDT, section 4.2 and Theorem B.10). Adding rows to a
  support raises its optimum by at most their weight, and removing rows never raises
  it, so for two supports ``A`` and ``B``::

      R*(B) >= R*(A ∩ B) >= R*(A) - w(A \\ B).

  Once the children of split ``j`` are solved, every other split's children get a lower
  bound: ``R*(left_k) >= R*(left_j) - w(left_j \\ left_k)`` and the three other pairings
  of sides. The weights ``w(f_j ∧ f_k)`` of every pair of features come from the same
  pair counts as the depth-two solver's, so the bound costs no pass over the rows. On
  threshold features neighbouring thresholds differ by a few rows, so one solved split
  closes a whole range of them: this is the idea behind ConTree's threshold-range
  pruning (Briţa, van der Linden and Demirović, *Optimal Classification Trees for
  Continuous Feature Data Using Dynamic Programming with Branch-and-Bound*, AAAI 2025).

Splits are tried in order of their lower bound, least first; the search stops when
the least remaining bound reaches the best objective found.

Objectives are in weight units (scored loss + λ per leaf), like the solvers'.
"""

from __future__ import annotations

import numpy as np

from .depth_two import DepthTwoSolver, Leaves, one_blas_thread, similar_bounds

__all__ = ["DepthThreeSolver"]


class DepthThreeSolver:
    """Solve subproblems of depth at most three exactly, with a target to beat.

    Parameters
    ----------
    two : DepthTwoSolver
        The depth-two solver of the same dataset (its points, scored weights, λ and tolerance).
    memo_size : int, default=200_000
        Depth-two results kept by support (the same grandchild is reached through both
        orders of two splits); cleared when full.

    Attributes
    ----------
    solved_children : int
        Depth-two solves run (children of a tried root split).
    skipped_splits : int
        Root splits never solved because a bound reached the target.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.solvers.depth_two import DepthTwoSolver
    >>> X = np.array([[a, b, c] for a in (0, 1) for b in (0, 1) for c in (0, 1)], dtype=bool)
    >>> parity = X.sum(axis=1) % 2
    >>> counts = np.stack([5 * (parity == 0), 5 * (parity == 1)], axis=1).astype(float)
    >>> three = DepthThreeSolver(DepthTwoSolver(X, counts, penalty=1.0, eps=1e-9))
    >>> objective, spec = three.solve(np.ones(8, dtype=bool), target=np.inf)
    >>> objective                 # parity of three bits: eight pure leaves
    8.0
    >>> spec[0] in (0, 1, 2)
    True
    """

    def __init__(self, two: DepthTwoSolver, memo_size: int = 200_000):
        self.two = two
        self.memo_size = memo_size
        self._memo: dict = {}
        self.solved_children = 0
        self.skipped_splits = 0

    def solve(self, mask: np.ndarray, target: float) -> tuple[float, object]:
        """The best tree of depth at most three over the rows in ``mask``, if it beats ``target``.

        Parameters
        ----------
        mask : ndarray of bool, shape (n_points,)
            The support set's points.
        target : float
            An objective to beat (weight units), such as a known tree's.

        Returns
        -------
        objective : float
            The optimum when it is below ``target - eps``; otherwise ``target - eps``, a
            lower bound on it (nothing better than the target exists).
        spec : int, tuple or None
            The optimal tree as a nested spec (``LEAF``, a feature for a split into two
            leaves, or ``(feature, left spec, right spec)``); None when nothing beats
            ``target``.
        """
        with one_blas_thread():
            return self._solve(mask, float(target))

    # -- the search over root splits -------------------------------------------------------
    def _solve(self, mask: np.ndarray, target: float) -> tuple[float, object]:
        two = self.two
        eps = two.eps
        columns = two.columns(mask)
        X, W = columns.X, columns.W
        n = X.shape[1]
        leaves = Leaves.of(two, columns)
        row_weight = W.sum(axis=1)
        if n <= two.max_pair_columns:
            counts = two.counts(columns)
            both_all = counts.pair.sum(axis=0)                    # w(f_j ∧ f_k) for every pair

            def both_of(j):
                return both_all[j]
            best, spec = (counts.objective, counts.spec()) if counts.objective < target - eps else (target - eps, None)
        else:                                                     # no pair matrix: one row per tried split
            def both_of(j):
                rows = X[:, j] > 0
                return row_weight[rows] @ X[rows]
            best, spec = two.bounded(columns, target)             # the best tree of depth at most two
        if n == 0:
            return best, spec
        single_w = row_weight @ X
        total_w = float(row_weight.sum())
        low_left, low_right = leaves.lower_bounds()
        tried = np.zeros(n, dtype=bool)
        rows = np.flatnonzero(mask)
        while True:
            bound = low_left + low_right
            bound[tried] = np.inf
            j = int(np.argmin(bound))
            if bound[j] >= best:
                break
            tried[j] = True
            right_rows = X[:, j] > 0
            left_mask, right_mask = self._child_masks(rows, right_rows)
            left_obj, left_spec = self._depth_two(left_mask, best - low_right[j])
            right_obj = right_spec = None
            if left_spec is not None and left_obj + low_right[j] < best:
                right_obj, right_spec = self._depth_two(right_mask, best - left_obj)
                if right_spec is not None and left_obj + right_obj < best:
                    best, spec = left_obj + right_obj, (int(columns.features[j]), left_spec, right_spec)
            # Similar support (Theorem B.10): each solved child bounds the children of every other
            # split. A child that did not beat its target is bounded below by it (minus eps), which
            # is all the bound needs.
            similar_bounds(low_left, low_right, j, left_obj, right_obj, both_of(j), single_w, total_w)
        self.skipped_splits += int(n - tried.sum())
        return best, spec

    def _child_masks(self, rows: np.ndarray, right_rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        left = np.zeros(self.two.n_points, dtype=bool)
        right = np.zeros(self.two.n_points, dtype=bool)
        left[rows[~right_rows]] = True
        right[rows[right_rows]] = True
        return left, right

    def _depth_two(self, mask: np.ndarray, target: float) -> tuple[float, object]:
        """A child's best tree of depth at most two if it beats ``target`` (exact results memoised by support)."""
        key = np.packbits(mask).tobytes()
        found = self._memo.get(key)
        if found is not None:
            objective, spec = found
            return (objective, spec) if objective < target - self.two.eps else (target - self.two.eps, None)
        objective, spec = self.two.best(mask, target)
        self.solved_children += 1
        if spec is not None:
            if len(self._memo) >= self.memo_size:
                self._memo.clear()
            self._memo[key] = (objective, spec)
        return objective, spec

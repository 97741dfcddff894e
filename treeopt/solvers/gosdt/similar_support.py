"""The weights behind the similar-support bound (GOSDT Theorem B.10) for one problem's splits.

Lin, Zhong, Hu, Rudin and Seltzer, *Generalized and Scalable Optimal Sparse Decision
Trees* (ICML 2020), section 4.2 and Theorem B.10: for two support sets ``A`` and ``B``
(with the same depth budget), ``R*(B) >= R*(A ∩ B) >= R*(A) - w(A \\ B)``, where
``w`` is the most the rows of ``A \\ B`` can add to a tree's loss (their scored
weight). Below a problem with support ``S``, the children of splits ``j`` and ``k`` are
``S ∖ f_j``, ``S ∩ f_j``, ``S ∖ f_k`` and ``S ∩ f_k``, and the four differences are the
weights of ``¬f_j ∧ f_k``, ``¬f_j ∧ ¬f_k``, ``f_j ∧ f_k`` and ``f_j ∧ ¬f_k`` on ``S``:
all read from the pair counts of the depth-two solver.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .depth_two import PairCounts, similar_bounds

__all__ = ["SimilarSupport"]


@dataclass
class SimilarSupport:
    """Pairwise weights of one support's kept feature columns.

    Attributes
    ----------
    column : ndarray of int, shape (n_features,)
        The kept column of each dataset feature (``-1`` where it is constant on the support).
    single : ndarray, shape (n_columns,)
        ``w(S ∩ f_k)`` for every kept column.
    both : ndarray, shape (n_columns, n_columns)
        ``w(S ∩ f_j ∩ f_k)``.
    total : float
        ``w(S)``.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.solvers.gosdt.depth_two import DepthTwoSolver
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], dtype=bool)
    >>> counts = np.array([[3, 0], [0, 1], [0, 2], [4, 0]], dtype=float)
    >>> two = DepthTwoSolver(X, counts, penalty=1.0, eps=1e-9)
    >>> similar = SimilarSupport.of(two.counts(two.columns(np.ones(4, dtype=bool))), 2)
    >>> to_left, to_right = similar.bounds_from(0, True, 5.0)   # S ∩ ¬f_0 has optimum 5
    >>> to_left.tolist(), to_right.tolist()                   # bounds on S ∩ ¬f_k, S ∩ f_k
    ([5.0, 4.0], [1.0, 2.0])
    """

    column: np.ndarray
    single: np.ndarray
    both: np.ndarray
    total: float

    @classmethod
    def of(cls, counts: PairCounts, n_features: int) -> "SimilarSupport":
        """The weights of a support from its pair counts (every class together)."""
        features, members = counts.columns.members
        column = np.full(n_features, -1)
        column[features] = members
        return cls(column, counts.single.sum(axis=0), counts.pair.sum(axis=0), float(counts.total.sum()))

    def bounds_from(self, feature: int, left: bool, objective: float) -> tuple[np.ndarray, np.ndarray]:
        """Lower bounds on every split's children from one solved child of split ``feature``.

        Parameters
        ----------
        feature : int
            The dataset feature of the solved child's split.
        left : bool
            Whether the solved child is the left one (rows with the feature false).
        objective : float
            Its optimal objective (weight units).

        Returns
        -------
        to_left, to_right : ndarray, shape (n_columns,)
            For every kept column ``k``: lower bounds on the optima of ``S ∖ f_k`` and ``S ∩ f_k``.
        """
        j = self.column[feature]
        to_left, to_right = np.full(len(self.single), -np.inf), np.full(len(self.single), -np.inf)
        similar_bounds(to_left, to_right, j, objective if left else None, None if left else objective,
                       self.both[j], self.single, self.total)
        return to_left, to_right

"""The Rashomon set as a lazy sequence: exact size, i-th tree, samples."""
from __future__ import annotations

import numpy as np

from treeopt.rashomon.counting import rashomon_table


class RashomonSet:
    """Every tree with objective ≤ ``bound``, indexed in objective order.

    Trees are ``("leaf", label)`` / ``("split", j, left, right)`` tuples over
    the 0/1 columns of ``X``; nothing is listed until asked for.

    Examples
    --------
    >>> from treeopt.rashomon import rashomon_set
    >>> rs = rashomon_set([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 1, 1], regularization=0.1, bound=0.45)
    >>> len(rs), rs[0]
    (2, ('split', 0, ('leaf', 0), ('leaf', 1)))
    """

    def __init__(self, X, y, regularization: float, bound: float, optimum: float):
        self.X, self.y = np.asarray(X), np.asarray(y)
        self.regularization, self.bound, self.optimum = regularization, bound, optimum
        self._table = rashomon_table(self.X, self.y, regularization, bound)
        self._len = sum(self._table.values())

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, index: int) -> tuple:
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError(f"index out of range for a Rashomon set of {self._len} trees")
        return rashomon_table(self.X, self.y, self.regularization, self.bound, unrank=[index])[0]

    def sample(self, k: int, random_state=None) -> list:
        """``k`` distinct trees drawn uniformly without replacement (fewer if the set is smaller)."""
        rng = np.random.default_rng(random_state)
        k = min(k, self._len)
        chosen = set()
        while len(chosen) < k:
            chosen.add(int(rng.integers(self._len)) if self._len < 2**62 else int(rng.random() * self._len))
        return rashomon_table(self.X, self.y, self.regularization, self.bound, unrank=sorted(chosen))


def rashomon_set(X, y, *, regularization: float, epsilon: float | None = None,
                 bound: float | None = None) -> RashomonSet:
    """All trees with objective ≤ ``(1 + epsilon) R*`` (or ≤ ``bound``) on 0/1 features.

    Examples
    --------
    >>> len(rashomon_set([[0], [1]], [0, 1], regularization=0.1, epsilon=0.0))
    1
    """
    if (epsilon is None) == (bound is None):
        raise ValueError("give exactly one of epsilon= (relative to the optimum) or bound= (absolute)")
    X = np.asarray(X)
    if X.ndim != 2 or not np.isin(X, (0, 1)).all():
        raise ValueError("X must be a 2-D array of 0/1 values; binarize it first (treeopt.binarize)")
    y = np.asarray(y)
    n = len(y)
    _, counts = np.unique(y, return_counts=True)
    leaf_objective = (n - counts.max()) / n + regularization
    cells = rashomon_table(X, y, regularization, leaf_objective)
    optimum = min(m / n + regularization * k for m, k in cells)
    limit = (1 + epsilon) * optimum if bound is None else bound
    return RashomonSet(X, y, regularization, limit, optimum)

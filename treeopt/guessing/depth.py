"""Depth guess: the depth at which single trees match a boosted ensemble's complexity.

McTavish et al., *Fast sparse decision tree optimization via reference
ensembles* (AAAI 2022), section 4.2, Theorem 4.2: with ``K >= 3`` weak
classifiers from a class ``B`` of VC dimension at least 3, trees of depth

    d = ceil(log2((K·VC(B) + K) · (3 ln(K·VC(B) + K) + 2)))

have VC dimension at least that of the weighted-vote ensembles. The bound is
conservative: the paper uses depth budgets of 2-5 in practice and treats ``d``
as the most one needs to consider. Pass the guess as ``depth_budget`` (a tree
with only the root has depth 0, as in gosdt).
"""

from __future__ import annotations

import math
from numbers import Integral, Real

__all__ = ["depth_guess"]


def depth_guess(n_estimators: int, vc_dimension: float) -> int:
    """Depth that lets one tree match the complexity of a boosted ensemble (Theorem 4.2).

    Parameters
    ----------
    n_estimators : int
        ``K``, the number of weak classifiers in the reference ensemble (at least 3).
    vc_dimension : float
        ``VC(B)``, the VC dimension of the base class (at least 3), e.g. of the
        depth-limited trees the booster combines.

    Returns
    -------
    int
        ``ceil(log2((K·VC + K)(3 ln(K·VC + K) + 2)))``.

    Raises
    ------
    ValueError
        When ``n_estimators`` or ``vc_dimension`` is below 3 (the theorem's hypotheses).

    Examples
    --------
    >>> depth_guess(10, 8)       # the paper's example: K = 10 depth-3 trees -> depth 11
    11
    >>> depth_guess(100, 8)      # K = 100 -> depth 15
    15
    >>> depth_guess(40, 3)
    12
    """
    if isinstance(n_estimators, bool) or not isinstance(n_estimators, Integral) or n_estimators < 3:
        raise ValueError(f"n_estimators must be an integer >= 3 (Theorem 4.2 needs K >= 3), got {n_estimators!r}.")
    if isinstance(vc_dimension, bool) or not isinstance(vc_dimension, Real) or not math.isfinite(vc_dimension) \
            or vc_dimension < 3:
        raise ValueError(f"vc_dimension must be a number >= 3 (Theorem 4.2 needs VC(B) >= 3), got {vc_dimension!r}.")
    size = n_estimators * vc_dimension + n_estimators
    return math.ceil(math.log2(size * (3 * math.log(size) + 2)))

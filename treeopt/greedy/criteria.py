"""Splitting criteria of greedy tree induction: how impure a node is, how much a split helps.

The lecture slides ("Decision trees" lecture slides, parts 1 and 2) define them for class
proportions ``p``; here they take *statistics* (a vector per node) so the same
code scores many nodes or candidate splits at once with numpy:

* classification: the statistics are the weighted class counts;
  ``entropy`` (bits, ``H(p) = -sum p log2 p``), ``gini`` (``1 - sum p²``,
  which is ``2p(1-p)`` for two classes) and ``misclassification``
  (``1 - max p``);
* regression (CART, slides part 4): the statistics are ``(w, sum w·y,
  sum w·y²)`` and the impurity is the variance (mean squared error around the
  mean), so ``weight × impurity`` is the squared loss of the leaf mean.

:func:`impurity_decrease` is the slides' ``Gain(S, A)``: the parent's
impurity minus the weighted average impurity of the branches; with
``entropy`` it is the information gain of C4.5. :func:`split_info` and
:func:`gain_ratio` are Quinlan's gain ratio (slides part 2).
"""

from __future__ import annotations

import numpy as np

__all__ = ["CRITERIA", "impurity", "impurity_decrease", "split_info", "gain_ratio", "node_weight"]

#: Criterion name → what the statistics vector holds.
CRITERIA = {
    "entropy": "class counts",
    "gain_ratio": "class counts",
    "gini": "class counts",
    "misclassification": "class counts",
    "squared_error": "(weight, sum of w·y, sum of w·y²)",
}


def node_weight(stats: np.ndarray, criterion: str) -> np.ndarray:
    """Total weight of the rows summarised by ``stats`` (last axis = statistics).

    Examples
    --------
    >>> node_weight(np.array([[2.0, 4.0], [0.0, 1.0]]), "gini").tolist()
    [6.0, 1.0]
    """
    stats = np.asarray(stats, dtype=float)
    if criterion == "squared_error":
        return stats[..., 0]
    return stats.sum(axis=-1)


def impurity(stats, criterion: str) -> np.ndarray:
    """Impurity of nodes with these statistics (0 for an empty node).

    Parameters
    ----------
    stats : array_like of shape (..., k)
        Class counts, or ``(w, Σwy, Σwy²)`` for ``"squared_error"``.
    criterion : str
        A key of :data:`CRITERIA` (``"gain_ratio"`` uses the entropy).

    Returns
    -------
    ndarray of shape (...)

    Examples
    --------
    The three leaves of the slides' misclassification example (part 2):

    >>> impurity(np.array([[4, 6], [8, 2], [3, 7]]), "misclassification").round(3).tolist()
    [0.4, 0.2, 0.3]
    >>> float(impurity([5, 5], "entropy")), float(impurity([5, 5], "gini"))
    (1.0, 0.5)
    >>> round(float(impurity([3.0, 6.0, 14.0], "squared_error")), 6)   # y = 1, 2, 3: variance 2/3
    0.666667
    """
    stats = np.asarray(stats, dtype=float)
    if criterion not in CRITERIA:
        raise ValueError(f"unknown criterion {criterion!r}; choose one of {sorted(CRITERIA)}.")
    weight = node_weight(stats, criterion)
    safe = np.where(weight > 0, weight, 1.0)
    if criterion == "squared_error":
        mean = stats[..., 1] / safe
        value = np.maximum(stats[..., 2] / safe - mean * mean, 0.0)
        return np.where(weight > 0, value, 0.0)
    p = stats / safe[..., None]
    if criterion in ("entropy", "gain_ratio"):
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(p > 0, -p * np.log2(np.where(p > 0, p, 1.0)), 0.0)
        value = terms.sum(axis=-1)
    elif criterion == "gini":
        value = 1.0 - (p * p).sum(axis=-1)
    else:
        value = 1.0 - p.max(axis=-1)
    return np.where(weight > 0, value, 0.0)


def impurity_decrease(parent, children, criterion: str) -> np.ndarray:
    """The slides' ``Gain(S, A)``: parent impurity minus the branches' weighted impurity.

    Parameters
    ----------
    parent : array_like of shape (k,)
        Statistics of the node ``S``.
    children : array_like of shape (..., J, k)
        Statistics of the ``J`` branches of each candidate split (leading
        axes score many candidates at once).
    criterion : str

    Returns
    -------
    ndarray of shape (...)

    Examples
    --------
    ``Gain(S, Crowded)`` on the restaurant data (slides part 1): branches
    none = (0 yes, 2 no), some = (4, 0), full = (2, 4):

    >>> round(float(impurity_decrease([6, 6], [[0, 2], [4, 0], [2, 4]], "entropy")), 3)
    0.541
    """
    parent = np.asarray(parent, dtype=float)
    children = np.asarray(children, dtype=float)
    criterion = "entropy" if criterion == "gain_ratio" else criterion
    total = node_weight(parent, criterion)
    if total <= 0:
        return np.zeros(children.shape[:-2])
    weights = node_weight(children, criterion) / total
    return impurity(parent, criterion) - (weights * impurity(children, criterion)).sum(axis=-1)


def split_info(children, criterion: str = "entropy") -> np.ndarray:
    """``SplitInfo(S, A) = -sum_j |S_j|/|S| log2(|S_j|/|S|)`` (slides part 2), in bits.

    Examples
    --------
    >>> float(split_info([[3, 1], [2, 2]]))      # two branches of equal size: one bit
    1.0
    """
    children = np.asarray(children, dtype=float)
    sizes = node_weight(children, criterion)
    total = sizes.sum(axis=-1, keepdims=True)
    q = sizes / np.where(total > 0, total, 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(q > 0, -q * np.log2(np.where(q > 0, q, 1.0)), 0.0)
    return terms.sum(axis=-1)


def gain_ratio(parent, children) -> np.ndarray:
    """Quinlan's gain ratio ``Gain(S, A) / SplitInfo(S, A)`` (0 when SplitInfo is 0).

    It divides out the advantage that information gain gives to splits with
    many small branches (slides part 2, "Encourages too many branches?").

    Examples
    --------
    >>> round(float(gain_ratio([6, 6], [[0, 2], [4, 0], [2, 4]])), 3)
    0.371
    """
    gain = impurity_decrease(parent, children, "entropy")
    info = split_info(children)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(info > 0, gain / np.where(info > 0, info, 1.0), 0.0)

"""Scheduling policies of the leaf-set search (OSDT thesis, section 5.2).

The OSDT queue is a priority queue of partial trees; the policy decides
which tree is split next. It never changes the optimum, only how fast it is
found and proved. Each policy maps a partial tree's numbers to a sort key
(smaller first):

``curiosity``
    The lower bound divided by the normalized support of the fixed
    ("unchanged") leaves: the thesis's best policy, taken from CORELS.
    A tree with no fixed leaf yet uses its bound as is (as if its fixed
    support were the whole data set), so that trees which keep everything
    open are not starved.
``lower_bound``
    The lower bound of the tree's descendants.
``objective``
    The objective of the tree itself.
``entropy``
    The conditional entropy of the label given the leaf (weighted by leaf
    support, in bits): purer trees first. The thesis names this policy
    without a formula; this is the usual reading.
``bfs`` / ``dfs``
    Structural orders: first in first out / last in first out.

Examples
--------
>>> sorted(SCHEDULES)
['bfs', 'curiosity', 'dfs', 'entropy', 'lower_bound', 'objective']
>>> priority_key("curiosity", lower_bound=0.2, objective=0.3, fixed_support=0.5, entropy=0.9, sequence=7)
0.4
>>> priority_key("dfs", lower_bound=0.2, objective=0.3, fixed_support=0.5, entropy=0.9, sequence=7)
-7
"""

from __future__ import annotations

import math

__all__ = ["SCHEDULES", "priority_key", "label_entropy"]

#: Name → what the key is (shown in the queue table).
SCHEDULES = {
    "curiosity": "lower bound / normalized support of the fixed leaves (OSDT section 5.2, CORELS)",
    "lower_bound": "lower bound of the tree's descendants",
    "objective": "objective of the tree",
    "entropy": "support-weighted entropy of the labels in the leaves",
    "bfs": "breadth first (insertion order)",
    "dfs": "depth first (reverse insertion order)",
}


def priority_key(schedule: str, *, lower_bound: float, objective: float, fixed_support: float,
                 entropy: float, sequence: int) -> float:
    """Sort key of a partial tree under ``schedule`` (smaller is explored first).

    Parameters
    ----------
    schedule : str
        One of :data:`SCHEDULES`.
    lower_bound, objective : float
        In objective units.
    fixed_support : float
        Fraction of the training weight captured by the fixed leaves.
    entropy : float
        :func:`label_entropy` of the tree's leaves.
    sequence : int
        Creation order of the tree.
    """
    if schedule == "curiosity":
        return lower_bound / fixed_support if fixed_support > 0 else lower_bound
    if schedule == "lower_bound":
        return lower_bound
    if schedule == "objective":
        return objective
    if schedule == "entropy":
        return entropy
    if schedule == "bfs":
        return sequence
    if schedule == "dfs":
        return -sequence
    raise ValueError(f"unknown schedule {schedule!r}; choose one of {sorted(SCHEDULES)}.")


def label_entropy(leaf_counts, total: float) -> float:
    """Support-weighted label entropy (bits) of a set of leaves.

    Examples
    --------
    >>> label_entropy([(2, 2), (4, 0)], 8.0)     # half the data is a 50/50 leaf
    0.5
    """
    value = 0.0
    for counts in leaf_counts:
        size = sum(counts)
        if size <= 0:
            continue
        h = 0.0
        for n in counts:
            if n > 0:
                p = n / size
                h -= p * math.log2(p)
        value += size / total * h
    return value

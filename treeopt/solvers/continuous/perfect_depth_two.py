"""The fewest leaves of a depth-two tree without errors, for every root threshold at once.

At ``regularization=0`` a subproblem asked below one error has only trees without errors left
(:mod:`.leaf_counts`), and its answer is the fewest leaves of such a tree. At depth two that
number is 1 (one class), 2 (a split with two pure sides), 3 (a pure side and a side one split
makes pure) or 4 (both sides made pure by one split each), and one pass per root column finds it
for every root threshold of that column, instead of evaluating the thresholds one batch at a time.

A side is made pure by one split on column ``g`` exactly when it holds two classes whose ranks on
``g`` do not overlap: the largest rank of one class is below the smallest rank of the other (a
threshold between them separates them, and ranks of equal values are equal, so such a threshold
exists). With ``hi[c]`` and ``lo[c]`` the largest and smallest rank on ``g`` of class ``c``'s rows
of a side, two present classes are separated exactly when ``min_c hi[c] < max_c lo[c]``: the class
with the smaller ``hi`` must lie wholly below the other. The left side of the root thresholds of
a column grows row by row in that column's order, so running maxima and minima
(``np.maximum.accumulate``) give ``hi`` and ``lo`` of every left side at once, and the same over
the reversed order gives every right side. This is the depth-two solver of Brița, van der Linden
and Demirović (*Optimal Classification Trees for Continuous Feature Data Using Dynamic Programming
with Branch-and-Bound*, AAAI 2025, section 4.3) specialised to the question "which trees have no
errors": each child's best tree is a leaf, a split, or has errors, and which one it is follows from
the class ranges alone. For a deeper support the same pass gives, for every root threshold, lower
bounds on the leaves of both sides (:func:`split_leaf_floors`): a leaf per class, and three leaves for
a side that no split separates.

Examples
--------
Four rows on two columns: column 0 orders the classes 0, 1, 0, 1, column 1 orders them 0, 0, 1, 1:

>>> import numpy as np
>>> rank = np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32)
>>> cols = np.argsort(rank, axis=1, kind="stable").astype(np.int32)
>>> fewest_leaves_without_errors(cols, rank, np.array([0, 1, 0, 1]), n_classes=2)   # column 1 alone
(2, 1, 1)

The exclusive or of two 0/1 columns needs four leaves:

>>> rank = np.array([[0, 0, 1, 1], [0, 1, 0, 1]], dtype=np.int32)
>>> cols = np.argsort(rank, axis=1, kind="stable").astype(np.int32)
>>> fewest_leaves_without_errors(cols, rank, np.array([0, 1, 1, 0]), n_classes=2)
(4, 0, 0)
"""

from __future__ import annotations

import numpy as np

__all__ = ["classes_present", "side_leaves", "fewest_leaves_without_errors", "split_leaf_floors"]

#: The leaves of a side that no depth-one tree classifies without errors.
WITH_ERRORS = 1 << 20


def classes_present(labels: np.ndarray, n_classes: int) -> np.ndarray:
    """How many classes each prefix of each row order holds (rows of label -1 hold none).

    Examples
    --------
    >>> classes_present(np.array([[0, 0, -1, 2, 1]]), 3).tolist()
    [[1, 1, 1, 2, 3]]
    """
    present = np.zeros(labels.shape, dtype=np.int32)
    for c in range(n_classes):
        present += np.cumsum(labels == c, axis=-1) > 0
    return present


def side_leaves(ranks: np.ndarray, labels: np.ndarray, n_classes: int) -> np.ndarray:
    """The fewest leaves of a tree of depth at most one without errors on every prefix of row orders.

    Parameters
    ----------
    ranks : ndarray of int, shape (n_columns, n_orders, n_rows)
        ``ranks[g, f, q]``: the rank on column ``g`` of the ``q``-th row of order ``f`` (the rows in
        the order in which the prefixes grow).
    labels : ndarray of int, shape (n_orders, n_rows)
        The class of each row of each order, -1 for rows of no cost-weighted weight (they hold no
        class).
    n_classes : int
        The number of classes.

    Returns
    -------
    ndarray of int, shape (n_orders, n_rows)
        For the prefix of the first ``q + 1`` rows of order ``f``: 1 if it holds at most one class,
        2 if one split on some column separates its two classes, :data:`WITH_ERRORS` otherwise.

    Examples
    --------
    >>> ranks = np.array([[[0, 1, 2]], [[2, 0, 1]]])
    >>> side_leaves(ranks, np.array([[0, 1, 0]]), 2).tolist()              # column 1 separates 0 | 1, 0
    [[1, 2, 2]]
    >>> side_leaves(ranks[:1], np.array([[0, 1, 0]]), 2).tolist()          # column 0 alone cannot
    [[1, 2, 1048576]]
    """
    ranks = ranks.astype(np.int32, copy=False)
    big = np.iinfo(np.int32).max
    if n_classes == 2:
        return _two_class_side_leaves(ranks, labels, big)
    present = classes_present(labels, n_classes)
    # A prefix with a third class has errors, and so has every longer one: only the rows before the
    # latest third class of any order are read.
    third = present > 2
    reach = int(np.where(third.any(axis=-1), third.argmax(axis=-1), labels.shape[-1]).max())
    ranks, part = ranks[..., :reach], labels[..., :reach]
    least_high = np.full(ranks.shape, big, dtype=np.int32)   # min over present classes of their largest rank
    most_low = np.full(ranks.shape, -1, dtype=np.int32)      # max over present classes of their smallest rank
    for c in range(n_classes):
        mine = part == c
        seen = np.cumsum(mine, axis=-1) > 0
        if not seen.any():
            continue
        high = np.maximum.accumulate(np.where(mine, ranks, -1), axis=-1)
        low = np.minimum.accumulate(np.where(mine, ranks, big), axis=-1)
        # Before a class's first row its running maximum is -1 and its minimum ``big``: neither counts.
        np.minimum(least_high, np.where(seen, high, big), out=least_high)
        np.maximum(most_low, np.where(seen, low, -1), out=most_low)
    separated = np.zeros(labels.shape, dtype=bool)
    separated[..., :reach] = (least_high < most_low).any(axis=0)
    return np.where(present <= 1, 1, np.where((present == 2) & separated, 2, WITH_ERRORS))


def _two_class_side_leaves(ranks: np.ndarray, labels: np.ndarray, big: int) -> np.ndarray:
    """:func:`side_leaves` with two classes: a prefix holding both is separated on a column exactly when
    the largest rank of one class is below the smallest of the other (before a class's first row its
    running maximum is -1 and its minimum ``big``, but then the prefix holds one class and one leaf)."""
    zero, one = labels == 0, labels == 1
    high0 = np.maximum.accumulate(np.where(zero, ranks, -1), axis=-1)
    high1 = np.maximum.accumulate(np.where(one, ranks, -1), axis=-1)
    low0 = np.minimum.accumulate(np.where(zero, ranks, big), axis=-1)
    low1 = np.minimum.accumulate(np.where(one, ranks, big), axis=-1)
    separated = ((high0 < low1) | (high1 < low0)).any(axis=0)
    both = (np.cumsum(zero, axis=-1) > 0) & (np.cumsum(one, axis=-1) > 0)
    return np.where(~both, 1, np.where(separated, 2, WITH_ERRORS))


#: Root columns are read together in chunks of at most this many (column × column × row) entries.
CHUNK_ENTRIES = 1 << 21


def fewest_leaves_without_errors(cols: np.ndarray, rank: np.ndarray, label: np.ndarray,
                                 n_classes: int) -> tuple[int, int, int] | None:
    """The fewest leaves of a tree of depth at most two without errors on a support, and its root split.

    Parameters
    ----------
    cols : ndarray of int, shape (n_columns, n_support)
        The support's rows in each column's sorted order.
    rank : ndarray of int, shape (n_columns, n_rows)
        Every row's rank on every column.
    label : ndarray of int, shape (n_rows,)
        Every row's class, -1 for rows of no cost-weighted weight.
    n_classes : int
        The number of classes.

    Returns
    -------
    (leaves, column, rank) or None
        The fewest leaves and a root threshold (rows of rank at most ``rank`` on ``column`` go left)
        of a tree with that many leaves; its children's trees are their best depth-one trees. None
        when every tree of depth at most two has errors. A support of one class has one leaf (and
        the column and rank are -1).
    """
    labels = label[cols[0]]
    if np.count_nonzero(np.bincount(labels[labels >= 0], minlength=n_classes)) <= 1:
        return 1, -1, -1
    n_columns, n = cols.shape
    chunk = max(1, CHUNK_ENTRIES // (n_columns * n))
    best = None
    for first in range(0, n_columns, chunk):
        roots = np.arange(first, min(first + chunk, n_columns))
        orders = cols[roots]                                 # (roots, n): each root column's order
        ranks = rank[:, orders]                              # (columns, roots, n)
        labels = label[orders]
        left = side_leaves(ranks, labels, n_classes)
        right = side_leaves(ranks[:, :, ::-1], labels[:, ::-1], n_classes)[:, ::-1]
        own = ranks[roots, np.arange(len(roots))]            # each root column's ranks in its own order
        total = np.where(own[:, 1:] != own[:, :-1], left[:, :-1] + right[:, 1:], WITH_ERRORS)
        at = np.unravel_index(int(np.argmin(total)), total.shape)
        if total[at] < WITH_ERRORS and (best is None or total[at] < best[0]):
            best = (int(total[at]), int(roots[at[0]]), int(own[at]))
    return best


def split_leaf_floors(cols: np.ndarray, rank: np.ndarray, label: np.ndarray, n_classes: int, *,
                      depth: int) -> tuple[np.ndarray, np.ndarray]:
    """Lower bounds on the leaves of trees without errors on both sides of every root threshold.

    A side's tree of depth at most ``depth - 1`` without errors has a leaf per class present
    (:mod:`.leaf_counts`), and it has at most two leaves only if it is one class or one split
    separates it (:func:`side_leaves`), so a side that no split separates needs three. A side with
    more classes than ``2 ** (depth - 1)``, or that no split separates when ``depth - 1`` is one,
    has no such tree at all.

    Parameters
    ----------
    cols, rank, label, n_classes
        As in :func:`fewest_leaves_without_errors`.
    depth : int
        The depth budget of the support (its children get ``depth - 1``).

    Returns
    -------
    left, right : ndarray of int, shape (n_columns, n_support)
        ``left[f, q]``: a lower bound on the leaves of the rows up to position ``q`` of column
        ``f``'s order; ``right[f, q]``: on the rows from position ``q`` on. :data:`WITH_ERRORS` for a
        side with no tree without errors.

    Examples
    --------
    Two classes alternating along column 0, separated by column 1:

    >>> rank = np.array([[0, 1, 2, 3], [0, 2, 1, 3]], dtype=np.int32)
    >>> cols = np.argsort(rank, axis=1, kind="stable").astype(np.int32)
    >>> left, right = split_leaf_floors(cols, rank, np.array([0, 1, 0, 1]), 2, depth=3)
    >>> left[0].tolist(), right[0].tolist()
    ([1, 2, 2, 2], [2, 2, 2, 1])
    """
    n_columns, n = cols.shape
    chunk = max(1, CHUNK_ENTRIES // (n_columns * n))
    left, right = [], []
    for first in range(0, n_columns, chunk):
        orders = cols[first:first + chunk]
        ranks = rank[:, orders]
        labels = label[orders]
        for out, side_ranks, side_labels, back in ((left, ranks, labels, slice(None)),
                                                   (right, ranks[:, :, ::-1], labels[:, ::-1], slice(None, None, -1))):
            leaves = side_leaves(side_ranks, side_labels, n_classes)
            present = classes_present(side_labels, n_classes)
            if depth - 1 >= 2:
                leaves = np.where(leaves >= WITH_ERRORS, 3, leaves)
            leaves = np.maximum(leaves, present)
            out.append(np.where(present > 2 ** (depth - 1), WITH_ERRORS, leaves)[:, back])
    return np.concatenate(left), np.concatenate(right)

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
the reversed order gives every right side. :func:`fewest_leaves_without_errors` runs these passes
only where fewer leaves are ruled out, and only over the root thresholds whose sides hold at most
two classes each: two and three leaves need no pass (a pure side, and one set of rows tested per
column and side), and a caller that can use only a few leaves gets a lower bound for the rest.
This is the depth-two solver of Brița, van der Linden and Demirović (*Optimal Classification Trees
for Continuous Feature Data Using Dynamic Programming with Branch-and-Bound*, AAAI 2025, section
4.3) specialised to the question "which trees have no errors": each child's best tree is a leaf,
a split, or has errors, and which one it is follows from the class ranges alone. For a deeper
support the same pass gives, for every root threshold, lower bounds on the leaves of both sides
(:func:`split_leaf_floors`): a leaf per class, and three leaves for a side that no split separates.

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

#: Above every rank.
_BIG = np.iinfo(np.int32).max


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


def fewest_leaves_without_errors(cols: np.ndarray, rank: np.ndarray, label: np.ndarray, n_classes: int, *,
                                 most_leaves: int = 4) -> tuple[int, int, int] | None:
    """The fewest leaves of a tree of depth at most two without errors on a support, and its root split.

    The answer is looked for in order of leaves, each step only where the previous ones leave room:

    * two leaves: a threshold with one class on each side (two classes in all);
    * three leaves: one side of one class, the other made pure by one split. Of the thresholds of a
      column that leave one class on the left, the last leaves the smallest right side, and a side
      that one split separates stays so when rows leave it, so only that threshold is tried (and
      likewise on the right): one test of one set of rows per column and side;
    * four leaves: both sides made pure by one split. Only thresholds whose sides hold at most two
      classes each can do it (a window of each column's thresholds, from where the third class
      first appears on the left and last appears on the right), and only the columns with a
      threshold in their window are read, each side's running class ranges (:func:`side_leaves`)
      over the rows that window reaches.

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
    most_leaves : int, default=4
        The most leaves the caller can use: a tree with more is not looked for.

    Returns
    -------
    (leaves, column, rank) or None
        The fewest leaves and a root threshold (rows of rank at most ``rank`` on ``column`` go left)
        of a tree with that many; its children are a leaf or a split each (their best depth-one
        trees). A support of one class has one leaf (and the column and rank are -1). None when
        every tree of depth at most two has errors. ``(most_leaves + 1, -1, -1)`` when no tree
        without errors has at most ``most_leaves`` leaves but one with more was not ruled out: a
        lower bound, no tree.

    Examples
    --------
    Three classes in runs along column 0, the last two separated by column 1 only:

    >>> rank = np.array([[0, 1, 2, 3, 4, 5], [0, 1, 2, 4, 3, 5]], dtype=np.int32)
    >>> cols = np.argsort(rank, axis=1, kind="stable").astype(np.int32)
    >>> label = np.array([0, 0, 1, 2, 1, 2])
    >>> fewest_leaves_without_errors(cols, rank, label, 3)
    (3, 0, 1)
    >>> fewest_leaves_without_errors(cols, rank, label, 3, most_leaves=2)    # three classes: no two
    (3, -1, -1)
    """
    labels = label[cols]                                  # each column's order
    totals = np.bincount(labels[0][labels[0] >= 0], minlength=n_classes)
    present = np.flatnonzero(totals)
    k = len(present)
    if k <= 1:
        return 1, -1, -1
    if k > 4:
        return None
    if max(k, 2) > most_leaves:
        return most_leaves + 1, -1, -1
    n_columns, n = cols.shape
    every = np.arange(n_columns)
    own = rank[every[:, None], cols]                      # each column's ranks in its own order
    # A threshold after position q (rows 0..q go left) exists where the value changes.
    positions = np.arange(n - 1)
    splits = own[:, 1:] != own[:, :-1]
    next_split = np.minimum.accumulate(np.where(splits, positions, n - 1)[:, ::-1], axis=1)[:, ::-1]
    # Where each class first and last appears in each column's order.
    first = np.empty((n_columns, k), dtype=np.int64)
    last = np.empty((n_columns, k), dtype=np.int64)
    for i, c in enumerate(present):
        mine = labels == c
        first[:, i] = mine.argmax(axis=1)
        last[:, i] = n - 1 - mine[:, ::-1].argmax(axis=1)
    first.sort(axis=1)
    last = -np.sort(-last, axis=1)
    one_left = first[:, 1] - 1           # thresholds up to here leave one class on the left
    one_right = last[:, 1]               # ... from here on, one class on the right
    two_left = first[:, 2] - 1 if k > 2 else np.full(n_columns, n - 2)
    two_right = last[:, 2] if k > 2 else np.zeros(n_columns, dtype=np.int64)

    def first_split_in(low, high):
        at = next_split[every, low]
        return np.where(at <= high, at, -1)

    if k == 2:                                            # two leaves: one class on each side
        at = first_split_in(one_right, one_left)
        found = np.flatnonzero(at >= 0)
        if len(found):
            f = int(found[0])
            return 2, f, int(own[f, at[f]])
    if most_leaves < 3:
        return most_leaves + 1, -1, -1
    chunk = max(1, CHUNK_ENTRIES // (n_columns * n))
    if k > 2 or most_leaves == 3:
        last_split = np.maximum.accumulate(np.where(splits, positions, -1), axis=1)
    # Three leaves: one side of one class. (With two classes and room for four, the pass below reads
    # every threshold of every column anyway, and finds three as well.)
    if k == 3 or (k == 2 and most_leaves == 3):
        pure_left = last_split[every, one_left]           # the last threshold with one class on the left
        pure_left = np.where(pure_left >= two_right, pure_left, -1)
        pure_right = first_split_in(one_right, two_left)  # the first with one class on the right
        for f in range(0, n_columns, chunk):
            roots = every[f:f + chunk]
            a, b = pure_left[roots], pure_right[roots]
            tried = np.flatnonzero((a >= 0) | (b >= 0))
            if not len(tried):
                continue
            roots, a, b = roots[tried], a[tried], b[tried]
            ranks, orders = rank[:, cols[roots]], labels[roots]
            # The right side of ``a`` and the left side of ``b``, tested together.
            right_ok, left_ok = _separable(ranks, orders, np.array([a + 1, np.zeros_like(b)]),
                                           np.array([np.full_like(a, n), b + 1]), present)
            right_ok &= a >= 0
            left_ok &= b >= 0
            good = np.flatnonzero(right_ok | left_ok)
            if len(good):
                i = int(good[0])
                q = a[i] if right_ok[i] else b[i]
                return 3, int(roots[i]), int(own[roots[i], q])
    if most_leaves < 4:
        return most_leaves + 1, -1, -1
    # Four leaves: a threshold whose sides hold at most two classes each, each made pure by one split.
    # A side that one split separates stays so when rows leave it: the window's smallest left side and
    # smallest right side must both be separated, or no threshold of the window is.
    low = first_split_in(np.maximum(two_right, 0), two_left)
    candidates = np.flatnonzero(low >= 0)
    kept = []
    for f in range(0, len(candidates) if k > 2 else 0, chunk):    # with two classes the window is whole
        roots = candidates[f:f + chunk]
        high = last_split[roots, two_left[roots]]
        ranks, orders = rank[:, cols[roots]], labels[roots]
        zero, whole = np.zeros(len(roots), dtype=np.int64), np.full(len(roots), n)
        left_ok, right_ok = _separable(ranks, orders, np.array([zero, high + 1]),
                                       np.array([low[roots] + 1, whole]), present)
        kept.append(roots[left_ok & right_ok])
    candidates = np.concatenate(kept) if kept else candidates
    best = None
    for f in range(0, len(candidates), chunk):
        roots = candidates[f:f + chunk]
        reach_left = int(two_left[roots].max()) + 1          # the longest left side read
        reach_right = n - 1 - int(two_right[roots].min())    # the longest right side read
        orders = cols[roots]
        ranks, orders_labels = rank[:, orders], labels[roots]
        left = np.full((len(roots), n - 1), WITH_ERRORS)
        right = np.full((len(roots), n - 1), WITH_ERRORS)
        reach_left = min(reach_left, n - 1)
        left[:, :reach_left] = side_leaves(ranks[..., :reach_left], orders_labels[:, :reach_left], n_classes)
        backwards = side_leaves(ranks[..., ::-1][..., :reach_right], orders_labels[:, ::-1][:, :reach_right],
                                n_classes)
        right[:, n - 1 - reach_right:] = backwards[:, ::-1]
        total = np.where(splits[roots], left + right, WITH_ERRORS)
        at = np.unravel_index(int(np.argmin(total)), total.shape)
        if total[at] < WITH_ERRORS and (best is None or total[at] < best[0]):
            best = (int(total[at]), int(roots[at[0]]), int(own[roots[at[0]], at[1]]))
    return best


def _separable(ranks: np.ndarray, labels: np.ndarray, start: np.ndarray, stop: np.ndarray,
               classes: np.ndarray) -> np.ndarray:
    """Whether the rows at positions ``start[s, i] <= q < stop[s, i]`` of order ``i`` hold at most one
    class, or two that one split separates (the largest rank of one below the smallest of the other on
    some column). ``ranks`` is (n_columns, n_orders, n_rows), ``labels`` (n_orders, n_rows), ``start``
    and ``stop`` (n_sets, n_orders); ``classes`` the classes that can be present. Returns
    (n_sets, n_orders)."""
    at = np.arange(labels.shape[1])
    inside = (at >= start[..., None]) & (at < stop[..., None])          # sets × orders × rows
    least_high = np.full((ranks.shape[0], *start.shape), _BIG, dtype=np.int64)
    most_low = np.full((ranks.shape[0], *start.shape), -1, dtype=np.int64)
    count = np.zeros(start.shape, dtype=np.int64)
    ranks = ranks[:, None]                                               # a set axis after the columns
    for c in classes:
        mine = inside & (labels == c)
        holds = mine.any(axis=-1)
        if not holds.any():
            continue
        count += holds
        high = np.where(mine, ranks, -1).max(axis=-1)
        low = np.where(mine, ranks, _BIG).min(axis=-1)
        np.minimum(least_high, np.where(holds, high, _BIG), out=least_high)
        np.maximum(most_low, np.where(holds, low, -1), out=most_low)
    return (count <= 1) | ((count == 2) & (least_high < most_low).any(axis=0))


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

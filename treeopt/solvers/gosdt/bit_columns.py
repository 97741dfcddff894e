"""Feature columns as packed bits: weighted counts of rows by popcount.

The depth-two and depth-three solvers need, for one chosen split ``f_j`` of a support
``S``, the class weights of ``S ∩ f_j ∩ f_k`` for every feature ``k``. As a float
product over the rows (``W[rows].T @ X[rows]``) that copies a rows × features matrix per
split, which dominates on thousands of threshold columns. With each column stored as bits (one
``uint64`` word per 64 points), the same counts are ``popcount(column & rows & class)`` summed
over words, 64 rows per operation.

Weights are not bits, so each class's point weights are split into a few *planes*
``w = Σ value_p · [point in plane p]``: one plane per distinct weight when there are few
(unit weights: one plane per class), otherwise the binary digits of integer multiples of
the least weight (points merged from equal rows carry counts 1, 2, 3, ...). Weights that
are neither (arbitrary sample weights) have no planes, and callers keep the float product.
"""

from __future__ import annotations

import numpy as np

from ...data import blocks, pack_columns      # the columns as words; the dataset packs them once, for both

__all__ = ["pack_mask", "pack_columns", "by_word", "nested_neighbours", "unique_columns", "WeightPlanes", "as_rows_of_bytes"]


def pack_mask(mask: np.ndarray) -> np.ndarray:
    """A boolean vector as ``uint64`` words (bit ``u % 64`` of word ``u // 64`` is ``mask[u]``).

    Examples
    --------
    >>> pack_mask(np.array([True, False, True])).tolist()
    [5]
    """
    packed = np.packbits(np.asarray(mask, dtype=bool), bitorder="little")
    words = np.zeros((len(packed) + 7) // 8 * 8, dtype=np.uint8)      # whole words (np.pad is slow)
    words[:len(packed)] = packed
    return words.view(np.uint64)


def nested_neighbours(column_words: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which neighbouring columns nest, from the columns as words (:func:`pack_columns`).

    ``rising[i]``: ``f_i ⊆ f_{i+1}``; ``falling[i]``: ``f_{i+1} ⊆ f_i`` (both when equal). One pass
    over the words, 64 points at a time: consecutive thresholds of one numeric column nest.

    Examples
    --------
    >>> x = np.array([1, 2, 3])
    >>> rising, falling = nested_neighbours(pack_columns(np.stack([x <= 1, x <= 2, x == 2], axis=1)))
    >>> rising.tolist(), falling.tolist()
    ([True, False], [False, True])
    """
    n_pairs = max(0, len(column_words) - 1)
    rising, falling = np.empty(n_pairs, dtype=bool), np.empty(n_pairs, dtype=bool)
    for start, stop in blocks(n_pairs, 8 * column_words.shape[1]):     # bounded pieces on wide tables
        a, b = column_words[start:stop], column_words[start + 1:stop + 1]
        rising[start:stop] = ~np.any(a & ~b, axis=1)
        falling[start:stop] = ~np.any(b & ~a, axis=1)
    return rising, falling


def by_word(column_words: np.ndarray) -> np.ndarray:
    """The columns' words word-major, shape (words, features): ``column_words.T`` as a contiguous copy,
    made in bounded pieces on wide tables.

    Examples
    --------
    >>> by_word(np.array([[1, 2], [3, 4], [5, 6]], dtype=np.uint64)).tolist()
    [[1, 3, 5], [2, 4, 6]]
    """
    n_features, n_words = column_words.shape
    out = np.empty((n_words, n_features), dtype=column_words.dtype)
    for start, stop in blocks(n_features, 8 * n_words):
        out[:, start:stop] = column_words[start:stop].T
    return out


def as_rows_of_bytes(words: np.ndarray) -> np.ndarray:
    """Each row of a 2-D word array as one opaque value, so ``np.unique`` finds equal rows.

    Examples
    --------
    >>> rows = np.array([[1, 2], [3, 4], [1, 2]], dtype=np.uint64)
    >>> len(np.unique(as_rows_of_bytes(rows)))
    2
    """
    words = np.ascontiguousarray(words)
    return words.view(np.dtype((np.void, words.dtype.itemsize * words.shape[1]))).ravel()


_HASH_MULTIPLIERS = np.random.default_rng(20261125).integers(1, 2**63, size=4096, dtype=np.uint64) | np.uint64(1)


def unique_columns(by_word: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct columns of a word-major bit matrix, exactly: ``(first, inverse)``.

    ``first`` lists the first column of each class of equal columns, in column order;
    ``inverse[c]`` is the class (a position in ``first``) of column ``c``. Columns are
    grouped by a 64-bit hash (a random odd multiplier per word, wrapping sums), which
    sorts thousands of columns in a fraction of a millisecond; the grouping is then
    checked word by word, and on a hash collision (never seen) the columns' bytes are
    compared instead, so the answer is exact.

    Parameters
    ----------
    by_word : ndarray of uint64, shape (words, columns)

    Examples
    --------
    >>> by_word = np.array([[5, 7, 5, 0]], dtype=np.uint64)
    >>> first, inverse = unique_columns(by_word)
    >>> first.tolist(), inverse.tolist()
    ([0, 1, 3], [0, 1, 0, 2])
    """
    n_words, n_columns = by_word.shape
    if n_columns == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if n_words <= len(_HASH_MULTIPLIERS):
        keys = np.zeros(n_columns, dtype=np.uint64)
        for w in range(n_words):
            keys += by_word[w] * _HASH_MULTIPLIERS[w]
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
        if not np.array_equal(by_word[:, first[inverse]], by_word):      # a collision: compare bytes
            _, first, inverse = np.unique(as_rows_of_bytes(by_word.T), return_index=True, return_inverse=True)
    else:
        _, first, inverse = np.unique(as_rows_of_bytes(by_word.T), return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    order = np.argsort(first)                 # classes in the order of their first column
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return first[order], rank[inverse]


class WeightPlanes:
    """Class weights of points as a few bit planes, for weighted counts by popcount.

    Parameters
    ----------
    weights : ndarray of shape (n_points, n_classes)
        Each point's (scored) weight per class.
    max_planes : int, default=24
        Give up (``planes`` None) beyond this many planes in all.

    Attributes
    ----------
    planes : list of (class, value, words) or None
        ``weights[:, class] = Σ value · [point in words]`` over the class's planes.

    Examples
    --------
    >>> W = np.array([[1.0, 0.0], [3.0, 0.5], [2.0, 0.5]])
    >>> planes = WeightPlanes(W)
    >>> rows = pack_mask(np.array([True, True, True]))
    >>> columns = pack_columns(np.array([[1], [1], [0]]))
    >>> planes.counts(columns.T, rows).tolist()    # class weights of points 0 and 1
    [[4.0], [0.5]]
    """

    def __init__(self, weights: np.ndarray, max_planes: int = 24):
        weights = np.asarray(weights, dtype=np.float64)
        self.n_classes = weights.shape[1]
        planes = []
        for k in range(self.n_classes):
            column = weights[:, k]
            values = np.unique(column[column != 0])
            if len(values) <= 4:
                planes += [(k, float(v), pack_mask(column == v)) for v in values]
                continue
            unit = values[0]
            multiples = np.round(column / unit)
            if unit <= 0 or not np.array_equal(multiples * unit, column) or multiples.max() >= 1 << 20:
                planes = None
                break
            digits = multiples.astype(np.int64)
            planes += [(k, float(unit * (1 << b)), pack_mask((digits >> b) & 1))
                       for b in range(int(digits.max()).bit_length())]
        self.planes = planes if planes is not None and len(planes) <= max_planes else None

    def counts(self, columns_by_word: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """Class weights of the points in ``rows`` and in each column, shape (classes, columns).

        ``columns_by_word`` holds the columns word-major, shape (words, columns) (the transpose
        of :func:`pack_columns`): summing the popcounts of a few long rows is about three times
        faster than summing many short ones.
        """
        out = np.zeros((self.n_classes, columns_by_word.shape[1]))
        for k, value, words in self.planes:
            ones = np.bitwise_count(columns_by_word & (rows & words)[:, None]).sum(axis=0, dtype=np.int64)
            out[k] += value * ones
        return out

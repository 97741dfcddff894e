"""The data layer every solver works on: binary features, equivalence classes, bitsets.

Representation (see GOSDT section 4.1)
----------------------------------------------------------------------------
Identical rows of the binary feature matrix are merged into *points* (the
equivalence classes ``z_u`` of GOSDT section 4.1). Each point carries its
weighted count per class. A *support set* (the points that reach a node) is a
Python ``int`` used as a bitset, one bit per point: ``a & b``, ``a & ~b`` and
``int.bit_count()`` run in C over machine words, and the int is the memo key.

Counts over a support set are sums of per-point counts. When every count is
an integer (no sample weights, or integer weights) we store each per-point
count vector *bit-sliced*: slice ``k`` is the bitset of points whose count has
bit ``k`` set, so ``sum(counts[s]) = sum_k 2**k * popcount(s & slice_k)``.
That is a handful of popcounts per query, exact, with no numpy call. We
measured it against the alternatives on the benchmark data: one bit per raw
row is as fast on small data but gives much longer bitsets on compas/fico
(thousands of duplicate rows), and summing float vectors with numpy over the
set bits costs microseconds per query, which dominates the search. Non-integer
sample weights fall back to that numpy sum (correct, slower).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Sequence

import numpy as np
import pandas as pd

from .binarize import BinaryFeature, Binarizer, check_deadline, name_features

__all__ = ["Dataset", "SubsetSum", "bits_of", "distinct_rows", "mask_of", "pack_columns", "points_in", "BLOCK_CELLS",
           "blocks"]

#: The setup's numpy calls on a whole table (rows × features) run in blocks of about this many
#: cells: a Ctrl-C is answered, and ``time_limit`` checked, between two blocks, so a call on a table
#: of billions of cells does not hold them until it returns.
BLOCK_CELLS = 1 << 24


def blocks(n: int, other: int, where: str | None = None):
    """``(start, stop)`` ranges covering ``range(n)``, each of at most :data:`BLOCK_CELLS` cells with
    ``other`` cells per index (at least one index each).

    With ``where``, the setup's deadline and a swallowed Ctrl-C are checked before every block
    but the first (``treeopt.binarize.check_deadline``).

    Examples
    --------
    >>> list(blocks(5, BLOCK_CELLS // 2))
    [(0, 2), (2, 4), (4, 5)]
    >>> list(blocks(0, 3))
    []
    """
    step = max(1, BLOCK_CELLS // max(1, other))
    for start in range(0, n, step):
        if start and where is not None:
            check_deadline(f"{where}, {start} of {n}")
        yield start, min(n, start + step)


def mask_of(indices) -> int:
    """Bitset with the given bit positions set.

    Examples
    --------
    >>> bin(mask_of([0, 2]))
    '0b101'
    """
    positions = np.fromiter(indices, dtype=np.int64) if not isinstance(indices, np.ndarray) \
        else indices.astype(np.int64, copy=False).ravel()
    if positions.size == 0:
        return 0
    bits = np.zeros(int(positions.max()) + 1, dtype=bool)
    bits[positions] = True
    return _int_of_bits(bits)


def _int_of_bits(bits: np.ndarray) -> int:
    """A boolean vector as a Python int (bit ``u`` is ``bits[u]``)."""
    return int.from_bytes(np.packbits(bits, bitorder="little").tobytes(), "little")


def pack_columns(X: np.ndarray) -> np.ndarray:
    """The columns of a 0/1 matrix (points × features) as rows of words, shape (features, words).

    Examples
    --------
    >>> pack_columns(np.array([[1, 0], [1, 1], [0, 1]])).tolist()
    [[3], [6]]
    """
    X = np.asarray(X)
    bits = X if X.dtype == bool else X > 0
    n_points, n_features = bits.shape
    whole = n_points // 8                                     # bytes of eight points each
    packed = np.zeros((n_features, (n_points + 63) // 64 * 8), dtype=np.uint8)
    # Byte b of column f holds points 8b .. 8b+7, point 8b+k at bit k: a weighted sum over k.
    # (np.packbits along the points' axis reads the matrix across its rows, much slower on wide
    # threshold tables.) In blocks of bytes (of eight points each), so a wide table is packed in
    # bounded pieces, each reading whole rows.
    eight = bits[:whole * 8].reshape(whole, 8, n_features).view(np.uint8)
    for start, stop in blocks(whole, 8 * n_features, "building the dataset: packing byte"):
        packed[:, start:stop] = np.einsum("bkf,k->fb", eight[start:stop], _BIT_VALUES, dtype=np.uint8)
    if n_points > whole * 8:                                  # the last, partial byte
        rest = bits[whole * 8:].view(np.uint8)
        packed[:, whole] = np.einsum("kf,k->f", rest, _BIT_VALUES[:len(rest)], dtype=np.uint8)
    return packed.view(np.uint64)


_BIT_VALUES = (1 << np.arange(8)).astype(np.uint8)


def distinct_rows(Z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a boolean matrix, sorted, and the index of each row among them.

    The same as ``np.unique(Z, axis=0, return_inverse=True)`` (same order), about ten times
    faster on thousands of rows: each row is packed into bytes and the byte strings are sorted.
    Packing, comparing and copying run in :func:`blocks` of rows, so that a table of billions of
    cells answers a Ctrl-C (and the setup's deadline) between blocks.

    Examples
    --------
    >>> points, inverse = distinct_rows(np.array([[1, 0], [0, 1], [1, 0]], dtype=bool))
    >>> points.astype(int).tolist(), inverse.tolist()
    ([[0, 1], [1, 0]], [1, 0, 1])
    """
    Z = np.asarray(Z, dtype=bool)
    if Z.shape[1] == 0 or Z.shape[0] == 0:
        points, inverse = np.unique(Z, axis=0, return_inverse=True)
        return points, inverse.ravel()
    n_rows, n_features = Z.shape
    # In blocks of rows: a wide table is packed, compared and copied in bounded pieces.
    packed = np.empty((n_rows, (n_features + 7) // 8), dtype=np.uint8)   # first column = most significant bit
    for start, stop in blocks(n_rows, n_features, "building the dataset: packing row"):
        packed[start:stop] = np.packbits(Z[start:stop], axis=1)
    keys = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()
    order = np.argsort(keys, kind="stable")                  # np.unique's own order: equal rows by position
    new = np.ones(n_rows, dtype=bool)                        # where the sorted keys change
    for start, stop in blocks(n_rows - 1, packed.shape[1], "building the dataset: comparing row"):
        new[start + 1:stop + 1] = keys[order[start + 1:stop + 1]] != keys[order[start:stop]]
    first = order[new]                                       # the first row of each distinct key
    inverse = np.empty(n_rows, dtype=np.intp)
    inverse[order] = np.cumsum(new) - 1
    points = np.empty((len(first), n_features), dtype=bool)
    for start, stop in blocks(len(first), n_features, "building the dataset: copying point"):
        points[start:stop] = Z[first[start:stop]]
    return points, inverse


def _class_indices(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """The index of each label among ``classes``; a ``ValueError`` naming a label that is not one.

    Numeric labels and sorted numeric classes (``np.unique``'s): one vectorised binary search for
    all labels; others, one dictionary lookup per label.

    Examples
    --------
    >>> _class_indices(np.array([3, 1, 3]), np.array([1, 3])).tolist()
    [1, 0, 1]
    >>> _class_indices(np.array(["b", "a"]), np.array(["a", "b"])).tolist()
    [1, 0]
    """
    if y.dtype.kind in "biuf" and classes.dtype.kind in "biuf" and len(classes) \
            and bool(np.all(classes[:-1] < classes[1:])):
        found = np.minimum(np.searchsorted(classes, y), len(classes) - 1)
        known = classes[found] == y
        if known.all():
            return found.astype(np.int64)
        label = y[np.flatnonzero(~known)[0]].item()
        raise ValueError(f"label {label!r} is not among the classes {classes.tolist()}.")
    index = {c: k for k, c in enumerate(classes.tolist())}
    try:
        return np.array([index[v] for v in y.tolist()], dtype=np.int64)
    except KeyError as error:
        raise ValueError(f"label {error.args[0]!r} is not among the classes {classes.tolist()}.") from None


def points_in(support: int, n_points: int) -> np.ndarray:
    """Boolean mask of length ``n_points`` of the bits set in ``support`` (the inverse of :func:`mask_of`).

    Examples
    --------
    >>> points_in(0b101, 4).tolist()
    [True, False, True, False]
    """
    raw = np.frombuffer(support.to_bytes((n_points + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=n_points, bitorder="little").view(bool)


def bits_of(mask: int) -> list[int]:
    """Positions of the set bits of ``mask``, ascending.

    Examples
    --------
    >>> bits_of(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _popcount(mask: int, support: int) -> int:
    return (support & mask).bit_count()


def _popcount_shifted(mask: int, shift: int, support: int) -> int:
    return (support & mask).bit_count() << shift


def _zero(support: int) -> int:
    return 0


class SubsetSum:
    """Sum a fixed non-negative vector over any support set in a few popcounts.

    Parameters
    ----------
    values : array_like of float
        One value per point.

    Examples
    --------
    >>> s = SubsetSum([3, 0, 5])
    >>> s(0b101), s(0b011), s.exact
    (8, 3, True)
    """

    def __init__(self, values):
        values = np.asarray(values, dtype=float)
        self.values = values
        self.exact = bool(np.all(values == np.round(values)) and (values.size == 0 or values.max() < 2**52))
        if self.exact:
            ints = values.astype(np.int64)
            top = int(ints.max()).bit_length() if ints.size else 0
            # Bit k of every value, packed straight into a Python int (mask_of's positions would cost a pass more).
            slices = [(k, _int_of_bits(((ints >> k) & 1).astype(bool))) for k in range(top)]
            self.slices = [(k, m) for k, m in slices if m]
        else:
            self.slices = None

    def as_function(self):
        """A plain function ``support -> sum``, the fastest form for hot loops (no method lookup).

        Examples
        --------
        >>> SubsetSum([3, 0, 5]).as_function()(0b101)
        8
        """
        slices = self.slices
        if slices is not None and len(slices) == 1:
            (shift, mask), = slices
            return partial(_popcount, mask) if shift == 0 else partial(_popcount_shifted, mask, shift)
        if slices is not None and not slices:
            return _zero
        return self.__call__

    def __call__(self, support: int):
        if self.slices is not None:
            total = 0
            for k, m in self.slices:
                total += (support & m).bit_count() << k
            return total
        return float(self.values[bits_of(support)].sum()) if support else 0.0


@dataclass
class Dataset:
    """Binary features, labels and weights, merged into equivalence classes.

    Build one with :meth:`from_arrays` (any table; categorical and numeric
    columns are binarized) or :meth:`from_binary` (an already-binary matrix).

    Attributes
    ----------
    points : ndarray of bool, shape (n_points, n_features)
        The distinct binary feature vectors (equivalence classes).
    counts : ndarray of float, shape (n_points, n_classes)
        Weighted number of training rows of each class at each point.
    row_point : ndarray of int, shape (n_rows,)
        The point of every training row.
    features : list of BinaryFeature
        What each binary feature means in the original table.
    classes : ndarray
        The original label values; class ``k`` of the solvers is ``classes[k]``.
    binarizer : Binarizer or None
        The fitted binarizer when built from an original table.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 1], [0, 1], [1, 0], [1, 1]])
    >>> ds = Dataset.from_binary(X, ["a", "a", "b", "b"])
    >>> ds.n_rows, ds.n_points, ds.n_features, ds.classes.tolist()
    (4, 3, 2, ['a', 'b'])
    >>> ds.class_counts(ds.all_points)
    (2, 2)
    >>> left, right = ds.split(ds.all_points, 0)
    >>> ds.class_counts(left), ds.class_counts(right)
    ((2, 0), (0, 2))
    """

    points: np.ndarray
    counts: np.ndarray
    row_point: np.ndarray
    features: list
    classes: np.ndarray
    binarizer: Binarizer | None = None
    all_points: int = field(init=False)

    def __post_init__(self):
        n_points = self.points.shape[0]
        self.all_points = (1 << n_points) - 1
        #: Each feature's column of points as words (features × words, uint64; bit ``u % 64`` of word
        #: ``u // 64`` is point ``u``): the solvers' popcounts (``treeopt/solvers/gosdt/bit_columns.py``) and,
        #: as Python ints, each feature's bitset of points, all packed at once (thousands of thresholds).
        self.column_words = pack_columns(self.points)
        self._class_sums = [SubsetSum(self.counts[:, k]) for k in range(self.counts.shape[1])]
        self._class_fns = tuple(s.as_function() for s in self._class_sums)
        self.exact_counts = all(s.exact for s in self._class_sums)
        minority = self.counts.sum(axis=1) - self.counts.max(axis=1)
        self._minority_sum = SubsetSum(minority)
        self._minority_fn = self._minority_sum.as_function()
        self.total_weight = self.class_counts(self.all_points)
        self.total_weight = sum(self.total_weight)

    # -- construction ---------------------------------------------------------
    @classmethod
    def from_binary(cls, X, y, sample_weight=None, feature_names: Sequence[str] | None = None,
                    classes=None) -> "Dataset":
        """Build from a 0/1 matrix.

        Parameters
        ----------
        X : array_like of shape (n_rows, n_features)
            Values 0/1 (or booleans).
        y : array_like of shape (n_rows,)
            Labels (any hashable values).
        sample_weight : array_like of shape (n_rows,), optional
            Non-negative row weights (default 1).
        feature_names : list of str, optional
            Names of the columns (default ``x0, x1, ...`` or the DataFrame's).
        classes : array_like, optional
            The full, sorted list of label values (default: those in ``y``).
        """
        if isinstance(X, pd.DataFrame):
            feature_names = feature_names or [str(c) for c in X.columns]
            X = X.to_numpy()
        Z = np.asarray(X)
        if Z.ndim != 2:
            raise ValueError(f"X must be 2-dimensional, got shape {Z.shape}.")
        binary = ((Z == 0) | (Z == 1)).all() if Z.dtype.kind in "biuf" else np.isin(Z, [0, 1]).all()
        if Z.size and not binary:
            raise ValueError("from_binary needs a 0/1 matrix; use Dataset.from_arrays to binarize other values.")
        names = list(feature_names) if feature_names is not None else [f"x{j}" for j in range(Z.shape[1])]
        features = [BinaryFeature(n, j, "binary", 1, n) for j, n in enumerate(names)]
        return cls._build(Z.astype(bool), y, sample_weight, features, classes, None)

    @classmethod
    def from_arrays(cls, X, y, sample_weight=None, binarizer: Binarizer | None = None,
                    classes=None) -> "Dataset":
        """Build from any table: categorical columns one-hot, numeric columns thresholded.

        Parameters
        ----------
        X : array_like or DataFrame of shape (n_rows, n_columns)
        y : array_like of shape (n_rows,)
        sample_weight : array_like, optional
        binarizer : Binarizer, optional
            A (fitted or unfitted) binarizer; default ``Binarizer()`` (all thresholds).
        classes : array_like, optional
        """
        binarizer = Binarizer() if binarizer is None else binarizer
        if not hasattr(binarizer, "features_"):
            binarizer.fit(X)
        Z = binarizer.transform(X)
        return cls._build(Z, y, sample_weight, list(binarizer.features_), classes, binarizer)

    @classmethod
    def _build(cls, Z, y, sample_weight, features, classes, binarizer) -> "Dataset":
        y = np.asarray(y)
        if y.ndim != 1:
            y = y.ravel() if y.ndim == 2 and 1 in y.shape else y
        if y.ndim != 1:
            raise ValueError(f"y must be 1-dimensional, got shape {y.shape}.")
        if len(y) != Z.shape[0]:
            raise ValueError(f"X has {Z.shape[0]} rows but y has {len(y)} labels; they must match.")
        if len(y) == 0:
            raise ValueError("the data is empty: give at least one row.")
        if pd.isna(y).any():
            raise ValueError("y has missing values (NaN); drop those rows or fill them in.")
        if classes is None:
            classes = np.unique(y)
        classes = np.asarray(classes)
        y_index = _class_indices(y, classes)
        if sample_weight is None:
            weights = np.ones(len(y))
        else:
            weights = np.asarray(sample_weight, dtype=float)
            if weights.shape != (len(y),):
                raise ValueError(f"sample_weight has shape {weights.shape}; expected ({len(y)},).")
            if not np.all(np.isfinite(weights)) or (weights < 0).any():
                raise ValueError("sample_weight must be finite and non-negative.")
            with np.errstate(over="ignore"):
                total = weights.sum()
            if not np.isfinite(total):
                raise ValueError(f"sample_weight sums to more than the largest float (largest weight "
                                 f"{weights.max():.3g}); rescale the weights, e.g. sample_weight / "
                                 "sample_weight.max(): only their ratios matter.")
            if total <= 0:
                raise ValueError("sample_weight sums to zero; at least one row needs a positive weight.")
        points, row_point = distinct_rows(Z)
        counts = np.zeros((points.shape[0], len(classes)))
        np.add.at(counts, (row_point, y_index), weights)
        return cls(points=points, counts=counts, row_point=row_point, features=features,
                   classes=classes, binarizer=binarizer)

    @cached_property
    def feature_masks(self) -> list[int]:
        """Each feature's bitset of points as a Python int (bit ``u`` = point ``u``), made on first use.

        The searches split support sets with them; a search that never splits one (a depth
        budget of two, solved by the depth-two solver) does without one big integer per
        threshold feature.
        """
        return [int.from_bytes(column.tobytes(), "little") for column in self.column_words]

    def feature_mask(self, feature: int) -> int:
        """``feature_masks[feature]``, without making the others when they are not made yet (a few
        lookups, such as the splits of one returned tree)."""
        made = self.__dict__.get("feature_masks")
        if made is not None:
            return made[feature]
        return int.from_bytes(self.column_words[feature].tobytes(), "little")

    # -- sizes ----------------------------------------------------------------
    @property
    def n_rows(self) -> int:
        """Number of training rows."""
        return len(self.row_point)

    @property
    def n_points(self) -> int:
        """Number of distinct feature vectors (equivalence classes)."""
        return self.points.shape[0]

    @property
    def n_features(self) -> int:
        """Number of binary features."""
        return self.points.shape[1]

    @property
    def n_classes(self) -> int:
        """Number of classes."""
        return len(self.classes)

    @property
    def feature_names(self) -> list[str]:
        """Display names of the binary features."""
        name_features(self.features)
        return [f.name for f in self.features]

    # -- queries on support sets ----------------------------------------------
    def split(self, support: int, feature: int) -> tuple[int, int]:
        """Split a support set on a feature: (points where it is false, points where it is true)."""
        right = support & self.feature_masks[feature]
        return support ^ right, right

    def class_counts(self, support: int) -> tuple:
        """Weighted count of each class over a support set."""
        fns = self._class_fns
        if len(fns) == 2:                      # the hot case: unrolled, no generator
            first, second = fns
            return (first(support), second(support))
        return tuple([f(support) for f in fns])

    def equivalent_points_loss(self, support: int):
        """Weight of the minority class summed over the points of a support set.

        No tree can separate rows with the same feature vector, so every tree
        misclassifies at least this much (OSDT Theorem 9, GOSDT Theorem B.9).
        """
        return self._minority_fn(support)

    def describe(self) -> str:
        """One line summary for logs and the CLI."""
        return (f"{self.n_rows} rows ({self.n_points} distinct), {self.n_features} binary features, "
                f"{self.n_classes} classes {list(self.classes)}")

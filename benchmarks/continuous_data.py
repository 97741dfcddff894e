"""The data of the continuous benchmark (``continuous_bench.py``): bundled, shared and generated.

Three sources, every one read as ``(X, y)`` with ``X`` a float DataFrame and ``y`` the class codes
``0 .. k-1`` (both ConTree implementations want codes):

* scikit-learn's bundled data: breast cancer, wine, digits, iris;
* ``../shared/datasets/continuous`` (compas, spiral; last column = label);
* data generated here, seeded and hard for a tree of bounded depth: Gaussian mixtures seen
  through a random rotation, and classes cut by oblique (rotated) hyperplanes. Every column is
  continuous (as many distinct values as rows, so at least 5,000 from 5,000 rows on), and a fixed
  fraction of the labels (at least 10 %) is moved to another class, so no tree of the tested depth
  is perfect. Nothing is written to disk: the same seed gives the same data in every process;
* tables of the kind real data is (:data:`REAL_KINDS`, :func:`real_kind_table`), also seeded:
  columns with few distinct values and heavy ties, 0/1 flags among continuous columns, skewed and
  heavy-tailed columns, up to 27 columns, up to 12 classes, one class holding most rows, duplicated
  rows with other labels, label noise from under 1 % to 15 %, and labels that follow either random
  rules with an oblique term or a planted tree of small depth.

Any CSV file (last column = label) can be named as ``csv=PATH``: the held-out check on data that
was not used while developing.

Examples
--------
>>> X, y = load("rotated_demo")
>>> X.shape, np.unique(y).tolist()
((600, 3), [0, 1])
>>> X, y = load("skewed_5k")                 # 85 % in one class, log-normal columns with ties
>>> X.shape, round(float(np.bincount(y).max() / len(y)), 2), int(X.nunique().min()) < len(y)
((5000, 9), 0.83, True)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("TREEOPT_SHARED", HERE.parents[1] / "shared"))
BUNDLED = ("breast_cancer", "wine", "digits", "iris")
SHARED_CONTINUOUS = ("compas", "spiral")
#: The least fraction of labels moved to another class in generated data.
LEAST_NOISE = 0.10


@dataclass(frozen=True)
class Generated:
    """How one generated dataset is drawn: ``kind`` is ``"mixture"`` or ``"rotated"``."""

    kind: str
    n_rows: int
    n_features: int
    n_classes: int
    noise: float
    seed: int


#: The generated datasets, by name. ``rotated_15k`` and ``mixture_100k`` are the sizes of the
#: memory and scale targets (15,000 × 16 at depth 4; 100,000 × 10 at depth 3).
GENERATED = {
    "mixture_5k": Generated("mixture", 5_000, 6, 3, 0.12, 1),
    "rotated_15k": Generated("rotated", 15_000, 16, 2, 0.10, 2),
    "mixture_30k_10c": Generated("mixture", 30_000, 8, 10, 0.15, 3),
    "mixture_100k": Generated("mixture", 100_000, 10, 4, 0.10, 4),
    "rotated_demo": Generated("rotated", 600, 3, 2, 0.10, 5),       # small: the doctests and smoke tests
}


#: The column kinds of :func:`real_kind_table`, and what each draws from a latent normal value ``z``.
COLUMN_KINDS = ("continuous", "ties", "few", "flag", "lognormal", "count", "byte")


@dataclass(frozen=True)
class RealKind:
    """How one table of the real kind is drawn (:func:`real_kind_table`).

    ``columns`` pairs a column kind (one of :data:`COLUMN_KINDS`) with how many columns of it;
    ``largest_share`` is the share of the largest class (``None``: classes about equal);
    ``duplicates`` the share of rows that repeat another row's values with another label;
    ``tree_depth`` (optional) plants the clean labels as a tree of that depth instead of rules.
    """

    n_rows: int
    columns: tuple
    n_classes: int
    largest_share: float | None
    noise: float
    duplicates: float
    seed: int
    tree_depth: int | None = None

    @property
    def n_features(self) -> int:
        """Number of columns."""
        return sum(count for _, count in self.columns)


#: Tables of the kind real data is (the held-out check's kind): few distinct values and heavy
#: ties, 0/1 flags among continuous columns, skewed columns, many columns, many classes, a
#: dominant class, duplicated rows with other labels, and label noise from under 1 % to 15 %.
REAL_KINDS = {
    "ties_2k": RealKind(2_000, (("ties", 6), ("few", 2)), 2, None, 0.03, 0.01, 11),
    "flags_2k": RealKind(1_900, (("continuous", 7), ("lognormal", 3), ("count", 3), ("flag", 9), ("few", 5)),
                         7, 0.45, 0.02, 0.02, 12),
    "skewed_5k": RealKind(5_000, (("lognormal", 6), ("count", 2), ("continuous", 1)), 3, 0.85, 0.02, 0.01, 13),
    "many_class_10k": RealKind(10_000, (("continuous", 5), ("ties", 3), ("lognormal", 2)), 10, None, 0.05,
                               0.005, 14),
    "mixed_10k": RealKind(10_000, (("continuous", 8), ("ties", 4), ("lognormal", 2), ("flag", 2)), 7, 0.4,
                          0.03, 0.01, 15),
    # Kinds the five above leave out: twelve classes with one holding 40 %; a large two-class table
    # with moderate noise; five classes with one holding 90 %; a small, noisy two-class table; and two
    # tables labelled by a planted depth-4 tree, where a tree of depth 4 is nearly without errors.
    "twelve_class_11k": RealKind(10_500, (("continuous", 6), ("ties", 2), ("lognormal", 2)), 12, 0.4, 0.02,
                                 0.005, 21),
    "two_class_17k": RealKind(17_000, (("continuous", 8), ("lognormal", 2)), 2, 0.65, 0.12, 0.01, 22),
    "dominant_5k": RealKind(5_400, (("count", 3), ("lognormal", 4), ("continuous", 3)), 5, 0.9, 0.02, 0.005, 23),
    "noisy_900": RealKind(900, (("continuous", 7),), 2, None, 0.15, 0.0, 25),
    # The same kind at half the rows: at depth four its depth-two subproblems hold 50-150 rows, where
    # a subproblem's fixed costs weigh most.
    "noisy_500": RealKind(500, (("continuous", 7),), 2, None, 0.15, 0.0, 28),
    "near_clean_1k": RealKind(1_200, (("continuous", 4),), 2, None, 0.005, 0.0, 24, tree_depth=4),
    "seven_class_2k": RealKind(2_300, (("continuous", 9), ("lognormal", 4), ("ties", 3), ("few", 2), ("flag", 1)),
                               7, None, 0.01, 0.0, 26, tree_depth=4),
    # A tall table of three 8-bit readings (an image's colour channels): few values per column beside
    # many rows, so that a depth-two support's columns have few thresholds each.
    "bytes_200k": RealKind(200_000, (("byte", 3),), 2, 0.75, 0.02, 0.005, 27),
}


def real_kind_table(n_rows: int, columns: Sequence[tuple[str, int]], n_classes: int, *, noise: float,
                    seed: int, largest_share: float | None = None, duplicates: float = 0.0,
                    tree_depth: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A table of the kind real data is: mixed column kinds, imbalanced classes, duplicated rows.

    Each column is drawn from correlated latent normal values ``z`` and then made one of
    :data:`COLUMN_KINDS`: ``continuous`` (``z`` itself, all values distinct), ``ties`` (``z``
    rounded onto 5-50 levels, as sensor readings or integer scores are), ``few`` (3-6 integer
    levels), ``flag`` (0/1, true on 5-50 % of rows), ``lognormal`` (``exp(σ z)``, skewed and
    heavy-tailed, rounded to 3 significant digits so that it ties too) and ``count`` (Poisson counts
    with a skewed mean), ``byte`` (``z`` scaled onto the integers 0-255, clipped, as an 8-bit sensor
    or colour channel reads). The clean labels come from the observed columns, so a tree can follow them:
    each class's score adds a few random rules (conjunctions of two axis-aligned cuts) and a small
    oblique term over a few columns; a row takes the class of the largest score, and per-class
    offsets make the largest class hold ``largest_share`` of the rows (the others in decreasing
    shares). With ``tree_depth``, the clean labels are those of a random complete tree of that depth
    over the observed columns instead (each node cuts a random column at a random quantile, 30-70 %,
    of its rows; leaves go to classes largest first, each to the class with the fewest rows so far,
    so that every class has a leaf and the classes are about equal), so a tree of that depth is
    wrong only on the moved labels, as on tables where a shallow tree is nearly without errors.
    Then ``duplicates`` of the rows take another row's values and a label other than that
    row's, and more labels are moved at random until ``noise`` of them differ from the clean
    labels (duplicates included).

    Parameters
    ----------
    n_rows : int
    columns : sequence of (str, int)
        Column kinds and how many columns of each, in the table's order.
    n_classes : int
    noise : float
        Share of labels moved to another class, at least the duplicates' share and below one half.
    seed : int
    largest_share : float, optional
        Share of the largest class; None for classes of about equal size.
    duplicates : float, default=0.0
        Share of rows that repeat another row's values with another label.
    tree_depth : int, optional
        Depth of a planted tree that gives the clean labels (at least ``log2(n_classes)``, and
        ``largest_share`` left to None); None for the rules above.

    Returns
    -------
    X : ndarray of float, shape (n_rows, n_columns)
    y, clean : ndarray of int, shape (n_rows,)
        The labels, and the clean labels before the moves.

    Examples
    --------
    >>> X, y, clean = real_kind_table(1000, [("ties", 2), ("flag", 1), ("lognormal", 1)], 4, noise=0.03,
    ...                               seed=0, largest_share=0.7, duplicates=0.01)
    >>> X.shape, int((y != clean).sum()), np.unique(X[:, 2]).tolist()
    ((1000, 4), 30, [0.0, 1.0])
    >>> bool(np.bincount(clean).max() == 700)
    True
    >>> X, y, clean = real_kind_table(500, [("continuous", 3)], 3, noise=0.01, seed=0, tree_depth=2)
    >>> int((y != clean).sum()), np.unique(clean).tolist()
    (5, [0, 1, 2])
    """
    kinds = [kind for kind, count in columns for _ in range(count)]
    unknown = sorted(set(kinds) - set(COLUMN_KINDS))
    if unknown:
        raise ValueError(f"unknown column kinds {unknown}: use {list(COLUMN_KINDS)}")
    if n_classes < 2 or n_rows < 10 * n_classes or not kinds:
        raise ValueError(f"need at least 2 classes, 10 rows per class and a column; got {n_rows} rows, "
                         f"{len(kinds)} columns, {n_classes} classes")
    if not 0 <= duplicates <= noise < 0.5:
        raise ValueError(f"need 0 <= duplicates <= noise < 0.5 (duplicated rows carry moved labels); got "
                         f"duplicates={duplicates}, noise={noise}")
    if largest_share is not None and not 1 / n_classes < largest_share < 1:
        raise ValueError(f"largest_share={largest_share} must lie between 1/{n_classes} and 1")
    if tree_depth is not None and (largest_share is not None or tree_depth < 1 or 2 ** tree_depth < n_classes):
        raise ValueError(f"tree_depth={tree_depth} needs a leaf per class (2**tree_depth >= {n_classes}) and "
                         f"largest_share=None (the planted tree's leaves set the shares); got "
                         f"largest_share={largest_share}")
    rng = np.random.default_rng(seed)
    p = len(kinds)
    mixing = rng.normal(size=(p, p)) * 0.4 + np.eye(p)            # correlated columns, as real ones are
    z = rng.normal(size=(n_rows, p)) @ mixing.T
    z /= z.std(axis=0)
    X = np.column_stack([_observed(kind, z[:, j], rng) for j, kind in enumerate(kinds)])
    if tree_depth is None:
        clean = _planted_labels(X, n_classes, largest_share, rng)
    else:
        clean = _planted_tree(X, n_classes, tree_depth, rng)
    y = clean.copy()
    copies = int(round(duplicates * n_rows))
    rows = rng.permutation(n_rows)
    sources, targets = rows[:copies], rows[copies:2 * copies]
    X[targets] = X[sources]
    clean[targets] = clean[sources]                              # a copy's clean label is its source's
    y[targets] = (clean[sources] + rng.integers(1, n_classes, size=copies)) % n_classes
    others = rows[2 * copies:]
    moved = rng.choice(others, size=int(round(noise * n_rows)) - copies, replace=False)
    y[moved] = (clean[moved] + rng.integers(1, n_classes, size=len(moved))) % n_classes
    return X, y, clean


def _observed(kind: str, z: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One column of ``kind`` (see :func:`real_kind_table`) from latent standard values ``z``."""
    if kind == "continuous":
        return z * rng.uniform(0.5, 5.0) + rng.normal(0.0, 3.0)
    if kind in ("ties", "few"):
        levels = int(rng.integers(5, 51)) if kind == "ties" else int(rng.integers(3, 7))
        cuts = np.sort(rng.normal(size=levels - 1))              # unequal bins: some levels crowded
        return np.searchsorted(cuts, z).astype(float) * float(rng.integers(1, 4))
    if kind == "flag":
        return (z > np.quantile(z, 1 - rng.uniform(0.05, 0.5))).astype(float)
    if kind == "lognormal":
        values = np.exp(rng.uniform(0.8, 2.0) * z) * rng.uniform(1, 100)
        digits = 2 - np.floor(np.log10(values))                  # 3 significant digits
        return np.round(values * 10.0 ** digits) / 10.0 ** digits
    if kind == "byte":
        return np.clip(np.round(z * rng.uniform(25, 50) + rng.uniform(100, 156)), 0, 255)
    return rng.poisson(np.exp(rng.uniform(0.5, 1.2) * z + rng.uniform(0, 2))).astype(float)   # count


def _planted_labels(X: np.ndarray, n_classes: int, largest_share: float | None,
                    rng: np.random.Generator) -> np.ndarray:
    """Clean labels from rules over the observed columns (see :func:`real_kind_table`)."""
    n, p = X.shape
    u = (np.argsort(np.argsort(X, axis=0, kind="stable"), axis=0) + 0.5) / n      # each column as quantiles
    scores = np.zeros((n, n_classes))
    for c in range(n_classes):
        for _ in range(3):
            a, b = rng.choice(p, size=2, replace=p < 2)
            ta, tb = X[rng.integers(n), a], X[rng.integers(n), b]
            scores[:, c] += rng.uniform(0.5, 1.5) * ((X[:, a] > ta) & (X[:, b] <= tb))
        weights = np.zeros(p)
        weights[rng.choice(p, size=min(3, p), replace=False)] = rng.normal(0.0, 0.5, size=min(3, p))
        scores[:, c] += u @ weights
    if largest_share is None:
        shares = np.full(n_classes, 1.0 / n_classes)
    else:
        rest = 0.6 ** np.arange(n_classes - 1)                   # the others in decreasing shares
        shares = np.concatenate(([largest_share], (1 - largest_share) * rest / rest.sum()))
    return _with_shares(scores, np.round(shares * n).astype(np.int64))


def _planted_tree(X: np.ndarray, n_classes: int, depth: int, rng: np.random.Generator) -> np.ndarray:
    """Clean labels from a random complete tree of ``depth`` over the columns (see :func:`real_kind_table`)."""
    leaves = [np.arange(len(X))]
    for _ in range(depth):
        children = []
        for rows in leaves:
            column = X[rows, rng.integers(X.shape[1])]
            cut = np.quantile(column, rng.uniform(0.3, 0.7)) if len(rows) else 0.0
            children += [rows[column <= cut], rows[column > cut]]
        leaves = children
    labels = np.empty(len(X), dtype=np.int64)
    sizes = np.zeros(n_classes, dtype=np.int64)
    for rank, leaf in enumerate(sorted(leaves, key=len, reverse=True)):
        c = rank if rank < n_classes else int(np.argmin(sizes))    # every class a leaf, then the smallest class
        labels[leaf] = c
        sizes[c] += len(leaf)
    return labels


def _with_shares(scores: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Each row's class, highest score first, with class ``c`` holding ``sizes[c]`` rows (the last
    class takes the rounding): rows are assigned greedily by their score margins, so that a class
    keeps the rows where it scores highest."""
    n, k = scores.shape
    sizes = sizes.copy()
    sizes[-1] = n - sizes[:-1].sum()
    labels = np.full(n, -1, dtype=np.int64)
    open_rows = np.ones(n, dtype=bool)
    # Classes in increasing size take the rows where they lead most; the largest class takes the rest.
    for c in np.argsort(sizes, kind="stable")[:-1]:
        margin = scores[:, c] - np.delete(scores, c, axis=1).max(axis=1)
        margin[~open_rows] = -np.inf
        chosen = np.argsort(-margin, kind="stable")[:sizes[c]]
        labels[chosen] = c
        open_rows[chosen] = False
    labels[open_rows] = int(np.argsort(sizes, kind="stable")[-1])
    return labels


def gaussian_mixture(n_rows: int, n_features: int, n_classes: int, noise: float, seed: int,
                     components: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Classes as mixtures of ``components`` Gaussian blobs each, rotated off the axes.

    Every blob has its own centre and scale; the whole cloud is then turned by a random
    orthogonal matrix, so no boundary between blobs is parallel to an axis and a tree needs many
    splits to follow it. Returns ``(X, y, clean)``: ``y`` is ``clean`` with ``noise`` of the
    labels moved (:func:`move_labels`).

    Examples
    --------
    >>> X, y, clean = gaussian_mixture(200, 2, 3, 0.1, seed=0)
    >>> X.shape, int((y != clean).sum())
    ((200, 2), 20)
    """
    _check(n_rows, n_features, n_classes, noise)
    rng = np.random.default_rng(seed)
    centres = rng.normal(0.0, 2.0, size=(n_classes, components, n_features))
    scales = rng.uniform(0.5, 1.5, size=(n_classes, components))
    clean = rng.integers(0, n_classes, size=n_rows)
    clean[:n_classes] = np.arange(n_classes)                     # every class present, even when few rows
    blob = rng.integers(0, components, size=n_rows)
    X = centres[clean, blob] + rng.normal(size=(n_rows, n_features)) * scales[clean, blob][:, None]
    X = X @ _rotation(rng, n_features)
    return X, move_labels(clean, n_classes, noise, rng), clean


def rotated_boundaries(n_rows: int, n_features: int, n_classes: int, noise: float,
                       seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Classes cut by oblique hyperplanes through the cloud.

    Two classes: the sign of the product of two random oblique linear functions (an XOR of two
    rotated half-spaces, which no single split separates); more classes: the largest of
    ``n_classes`` random linear scores (a rotated partition). The scores read three random
    columns (all of them when fewer); the other columns are distractors. Rows are normal, each
    column with its own scale. Returns ``(X, y, clean)`` as :func:`gaussian_mixture`.

    Examples
    --------
    >>> X, y, clean = rotated_boundaries(100, 3, 2, 0.2, seed=1)
    >>> X.shape, int((y != clean).sum())
    ((100, 3), 20)
    """
    _check(n_rows, n_features, n_classes, noise)
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, n_features)) * rng.uniform(0.5, 3.0, size=n_features)
    weights = rng.normal(size=(n_features, max(n_classes, 2)))
    weights[rng.permutation(n_features)[3:]] = 0.0               # three informative columns, the rest noise
    scores = (X - X.mean(axis=0)) @ weights
    if n_classes == 2:
        clean = (scores[:, 0] * scores[:, 1] > 0).astype(np.int64)
    else:
        clean = np.argmax(scores, axis=1).astype(np.int64)
    return X, move_labels(clean, n_classes, noise, rng), clean


def move_labels(clean: np.ndarray, n_classes: int, noise: float, rng: np.random.Generator) -> np.ndarray:
    """A copy of ``clean`` with exactly ``round(noise × rows)`` labels, chosen at random, moved to
    another class (each to one of the other classes, uniformly).

    Examples
    --------
    >>> y = move_labels(np.zeros(50, dtype=int), 2, 0.1, np.random.default_rng(0))
    >>> int(y.sum())
    5
    """
    y = np.array(clean, dtype=np.int64)
    moved = rng.choice(len(y), size=int(round(noise * len(y))), replace=False)
    y[moved] = (y[moved] + rng.integers(1, n_classes, size=len(moved))) % n_classes
    return y


def generate(name: str) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """``(X, y, clean labels)`` of the generated dataset ``name`` (a key of :data:`GENERATED` or
    :data:`REAL_KINDS`)."""
    if name in REAL_KINDS:
        spec = REAL_KINDS[name]
        X, y, clean = real_kind_table(spec.n_rows, spec.columns, spec.n_classes, noise=spec.noise, seed=spec.seed,
                                      largest_share=spec.largest_share, duplicates=spec.duplicates,
                                      tree_depth=spec.tree_depth)
        return pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])]), y, clean
    spec = GENERATED[name]
    draw = {"mixture": gaussian_mixture, "rotated": rotated_boundaries}[spec.kind]
    X, y, clean = draw(spec.n_rows, spec.n_features, spec.n_classes, spec.noise, spec.seed)
    return pd.DataFrame(X, columns=[f"x{j}" for j in range(spec.n_features)]), y, clean


def load(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """``(X, y)`` of a benchmark dataset: a bundled, shared or generated name, or ``csv=PATH``."""
    if name in GENERATED or name in REAL_KINDS:
        X, y, _ = generate(name)
        return X, y
    if name in BUNDLED:
        import sklearn.datasets
        data = getattr(sklearn.datasets, f"load_{name}")(as_frame=True)
        X, labels = data.data, data.target
    elif name in SHARED_CONTINUOUS or name.startswith("csv="):
        path = Path(name[4:]) if name.startswith("csv=") else SHARED / "datasets" / "continuous" / f"{name}.csv"
        if not path.exists():
            raise FileNotFoundError(f"{path} not found (set TREEOPT_SHARED to the folder holding datasets/)")
        frame = pd.read_csv(path)
        X, labels = frame.iloc[:, :-1], frame.iloc[:, -1]
    else:
        raise ValueError(f"unknown dataset {name!r}: use one of {names()} or csv=PATH")
    codes = np.unique(np.asarray(labels), return_inverse=True)[1].astype(np.int64)
    return X.astype(float).reset_index(drop=True), codes


def names() -> list[str]:
    """Every dataset name :func:`load` knows (the small demo excluded)."""
    return [*BUNDLED, *SHARED_CONTINUOUS, *(n for n in GENERATED if n != "rotated_demo"), *REAL_KINDS]


def _rotation(rng: np.random.Generator, n: int) -> np.ndarray:
    """A random orthogonal ``n × n`` matrix (QR of a Gaussian matrix, signs fixed)."""
    q, r = np.linalg.qr(rng.normal(size=(n, n)))
    return q * np.sign(np.diag(r))


def _check(n_rows: int, n_features: int, n_classes: int, noise: float) -> None:
    if n_classes < 2 or n_rows < n_classes or n_features < 1:
        raise ValueError(f"need at least 2 classes, a row per class and a column; got {n_rows} rows, "
                         f"{n_features} columns, {n_classes} classes")
    if not LEAST_NOISE <= noise < 1 - 1 / n_classes:
        raise ValueError(f"noise={noise} must be at least {LEAST_NOISE} (hard data: no perfect tree) and below "
                         f"{1 - 1 / n_classes:.3g} (the labels must still carry the classes)")

"""The data of the continuous benchmark (``continuous_bench.py``): bundled, shared and generated.

Three sources, every one read as ``(X, y)`` with ``X`` a float DataFrame and ``y`` the class codes
``0 .. k-1`` (both ConTree implementations want codes):

* scikit-learn's bundled data: breast cancer, wine, digits, iris;
* ``../shared/datasets/continuous`` (compas, spiral; last column = label);
* data generated here, seeded and hard for a tree of bounded depth: Gaussian mixtures seen
  through a random rotation, and classes cut by oblique (rotated) hyperplanes. Every column is
  continuous (as many distinct values as rows, so at least 5,000 from 5,000 rows on), and a fixed
  fraction of the labels (at least 10 %) is moved to another class, so no tree of the tested depth
  is perfect. Nothing is written to disk: the same seed gives the same data in every process.

Any CSV file (last column = label) can be named as ``csv=PATH``: the held-out check on data that
was not used while developing.

Examples
--------
>>> X, y = load("rotated_demo")
>>> X.shape, np.unique(y).tolist()
((600, 3), [0, 1])
"""

from __future__ import annotations

import os
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
    """``(X, y, clean labels)`` of the generated dataset ``name`` (a key of :data:`GENERATED`)."""
    spec = GENERATED[name]
    draw = {"mixture": gaussian_mixture, "rotated": rotated_boundaries}[spec.kind]
    X, y, clean = draw(spec.n_rows, spec.n_features, spec.n_classes, spec.noise, spec.seed)
    return pd.DataFrame(X, columns=[f"x{j}" for j in range(spec.n_features)]), y, clean


def load(name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """``(X, y)`` of a benchmark dataset: a bundled, shared or generated name, or ``csv=PATH``."""
    if name in GENERATED:
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
    return [*BUNDLED, *SHARED_CONTINUOUS, *(n for n in GENERATED if n != "rotated_demo")]


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

"""Packed bit columns: exact grouping of equal columns and popcount weights (treeopt/solvers/bit_columns.py)."""

import numpy as np
import pytest

from treeopt.solvers import bit_columns
from treeopt.solvers.bit_columns import WeightPlanes, pack_columns, pack_mask, unique_columns


def brute_force_groups(X: np.ndarray):
    """(first, inverse) by comparing columns as tuples, first columns in column order."""
    first, inverse, seen = [], [], {}
    for c in range(X.shape[1]):
        key = tuple(X[:, c])
        if key not in seen:
            seen[key] = len(first)
            first.append(c)
        inverse.append(seen[key])
    return first, inverse


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("zero_hash", [False, True])
def test_unique_columns_groups_exactly_even_when_every_hash_collides(seed, zero_hash, monkeypatch):
    rng = np.random.default_rng(seed)
    n_points = int(rng.integers(1, 200))
    base = rng.random((n_points, 12)) < 0.5
    X = base[:, rng.integers(0, 12, size=40)]             # many repeated columns
    if zero_hash:                                          # every column gets the same key
        monkeypatch.setattr(bit_columns, "_HASH_MULTIPLIERS", np.zeros(4096, dtype=np.uint64))
    first, inverse = unique_columns(np.ascontiguousarray(pack_columns(X).T))
    expected_first, expected_inverse = brute_force_groups(X)
    assert first.tolist() == expected_first and inverse.tolist() == expected_inverse


def test_weight_planes_count_class_weights_of_rows_in_each_column():
    rng = np.random.default_rng(3)
    X = rng.random((150, 30)) < 0.4
    weights = rng.integers(0, 6, size=(150, 2)).astype(float)
    rows = rng.random(150) < 0.6
    planes = WeightPlanes(weights)
    counts = planes.counts(np.ascontiguousarray(pack_columns(X).T), pack_mask(rows))
    assert np.allclose(counts, weights[rows].T @ X[rows])

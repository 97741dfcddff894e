"""Packed bit columns: exact grouping of equal columns and popcount weights (treeopt/solvers/gosdt/bit_columns.py)."""

import numpy as np
import pytest

from treeopt.solvers.gosdt import bit_columns
from treeopt.solvers.gosdt.bit_columns import WeightPlanes, pack_columns, pack_mask, unique_columns


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


@pytest.mark.parametrize("n_points", [0, 1, 7, 8, 9, 63, 64, 65, 130, 569])
@pytest.mark.parametrize("dtype", [bool, np.int64, np.float64])
def test_pack_columns_sets_bit_u_of_each_column_for_point_u(n_points, dtype):
    """Bit ``u % 64`` of word ``u // 64`` of column ``f`` is ``X[u, f]``, for every size (partial bytes and words)."""
    X = (np.random.default_rng(n_points).random((n_points, 5)) < 0.4).astype(dtype)
    words = pack_columns(X)
    assert words.dtype == np.uint64 and words.shape == (5, (n_points + 63) // 64)
    u = np.arange(n_points)
    bits = (words[:, u // 64] >> (u % 64).astype(np.uint64)) & np.uint64(1)
    np.testing.assert_array_equal(bits.T.astype(bool), X > 0)
    assert np.bitwise_count(words).sum(axis=1).tolist() == (X > 0).sum(axis=0).tolist()     # no bit past the last point

"""The data layer's row helpers: distinct rows as ``np.unique`` gives them, and bit masks of positions."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from treeopt.data import distinct_rows, mask_of


@given(rows=st.integers(1, 60), columns=st.integers(0, 20), seed=st.integers(0, 2**32 - 1))
def test_distinct_rows_is_np_unique(rows, columns, seed):
    """The packed-bytes sort gives np.unique's points in np.unique's order (the search depends on it)."""
    Z = np.random.default_rng(seed).random((rows, columns)) < 0.5
    points, inverse = distinct_rows(Z)
    expected, expected_inverse = np.unique(Z, axis=0, return_inverse=True)
    assert np.array_equal(points, expected)
    assert np.array_equal(inverse, expected_inverse.ravel())


@given(st.lists(st.integers(0, 300), max_size=40))
def test_mask_of_sets_exactly_the_given_bits(positions):
    expected = 0
    for i in positions:
        expected |= 1 << i
    assert mask_of(positions) == expected
    assert mask_of(np.array(positions, dtype=int)) == expected

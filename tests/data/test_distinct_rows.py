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


@given(rows=st.integers(1, 60), columns=st.integers(1, 20), block=st.integers(1, 200),
       duplicates=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_the_setup_in_blocks_gives_what_one_piece_gives(rows, columns, block, duplicates, seed):
    """Distinct rows and packed columns in blocks of a few cells (so a wide table answers Ctrl-C and
    the deadline between blocks) equal np.unique's and the unblocked packing."""
    import treeopt.data as data
    rng = np.random.default_rng(seed)
    Z = rng.random((rows, columns)) < rng.random()
    if duplicates:
        Z = np.repeat(Z[:max(1, rows // 3)], 3, axis=0)
    whole = data.pack_columns(Z)
    saved, data.BLOCK_CELLS = data.BLOCK_CELLS, block
    try:
        points, inverse = distinct_rows(Z)
        packed = data.pack_columns(Z)
        pieces = list(data.blocks(len(Z), columns))
    finally:
        data.BLOCK_CELLS = saved
    expected, expected_inverse = np.unique(Z, axis=0, return_inverse=True)
    assert np.array_equal(points, expected) and np.array_equal(inverse, expected_inverse.ravel())
    assert np.array_equal(packed, whole)
    assert pieces[0][0] == 0 and pieces[-1][1] == len(Z)
    assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:]))
    assert all((stop - start) * columns <= block or stop - start == 1 for start, stop in pieces)

"""The continuous solver's memory check: its own needs (rows × columns), never the binary table's."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from treeopt import make_solver
from treeopt.building import _sorted_shape, check_sorted_memory
from treeopt.memory import resident_memory
from treeopt.sorted_columns import search_bytes


def _distinct_table(n_rows: int, n_columns: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n_rows, n_columns)), rng.integers(0, 2, n_rows)


def test_a_table_whose_binary_encoding_is_huge_passes_a_limit_it_fits_in():
    # 20,000 distinct values in each of 5 columns: the binary table would have 2 billion cells.
    X, y = _distinct_table(20_000, 5)
    limit = resident_memory() + 200 * 2 ** 20
    solver = make_solver(X, y, regularization=0, depth_budget=2, memory_limit=limit)
    assert solver.name == "continuous"


def test_a_limit_below_the_sorted_search_is_refused_before_sorting():
    X, y = _distinct_table(2_000, 4)
    limit = resident_memory() + search_bytes(2_000, 4, 2, 3) // 2
    with pytest.raises(ValueError, match="continuous solver needs about .* memory_limit"):
        make_solver(X, y, regularization=0, depth_budget=3, memory_limit=limit)


def test_the_estimate_grows_with_rows_columns_classes_and_depth_but_not_thresholds():
    base = search_bytes(10_000, 8, 2, 3)
    assert search_bytes(20_000, 8, 2, 3) > base and search_bytes(10_000, 16, 2, 3) > base
    assert search_bytes(10_000, 8, 5, 3) > base and search_bytes(10_000, 8, 2, 4) > base


def test_categorical_columns_count_once_per_category():
    frame = pd.DataFrame({"x": [0.5, 1.5, 2.5, 3.5], "color": ["red", "blue", "red", "green"]})
    assert _sorted_shape(frame) == (4, 4)


_UNDER_ADDRESS_SPACE_LIMIT = """
import resource
import numpy as np
from treeopt.building import check_sorted_memory
with open("/proc/self/statm") as handle:
    mapped = int(handle.read().split()[0]) * resource.getpagesize()
room = 300 * 2**20
resource.setrlimit(resource.RLIMIT_AS, (mapped + room, resource.getrlimit(resource.RLIMIT_AS)[1]))
X = np.broadcast_to(np.zeros(1), (2_000_000, 20))     # the shape of a large table, without its memory
try:
    check_sorted_memory(X, 2, 3, None)
except ValueError as error:
    print(error)
else:
    print("accepted")
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc/self/statm are Linux's")
def test_a_search_beyond_the_address_space_limit_is_refused():
    done = subprocess.run([sys.executable, "-c", _UNDER_ADDRESS_SPACE_LIMIT], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "continuous solver" in done.stdout and "RLIMIT_AS" in done.stdout, done.stdout


def test_check_accepts_a_small_table_without_a_limit():
    check_sorted_memory(np.zeros((100, 3)), 2, 2, None)


def _deferred_nodes(tree):
    if tree is None or tree[0] == "leaf":
        return []
    if tree[0] == "deferred":
        return [tree]
    return _deferred_nodes(tree[3]) + _deferred_nodes(tree[4])


@pytest.mark.parametrize("lam", [0.0, 0.01])
def test_the_memo_keeps_no_view_of_a_batch_or_a_support(lam):
    # A depth-two result whose tree is built later keeps its rows and per-column costs; a view of the
    # batch's arrays or of the support's sorted orders would keep those whole arrays alive, one per
    # memo entry, and the memo would grow by a copy of the table per result.
    X, y = _distinct_table(400, 4, seed=3)
    solver = make_solver(X, y, solver="continuous", regularization=lam, depth_budget=3,
                         strategies={"cart_start": False, "discrepancy_search": False})
    solver.run()
    deferred = [node for _, tree in solver._memo.values() for node in _deferred_nodes(tree)]
    assert deferred, "no depth-two result was deferred: the test would check nothing"
    for _, _, _, rows, (left, _), (right, _) in deferred:
        assert rows.ndim == 1
        for array in (rows, left, right):
            assert array.base is None, "a memo entry holds a view that keeps a larger array alive"

"""A portfolio whose member runs out of memory stops with status ``memory`` and keeps its best tree.

A member catches its own ``MemoryError`` and releases its search (only its result answers
afterwards); the portfolio must not read the released member's search state (iterative
deepening's ``depth_results``), but end as one search would.
"""

import numpy as np

from treeopt.data import Dataset
from treeopt.solvers import DepthDeepening, Portfolio


def xor_with_noise() -> Dataset:
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(120, 8))
    y = (X[:, 0] ^ X[:, 1]) ^ (rng.random(120) < 0.1)
    return Dataset.from_binary(X, y.astype(int))


def test_member_out_of_memory_ends_the_portfolio_with_status_memory(monkeypatch):
    depth_search = DepthDeepening._depth_search

    def depth_search_out_of_memory(self, depth):
        if depth >= 2:
            raise MemoryError("no room for the next depth's memo")
        return depth_search(self, depth)

    monkeypatch.setattr(DepthDeepening, "_depth_search", depth_search_out_of_memory)
    solver = Portfolio(xor_with_noise(), regularization=0.01, depth_budget=5)
    result = solver.run()
    assert result.status == "memory" and not result.optimal
    assert result.tree.n_leaves >= 1 and result.lower_bound <= result.upper_bound
    assert solver.step() is False                  # it says it cannot go on, rather than failing

"""A frontier stopped by Ctrl-C while setting up keeps the single leaf, uncertified, as a stopped search keeps its front.

A real SIGINT is sent while the table's first block of thresholds is evaluated (the setup made to
reach that point on purpose, as ``tests/reliability/test_reliability_setup_interrupts.py`` does):
``KeyboardInterrupt`` still stops the caller, and its ``frontier`` attribute is what is known.
"""

from __future__ import annotations

import signal

import numpy as np
import pandas as pd
import pytest

import treeopt
from treeopt.frontiers import cross_validate_frontier

from sigint_timer import ctrl_c_while_binarizing

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="needs POSIX signals")


@pytest.fixture(autouse=True)
def python_sigint_handler():
    """Python's own SIGINT handler (raises KeyboardInterrupt) for every test."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _table(rows=120, seed=0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.random((rows, 3)).round(3), columns=["a", "b", "c"])
    return X, np.where((X.a > 0.5) ^ (X.b > 0.7), "yes", "no")


def _check_single_leaf(front, y):
    assert front.table["leaves"].tolist() == [1] and not front.table["certified"].any()
    assert not front.complete and front.certified_leaves == 0
    assert front.search.status == "interrupted" and "setting up" in front.setup_stopped
    values, counts = np.unique(y, return_counts=True)
    assert front.table.at[0, "accuracy"] == pytest.approx(counts.max() / len(y))
    with pytest.warns(UserWarning, match="only the single leaf"):
        tree = front.tree_for(regularization=0.01)
    assert tree.n_leaves == 1 and set(tree.predict(pd.DataFrame({"a": [0.1], "b": [0.2], "c": [0.3]}))) \
        == {values[counts.argmax()]}


def test_ctrl_c_while_a_frontier_binarizes_raises_with_the_single_leaf_frontier(monkeypatch):
    X, y = _table()
    sent = ctrl_c_while_binarizing(monkeypatch)
    with pytest.raises(KeyboardInterrupt, match="single leaf") as stop:
        treeopt.frontier(X, y, max_leaves=4, thresholds="all")
    assert sent
    _check_single_leaf(stop.value.frontier, y)
    monkeypatch.undo()
    assert treeopt.frontier(X, y, max_leaves=4, thresholds="all").table["certified"].all()   # again: it searches


def test_ctrl_c_while_a_cross_validated_frontier_binarizes_raises_with_that_jobs_frontier(monkeypatch):
    X, y = _table()
    sent = ctrl_c_while_binarizing(monkeypatch)
    with pytest.raises(KeyboardInterrupt) as stop:
        cross_validate_frontier(X, y, cv=3, max_leaves=4, thresholds="all", n_jobs=1)
    assert sent
    _check_single_leaf(stop.value.frontier, y)      # the frontier on all the data, the first job

"""A GOSDT search releases its memo after a fit and keeps its tree, bounds and honest gap."""

import pytest

from treeopt import OptimalTreeClassifier
from treeopt.data import Dataset
from treeopt.solvers import GOSDT


def test_fit_releases_the_search_graph_unless_asked_to_keep_it():
    """A fitted estimator keeps its tree and certificate, not the memo (issue: memory after fit)."""
    from treeopt.datasets import load_monk
    X, y = load_monk(1)
    kept = OptimalTreeClassifier(regularization=0.02, keep_search=True).fit(X, y)
    released = OptimalTreeClassifier(regularization=0.02).fit(X, y)
    assert kept.solver_.cache_size > 100 and released.solver_.cache_size == 0
    assert released.optimal_ and released.objective_ == pytest.approx(kept.objective_, abs=1e-12)
    assert (released.predict(X) == kept.predict(X)).all()
    assert released.solver_.best_tree.n_leaves == kept.tree_.n_leaves
    assert released.solver_.result().optimal and not released.solver_.step()
    snapshot = released.solver_.snapshot()
    assert snapshot.queue_size == 0 and snapshot.upper_bound == pytest.approx(released.objective_)


def test_release_after_a_time_limit_keeps_the_honest_gap():
    from treeopt.datasets import load_monk
    X, y = load_monk(2)
    solver = GOSDT(Dataset.from_arrays(X, y), regularization=0.005)
    solver.step(50)
    before = (solver.lower_bound, solver.upper_bound, solver.best_tree.n_leaves)
    solver.release()
    assert (solver.lower_bound, solver.upper_bound, solver.best_tree.n_leaves) == before
    result = solver.result()
    assert not result.optimal and result.gap == pytest.approx(before[1] - before[0])

"""Building the continuous solver: λ = 0 and its refusal, ``solver="auto"``, the sorted data layer,
exact integers, categorical columns, the estimator, and the stepwise view of the search."""

import numpy as np
import pandas as pd
import pytest

from treeopt import OptimalTreeClassifier, make_solver
from treeopt.solvers.continuous import ContinuousSearch
from treeopt.sorted_columns import SortedColumns, SortedDataset


def _noisy(n_rows=300, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_rows, 3))
    y = ((X[:, 0] > 0.1) ^ (X[:, 1] > 0.5)).astype(int)
    y[rng.random(n_rows) < 0.1] ^= 1
    return X, y


def test_zero_regularization_without_a_depth_budget_is_refused_by_name():
    X, y = _noisy()
    for solver in ("auto", "continuous", "gosdt"):
        with pytest.raises(ValueError, match="regularization=0 needs a depth_budget"):
            make_solver(X, y, solver=solver, regularization=0)
    with pytest.raises(ValueError, match="regularization=0 needs a depth_budget"):
        OptimalTreeClassifier(regularization=0).fit(X, y)


def test_zero_regularization_on_a_solver_without_it_names_the_one_with_it():
    X, y = _noisy()
    with pytest.raises(ValueError, match="needs solver='continuous'"):
        make_solver(X, y, solver="osdt", regularization=0, depth_budget=2)


def test_auto_picks_the_continuous_solver_for_zero_lambda_and_for_many_thresholds_under_a_depth_budget():
    X, y = _noisy()                                       # 3 columns of 300 distinct values: 897 thresholds
    assert isinstance(make_solver(X, y, depth_budget=2, regularization=0), ContinuousSearch)
    assert isinstance(make_solver(X, y, depth_budget=2), ContinuousSearch)
    assert isinstance(make_solver(X, y, depth_budget=3, regularization=0.01, thresholds="all"), ContinuousSearch)
    frame = pd.DataFrame(X, columns=["a", "b", "c"]).assign(c=np.where(X[:, 2] > 0, "u", "v"))
    assert isinstance(make_solver(frame, y, depth_budget=2, regularization=0), ContinuousSearch)
    assert not isinstance(make_solver(frame, y, depth_budget=2), ContinuousSearch)      # a categorical column
    assert not isinstance(make_solver(X, y), ContinuousSearch)                          # no depth budget
    assert not isinstance(make_solver(X, y, depth_budget=2, max_thresholds=5), ContinuousSearch)
    assert not isinstance(make_solver(X, y, depth_budget=2, thresholds="guess"), ContinuousSearch)
    assert make_solver(X, y, depth_budget=2, solver="gosdt").name == "gosdt"           # asked for by name


def test_auto_keeps_few_thresholds_on_the_binary_table_up_to_the_encodings_count():
    """The count above which ``thresholds="auto"`` guesses for a binary search is the one that hands a
    numeric table with a depth budget to the continuous solver (every threshold, as sorted values)."""
    from treeopt.encoding import AUTO_MAX_THRESHOLDS
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, size=600)
    at_most = np.arange(600) % (AUTO_MAX_THRESHOLDS + 1)          # AUTO_MAX_THRESHOLDS thresholds
    one_more = np.arange(600) % (AUTO_MAX_THRESHOLDS + 2)
    assert make_solver(at_most.reshape(-1, 1), y, depth_budget=3).name == "gosdt"
    assert make_solver(one_more.reshape(-1, 1), y, depth_budget=3).name == "continuous"
    few = np.column_stack([at_most // 4, at_most % 7])           # 64 + 6 thresholds over two columns
    assert make_solver(few, y, depth_budget=4, regularization=0.001).name == "gosdt"
    wide_binary = rng.integers(0, 2, size=(600, AUTO_MAX_THRESHOLDS + 40))     # one feature per 0/1 column
    assert make_solver(wide_binary, y, depth_budget=3).name == "gosdt"


def test_auto_keeps_numeric_columns_sorted_from_fifty_million_binary_cells_with_few_thresholds():
    from treeopt.building import AUTO_SORTED_CELLS, SETTINGS, _continuous_fits
    n_rows = AUTO_SORTED_CELLS // 200 + 1
    column = (np.arange(n_rows) % 201).astype(float).reshape(-1, 1)   # 200 thresholds: above the cells
    settings = {**SETTINGS, "depth_budget": 3}
    assert _continuous_fits(column, settings, None)
    assert not _continuous_fits(column[: n_rows // 2], settings, None)


def test_the_estimator_over_many_thresholds_reports_every_threshold_and_the_optimum_of_the_binary_search():
    X, y = _noisy(n_rows=200, seed=3)
    clf = OptimalTreeClassifier(regularization=0.01, depth_budget=2).fit(X, y)
    assert clf.solver_.name == "continuous" and clf.optimal_ and clf.status_ == "optimal"
    assert clf.thresholds_ == "all" and clf.guarantee_ == {}
    gosdt = OptimalTreeClassifier(regularization=0.01, depth_budget=2, solver="gosdt", thresholds="all").fit(X, y)
    assert gosdt.optimal_ and clf.objective_ == pytest.approx(gosdt.objective_)


def test_estimator_fits_the_most_accurate_depth_two_tree_and_predicts_on_the_original_table():
    X, y = _noisy()
    clf = OptimalTreeClassifier(regularization=0, depth_budget=2).fit(X, y)
    assert clf.optimal_ and clf.solver_.name == "continuous"
    assert clf.tree_.depth <= 2
    assert clf.score(X, y) == pytest.approx(1 - clf.objective_)
    gosdt = make_solver(X, y, solver="gosdt", thresholds="all", regularization=1e-4, depth_budget=2).run()
    errors = round(gosdt.objective * len(y) - 1e-4 * len(y) * gosdt.tree.n_leaves)
    assert round(clf.objective_ * len(y)) == errors


def test_sorted_columns_hold_order_and_ranks_not_a_binary_table():
    X, _ = _noisy(n_rows=500)
    columns = SortedColumns.from_table(X)
    assert columns.rank.shape == columns.order.shape == (3, 500)
    assert columns.n_thresholds == 3 * 499
    for j in range(3):
        assert np.all(np.diff(X[columns.order[j], j]) >= 0)
        assert np.array_equal(columns.values[j][columns.rank[j]], X[:, j])


def test_integers_past_two_to_the_53_are_split_exactly():
    base = 2 ** 53
    X = pd.DataFrame({"big": np.array([base, base + 1, base + 2, base + 3] * 5, dtype=np.int64)})
    y = np.array([0, 1, 1, 1] * 5)                     # base and base + 1 are one float64
    result = make_solver(X, y, solver="continuous", regularization=0, depth_budget=1).run()
    assert result.objective == 0.0
    tree = result.tree
    assert tree.features[0].value == base and tree.features[0].name == f"big <= {base}"
    assert np.array_equal(tree.predict(X, binarized=False), y)


def test_categorical_columns_split_on_the_binarizers_one_hot_features():
    rng = np.random.default_rng(3)
    frame = pd.DataFrame({"color": rng.choice(["red", "green", "blue"], 200), "size": rng.normal(size=200)})
    y = ((frame.color == "red") & (frame["size"] > 0.3)).astype(int).to_numpy()
    clf = OptimalTreeClassifier(regularization=0, depth_budget=2).fit(frame, y)
    assert clf.score(frame, y) == 1.0
    assert any(f.kind == "category" for f in clf.tree_.features)
    reference = make_solver(frame, y, solver="gosdt", thresholds="all", regularization=0.01, depth_budget=2).run()
    ours = make_solver(frame, y, solver="continuous", regularization=0.01, depth_budget=2).run()
    assert ours.objective == pytest.approx(reference.objective, abs=1e-9)


def test_missing_values_are_refused_with_the_fix():
    X, y = _noisy()
    X[3, 1] = np.nan
    with pytest.raises(ValueError, match="missing"):
        make_solver(X, y, solver="continuous", depth_budget=2)


def test_a_depth_two_search_is_sliced_into_units_and_shows_its_subsolver():
    """A unit evaluates one batch of root thresholds: the first step leaves the search open, with the
    root's subproblem in the queue, named by its subsolver and counting its intervals."""
    X, y = _noisy(n_rows=4000)
    solver = make_solver(X, y, solver="continuous", regularization=0, depth_budget=2)
    assert solver.step(1)
    snapshot = solver.snapshot()
    assert snapshot.status == "paused" and snapshot.lower_bound <= snapshot.upper_bound
    (entry,) = snapshot.queue
    details = dict(entry.details())
    assert details["subsolver"] == "depth_two" and int(details["thresholds_evaluated"]) > 0
    assert int(details["open_intervals"]) > 0
    whole = solver.rebuild()
    assert solver.run().objective == pytest.approx(whole.run().objective)
    assert solver.prune_counts["interval_pruning"] > 0 and solver.prune_counts["depth_two"] == 1


def test_release_keeps_the_result_and_drops_the_memo():
    X, y = _noisy()
    solver = make_solver(X, y, solver="continuous", regularization=0.01, depth_budget=3)
    result = solver.run()
    assert solver.cache_size > 0
    solver.release()
    assert solver.cache_size == 0 and solver.result().objective == result.objective


def test_sorted_dataset_refuses_a_binarizer():
    from treeopt.binarize import Binarizer
    with pytest.raises(ValueError, match="takes no binarizer"):
        SortedDataset.from_arrays([[1.0], [2.0]], [0, 1], binarizer=Binarizer())


def test_a_binary_dataset_is_searched_as_zero_one_columns_with_its_own_features():
    from treeopt.data import Dataset
    from treeopt.solvers import GOSDT
    rng = np.random.default_rng(8)
    Z = rng.integers(0, 2, size=(60, 5))
    y = (Z[:, 0] ^ Z[:, 3]) | (rng.random(60) < 0.1)
    dataset = Dataset.from_binary(Z, y)
    ours = ContinuousSearch(dataset, regularization=0.02, depth_budget=3).run()
    reference = GOSDT(dataset, regularization=0.02, depth_budget=3).run()
    assert ours.objective == pytest.approx(reference.objective, abs=1e-9)
    assert ours.tree.features == dataset.features
    assert ours.tree.objective(Z, y, 0.02, binarized=True) == pytest.approx(ours.objective)

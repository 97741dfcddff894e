"""The Rashomon count against brute force over every tree on tiny problems."""
import numpy as np
import pytest

from rashomon_oracle import all_trees
from treeopt.rashomon import rashomon_count


@pytest.mark.parametrize("regularization,epsilon", [(0.05, 0.1), (0.02, 0.3), (0.1, 0.5), (0.01, 2.0)])
@pytest.mark.parametrize("seed", range(6))
def test_count_equals_brute_force(seed, regularization, epsilon):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(10, 3))
    y = rng.integers(0, 2, size=10)
    objectives = [t.objective for t in all_trees(X, y, regularization)]
    bound = (1 + epsilon) * min(objectives)
    expected = sum(v <= bound + 1e-12 for v in objectives)
    assert rashomon_count(X, y, regularization, bound) == expected
    assert expected >= 1


def test_a_bound_below_the_optimum_counts_nothing():
    X, y = [[0], [1], [1]], [0, 1, 1]
    assert rashomon_count(X, y, 0.1, 0.05) == 0


def test_no_regularization_is_refused():
    with pytest.raises(ValueError, match="regularization"):
        rashomon_count([[0], [1]], [0, 1], 0.0, 1.0)


@pytest.mark.parametrize("seed", range(4))
def test_a_bound_equal_to_an_objective_keeps_its_trees(seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(10, 3))
    y = rng.integers(0, 2, size=10)
    objectives = sorted(t.objective for t in all_trees(X, y, 0.04))
    for bound in sorted(set(np.round(objectives, 12)))[:6]:
        assert rashomon_count(X, y, 0.04, float(bound)) == sum(v <= bound + 1e-9 for v in objectives)

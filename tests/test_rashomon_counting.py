"""The Rashomon count against brute force over every tree on tiny problems."""
import numpy as np
import pytest

from oracle import enumerate_trees
from treeopt.rashomon import rashomon_count


def _brute_force_objectives(X, y, regularization):
    """Objective of every valid tree: no empty child, no split of two same-label leaves."""
    n, p = X.shape
    classes = np.unique(y)

    def score(node, rows):
        if len(rows) == 0:
            return None
        if node[0] == "leaf":
            counts = [int(np.sum(y[rows] == c)) for c in classes]
            label = int(np.argmax(counts))
            return len(rows) - counts[label], 1, label
        j = node[1]
        left = score(node[2], rows[X[rows, j] == 0])
        right = score(node[3], rows[X[rows, j] == 1])
        if left is None or right is None:
            return None
        if node[2][0] == "leaf" and node[3][0] == "leaf" and left[2] == right[2]:
            return None
        return left[0] + right[0], left[1] + right[1], -1

    out = []
    for tree in enumerate_trees(p, p):
        s = score(tree, np.arange(n))
        if s is not None:
            out.append(s[0] / n + regularization * s[1])
    return out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("regularization,epsilon", [(0.05, 0.1), (0.02, 0.3), (0.1, 0.5)])
def test_count_equals_brute_force(seed, regularization, epsilon):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(10, 3))
    y = rng.integers(0, 2, size=10)
    objectives = _brute_force_objectives(X, y, regularization)
    bound = (1 + epsilon) * min(objectives)
    expected = sum(v <= bound + 1e-12 for v in objectives)
    assert rashomon_count(X, y, regularization, bound) == expected
    assert expected >= 1


def test_no_regularization_is_refused():
    with pytest.raises(ValueError, match="regularization"):
        rashomon_count([[0], [1]], [0, 1], 0.0, 1.0)


@pytest.mark.parametrize("seed", range(4))
def test_unranking_lists_every_tree_once_in_objective_order(seed):
    from treeopt.rashomon import rashomon_table
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(10, 3))
    y = rng.integers(0, 2, size=10)
    regularization = 0.03
    objectives = _brute_force_objectives(X, y, regularization)
    bound = 1.4 * min(objectives)
    count = rashomon_count(X, y, regularization, bound)
    trees = rashomon_table(X, y, regularization, bound, unrank=range(count))
    assert len(set(trees)) == count

    def objective(t, rows):
        if t[0] == "leaf":
            return np.sum(y[rows] != t[1]) / len(y) + regularization
        return (objective(t[2], rows[X[rows, t[1]] == 0]) + objective(t[3], rows[X[rows, t[1]] == 1]))

    values = [objective(t, np.arange(len(y))) for t in trees]
    assert all(v <= bound + 1e-12 for v in values)
    assert values == sorted(values) or np.all(np.diff(values) > -1e-12)
    with pytest.raises(IndexError):
        rashomon_table(X, y, regularization, bound, unrank=[count])


@pytest.mark.parametrize("seed", range(3))
def test_rashomon_set_optimum_length_and_sample(seed):
    from treeopt.rashomon import rashomon_set
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(10, 3))
    y = rng.integers(0, 2, size=10)
    objectives = _brute_force_objectives(X, y, 0.04)
    rs = rashomon_set(X, y, regularization=0.04, epsilon=0.25)
    assert rs.optimum == pytest.approx(min(objectives))
    assert len(rs) == sum(v <= 1.25 * min(objectives) + 1e-12 for v in objectives)
    picked = rs.sample(5, random_state=0)
    assert len(set(picked)) == min(5, len(rs))
    assert rs[-1] == rs[len(rs) - 1]
    with pytest.raises(ValueError, match="exactly one"):
        rashomon_set(X, y, regularization=0.04)

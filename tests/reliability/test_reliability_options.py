"""Options that used to be silently ignored now raise."""
import json

import numpy as np
import pytest

from treeopt.binarize import BinaryFeature
from treeopt.data import Dataset
from treeopt.solvers.gosdt.search import GOSDT
from treeopt.tree import Leaf, Split, Tree


def tiny_dataset():
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]], dtype=bool)
    return Dataset.from_binary(X, np.array([0, 1, 1, 0]))


def test_a_string_bound_switch_is_refused():
    with pytest.raises(ValueError, match="True or False"):
        GOSDT(tiny_dataset(), regularization=0.1, bounds={"lookahead": "false"})


def test_a_boolean_bound_switch_is_still_accepted():
    solver = GOSDT(tiny_dataset(), regularization=0.1, bounds={"lookahead": False})
    assert solver.bounds["lookahead"] is False


def tree_dict(feature, prediction):
    tree = Tree(Split(0, Leaf(1), Leaf(0)), [BinaryFeature("x", 0, "threshold", 2.5, "x <= 2.5")], ["a", "b"])
    data = json.loads(tree.to_json())
    data["root"]["feature"] = feature
    data["root"]["left"]["prediction"] = prediction
    return data


def test_json_with_valid_indices_loads():
    assert isinstance(Tree.from_dict(tree_dict(0, 1)), Tree)


@pytest.mark.parametrize("feature, prediction", [(-1, 0), (0, -1), (5, 0), (0, 7)])
def test_json_with_out_of_range_indices_is_refused(feature, prediction):
    with pytest.raises(ValueError, match="outside"):
        Tree.from_dict(tree_dict(feature, prediction))


@pytest.mark.parametrize("param", [{"omega": 2.0}, {"theta": 0.2}])
def test_objective_parameters_the_objective_ignores_are_refused(param):
    from treeopt import OptimalTreeClassifier
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]])
    with pytest.raises(ValueError, match="takes no"):
        OptimalTreeClassifier(regularization=0.1, objective="accuracy", **param).fit(X, [0, 1, 1, 0])


def test_objective_parameters_the_objective_uses_are_accepted():
    from treeopt import OptimalTreeClassifier
    X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]])
    clf = OptimalTreeClassifier(regularization=0.1, objective="weighted_accuracy", omega=2.0).fit(X, [0, 1, 1, 0])
    assert clf.predict(X).tolist() == [0, 1, 1, 0]

"""One default λ across every front end, with its reason in the estimator's docstring."""

import argparse
import inspect

import pytest

from treeopt import OptimalTreeClassifier
from treeopt.building import SETTINGS
from treeopt.cli.commands import COMMANDS
from treeopt.greedy import GreedyInduction
from treeopt.greedy_estimators import GreedyTreeClassifier
from treeopt.regularization import DEFAULT_REGULARIZATION
from treeopt.ablations import ablation


def _signature_default(function) -> float:
    return inspect.signature(function).parameters["regularization"].default


def _command_default(name: str) -> float:
    parser = argparse.ArgumentParser()
    COMMANDS[name][1](parser)
    return parser.get_default("regularization")


@pytest.mark.parametrize("front_end, default", [
    ("OptimalTreeClassifier", lambda: OptimalTreeClassifier().regularization),
    ("make_solver", lambda: SETTINGS["regularization"]),
    ("GreedyTreeClassifier", lambda: GreedyTreeClassifier().regularization),
    ("GreedyInduction", lambda: _signature_default(GreedyInduction)),
    ("ablation", lambda: _signature_default(ablation)),
    ("treeopt demo", lambda: _command_default("demo")),
    ("treeopt fit", lambda: _command_default("fit")),
    ("treeopt ablation", lambda: _command_default("ablation")),
])
def test_every_front_end_defaults_to_the_one_regularization(front_end, default):
    assert default() == DEFAULT_REGULARIZATION, front_end


def test_the_estimator_states_why_the_default_is_what_it_is():
    doc = OptimalTreeClassifier.__doc__
    section = doc.split("regularization : float")[1].split("solver : str")[0]
    assert f"default={DEFAULT_REGULARIZATION}" in doc
    assert "DEFAULT_REGULARIZATION" in section and "1/(2λ) + 1" in section

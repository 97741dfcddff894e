"""``treeopt fit --json`` carries the certificate beside the tree, so a script never scrapes stdout."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from treeopt import OptimalTreeClassifier
from treeopt.cli import main
from treeopt.tree import Tree


@pytest.fixture
def people(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"age": rng.integers(18, 70, 80), "colour": rng.choice(["red", "blue"], 80)})
    frame["label"] = np.where((frame.age < 35) | (frame.colour == "red"), "yes", "no")
    path = tmp_path / "people.csv"
    frame.to_csv(path, index=False)
    return path, frame


def test_the_json_holds_the_certificate_and_the_tree(people, tmp_path, capsys):
    path, frame = people
    out_json = tmp_path / "fit.json"
    assert main(["fit", str(path), "--target", "label", "--regularization", "0.02", "--max-thresholds", "8",
                 "--json", str(out_json)]) == 0
    printed = capsys.readouterr().out
    document = json.loads(out_json.read_text())
    assert document["format"] == "treeopt.fit" and document["version"] == 1
    certificate = document["certificate"]
    assert set(certificate) >= {"status", "optimal", "objective", "lower_bound", "upper_bound", "gap",
                                "regularization", "penalty", "loss", "solver", "time", "n_steps"}
    X = frame.drop(columns=["label"])
    clf = OptimalTreeClassifier(regularization=0.02, max_thresholds=8).fit(X, frame.label)
    assert certificate["status"] == "optimal" and certificate["optimal"] is True
    assert certificate["objective"] == pytest.approx(clf.objective_)
    assert certificate["lower_bound"] == pytest.approx(clf.lower_bound_)
    assert certificate["gap"] == pytest.approx(0.0, abs=1e-12)
    assert certificate["regularization"] == 0.02 and certificate["loss"] == "accuracy"
    assert certificate["solver"] == clf.solver_.name and certificate["time"] > 0
    assert f"objective      {certificate['objective']:.10f}" in printed
    tree = Tree.from_json(out_json.read_text())                  # the envelope reads back as its tree
    assert (tree.predict(X, binarized=False) == frame.label.to_numpy()).all()


def test_a_stopped_search_says_so_in_the_json(people, tmp_path, capsys):
    path, _ = people
    out_json = tmp_path / "fit.json"
    code = main(["fit", str(path), "--target", "label", "--regularization", "0.001", "--solver", "osdt",
                 "--time-limit", "5", "--json", str(out_json)])
    certificate = json.loads(out_json.read_text())["certificate"]
    assert certificate["status"] in ("optimal", "time_limit")
    assert code == (0 if certificate["status"] == "optimal" else 3)
    assert certificate["optimal"] == (certificate["status"] == "optimal")
    assert certificate["gap"] == pytest.approx(certificate["upper_bound"] - certificate["lower_bound"])
    assert certificate["solver"] == "osdt"

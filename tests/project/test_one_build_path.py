"""Building a solver has one path: :func:`treeopt.make_solver` (and ``Solver.rebuild`` for a copy).

Every front end (the estimators' ``fit``, ``treeopt.frontier()``, ``treeopt.rashomon_set()``, the
OSDT ablation and its command) builds through it, so its checks and defaults hold everywhere. The
first test replaces ``make_solver`` by one that raises and checks each front end raises it (and that
the front ends that take a table hand it over raw, for the builder to encode); the second reads the package's source and flags any other place that calls a registered solver class
or looks a solver up in the registry.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import treeopt
from treeopt import building
from treeopt.cli.commands import main as cli_main
from treeopt.data import Dataset
from treeopt.registry import SOLVERS

PACKAGE = Path(treeopt.__file__).parent

#: Where building a solver is allowed: the builder itself.
BUILDER = {"treeopt/building.py"}
#: Functions that may call a solver class (by enclosing function name and file): ``Solver.rebuild``
#: copies a solver, and the portfolio and iterative deepening are made of GOSDT searches on their
#: own dataset (their parts, not a user's solver; deepening builds one at its start for the exact
#: solvers its depth searches share).
COMPOSERS = {("treeopt/solvers/base.py", "rebuild"), ("treeopt/solvers/gosdt/portfolio.py", "__init__"),
             ("treeopt/solvers/gosdt/deepening.py", "_depth_search"), ("treeopt/solvers/gosdt/deepening.py", "__init__")}


class Built(Exception):
    """Raised by the replaced make_solver: reaching it proves the caller builds through it."""


def _replace_builder(monkeypatch, replacement) -> None:
    """Replace ``make_solver`` wherever a module of the package bound it by name."""
    real = building.make_solver
    for name, module in list(sys.modules.items()):
        if (name == "treeopt" or name.startswith("treeopt.")) and getattr(module, "make_solver", None) is real:
            monkeypatch.setattr(module, "make_solver", replacement)


@pytest.fixture
def raising_builder(monkeypatch):
    def refuse(*args, **kwargs):
        raise Built(kwargs.get("solver"))

    _replace_builder(monkeypatch, refuse)


@pytest.fixture
def tables_given(monkeypatch):
    """The ``X`` each call of the replaced ``make_solver`` received (then it raises :class:`Built`)."""
    given = []

    def record(X, *args, **kwargs):
        given.append(X)
        raise Built(kwargs.get("solver"))

    _replace_builder(monkeypatch, record)
    return given


def _table():
    X = pd.DataFrame({"a": [0, 1, 0, 1] * 5, "b": [0, 0, 1, 1] * 5, "c": [1, 0, 0, 1] * 5})
    return X, np.array([0, 1, 1, 0] * 5)


FRONT_ENDS = {
    "frontier": lambda X, y: treeopt.frontier(X, y, max_leaves=3),
    "frontier_cv": lambda X, y: treeopt.frontier(X, y, max_leaves=3, cv=2),
    "rashomon_set": lambda X, y: treeopt.rashomon_set(X, y, regularization=0.1, epsilon=0.05),
    "rashomon_set_stepwise": lambda X, y: treeopt.rashomon_set(X, y, regularization=0.1, epsilon=0.05,
                                                               time_limit=30),
    "OptimalTreeClassifier": lambda X, y: treeopt.OptimalTreeClassifier(regularization=0.1).fit(X, y),
    "OptimalTreeClassifierCV": lambda X, y: treeopt.OptimalTreeClassifierCV(cv=2).fit(X, y),
    "GreedyTreeClassifier": lambda X, y: treeopt.GreedyTreeClassifier().fit(X, y),
    "ablation": lambda X, y: treeopt.ablation(X, y, regularization=0.1, bounds=["lookahead"], time_limit=5),
    "check_bound": lambda X, y: treeopt.check_bound("lookahead", n_cases=1),
}


@pytest.mark.parametrize("front_end", sorted(FRONT_ENDS))
def test_every_front_end_builds_through_make_solver(front_end, raising_builder):
    X, y = _table()
    with pytest.raises(Built):
        FRONT_ENDS[front_end](X, y)


#: The front ends that hand the table to ``make_solver`` as they received it, so that the builder's
#: encoding policy (``treeopt/encoding.py``) is the one they all apply. (The ablation takes a 0/1
#: table, OSDT's ablation study's input, as binary features without any encoding.)
RAW_TABLE_FRONT_ENDS = ["frontier", "frontier_cv", "rashomon_set", "rashomon_set_stepwise", "OptimalTreeClassifier",
                        "OptimalTreeClassifierCV", "GreedyTreeClassifier"]


@pytest.mark.parametrize("front_end", RAW_TABLE_FRONT_ENDS)
def test_front_ends_leave_the_encoding_to_the_builder(front_end, tables_given):
    X, y = _table()
    with pytest.raises(Built):
        FRONT_ENDS[front_end](X, y)
    assert tables_given and not isinstance(tables_given[0], Dataset), \
        f"{front_end} encoded the table itself instead of handing it to make_solver"


def test_the_ablation_command_builds_through_make_solver(raising_builder, tmp_path):
    X, y = _table()
    X.assign(label=y).to_csv(tmp_path / "table.csv", index=False)
    with pytest.raises(Built):
        cli_main(["ablation", str(tmp_path / "table.csv"), "--target", "label", "--time-limit", "5"])


def _builds(source: str, relative: str) -> list[str]:
    """The lines of the module ``relative`` (its ``source``) that call a registered solver class or
    look one up in ``SOLVERS``."""
    classes = {cls.__name__ for cls in SOLVERS.values()}
    found = []

    def visit(node, function):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        if isinstance(node, ast.Call):
            called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if called in classes and (relative, function) not in COMPOSERS:
                found.append(f"{relative}:{node.lineno} calls {called}")
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.value, ast.Name) \
                and node.value.id == "SOLVERS" and relative != "treeopt/registry.py":
            found.append(f"{relative}:{node.lineno} looks up SOLVERS")
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(ast.parse(source), None)
    return found


def test_only_the_builder_builds_a_solver():
    modules = {path.relative_to(PACKAGE.parent).as_posix(): path for path in sorted(PACKAGE.rglob("*.py"))}
    builds = [line for relative, path in modules.items() if relative not in BUILDER
              for line in _builds(path.read_text(encoding="utf-8"), relative)]
    assert not builds, "solvers built outside make_solver (build through treeopt.make_solver):\n" + "\n".join(builds)


def test_the_scan_sees_a_direct_build():
    """The scan is not blind: a front end that calls a solver class or indexes SOLVERS is flagged,
    and a composer's allowance covers only its own function."""
    source = "from .registry import SOLVERS\n\ndef fit(d):\n    return solvers.GOSDT(d), SOLVERS['osdt']\n"
    assert _builds(source, "treeopt/frontiers.py") == ["treeopt/frontiers.py:4 calls GOSDT",
                                                         "treeopt/frontiers.py:4 looks up SOLVERS"]
    assert _builds(source, "treeopt/solvers/base.py")[0] == "treeopt/solvers/base.py:4 calls GOSDT"

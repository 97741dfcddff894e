"""Construction is part of the protocol: settings as data, rebuild, one builder."""

import json

import numpy as np
import pytest

from treeopt import OSDT, Branches, make_solver
from treeopt.data import Dataset
from treeopt.datasets import load_monk
from treeopt.registry import SOLVERS


@pytest.fixture(scope="module")
def monk2():
    return load_monk(2)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_rebuild_keeps_every_setting_and_params_are_json(name, monk2):
    X, y = monk2
    depth = 3 if SOLVERS[name].CAPABILITIES.depth_budget else None
    solver = make_solver(X, y, solver=name, regularization=0.05, depth_budget=depth)
    solver.step(3)
    again = solver.rebuild()
    assert type(again) is type(solver) and again.status == "not_started"
    assert again.params == solver.params
    json.dumps(solver.params)                                   # plain values only
    switched = solver.rebuild(bounds={next(iter(solver.BOUNDS)): False}) if solver.BOUNDS else again
    expected = {k: v for k, v in solver.params.items() if k != "bounds"}
    assert {k: v for k, v in switched.params.items() if k != "bounds"} == expected


def test_a_solver_option_outside_the_settings_is_built_and_kept_by_name(monk2):
    """The Rashomon set's epsilon is its own option (CAPABILITIES.options): make_solver builds it by name,
    rebuild keeps it, and a solver that does not declare it refuses it."""
    X, y = monk2
    solver = make_solver(X, y, solver="rashomon", regularization=0.05, epsilon=0.02)
    assert solver.params["epsilon"] == 0.02 and solver.rebuild().params["epsilon"] == 0.02
    with pytest.raises(ValueError, match="epsilon"):
        make_solver(X, y, solver="gosdt", regularization=0.05, epsilon=0.02)
    with pytest.raises(ValueError, match="depth_budget"):
        make_solver(X, y, solver="rashomon", regularization=0.05, depth_budget=2)


def test_rebuild_refuses_unknown_settings(monk2):
    solver = make_solver(*monk2, regularization=0.05)
    with pytest.raises(TypeError, match="no setting.*schedule"):
        solver.rebuild(schedule="dfs")


def test_branches_leaf_penalty_survives_a_rerun_from_the_player(monk2):
    """A rerun once silently switched Branches to penalty='split' (0.3587 -> 0.3287)."""
    widgets = pytest.importorskip("treeopt.widgets")
    X, y = monk2
    solver = make_solver(X, y, solver="branches", regularization=0.03, penalty="leaf")
    first = solver.run().objective
    player = widgets.SolverPlayer(solver, views=None)
    player.reset(bounds={"purification": False})
    assert player.solver.settings["penalty"] == "leaf"
    player.step(10**7)
    assert player.solver.result().objective == pytest.approx(first, abs=1e-12)
    split = make_solver(X, y, solver="branches", regularization=0.03, penalty="split").run().objective
    assert split != pytest.approx(first)                       # the two penalties do differ here


def test_osdt_schedule_and_warm_start_survive_a_rerun(monk2):
    widgets = pytest.importorskip("treeopt.widgets")
    X, y = monk2
    dataset = Dataset.from_arrays(X, y)
    solver = OSDT(dataset, regularization=0.05, schedule="dfs", warm_start="cart", depth_budget=3)
    player = widgets.SolverPlayer(solver, views=None)
    player.reset(bounds={"lookahead": False})
    rebuilt = player.solver
    assert rebuilt.settings["schedule"] == "dfs" and rebuilt.settings["warm_start"] == "cart"
    assert rebuilt.bounds["lookahead"] is False and rebuilt.depth_budget == 3


def test_make_solver_refuses_what_a_solver_cannot_take(monk2):
    X, y = monk2
    with pytest.raises(ValueError, match="schedule needs solver='osdt'"):
        make_solver(X, y, solver="gosdt", schedule="dfs")
    with pytest.raises(ValueError, match="penalty='split' needs solver='branches'"):
        make_solver(X, y, solver="osdt", penalty="split")
    with pytest.raises(ValueError, match="not a sum over leaves.*solver='osdt'"):
        make_solver(X, y, solver="gosdt", objective="auc")
    with pytest.raises(TypeError, match="unknown setting"):
        make_solver(X, y, regularisation=0.1)
    with pytest.raises(ValueError, match="mixes label types"):
        make_solver(X, np.array([1, "1"] * (len(y) // 2), dtype=object))


def test_every_registered_solver_declares_its_capabilities():
    for name, cls in SOLVERS.items():
        caps = cls.CAPABILITIES
        assert caps.dataset in ("binary", "categorical", "sorted"), name
        assert caps.objectives in ("additive", "any"), name
        assert set(caps.options) <= set(cls.setting_names()), name
        assert len(caps.penalties) == 1 or "penalty" in cls.setting_names(), name
    assert Branches.CAPABILITIES.dataset == "categorical"


def test_make_solver_builds_on_a_ready_dataset_and_refuses_what_only_a_table_takes():
    X, y = load_monk(1)
    dataset = Dataset.from_arrays(X, y)
    built = make_solver(dataset, None, solver="osdt", regularization=0.1)
    assert built.dataset is dataset
    assert built.run().objective == make_solver(X, y, solver="osdt", regularization=0.1).run().objective
    for given in ({"y": y}, {"sample_weight": np.ones(len(y))}, {"thresholds": "quantile"}):
        table_y = given.pop("y", None)
        with pytest.raises(ValueError, match="ready Dataset.*give none of"):
            make_solver(dataset, table_y, solver="gosdt", regularization=0.1, **given)
    with pytest.raises(ValueError, match="solver='branches' reads a categorical dataset"):
        make_solver(dataset, None, solver="branches", regularization=0.1)

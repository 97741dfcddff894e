"""Switches: bounds, constraints, subsolvers, search orders and first incumbents as declared kinds."""

import warnings

import numpy as np
import pytest

import treeopt
from treeopt import OptimalTreeClassifier, make_solver
from treeopt.data import Dataset
from treeopt.datasets import load_monk
from treeopt.registry import SOLVERS
from treeopt.solvers import GOSDT, OSDT, DepthDeepening, Portfolio
from treeopt.solvers.base import Solver
from treeopt.solvers.switches import KINDS, Switch, Switches, bound


def _xor():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    return Dataset.from_binary(X, np.array([0, 1, 1, 0] * 3))


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_every_solver_declares_its_switches_with_kinds(name):
    cls = SOLVERS[name]
    assert isinstance(cls.SWITCHES, Switches)
    assert all(isinstance(s, Switch) and s.kind in KINDS for s in cls.SWITCHES.values())
    assert cls.BOUNDS == cls.SWITCHES.citations()


def test_gosdt_separates_bounds_from_orders_starts_and_subsolvers():
    kinds = {name: s.kind for name, s in GOSDT.SWITCHES.items()}
    assert kinds["lookahead"] == "bound"
    assert kinds["dives"] == "search_order"
    assert kinds["cart_start"] == "first_incumbent"
    assert kinds["depth_two"] == "subsolver"
    assert kinds["depth"] == "constraint"
    # the wrappers of GOSDT declare the same switches (less the guessed bound deepening cannot use)
    assert set(DepthDeepening.SWITCHES) == set(GOSDT.SWITCHES) - {"reference_lower_bound"}
    assert list(Portfolio.SWITCHES) == list(DepthDeepening.SWITCHES)


def test_a_strategy_passed_as_a_bound_still_works_and_warns_naming_strategies():
    with pytest.warns(DeprecationWarning, match=r"strategies=\{'cart_start': False\}"):
        solver = GOSDT(_xor(), regularization=0.05, bounds={"cart_start": False})
    assert solver.bounds["cart_start"] is False


def test_strategies_switch_orders_off_without_a_warning_and_rebuild_keeps_them():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        solver = GOSDT(_xor(), regularization=0.05, strategies={"dives": False}, bounds={"lookahead": False})
        again = solver.rebuild(bounds={"lookahead": True})
    assert solver.bounds["dives"] is False and solver.bounds["lookahead"] is False
    assert again.bounds["dives"] is False and again.bounds["lookahead"] is True
    assert solver.run().objective == pytest.approx(0.2)


def test_a_bound_passed_as_a_strategy_is_refused():
    with pytest.raises(ValueError, match=r"bounds=\{'lookahead': False\}"):
        GOSDT(_xor(), regularization=0.05, strategies={"lookahead": False})


def test_unknown_names_list_bounds_and_strategies_apart():
    with pytest.raises(ValueError, match="its bounds are .*lookahead.* and its strategies .*dives"):
        GOSDT(_xor(), regularization=0.05, bounds={"lookahed": False})


@pytest.mark.parametrize("solver", ["deepening", "portfolio"])
def test_wrappers_pass_strategies_to_their_gosdt_searches_without_warnings(solver):
    X, y = load_monk(1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        built = make_solver(X, y, solver=solver, regularization=0.05, strategies={"cart_start": False})
        result = built.run()
    assert built.bounds["cart_start"] is False
    assert result.optimal


def test_the_estimator_takes_strategies():
    X, y = load_monk(1)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        clf = OptimalTreeClassifier(regularization=0.05, solver="gosdt", strategies={"dives": False}).fit(X, y)
    assert clf.optimal_
    with pytest.raises(ValueError, match="has no strategies"):
        OptimalTreeClassifier(regularization=0.05, solver="branches", strategies={"dives": False}).fit(X, y)
    with pytest.raises(ValueError, match="unknown strategy name.*'dives'"):
        OptimalTreeClassifier(regularization=0.05, solver="osdt", strategies={"dives": False}).fit(X, y)


def test_an_instance_declares_its_own_switch_with_a_state_and_a_counter():
    solver = OSDT(_xor(), regularization=0.05)
    solver.declare_switch(bound("mine", "a student's lemma"), on=False)
    assert solver.switches["mine"].kind == "bound" and solver.bounds["mine"] is False
    assert solver.prune_counts["mine"] == 0
    assert "mine" not in OSDT.SWITCHES          # the class is untouched
    solver.step()
    with pytest.raises(RuntimeError, match="before the search starts"):
        solver.declare_switch(bound("late", ""))


class _OwnSwitch(OSDT):
    """A solver that declares a switch of its own before the protocol reads ``bounds=``."""

    def __init__(self, dataset, *, regularization, bounds=None):
        self.declare_switch(bound("mine", "a student's lemma"), on=False)
        super().__init__(dataset, regularization=regularization, bounds=bounds)


def test_a_switch_declared_before_init_is_set_like_a_built_in_one():
    solver = _OwnSwitch(_xor(), regularization=0.05)
    assert solver.switches["mine"].kind == "bound" and solver.bounds["mine"] is False
    assert solver.prune_counts["mine"] == 0 and "mine" not in OSDT.SWITCHES
    assert _OwnSwitch(_xor(), regularization=0.05, bounds={"mine": True}).bounds["mine"] is True
    again = solver.rebuild(bounds={"mine": True, "lookahead": False})
    assert again.bounds["mine"] is True and again.bounds["lookahead"] is False and "mine" in again.switches
    with pytest.raises(ValueError, match="its bounds are .*'mine'"):
        _OwnSwitch(_xor(), regularization=0.05, bounds={"yours": True})


def test_plugins_are_declared_through_declare_switch_the_one_way(monkeypatch):
    declared = []
    original = Solver.declare_switch

    def spy(self, switch, on=None):
        declared.append((type(self).__name__, switch.name, switch.kind))
        return original(self, switch, on)

    monkeypatch.setattr(Solver, "declare_switch", spy)
    mine = treeopt.lower_bound("mine", lambda node: 0.0)
    order = treeopt.queue_policy("fewest_leaves", lambda node: node.n_leaves)
    OSDT(_xor(), regularization=0.05, plugins=[mine, order])
    GOSDT(_xor(), regularization=0.05, plugins=[mine])
    assert declared == [("OSDT", "mine", "bound"), ("OSDT", "fewest_leaves", "search_order"),
                        ("GOSDT", "mine", "bound")]
    assert not any(name.endswith("_switches") and callable(getattr(Solver, name)) for name in dir(Solver)
                   if name.startswith("_plugin"))                 # no second hook beside declare_switch


def test_a_switch_is_declared_once_and_must_be_a_switch():
    solver = OSDT(_xor(), regularization=0.05)
    with pytest.raises(ValueError, match="declared twice"):
        solver.declare_switch(bound("lookahead", "again"))
    solver.declare_switch(bound("mine", ""))
    with pytest.raises(ValueError, match="declared twice"):
        solver.declare_switch(bound("mine", ""))
    with pytest.raises(TypeError, match="takes a Switch"):
        solver.declare_switch("yours")
    assert list(solver.switches).count("mine") == 1


def test_switch_kinds_are_checked():
    with pytest.raises(ValueError, match="the kinds are"):
        Switch("x", "heuristic")
    with pytest.raises(ValueError, match="declared twice"):
        Switches([bound("a", ""), bound("a", "")])

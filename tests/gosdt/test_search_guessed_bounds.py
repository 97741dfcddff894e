"""A guessed lower bound (McTavish et al. 2022, section 4.3) is never reported as a certified one.

The solver protocol says whether its lower bound is guessed (``lower_bound_guessed`` on the
solver, its snapshots and results), and the estimator's ConvergenceWarning on a stopped guessed
search names the guess and reports what is proved instead.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from treeopt import OptimalTreeClassifier, make_solver
from treeopt.data import Dataset
from treeopt.datasets import load_monk
from treeopt.guessing import reference_errors
from treeopt.registry import SOLVERS
from treeopt.solvers import GOSDT


@pytest.fixture(scope="module")
def monk2_noisy_reference():
    """MONK-2 with a reference model that is wrong on about a fifth of the rows."""
    X, y = load_monk(2)
    y = np.asarray(y)
    flip = np.random.default_rng(0).random(len(y)) < 0.2
    return X, y, np.where(flip, 1 - y, y)


def guessed_solver(X, y, y_ref, **kwargs) -> GOSDT:
    ds = Dataset.from_arrays(X, y)
    return GOSDT(ds, regularization=0.01, reference_errors=reference_errors(ds, y, y_ref), **kwargs)


def stopped_fit(X, y, **fit_kwargs):
    """Fit with a node limit small enough to stop the search; return the estimator and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        clf = OptimalTreeClassifier(regularization=0.002, node_limit=50,
                                    bounds={"cart_start": False}).fit(X, y, **fit_kwargs)   # CART would close it
    return clf, [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]


def test_guessed_search_says_so_in_snapshot_and_result(monk2_noisy_reference):
    X, y, y_ref = monk2_noisy_reference
    solver = guessed_solver(X, y, y_ref)
    assert solver.lower_bound_guessed is True
    solver.step(3)
    assert solver.snapshot().lower_bound_guessed is True
    result = solver.run()
    assert result.lower_bound_guessed is True and solver.snapshot().lower_bound_guessed is True


def test_unguessed_searches_are_not_marked_guessed(monk2_noisy_reference):
    X, y, y_ref = monk2_noisy_reference
    # The reference switched off: the same solver's bound is a proof again.
    off = guessed_solver(X, y, y_ref, bounds={"reference_lower_bound": False})
    assert off.lower_bound_guessed is False
    off.step(3)
    assert off.snapshot().lower_bound_guessed is False and off.run().lower_bound_guessed is False
    # Every registered solver defaults to certified bounds.
    small_X, small_y = load_monk(1)
    for name in sorted(SOLVERS):
        solver = make_solver(small_X, small_y, solver=name, regularization=0.05)
        solver.step(2)
        assert solver.snapshot().lower_bound_guessed is False, name
        assert solver.result().lower_bound_guessed is False, name


def test_guessed_bound_can_exceed_what_is_proved(monk2_noisy_reference):
    """Why the label matters: a guessed search's lower bound is above the proved one (and the optimum here)."""
    X, y, y_ref = monk2_noisy_reference
    guessed = guessed_solver(X, y, y_ref).run()
    certified = GOSDT(Dataset.from_arrays(X, y), regularization=0.01).run()
    assert guessed.lower_bound_guessed and not certified.lower_bound_guessed
    assert guessed.lower_bound > certified.objective + 1e-9


def test_stopped_guessed_fit_warns_that_the_bound_is_a_guess(monk2_noisy_reference):
    X, y, y_ref = monk2_noisy_reference
    clf, messages = stopped_fit(X, y, y_ref=y_ref)
    assert clf.status_ == "node_limit" and not clf.optimal_
    assert clf.solver_.lower_bound_guessed
    assert len(messages) == 1
    message = messages[0]
    guessed_lb = clf.solver_.lower_bound
    assert "guessed lower bound" in message and "not a proof" in message
    assert f"guessed lower bound {guessed_lb:.6g}" in message
    assert "gap vs guessed bound" in message
    # What is proved: the estimator's honest certificate, below the guess.
    assert clf.lower_bound_ < guessed_lb
    assert f"lower bound {clf.lower_bound_:.6g})" in message and f"within {clf.gap_:.3g}" in message
    # Theorem 4.3's quantity: the reference model's loss, stated as needing a completed search.
    reference_loss = clf.guarantee_["lower_bound"]["reference_loss"]
    assert reference_loss == pytest.approx(float(np.mean(y_ref != y)))
    assert "Theorem 4.3" in message and f"{reference_loss:.6g}" in message and "completes" in message


def test_stopped_unguessed_fit_warning_is_unchanged(monk2_noisy_reference):
    X, y, _ = monk2_noisy_reference
    clf, messages = stopped_fit(X, y)
    assert len(messages) == 1
    assert "guess" not in messages[0] and "before optimality was certified" in messages[0]
    assert f"lower bound {clf.lower_bound_:.6g}" in messages[0]


def test_completed_guessed_fit_does_not_warn(monk2_noisy_reference):
    X, y, y_ref = monk2_noisy_reference
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        clf = OptimalTreeClassifier(regularization=0.01).fit(X, y, y_ref=y_ref)
    assert clf.status_ == "guessed" and not clf.optimal_
    assert clf.guarantee_["lower_bound"]["optimality_gap_bound"] is not None


def test_cli_progress_line_names_a_guessed_lower_bound(monk2_noisy_reference):
    import io

    from treeopt.progress import ProgressLine

    X, y, y_ref = monk2_noisy_reference
    lines = {}
    for guessed in (True, False):
        solver = guessed_solver(X, y, y_ref, bounds={"reference_lower_bound": guessed})
        solver.step(2)
        stream = io.StringIO()
        ProgressLine(stream)(solver)
        lines[guessed] = stream.getvalue()
    assert "lower (guessed)" in lines[True] and "guessed" not in lines[False] and "lower " in lines[False]

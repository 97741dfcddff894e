"""``treeopt fit`` prints the hint of a slow search in its own flags."""

import itertools

import numpy as np
import pandas as pd
import pytest

from treeopt import slow_certificate
from treeopt.cli import main


@pytest.fixture
def late_clock(monkeypatch):
    """The hint's clock: the fit starts at 0 and every later reading is an hour on."""
    readings = itertools.chain([0.0], itertools.repeat(3600.0))
    monkeypatch.setattr(slow_certificate, "clock", lambda: next(readings))


@pytest.fixture
def noisy_csv(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.normal(size=(80, 4)).round(2), columns=list("abcd"))
    frame["y"] = rng.integers(0, 2, size=80)
    path = tmp_path / "noisy.csv"
    frame.to_csv(path, index=False)
    return str(path)


def test_the_hint_names_the_command_flags(late_clock, noisy_csv, capsys):
    main(["fit", noisy_csv, "--target", "y", "--regularization", "0.005", "--thresholds", "all", "--cache-limit", "50"])
    err = capsys.readouterr().err
    hints = [line for line in err.splitlines() if line.startswith("treeopt: no certificate after")]
    assert len(hints) == 1
    assert "--depth-budget 3" in hints[0] and "--max-thresholds 8" in hints[0] and "--thresholds guess" in hints[0]


def test_a_shallow_budget_gets_no_hint(late_clock, noisy_csv, capsys):
    main(["fit", noisy_csv, "--target", "y", "--regularization", "0.005", "--thresholds", "all", "--cache-limit", "50",
          "--depth-budget", "3"])
    assert "no certificate after" not in capsys.readouterr().err

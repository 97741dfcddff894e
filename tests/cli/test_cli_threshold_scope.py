"""``treeopt fit`` over guessed thresholds: the headline and the exit code say what is certified."""

import numpy as np
import pandas as pd

from treeopt.cli import main
from treeopt.cli.exits import EXIT_GUESSED_THRESHOLDS, EXIT_OK


def _csv(tmp_path):
    rng = np.random.default_rng(1)
    frame = pd.DataFrame({"a": rng.normal(size=60).round(2), "b": rng.normal(size=60).round(2)})
    frame["y"] = ((frame["a"] > 0.3) ^ (frame["b"] < -0.2)).astype(int)
    path = tmp_path / "numeric.csv"
    frame.to_csv(path, index=False)
    return str(path)


def test_guessed_thresholds_exit_4_with_a_headline_that_says_so(tmp_path, capsys):
    code = main(["fit", _csv(tmp_path), "--target", "y", "--thresholds", "guess", "--random-state", "0",
                 "--regularization", "0.02"])
    out = capsys.readouterr().out
    headline = next(line for line in out.splitlines() if line.startswith("objective"))
    assert code == EXIT_GUESSED_THRESHOLDS != EXIT_OK
    assert "guessed thresholds only" in headline and "(certified optimal," not in headline
    assert "guarantee      thresholds:" in out


def test_all_thresholds_exit_0_certified_optimal(tmp_path, capsys):
    code = main(["fit", _csv(tmp_path), "--target", "y", "--thresholds", "all", "--regularization", "0.02"])
    assert code == EXIT_OK and "(certified optimal, gap 0)" in capsys.readouterr().out


def test_frontier_over_guessed_thresholds_exits_4_and_says_so(tmp_path, capsys):
    code = main(["frontier", _csv(tmp_path), "--target", "y", "--max-leaves", "4", "--thresholds", "guess"])
    out = capsys.readouterr().out
    assert code == EXIT_GUESSED_THRESHOLDS
    assert "certified over the guessed thresholds only" in out


def test_frontier_over_all_thresholds_exits_0(tmp_path, capsys):
    code = main(["frontier", _csv(tmp_path), "--target", "y", "--max-leaves", "4", "--thresholds", "all"])
    assert code == EXIT_OK and "guessed" not in capsys.readouterr().out


def test_cross_validated_frontier_over_guessed_thresholds_says_so(tmp_path, capsys):
    code = main(["frontier", _csv(tmp_path), "--target", "y", "--max-leaves", "3", "--cv", "3",
                 "--thresholds", "guess"])
    assert code == EXIT_GUESSED_THRESHOLDS
    assert "certified over the guessed thresholds only" in capsys.readouterr().out


def test_a_depth_budget_on_many_numeric_thresholds_searches_every_one_and_exits_0(tmp_path, capsys):
    """Above the guessing count, ``--depth-budget`` hands the numeric columns to the continuous solver
    (every threshold, as sorted values): certified over all thresholds, not over guessed ones."""
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({"a": rng.normal(size=300), "b": rng.normal(size=300)})       # 598 thresholds
    frame["y"] = ((frame["a"] > 0.3) ^ (frame["b"] < -0.2)).astype(int)
    path = tmp_path / "many.csv"
    frame.to_csv(path, index=False)
    code = main(["fit", str(path), "--target", "y", "--depth-budget", "2", "--regularization", "0.02"])
    out = capsys.readouterr().out
    assert code == EXIT_OK and "(certified optimal, gap 0)" in out and "guessed thresholds" not in out

"""``memory_limit`` on the frontier: a search that passes it stops with status ``memory_limit``, keeps
its certified points and resumes; a bad value or a table that cannot fit is refused before any search."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import treeopt.solvers.base as driver
from treeopt import cross_validate_frontier, frontier
from treeopt.memory import resident_memory

from frontier_memory import fake_memory_past

LIMIT = 10**12                     # far above any real process: only the fake reading below passes it


def _table(n_rows: int = 40, seed: int = 0):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame(rng.normal(size=(n_rows, 3)), columns=["a", "b", "c"])
    return X, (rng.random(n_rows) < 0.5).astype(int)


def _certified(table: pd.DataFrame) -> pd.DataFrame:
    return table.loc[table["certified"], ["leaves", "loss"]].reset_index(drop=True)


def test_a_frontier_past_its_memory_limit_keeps_its_certified_points_and_resumes(monkeypatch):
    X, y = _table()
    whole = frontier(X, y, depth_budget=3)
    assert whole.complete
    fake_memory_past(monkeypatch, LIMIT, solves=200)
    stopped = frontier(X, y, depth_budget=3, memory_limit=LIMIT)
    assert stopped.search.status == "memory_limit" and not stopped.complete
    kept = _certified(stopped.table)
    assert 1 <= len(kept) < len(whole.table)
    # every certified point is a point of the whole frontier, with the same loss
    pd.testing.assert_frame_equal(kept, whole.table[["leaves", "loss"]].iloc[:len(kept)].reset_index(drop=True))
    monkeypatch.setattr(driver, "resident_memory", resident_memory)
    stopped.search.run()
    assert stopped.search.status == "optimal"
    resumed = type(whole)(stopped.search)
    pd.testing.assert_frame_equal(resumed.table[["leaves", "loss", "certified"]],
                                  whole.table[["leaves", "loss", "certified"]])


def test_a_memory_limit_string_is_parsed_as_the_estimators_is():
    X, y = _table()
    front = frontier(X, y, depth_budget=1, memory_limit="1TB")
    assert front.complete and front.search.status == "optimal"
    with pytest.raises(ValueError, match="memory_limit must be a positive number of bytes"):
        frontier(X, y, depth_budget=1, memory_limit="lots")
    with pytest.raises(ValueError, match="memory_limit must be a positive number of bytes"):
        frontier(X, y, cv=3, memory_limit=0)


def test_a_binarized_table_that_cannot_fit_under_the_limit_is_refused_before_the_search():
    X, y = _table()
    with pytest.raises(ValueError, match="memory_limit="):
        frontier(X, y, depth_budget=1, memory_limit=resident_memory() // 2)


def test_each_cross_validated_fold_stops_at_the_memory_limit(monkeypatch):
    X, y = _table()
    fake_memory_past(monkeypatch, LIMIT, solves=50)
    with pytest.warns(UserWarning, match="memory_limit"):
        cvf = cross_validate_frontier(X, y, cv=3, max_leaves=8, memory_limit=LIMIT)
    assert {f.status for f in cvf.folds} == {"memory_limit"} and cvf.full.status == "memory_limit"
    assert not cvf.complete
    statuses = {status for i in range(cvf.n_splits) for status in cvf.table[f"split{i}_status"]}
    assert "memory_limit" in statuses


def test_a_fold_stopped_at_the_limit_leaves_the_next_fold_its_memory(tmp_path):
    """Real resident memory, in a fresh process running the folds one after another: a search stopped at
    the limit is collected before the next job, which then binarizes and searches instead of being
    refused for memory the stopped search no longer needs."""
    import subprocess
    import sys

    script = ("import warnings\n"
              "import numpy as np\n"
              "from treeopt import cross_validate_frontier\n"
              "from treeopt.memory import resident_memory\n"
              "rng = np.random.default_rng(0)\n"
              "X, y = rng.normal(size=(60, 3)), (rng.random(60) < 0.5).astype(int)\n"
              "warnings.simplefilter('ignore')\n"
              "cvf = cross_validate_frontier(X, y, cv=3, max_leaves=8, thresholds='all',\n"
              "                              memory_limit=resident_memory() + 40 * 10**6)\n"
              "print(sorted({f.status for f in cvf.folds}), cvf.full.status)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["['memory_limit']", "memory_limit"]

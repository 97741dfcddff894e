"""Running out of memory under an address-space limit (``ulimit -v``) ends the search with status ``memory``.

At the cap every allocation may fail, so the driver keeps a reserve of address space to give back
first (:mod:`treeopt.solvers.memory_reserve`) and stops just before the cap, where a BLAS may crash
the process instead of raising ``MemoryError``. These tests run fits in fresh processes with a low
``RLIMIT_AS``: each must end with status ``memory``, a tree and exit code 0 (3 from the command
line), never a traceback or a crash.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from treeopt import make_solver
from treeopt.datasets import load_monk
from treeopt.solvers import memory_reserve

resource = pytest.importorskip("resource")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/statm")

#: A GOSDT search whose memo outgrows the room left: parity of three columns among thirty, tiny λ.
SETUP = """
import json, resource, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
seed, room_mb, raw = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "raw"
rng = np.random.default_rng(seed)
X = (rng.random((500, 30)) < 0.5).astype(int)
y = (X[:, 0] ^ X[:, 1] ^ X[:, 2] ^ (rng.random(500) < 0.2)).astype(int)
if raw:      # no early stop: the search runs into the cap itself and gets MemoryError
    from treeopt.solvers import memory_reserve
    memory_reserve.AddressReserve.running_short = lambda self: False
np.ones((64, 64)) @ np.ones((64, 64))     # the BLAS maps its work buffer now, not at the cap
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))   # a crash is reported at once, without writing a core
import faulthandler   # a hang ends the child with every thread's stack, well before subprocess.run gives up
faulthandler.dump_traceback_later(150, exit=True)
def cap_address_space():
    with open("/proc/self/statm") as handle:
        mapped = int(handle.read().split()[0]) * resource.getpagesize()
    cap = mapped + room_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
"""

FIT = SETUP + """
from treeopt import OptimalTreeClassifier
cap_address_space()
clf = OptimalTreeClassifier(regularization=0.0005, solver="gosdt", time_limit=60).fit(X, y)
print(json.dumps({"status": clf.status_, "leaves": clf.tree_.n_leaves, "gap": clf.gap_,
                  "lower": clf.lower_bound_, "upper": clf.upper_bound_,
                  "accuracy": float((clf.predict(X) == y).mean())}))
"""

CLI = SETUP + """
import pandas as pd
from treeopt.cli.commands import main
frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])]).assign(y=y)
frame.to_csv(sys.argv[4], index=False)
cap_address_space()
sys.exit(main(["fit", sys.argv[4], "--target", "y", "--regularization", "0.0005", "--solver", "gosdt",
               "--json", sys.argv[5]]))
"""


#: One BLAS thread in the child: a thread pool's stacks and work buffers would take address space that
#: grows with the machine's cores, and a pool started at the cap may fail in ways no Python code sees.
SINGLE_THREADED = {name: "1" for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}


def _run(script, *args):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script), *map(str, args)],
                          capture_output=True, text=True, timeout=300, env={**os.environ, **SINGLE_THREADED})


def _no_crash(done):
    for sign in ("Traceback", "Fatal Python error", "SystemError", "Segmentation"):
        assert sign not in done.stderr, done.stderr[-3000:]
    assert done.returncode >= 0, f"killed by signal {-done.returncode}: {done.stderr[-3000:]}"


@pytest.mark.parametrize("seed, room_mb, mode", [(1, 80, "early"), (2, 120, "early"), (3, 80, "raw"),
                                                 (4, 120, "raw")])
def test_a_fit_at_the_address_space_cap_ends_with_status_memory(seed, room_mb, mode):
    done = _run(FIT, seed, room_mb, mode)
    _no_crash(done)
    assert done.returncode == 0, done.stderr[-3000:]
    fitted = json.loads(done.stdout.strip().splitlines()[-1])
    assert fitted["status"] == "memory"
    assert fitted["leaves"] >= 1 and 0 <= fitted["accuracy"] <= 1
    assert fitted["lower"] <= fitted["upper"] and fitted["gap"] == pytest.approx(fitted["upper"] - fitted["lower"])


def test_the_command_line_at_the_address_space_cap_writes_the_tree_and_exits_3(tmp_path):
    out = tmp_path / "fit.json"
    done = _run(CLI, 5, 100, "early", tmp_path / "data.csv", out)
    _no_crash(done)
    assert done.returncode == 3, done.stderr[-3000:]        # stopped before certifying (README's exit codes)
    written = json.loads(out.read_text())
    assert written["certificate"]["status"] == "memory" and not written["certificate"]["optimal"]
    assert "memory" in done.stdout


def test_running_short_reads_the_room_under_the_limit(monkeypatch):
    reserve = memory_reserve.AddressReserve(10**6)
    monkeypatch.setattr(memory_reserve, "address_space_room", lambda: 10**5)
    assert reserve.running_short()
    reserve._next_check = 0.0
    monkeypatch.setattr(memory_reserve, "address_space_room", lambda: 10**7)
    assert not reserve.running_short()
    reserve._next_check = 0.0
    monkeypatch.setattr(memory_reserve, "address_space_room", lambda: None)   # no limit
    assert not reserve.running_short()


@pytest.fixture(scope="module")
def monk2():
    return load_monk(2)


@pytest.mark.parametrize("built_before", [True, False])
def test_a_result_that_does_not_fit_is_built_after_freeing_the_search(monkeypatch, monk2, built_before):
    """When even the result runs out of memory, release() frees the search and keeps a smaller one:
    the last result built (its lower bound raised to the search's latest), or the single leaf."""
    X, y = monk2
    whole = make_solver(X, y, regularization=0.01).run()
    solver = make_solver(X, y, regularization=0.01)
    solver.run(node_limit=20)
    if built_before:
        earlier = solver.run(node_limit=40)
    else:
        solver._last_result = None
    lower = solver.lower_bound

    def out_of_memory():
        raise MemoryError

    solver._current_result = out_of_memory        # an instance attribute: release() drops it with the rest
    solver.release()
    kept = solver.result()
    assert solver.cache_size == 0 and solver.cannot_resume
    assert kept.lower_bound == pytest.approx(lower) and kept.lower_bound <= whole.objective + 1e-12
    assert kept.gap == pytest.approx(kept.upper_bound - kept.lower_bound) and not kept.optimal
    Xb = solver.dataset.binarizer.transform(X)
    assert kept.tree.objective(Xb, y, 0.01, binarized=True) == pytest.approx(kept.objective)
    if built_before:
        assert kept.tree.n_leaves == earlier.tree.n_leaves and kept.objective == earlier.objective
    else:
        assert kept.tree.n_leaves == 1

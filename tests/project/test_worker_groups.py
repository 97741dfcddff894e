"""``make test``'s workers: the groups of ``tests/worker_groups.py`` hold, and no run waits for ever.

The scheduler is driven here by stand-in workers that behave as xdist's do: a worker starts an
item only when it holds the next one or has been told to stop, and it leaves once told to stop
with nothing left. Whatever order the workers happen to finish their items in, every item runs
once, the site's group runs in its order in one worker, and the tests that run alone start only
after every other worker has left.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("xdist")

from worker_groups import SITE, GroupScheduling, group_of, runs_alone  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

COLLECTION = (
    [f"notebooks/00_glossary.ipynb::Cell {i}" for i in range(4)]
    + [f"tests/a/test_a.py::test_{i}" for i in range(7)]
    + ["tests/jupyter/test_browser.py::test_play"]
    + [f"tests/notebooks/player.ipynb::Cell {i}" for i in range(3)]
    + [f"tests/rashomon/test_rashomon_browser.py::test_{i}" for i in range(3)]
    + [f"tests/b/test_b.py::test_{i}[{j}]" for i in range(3) for j in range(2)]
    + [f"notebooks/01_why.ipynb::Cell {i}" for i in range(3)]
    + [f"tests/project/test_docs.py::test_{i}" for i in range(3)]
)


class Worker:
    """A stand-in for xdist's ``WorkerController`` and the worker process behind it."""

    def __init__(self, name: str):
        self.name = name
        self.gateway = SimpleNamespace(id=name)
        self.queue: list[int] = []
        self.told_to_stop = False
        self.left = False

    @property
    def shutting_down(self) -> bool:
        return self.told_to_stop or self.left

    def send_runtest_some(self, indices) -> None:
        assert not self.shutting_down, f"{self.name} was given work after it was told to stop"
        self.queue.extend(indices)

    def shutdown(self) -> None:
        self.told_to_stop = True

    def can_run(self) -> bool:
        return len(self.queue) >= 2 or (self.told_to_stop and bool(self.queue))


def _run(collection: list[str], n_workers: int, seed: int) -> list[tuple[str, str, int]]:
    """(worker, node id, workers alive) for each item run, in the order they ran."""
    config = SimpleNamespace(getvalue=lambda name: [f"{n_workers}*popen"] if name == "tx" else None,
                             option=SimpleNamespace(loadscopereorder=True))
    scheduler = GroupScheduling(config, log=SimpleNamespace(loadscopesched=lambda *args: None))
    workers = [Worker(f"gw{i}") for i in range(n_workers)]
    for worker in workers:
        scheduler.add_node(worker)
    for worker in workers:
        scheduler.add_node_collection(worker, collection)
    scheduler.schedule()
    rng, ran = random.Random(seed), []

    def shut_down_all_if_finished():
        if scheduler.tests_finished:
            for worker in scheduler.nodes:
                worker.shutdown()

    shut_down_all_if_finished()
    while True:
        for worker in workers:
            if worker.told_to_stop and not worker.queue and not worker.left:
                worker.left = True
                assert scheduler.remove_node(worker) is None
                shut_down_all_if_finished()
        ready = [worker for worker in workers if worker.can_run()]
        if not ready:
            break
        worker = rng.choice(ready)
        index = worker.queue.pop(0)
        ran.append((worker.name, collection[index], sum(not w.left for w in workers)))
        scheduler.mark_test_complete(worker, index)
        shut_down_all_if_finished()
    stuck = [(w.name, w.queue, w.told_to_stop) for w in workers if not w.left]
    assert not stuck, f"the run waits for ever: {stuck}"
    return ran


@pytest.mark.parametrize("n_workers", [1, 2, 3])
@pytest.mark.parametrize("seed", range(20))
def test_every_item_runs_once_in_its_group_and_the_lone_ones_after_the_others(n_workers, seed):
    ran = _run(COLLECTION, n_workers, seed)
    assert sorted(nodeid for _, nodeid, _ in ran) == sorted(COLLECTION)
    for group in {group_of(nodeid) for nodeid in COLLECTION}:
        runs = [(worker, nodeid) for worker, nodeid, _ in ran if group_of(nodeid) == group]
        assert len({worker for worker, _ in runs}) == 1, f"{group} ran in several workers"
        assert [nodeid for _, nodeid in runs] == [n for n in COLLECTION if group_of(n) == group], group
    first = {}
    for worker, nodeid, _ in ran:
        first.setdefault(worker, group_of(nodeid))
    assert SITE in first.values(), "the site's group is not the first work of a worker"
    alone = [alive for _, nodeid, alive in ran if runs_alone(group_of(nodeid))]
    assert alone and all(alive == 1 for alive in alone), "a lone test ran while another worker was busy"
    assert all(not runs_alone(group_of(nodeid)) for _, nodeid, _ in ran[:len(ran) - len(alone)])


@pytest.mark.parametrize("n_workers", [1, 2])
def test_a_run_of_lone_tests_only_ends(n_workers):
    only = [nodeid for nodeid in COLLECTION if runs_alone(group_of(nodeid))]
    assert sorted(n for _, n, _ in _run(only, n_workers, seed=0)) == sorted(only)


def test_the_site_group_holds_the_notebooks_and_the_site_tests_only():
    assert {nodeid for nodeid in COLLECTION if group_of(nodeid) == SITE} == \
        {n for n in COLLECTION if n.startswith(("notebooks/", "tests/project/test_docs.py"))}


def test_every_test_file_that_drives_chromium_runs_alone_or_with_the_site():
    """A browser test elsewhere would share the cores with the other worker (see worker_groups)."""
    pattern = re.compile("sync_" + "playwright")               # this file names it only in parts
    drives = [str(path.relative_to(ROOT)) for path in sorted((ROOT / "tests").rglob("test_*.py"))
              if pattern.search(path.read_text(encoding="utf-8"))]
    assert drives
    wrong = [path for path in drives if not runs_alone(path) and group_of(f"{path}::test") != SITE]
    assert not wrong, f"name these *browser.py (tests/worker_groups.py runs them alone): {wrong}"

"""Shared fixtures: paths to ../shared/datasets and readers for its files."""

from __future__ import annotations

import os
from pathlib import Path

import notebook_outputs
import pandas as pd
import pytest
from hypothesis import settings

SHARED = Path(os.environ.get("TREEOPT_SHARED", Path(__file__).resolve().parents[2] / "shared"))
DATASETS = SHARED / "datasets"

# Property tests: a bounded number of examples in CI, more when asked (HYPOTHESIS_PROFILE=thorough).
settings.register_profile("ci", max_examples=40, deadline=None, derandomize=True)
settings.register_profile("thorough", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def read_binary(name: str):
    """(X, y) of a dataset in shared/datasets/binary (';'-separated, last column = label)."""
    frame = pd.read_csv(DATASETS / "binary" / f"{name}.csv", sep=";")
    return frame.iloc[:, :-1], frame.iloc[:, -1]


@pytest.fixture(scope="module")
def monk():
    """monk 1 as a treeopt Dataset (the plug-in tests of every search share it)."""
    from treeopt.data import Dataset
    from treeopt.datasets import load_monk

    X, y = load_monk(1)
    return Dataset.from_arrays(X, y)


@pytest.fixture(scope="session")
def reference_optima() -> pd.DataFrame:
    path = DATASETS / "reference_optima.csv"
    if not path.exists():
        pytest.skip(f"{path} not found (set TREEOPT_SHARED)")
    return pd.read_csv(path)


def require_datasets():
    if not DATASETS.exists():
        pytest.skip(f"shared datasets not found at {DATASETS} (set TREEOPT_SHARED)")


def split_names(tree) -> set:
    """Display names of the features a :class:`~treeopt.tree.Tree` splits on (binary splits)."""
    from treeopt.tree import Split
    names, stack = set(), [tree.root]
    while stack:
        node = stack.pop()
        if isinstance(node, Split):
            names.add(tree.feature_name(node.feature))
            stack += [node.left, node.right]
    return names


def pytest_collection_modifyitems(session, config, items):
    """nbval's notebook outputs feed the docs build's cache, and the site is built after them."""
    notebook_outputs.install(items)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """With pytest-xdist (``-n``), a notebook's cells, and the site's tests with the notebooks they
    render, stay in one worker, and the real-browser tests run last, alone (``tests/worker_groups.py``)."""
    if config.getvalue("dist") in ("load", "loadgroup"):
        from worker_groups import GroupScheduling
        return GroupScheduling(config, log)
    return None

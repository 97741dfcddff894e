"""The dataset the plug-in tests of every search share: monk 1."""

from __future__ import annotations

import pytest

from treeopt.data import Dataset
from treeopt.datasets import load_monk


@pytest.fixture(scope="module")
def monk():
    X, y = load_monk(1)
    return Dataset.from_arrays(X, y)

"""Saved notebooks stay small and carry no widget-state blobs.

Widget state saved into a notebook holds plotly's JavaScript bundle once per
figure, which made notebooks tens of megabytes that show nothing offline.
"""

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
MAX_BYTES = 2 * 1024 * 1024


def test_notebooks_exist() -> None:
    assert NOTEBOOKS, "no notebooks found under notebooks/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_saved_notebook_is_small(path: Path) -> None:
    size = path.stat().st_size
    assert size <= MAX_BYTES, (
        f"{path.name} is {size / 1e6:.1f} MB; clear its widget state "
        "(Settings > Save Widget State Automatically off) and save again"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_saved_notebook_has_no_widget_state(path: Path) -> None:
    metadata = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
    assert "widgets" not in metadata, (
        f"{path.name} saves widget state in metadata.widgets; remove it so the "
        "notebook stays small and shows its static output"
    )

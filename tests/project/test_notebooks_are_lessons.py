"""The notebooks are a course: each reads as a lesson, and each exercise has a checked solution.

A teacher opens a notebook and looks first for what it teaches and how long it takes, so the first
markdown cell states its goals and an expected time in minutes. Each notebook asks the reader to
predict before key cells run, and ends with at least two exercises; every exercise is followed by a
solution cell (a code cell starting ``# Solution``, tagged ``solution``) that asserts its result,
so the notebook run of the suite (nbval) checks the solutions as it checks the claims. Notebooks
are committed without outputs or widget state, and notebooks 01 to 03 fit one 50-minute class.
The notebooks are read as JSON here; running them is nbval's job.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
EXERCISE = re.compile(r"^#+\s*Exercise\b", re.MULTILINE)
MINUTES = re.compile(r"Expected time:?\**\s*(\d+)\s*minutes", re.IGNORECASE)
ONE_CLASS = ("01_", "02_", "03_")
CLASS_MINUTES = 50
GLOSSARY_TERMS = ["support", "subproblem", "leaf", "split", "threshold", "λ", "objective", "incumbent",
                  "upper bound", "lower bound", "gap", "certificate", "queue", "priority",
                  "equivalent points", "similar support", "depth budget", "search order",
                  "first incumbent", "subsolver"]


def _cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell: dict) -> str:
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def _expected_minutes(path: Path) -> int:
    first = next(_source(c) for c in _cells(path) if c["cell_type"] == "markdown")
    match = MINUTES.search(first)
    assert match, f"{path.name}: the first markdown cell needs 'Expected time: N minutes'"
    return int(match.group(1))


def test_there_are_notebooks_to_check():
    assert len(NOTEBOOKS) >= 10, [p.name for p in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_first_cell_states_goals_and_time(path):
    first = next(_source(c) for c in _cells(path) if c["cell_type"] == "markdown")
    assert "Goals" in first, f"{path.name}: the first markdown cell must list the lesson's Goals"
    assert 0 < _expected_minutes(path) <= CLASS_MINUTES


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_reader_predicts_before_running(path):
    if path.name.startswith("00_"):
        pytest.skip("the glossary defines words; it has no experiment to predict")
    prompts = [c for c in _cells(path) if c["cell_type"] == "markdown" and "Predict, then" in _source(c)]
    assert prompts, f"{path.name}: add a 'Predict, then run' prompt before a key cell"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_exercise_has_an_asserting_solution(path):
    cells = _cells(path)
    starts = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and EXERCISE.search(_source(c))]
    assert len(starts) >= 2, f"{path.name}: needs at least two '### Exercise' headings, has {len(starts)}"
    for start, end in zip(starts, starts[1:] + [len(cells)]):
        title = _source(cells[start]).splitlines()[0]
        solutions = [c for c in cells[start + 1:end] if c["cell_type"] == "code"
                     and _source(c).lstrip().startswith("# Solution")]
        assert solutions, f"{path.name}: {title!r} has no '# Solution' code cell after it"
        for cell in solutions:
            assert "solution" in cell.get("metadata", {}).get("tags", []), f"{path.name}: tag {title!r}'s solution"
            assert re.search(r"^\s*assert\b", _source(cell), re.MULTILINE), \
                f"{path.name}: {title!r}'s solution must assert its result"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_without_outputs_or_widget_state(path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    assert "widgets" not in notebook.get("metadata", {}), f"{path.name}: strip metadata.widgets"
    with_output = [i for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "code" and c.get("outputs")]
    assert not with_output, f"{path.name}: clear the outputs of cells {with_output}"


def test_first_three_notebooks_fit_one_class():
    lessons = [p for p in NOTEBOOKS if p.name.startswith(ONE_CLASS)]
    assert len(lessons) == len(ONE_CLASS)
    total = sum(_expected_minutes(p) for p in lessons)
    assert total <= CLASS_MINUTES, f"01-03 take {total} minutes, more than a {CLASS_MINUTES}-minute class"


def test_glossary_defines_the_course_words():
    glossary = next(p for p in NOTEBOOKS if p.name.startswith("00_"))
    headings = " ".join(_source(c).splitlines()[0].lower() for c in _cells(glossary)
                        if c["cell_type"] == "markdown" and _source(c).startswith("## "))
    missing = [term for term in GLOSSARY_TERMS if term.lower() not in headings]
    assert not missing, f"the glossary has no heading for {missing}"

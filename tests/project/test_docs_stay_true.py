"""Docstrings and comments say what and why; measurements live in ``benchmarks/results*.md``.

A timing written into a docstring goes stale with the next change, and a work-log word (an issue or
session number) means nothing to a reader of the code. The package's docstrings and comments carry
neither; tests, test names and results files carry no work-log words. Doctest output is exempt
(it is checked by running it), and so is text inside double backticks (an API value such as
``"2GB"``).
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WORK_LOG = re.compile(r"\b(?:issue|session|round)\s+#?\d+", re.IGNORECASE)
MEASUREMENT = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:s|ms|µs|us|MB|GB|KB|x|×)(?!\w)")
LITERAL = re.compile(r"``.*?``")


def _prose(path: Path):
    """(line number, text) of every comment and docstring line, without doctest examples or output."""
    tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
    for token in tokens:
        if token.type == tokenize.COMMENT:
            yield token.start[0], token.string
        elif token.type == tokenize.STRING and token.string.lstrip("rbuRBU").startswith(('"""', "'''")):
            in_example = False
            for offset, line in enumerate(token.string.splitlines()):
                stripped = line.strip()
                if stripped.startswith((">>>", "...")):
                    in_example = True
                    continue
                if in_example and stripped:            # the example's expected output
                    continue
                in_example = False
                yield token.start[0] + offset, line


def _python_files(*folders: str) -> list:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def _hits(paths, pattern) -> list:
    found = []
    for path in paths:
        for number, line in _prose(path):
            if pattern.search(LITERAL.sub("", line)):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_package_prose_holds_no_measurements_or_work_log_words():
    hits = _hits(_python_files("treeopt", "widgets"), MEASUREMENT) \
        + _hits(_python_files("treeopt", "widgets"), WORK_LOG)
    assert not hits, "move these to benchmarks/results*.md (with the command) or say what and why:\n" + \
        "\n".join(hits)


def test_tests_and_results_hold_no_work_log_words():
    hits = _hits(_python_files("tests"), WORK_LOG)
    names = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in _python_files("tests")
             for m in re.finditer(r"def (test\w*(?:issue|session|round)_?\d+\w*)", p.read_text(encoding="utf-8"))]
    results = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}" for p in sorted((ROOT / "benchmarks").glob("results*.md"))
               for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if WORK_LOG.search(line)]
    assert not hits + names + results, "\n".join(hits + names + results)


#: Built from parts so that this file itself names no issue: the test feeds the pattern the text it
#: must catch.
LOG_WORD = "issue"


@pytest.mark.parametrize("line, flagged", [
    ("# about 7 µs a call", True),
    ("    took 3.8 s instead of 25.7 s", True),
    ("    1.5x slower", True),
    ('    a string such as ``"2GB"``', False),
    ("    λ = 0.02 and 15,310 features", False),
    (f"    see {LOG_WORD} 13", True),
    (f"    {LOG_WORD} #18's targets", True),
])
def test_the_patterns_catch_what_they_name(line, flagged):
    text = LITERAL.sub("", line)
    assert bool(MEASUREMENT.search(text) or WORK_LOG.search(text)) is flagged

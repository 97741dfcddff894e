"""``benchmarks/compare_commits.py``: its report finds a changed optimum and weighs short fits fairly."""

from __future__ import annotations

import math
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import compare_commits  # noqa: E402  (a script folder, not a package)


def _row(suite, name, before_cpu, after_cpu, before_objective=0.5, after_objective=0.5, certified=(True, True)):
    return {"suite": suite, "solver": "treeopt", "name": name, "lambda": 0.01,
            "before_cpu": before_cpu, "after_cpu": after_cpu, "before_certified": certified[0],
            "after_certified": certified[1], "before_objective": before_objective,
            "after_objective": after_objective, "before_error": None, "after_error": None}


def _suite_line(text: str, suite: str) -> list[str]:
    line = next(line for line in text.splitlines() if line.startswith(f"| {suite} |"))
    return [cell.strip() for cell in line.strip("|").split("|")]


def test_the_report_takes_the_geometric_mean_with_short_fits_at_the_floor():
    rows = [_row("narrow", "a", 1.0, 2.0), _row("narrow", "b", 2.0, 1.0), _row("narrow", "c", 0.001, 0.05)]
    cells = _suite_line(compare_commits.report(rows, floor=0.1, command="x"), "narrow")
    assert cells[1] == "3" and float(cells[3]) == 1.0          # 2 × 0.5 × (0.1 / 0.1)
    cells = _suite_line(compare_commits.report(rows, floor=0.001, command="x"), "narrow")
    assert math.isclose(float(cells[3]), 50 ** (1 / 3), rel_tol=1e-3)


def test_the_report_names_a_different_optimum_and_a_lost_certificate():
    rows = [_row("contree", "a", 1.0, 1.0, 0.25, 0.5), _row("contree", "b", 1.0, 9.0, certified=(True, False))]
    text = compare_commits.report(rows, floor=0.1, command="x")
    assert "**different optimum** 0.2500000000 / 0.5000000000" in text
    assert "certified before True, after False" in text
    assert _suite_line(text, "contree")[2] == "0 / 1"


def test_every_job_names_a_suite_script_the_benchmarks_folder_holds():
    scripts = {job[1] for job in compare_commits.jobs({"narrow", "contree", "wide"})}
    assert scripts == {"run.py", "contree_bench.py", "wide_bench.py"}
    assert all((BENCHMARKS / script).is_file() for script in scripts)

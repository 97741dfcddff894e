"""OSDT against GOSDT and the reference optima on every row of reference_optima.csv (binary, problem R).

For each (dataset, λ): run treeopt's OSDT with a time limit (default 300 s);
when it certifies, its objective (recomputed from the tree's predictions)
must equal the reference optimum and GOSDT's to 1e-9. Rows OSDT does not
certify in time are reported as such (with the gap), not counted as errors.

Run by hand: ``.venv/bin/python benchmarks/osdt_vs_gosdt.py [seconds] [dataset ...]``.
Prints a table and exits non-zero on any disagreement.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from treeopt.data import Dataset
from treeopt.solvers import GOSDT, OSDT

DATASETS = Path(__file__).resolve().parents[2] / "shared" / "datasets"


def main(limit: float = 300.0, names=None) -> int:
    reference = pd.read_csv(DATASETS / "reference_optima.csv")
    rows = reference[(reference.problem == "R") & reference.file.str.startswith("binary/")]
    if names:
        rows = rows[rows.dataset.isin(names)]
    report, failures = [], 0
    for _, row in rows.iterrows():
        frame = pd.read_csv(DATASETS / row.file, sep=";")
        X, y = frame.iloc[:, :-1], frame.iloc[:, -1]
        dataset = Dataset.from_binary(X, y)
        start = time.perf_counter()
        osdt = OSDT(dataset, regularization=row["lambda"], warm_start="cart").run(time_limit=limit)
        osdt_time = time.perf_counter() - start
        recomputed = osdt.tree.objective(X, y, row["lambda"], binarized=True)
        entry = {"dataset": row.dataset, "lambda": row["lambda"], "reference": row.reference_objective,
                 "osdt_status": osdt.status, "osdt_s": round(osdt_time, 2), "osdt_objective": recomputed,
                 "osdt_gap": osdt.gap}
        if osdt.optimal:
            gosdt = GOSDT(dataset, regularization=row["lambda"]).run(time_limit=limit)
            entry["gosdt_objective"] = gosdt.objective if gosdt.optimal else np.nan
            agree = abs(recomputed - row.reference_objective) <= 1e-9 and \
                (not gosdt.optimal or abs(gosdt.objective - recomputed) <= 1e-9)
            entry["agree"] = agree
            failures += not agree
        report.append(entry)
        print(entry, flush=True)
    table = pd.DataFrame(report)
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(table.to_string(index=False))
    print(f"{int(table.osdt_status.eq('optimal').sum())}/{len(table)} certified within {limit} s; "
          f"{failures} disagreement(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    args = sys.argv[1:]
    seconds = float(args[0]) if args and args[0].replace(".", "", 1).isdigit() else 300.0
    sys.exit(main(seconds, [a for a in args if not a.replace(".", "", 1).isdigit()] or None))

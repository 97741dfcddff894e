"""OSDT per-bound ablation (thesis Table 6.2) on compas-binary at λ = 0.005, cold start, curiosity.

Run by hand: ``.venv/bin/python benchmarks/osdt_ablation_compas.py [seconds per row] [--memory]``.
Writes ``benchmarks/osdt_ablation_compas.csv``; the numbers are discussed in ``benchmarks/results_osdt.md``.
"""

import sys
from pathlib import Path

import pandas as pd

from treeopt import ablation
from treeopt.data import Dataset

SHARED = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "binary" / "compas-binary.csv"


def main(limit: float = 600.0, memory: bool = False) -> pd.DataFrame:
    """Times without tracemalloc (it slows this search ~30x); ``memory=True`` adds the peak-memory column."""
    frame = pd.read_csv(SHARED, sep=";")
    dataset = Dataset.from_binary(frame.iloc[:, :-1], frame.iloc[:, -1])
    table = ablation(dataset, regularization=0.005, schedule="curiosity", time_limit=limit,
                     memory_limit_mb=4096 if memory else None, measure_memory=memory,
                     progress=lambda row: print(row, flush=True))
    table.to_csv(Path(__file__).with_name("osdt_ablation_compas.csv"), index=False)
    with pd.option_context("display.width", 250, "display.max_columns", 20):
        print(table.to_string(index=False))
    return table


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 600.0, memory="--memory" in sys.argv)

"""The ``treeopt ablation`` command: OSDT's per-bound ablation (thesis Table 6.2) of a CSV file."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from ..data import Dataset
from ..regularization import DEFAULT_REGULARIZATION
from ..ablations import ablation
from ..solvers.osdt.schedules import SCHEDULES
from .messages import in_flags
from .outputs import STDOUT, check_output, write_output
from .tables import read_table

__all__ = ["add_cli_arguments", "run_cli"]


def add_cli_arguments(parser) -> None:
    """Arguments of ``treeopt ablation``."""
    parser.add_argument("csv", help="CSV file with a header row (0/1 features are used as they are; "
                                    "other columns are binarized)")
    parser.add_argument("--target", default=None, help="label column (default: the last column)")
    parser.add_argument("--sep", default=None, help="column separator (default: sniffed)")
    parser.add_argument("--regularization", type=float, default=DEFAULT_REGULARIZATION,
                        help=f"λ (default {DEFAULT_REGULARIZATION}, as every front end; the thesis's table used 0.005)")
    parser.add_argument("--schedule", default="curiosity", choices=list(SCHEDULES),
                        help="queue policy (default curiosity)")
    parser.add_argument("--bounds", default=None,
                        help="comma-separated bounds to switch off one at a time (default: Table 6.2's five)")
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per row (default 60)")
    parser.add_argument("--memory-limit", type=float, default=None, help="traced MB per row")
    parser.add_argument("--no-memory", action="store_true", help="do not trace memory (faster rows)")
    parser.add_argument("--output", default=None, metavar="FILE",
                        help="also write the table to this CSV file ('-': to stdout, and the printed table to stderr)")


def run_cli(args) -> int:
    """Run ``treeopt ablation``: print Table 6.2 for the file."""
    check_output(args.output, [args.csv], "--output")
    X, y = read_table(args.csv, args.target, args.sep)
    try:
        if np.isin(X.to_numpy(), [0, 1]).all():
            dataset = Dataset.from_binary(X, y)
        else:
            dataset = Dataset.from_arrays(X, y)
        bounds = None if args.bounds is None else [b.strip() for b in args.bounds.split(",") if b.strip()]
        print(f"OSDT per-bound ablation: {dataset.describe()}, λ = {args.regularization}, "
              f"schedule {args.schedule}, {args.time_limit} s per row", file=sys.stderr)

        def report(row):
            print(f"  {row['variant']:<32} {row['status']:<24} {row['total_time_s']:9.2f} s "
                  f"{row['trees_evaluated']:>12} trees", file=sys.stderr)

        table = ablation(dataset, regularization=args.regularization, schedule=args.schedule, bounds=bounds,
                         time_limit=args.time_limit, memory_limit_mb=args.memory_limit,
                         measure_memory=not args.no_memory, progress=report)
    except (ValueError, TypeError) as error:
        raise SystemExit(f"treeopt: {in_flags(str(error), args)}")
    out = sys.stderr if args.output == STDOUT else sys.stdout      # stdout carries the CSV
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(table.to_string(index=False, float_format=lambda v: f"{v:.4g}"), file=out)
    if args.output:
        write_output(args.output, table.to_csv(index=False), "--output")
        if args.output != STDOUT:
            print(f"table written to {args.output}", file=out)
    return 0

"""``treeopt frontier data.csv --target y --max-leaves 20``: the frontier from the command line.

Prints one line per frontier tree (leaves, training accuracy, held-out
accuracy if ``--test`` is given, the λ interval on which it is optimal) and,
with ``--show LEAVES`` or ``--regularization λ``, the rules of one tree.

Examples
--------
>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "xor.csv")
>>> _ = open(path, "w").write("a,b,y\\n" + "0,0,0\\n0,1,1\\n1,0,1\\n1,1,0\\n" * 3)
>>> from treeopt.cli import main
>>> main(["frontier", path, "--target", "y", "--max-leaves", "4"])
leaves  accuracy  lambda_min  lambda_max  certified
     1    0.5000      0.1667         inf       True
     3    0.7500           -           -       True
     4    1.0000      0.0000      0.1667       True
<BLANKLINE>
complete frontier up to 4 leaves: every λ >= 0 has its certified optimum above.
0
"""

from __future__ import annotations

import math
import sys
import time

from ..frontier.result import frontier
from .exits import EXIT_OK, exit_code
from .outputs import check_output, write_output
from .tables import read_table

__all__ = ["add_cli_arguments", "run_cli"]


def add_cli_arguments(parser) -> None:
    """Arguments of ``treeopt frontier``."""
    parser.add_argument("csv", help="CSV file with a header row")
    parser.add_argument("--target", required=True, help="name of the label column")
    parser.add_argument("--max-leaves", type=int, default=20, help="largest tree on the frontier (default 20)")
    parser.add_argument("--min-regularization", type=float, default=None,
                        help="only certify trees optimal for some λ at or above this (faster on large data)")
    parser.add_argument("--objective", default="accuracy",
                        help="accuracy, balanced_accuracy or weighted_accuracy (default accuracy)")
    parser.add_argument("--omega", type=float, default=None, help="weighted_accuracy: weight of a false negative")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds")
    parser.add_argument("--cache-limit", type=int, default=None,
                        help="memory cap: stop once the search holds more than this many subproblems")
    parser.add_argument("--max-thresholds", type=int, default=None,
                        help="cap threshold features per numeric column")
    parser.add_argument("--test", default=None, help="held-out CSV with the same columns: adds test accuracy")
    parser.add_argument("--sep", default=None, help="column separator (default: sniffed)")
    parser.add_argument("--show", type=int, default=None, metavar="LEAVES",
                        help="print the rules of the best tree with at most this many leaves")
    parser.add_argument("--regularization", type=float, default=None,
                        help="print the rules of the optimal tree for this λ")
    parser.add_argument("--output", default=None, help="write the frontier table to this CSV file")


def _fmt_lambda(value: float) -> str:
    if math.isnan(value):
        return "-"
    return "inf" if math.isinf(value) else f"{value:.4f}"


def run_cli(args, out=None) -> int:
    """Run ``treeopt frontier`` with parsed ``args``; print to ``out`` (default stdout)."""

    out = sys.stdout if out is None else out
    check_output(args.output, [args.csv, args.test], "--output")
    X, y = read_table(args.csv, args.target, args.sep)
    X_test = y_test = None
    if args.test:
        X_test, y_test = read_table(args.test, args.target, args.sep)
    start = time.perf_counter()
    try:
        front = frontier(X, y, max_leaves=args.max_leaves, objective=args.objective, omega=args.omega,
                         min_regularization=args.min_regularization, time_limit=args.time_limit,
                         cache_limit=args.cache_limit,
                         max_thresholds=args.max_thresholds, X_test=X_test, y_test=y_test)
    except (ValueError, TypeError) as error:
        raise SystemExit(f"treeopt: {error}")
    elapsed = time.perf_counter() - start
    table = front.table
    extra = [c for c in table.columns if c.endswith("_accuracy")]
    header = ["leaves", "accuracy"] + extra + ["lambda_min", "lambda_max", "certified"]
    widths = [max(6, len(h)) for h in header]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)), file=out)
    for _, row in table.iterrows():
        cells = [str(int(row["leaves"])), f"{row['accuracy']:.4f}"] + [f"{row[c]:.4f}" for c in extra] + \
            [_fmt_lambda(row["lambda_min"]), _fmt_lambda(row["lambda_max"]), str(bool(row["certified"]))]
        print("  ".join(c.rjust(w) for c, w in zip(cells, widths)), file=out)
    print("", file=out)
    bound = front.min_certified_regularization
    state = "complete frontier" if front.complete else \
        f"search stopped ({front.search.status}) with budgets up to {front.certified_leaves} leaves certified"
    print(f"{state} up to {front.max_leaves} leaves: every λ >= {bound:.6g} has its certified optimum above.",
          file=out)
    if elapsed >= 1.0:
        print(f"time {elapsed:.2f} s, {front.search.expansions} expansions", file=out)
    if args.show is not None or args.regularization is not None:
        try:
            if args.regularization is not None:
                tree = front.tree_for(regularization=args.regularization)
                what = f"optimal tree for λ = {args.regularization:g}"
            else:
                tree = front.tree_for(leaves=args.show)
                what = f"best tree with at most {args.show} leaves"
        except ValueError as error:
            raise SystemExit(f"treeopt: {error}")
        print(f"\n{what} ({tree.n_leaves} leaves):", file=out)
        print(tree.rules(), file=out)
    if args.output:
        write_output(args.output, table.to_csv(index=False))
        print(f"frontier written to {args.output}", file=out)
    return EXIT_OK if front.complete else exit_code(front.search.status)

"""``treeopt frontier data.csv --target y --max-leaves 20``: the frontier from the command line.

Prints one line per frontier tree (leaves, training accuracy, held-out
accuracy if ``--test`` is given, the λ interval on which it is optimal) and,
with ``--show LEAVES`` or ``--regularization λ``, the rules of one tree.

With ``--cv K`` it cross-validates the frontier instead
(:func:`~treeopt.cross_validate_frontier`, ``K`` folds run in ``--jobs``
processes): one line per interval of λ on which every fold keeps the same
tree, with the mean and standard deviation of the validation score, whether
every fold's tree is certified, and the chosen λ (best mean, and by the
one-standard-error rule) with its tree fitted on all the data.

``--thresholds`` encodes numeric columns as ``treeopt fit`` does (default ``auto``: every threshold,
or guessed ones above 256). A frontier over guessed thresholds is certified over those only: the
report says so and the exit code is 4, not 0 (:mod:`treeopt.cli.exits`).

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

With ``--depth-budget D`` the frontier keeps trees of depth at most D, and its last tree is the
most accurate one (λ = 0). One split cannot separate an XOR:

>>> main(["frontier", path, "--target", "y", "--depth-budget", "1", "--regularization", "0"])
leaves  accuracy  lambda_min  lambda_max  certified
     1    0.5000      0.0000         inf       True
<BLANKLINE>
complete frontier up to 2 leaves: every λ >= 0 has its certified optimum above.
<BLANKLINE>
optimal tree for λ = 0 (1 leaves):
predict 0  (counts: 0=6, 1=6)
0
>>> main(["frontier", path, "--target", "y", "--max-leaves", "4", "--cv", "3"])  # doctest: +NORMALIZE_WHITESPACE
lambda_min  lambda_max  leaves  mean_score  std_score  certified  folds  choice
    0.1667         inf       1      0.5000     0.0000       True    3/3
    0.0000      0.1667       4      1.0000     0.0000       True    3/3  best, one_se
<BLANKLINE>
3-fold cross-validated accuracy; every fold's search finished.
chosen λ = 0.08333 (best mean accuracy 1.0000 ± 0.0000): 4 leaves
one-standard-error λ = 0.08333: 4 leaves
<BLANKLINE>
tree for λ = 0.08333, fitted on all the data (4 leaves):
if a:
    if b:
        predict 0  (counts: 0=3, 1=0)
    else:  # not (b)
        predict 1  (counts: 0=0, 1=3)
else:  # not (a)
    if b:
        predict 1  (counts: 0=0, 1=3)
    else:  # not (b)
        predict 0  (counts: 0=3, 1=0)
0
"""

from __future__ import annotations

import math
import sys
import time
import warnings
from contextlib import contextmanager

from ..frontiers import cross_validate_frontier
from ..frontiers import frontier
from .exits import EXIT_GUESSED_THRESHOLDS, EXIT_INTERRUPTED, EXIT_OK, EXIT_UNCERTIFIED, exit_code
from .messages import in_flags
from .outputs import STDOUT, check_output, write_output
from .tables import ReadingTimeout, read_table, remaining_time

__all__ = ["add_cli_arguments", "run_cli"]


def add_cli_arguments(parser) -> None:
    """Arguments of ``treeopt frontier``."""
    parser.add_argument("csv", help="CSV file with a header row")
    parser.add_argument("--target", required=True, help="name of the label column")
    parser.add_argument("--max-leaves", type=int, default=None,
                        help="largest tree on the frontier (default 20, or 2**D with --depth-budget D)")
    parser.add_argument("--depth-budget", type=int, default=None, metavar="D",
                        help="keep trees of depth at most D: the last one is then the most accurate (λ = 0)")
    parser.add_argument("--min-regularization", type=float, default=None,
                        help="only certify trees optimal for some λ at or above this (faster on large data)")
    parser.add_argument("--objective", default="accuracy",
                        choices=["accuracy", "balanced_accuracy", "weighted_accuracy"],
                        help="accuracy, balanced_accuracy or weighted_accuracy (default accuracy)")
    parser.add_argument("--omega", type=float, default=None, help="weighted_accuracy: weight of a false negative")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds for the whole command: reading the CSV files, binarizing and the search "
                             "(default: no limit); the trees certified so far are printed")
    parser.add_argument("--cache-limit", type=int, default=None,
                        help="memory cap: stop once the search holds more than this many subproblems")
    parser.add_argument("--memory-limit", default=None,
                        help="cap on the process's resident memory, e.g. 2GB or 512MiB: stop once it is "
                             "exceeded; the trees certified so far are printed (with --cv, each fold's process "
                             "checks its own)")
    parser.add_argument("--max-thresholds", type=int, default=None,
                        help="cap threshold features per numeric column")
    parser.add_argument("--thresholds", choices=["auto", "all", "quantile", "guess"], default="auto",
                        help="numeric columns: every midpoint, quantiles, or guessed from a boosted model "
                             "(McTavish et al. 4.1); auto (default): all, or guessed above 256 thresholds. A "
                             "frontier certified over guessed thresholds exits with 4, not 0")
    parser.add_argument("--test", default=None, help="held-out CSV with the same columns: adds test accuracy")
    parser.add_argument("--sep", default=None, help="column separator (default: sniffed)")
    parser.add_argument("--missing", choices=["error", "indicator"], default="error",
                        help="empty cells: refuse them (default) or add a feature '<column> is missing'")
    parser.add_argument("--show", type=int, default=None, metavar="LEAVES",
                        help="print the rules of the best tree with at most this many leaves")
    parser.add_argument("--regularization", type=float, default=None,
                        help="print the rules of the optimal tree for this λ")
    parser.add_argument("--output", default=None, metavar="FILE",
                        help="write the frontier table to this CSV file ('-': to stdout, and the report to stderr)")
    parser.add_argument("--cv", type=int, default=None, metavar="K",
                        help="cross-validate the frontier with K stratified folds and print the chosen λ")
    parser.add_argument("--jobs", type=int, default=None,
                        help="with --cv: folds searched in parallel processes (default 1; -1: every core)")
    parser.add_argument("--scoring", default=None,
                        help="with --cv: a scikit-learn scorer name (default accuracy)")
    parser.add_argument("--selection", choices=["best", "one_se"], default="best",
                        help="with --cv: the λ with the best mean score (default) or by the one-standard-error rule")


@contextmanager
def _warnings_in_flags(args):
    """Print the library's warnings on stderr in the command's flags (``max_thresholds=k`` becomes
    ``--max-thresholds k``); a ``ConvergenceWarning`` is left out, since the report states how the search
    stopped."""
    from sklearn.exceptions import ConvergenceWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        finally:
            for warning in caught:
                if not issubclass(warning.category, ConvergenceWarning):
                    print(f"treeopt: {in_flags(str(warning.message), args)}", file=sys.stderr)


def _fmt_lambda(value: float) -> str:
    if math.isnan(value):
        return "-"
    return "inf" if math.isinf(value) else f"{value:.4f}"


def _memory_limit_hint(args, whose: str, searches: str) -> str:
    """The line that says ``whose`` memory passed ``--memory-limit`` and what certifies more."""
    return (f"{whose} passed --memory-limit {args.memory_limit}: raise it, or cap the {searches} with "
            "--cache-limit or --min-regularization, to certify more.")


def run_cli(args, out=None) -> int:
    """Run ``treeopt frontier`` with parsed ``args``; print to ``out`` (default stdout, stderr with ``--output -``).

    Ctrl-C or SIGTERM during the search prints and writes the frontier certified so far (exit 130/143);
    during the setup (binarizing), the single leaf, uncertified, with one line saying so (exit 130/143).
    """

    out = (sys.stderr if args.output == STDOUT else sys.stdout) if out is None else out
    check_output(args.output, [args.csv, args.test], "--output")
    start = time.perf_counter()
    deadline = None if args.time_limit is None else start + args.time_limit
    try:
        X, y = read_table(args.csv, args.target, args.sep, deadline=deadline)
        X_test = y_test = None
        if args.test:
            X_test, y_test = read_table(args.test, args.target, args.sep, deadline=deadline)
    except ReadingTimeout as error:
        print(f"treeopt: {error}", file=sys.stderr)
        return EXIT_UNCERTIFIED
    if args.cv is not None:
        return _run_cv(args, X, y, out, remaining_time(deadline))
    interrupted = False
    try:
        with _warnings_in_flags(args):
            front = frontier(X, y, max_leaves=args.max_leaves, objective=args.objective, omega=args.omega,
                             min_regularization=args.min_regularization, time_limit=remaining_time(deadline),
                             cache_limit=args.cache_limit, memory_limit=args.memory_limit, missing=args.missing,
                             max_thresholds=args.max_thresholds, thresholds=args.thresholds,
                             X_test=X_test, y_test=y_test,
                             depth_budget=args.depth_budget)
    except (ValueError, TypeError) as error:
        raise SystemExit(f"treeopt: {in_flags(str(error), args)}")
    except KeyboardInterrupt as stop:
        front = getattr(stop, "frontier", None)
        if front is None:
            raise                                          # before the search: main() says so
        interrupted = True
        if X_test is not None:
            front.evaluate(X_test, y_test, "test")
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
    line = f"{state} up to {front.max_leaves} leaves: every λ >= {bound:.6g} has its certified optimum above."
    if front.search.status == "memory_limit":
        line += "\n" + _memory_limit_hint(args, "the process's resident memory", "search")
    if front.over_guessed_thresholds:
        line += ("\ncertified over the guessed thresholds only, NOT over all thresholds (--thresholds all "
                 "searches them all).")
    if front.setup_stopped is not None and interrupted:     # the single leaf, nothing certified
        line = ("interrupted while binarizing, before any search: the single leaf only, uncertified; run the "
                "command again to search.")
    elif front.setup_stopped is not None:                  # warned: the single leaf, nothing certified
        line = ("the time limit ran out while binarizing, before any search: the single leaf only, uncertified; "
                "raise --time-limit, or binarize less with --max-thresholds.")
    print(line, file=out)
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
            raise SystemExit(f"treeopt: {in_flags(str(error), args)}")
        print(f"\n{what} ({tree.n_leaves} leaves):", file=out)
        print(tree.rules(), file=out)
    if args.output:
        write_output(args.output, table.to_csv(index=False), "--output")
        if args.output != STDOUT:
            print(f"frontier written to {args.output}", file=out)
    if interrupted:
        return EXIT_INTERRUPTED
    if not front.complete:
        return exit_code(front.search.status)
    return EXIT_GUESSED_THRESHOLDS if front.over_guessed_thresholds else EXIT_OK


def _run_cv(args, X, y, out, time_limit) -> int:
    """``treeopt frontier --cv K``: the cross-validated table, the chosen λ and its tree."""

    if args.test or args.show is not None or args.regularization is not None:
        raise SystemExit("treeopt: --cv chooses λ itself; drop --test, --show and --regularization.")
    if args.depth_budget is not None:
        raise SystemExit("treeopt: --depth-budget applies to a single frontier; drop it with --cv.")
    if args.cv < 2:
        raise SystemExit(f"treeopt: --cv needs at least 2 folds, got {args.cv}.")
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")          # the status line below reports stopped folds
            cvf = cross_validate_frontier(X, y, cv=args.cv, max_leaves=args.max_leaves or 20, objective=args.objective,
                                          omega=args.omega, min_regularization=args.min_regularization,
                                          time_limit=time_limit, cache_limit=args.cache_limit,
                                          memory_limit=args.memory_limit,
                                          max_thresholds=args.max_thresholds, thresholds=args.thresholds,
                                          scoring=args.scoring,
                                          n_jobs=args.jobs, missing=args.missing)
    except (ValueError, TypeError) as error:
        raise SystemExit(f"treeopt: {in_flags(str(error), args)}")
    elapsed = time.perf_counter() - start
    table = cvf.table
    header = ["lambda_min", "lambda_max", "leaves", "mean_score", "std_score", "certified", "folds", "choice"]
    widths = [10, 10, 6, 10, 9, 9, 5, 0]
    print("  ".join(h.rjust(w) for h, w in zip(header, widths)), file=out)
    for _, row in table.iterrows():
        choice = ", ".join(name for name, column in (("best", "is_best"), ("one_se", "is_one_se")) if row[column])
        cells = [_fmt_lambda(row["lambda_min"]), _fmt_lambda(row["lambda_max"]), str(int(row["leaves"])),
                 f"{row['mean_test_score']:.4f}", f"{row['std_test_score']:.4f}", str(bool(row["certified"])),
                 f"{int(row['n_certified_folds'])}/{cvf.n_splits}", choice]
        print("  ".join(c.rjust(w) for c, w in zip(cells, widths)).rstrip(), file=out)
    print("", file=out)
    if cvf.complete:
        state = "every fold's search finished."
    else:
        stopped = [f"fold {f.fold} ({f.status}, certified up to {f.certified_leaves} leaves)"
                   for f in cvf.folds if not f.complete]
        state = ("stopped early: " + ", ".join(stopped) + "; rows needing them are certified=False and never "
                 "chosen.")
    print(f"{cvf.n_splits}-fold cross-validated {cvf.scoring}; {state}", file=out)
    searches = cvf.folds + ([cvf.full] if cvf.full is not None else [])
    if any(f.status == "memory_limit" for f in searches):
        print("a search stopped when " + _memory_limit_hint(args, "its process's resident memory", "searches"), file=out)
    guessed = cvf.full is not None and cvf.full.over_guessed_thresholds
    if guessed:
        print("certified over the guessed thresholds only, NOT over all thresholds (--thresholds all searches "
              "them all).", file=out)
    best, one_se = cvf.best_index, cvf.one_se_index
    print(f"chosen λ = {cvf.best_regularization:.4g} (best mean {cvf.scoring} "
          f"{table.at[best, 'mean_test_score']:.4f} ± {table.at[best, 'std_test_score']:.4f}): "
          f"{int(table.at[best, 'leaves'])} leaves", file=out)
    print(f"one-standard-error λ = {cvf.one_se_regularization:.4g}: {int(table.at[one_se, 'leaves'])} leaves",
          file=out)
    if elapsed >= 1.0:
        print(f"time {elapsed:.2f} s", file=out)
    lam = cvf.regularization(args.selection)
    tree = cvf.tree_for(lam)
    print(f"\ntree for λ = {lam:.4g}, fitted on all the data ({tree.n_leaves} leaves):", file=out)
    print(tree.rules(), file=out)
    if args.output:
        write_output(args.output, table.to_csv(index=False), "--output")
        if args.output != STDOUT:
            print(f"cross-validated frontier written to {args.output}", file=out)
    if not cvf.complete:
        return EXIT_UNCERTIFIED
    return EXIT_GUESSED_THRESHOLDS if guessed else EXIT_OK

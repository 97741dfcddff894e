"""The ``treeopt`` command: ``treeopt demo`` and ``treeopt fit data.csv --target y``.

Subcommands of other features register themselves in ``COMMANDS`` (name →
(add_arguments, run)); see :func:`main`.

``treeopt fit --json FILE`` writes the tree with its certificate, for scripts::

    {"format": "treeopt.fit", "version": 1,
     "certificate": {"status", "optimal", "objective", "lower_bound", "upper_bound", "gap",
                     "regularization", "penalty", "loss", "solver", "time", "n_steps"},
     "tree": {the tree document of treeopt.model_json}}

``Tree.from_json`` reads the file back (the envelope or a bare tree). ``--json -`` writes it to
standard output and moves the printed report to standard error. ``--time-limit`` counts from the
start: reading the CSV, binarizing and the search share it. When it (or memory) runs out while
binarizing, before any search, the one-leaf tree is printed and written with its honest gap.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings

import numpy as np
import pandas as pd

from ..binarize import BinarizationTimeout
from ..datasets import load_monk
from ..estimator import OptimalTreeClassifier
from ..guessing.fitting import OPTIMAL_OVER_GUESSED_THRESHOLDS
from ..model_json import fit_document
from ..objectives import OBJECTIVES
from ..registry import SOLVERS
from ..slow_certificate import SlowCertificateWarning
from ..regularization import DEFAULT_REGULARIZATION
from . import ablation as ablation_cli
from . import frontier as frontier_cli
from .certificate import certificate_of, single_leaf
from .exits import EXIT_INTERRUPTED, EXIT_UNCERTIFIED, StopSignals, exit_code
from .messages import in_flags
from .outputs import STDOUT, check_output, write_output
from .tables import ReadingTimeout, read_table, remaining_time

__all__ = ["main", "COMMANDS"]


def _report(tree, certificate, X, y, clf=None, out=None) -> None:
    """Print the tree, its certificate and its training scores (``clf``: the fitted estimator, if a search ran)."""
    out = sys.stdout if out is None else out      # looked up at call time, so redirection works
    if clf is not None:
        predictions = clf.predict(X)
    else:                                          # the one-leaf tree of a setup that ran out
        predictions = np.full(len(y), tree.classes[tree.root.prediction], dtype=object)
    accuracy = float((np.asarray(predictions) == pd.Series(y).to_numpy()).mean())
    print(tree.rules(), file=out)
    print("", file=out)
    if certificate.optimal:
        certified = "certified optimal"
    elif certificate.status == OPTIMAL_OVER_GUESSED_THRESHOLDS:     # Theorem 4.1's guarantee follows
        certified = "certified optimal over the guessed thresholds only, NOT over all thresholds"
    else:
        certified = f"NOT certified ({certificate.status})"
    print(f"objective      {certificate.objective:.10f}   ({certified}, gap {certificate.gap:.3g})", file=out)
    print(f"lower bound    {certificate.lower_bound:.10f}", file=out)
    print(f"accuracy       {accuracy:.4f} (training)", file=out)
    if clf is not None:
        scores = clf.evaluate(X, y)
        if scores["objective"] != "accuracy":
            print(f"{scores['objective']:<14} {scores['value']:.4f} (training; loss {scores['loss']:.6f})", file=out)
        if scores["tpr"] is not None and scores["fpr"] is not None:
            print(f"TPR / FPR      {scores['tpr']:.4f} / {scores['fpr']:.4f} (training; positive class "
                  f"{clf.classes_[1]})", file=out)
    print(f"leaves         {tree.n_leaves}   depth {tree.depth}", file=out)
    per_split = certificate.penalty == "split"
    print(f"regularization {certificate.regularization}"
          + (f" (λ per split; {tree.n_splits} splits)" if per_split else ""), file=out)
    print(f"time           {certificate.time:.3f} s, {certificate.n_steps} expansions", file=out)
    if clf is not None:
        counts = ", ".join(f"{k}={v}" for k, v in clf.prune_counts_.items())
        print(f"bound counts   {counts}", file=out)


def _fit(clf, X, y, args):
    """Fit with a progress line on stderr (``verbose=1``) for runs longer than a second; return seconds.

    Ctrl-C during the search is not an error here: ``fit`` stored the best tree so far
    (``status_ == "interrupted"``) before re-raising, and the report below prints it with its gap.
    The hint of a slow search (:class:`~treeopt.SlowCertificateWarning`) is printed on stderr in
    the command's flags; other warnings are left to the report, which states the status and gap.
    """
    clf.set_params(verbose=1)
    start = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            clf.fit(X, y)
        except KeyboardInterrupt:
            if getattr(clf, "status_", None) != "interrupted":
                raise                         # Ctrl-C before the search started: nothing to report
        finally:
            for warning in caught:
                if issubclass(warning.category, SlowCertificateWarning):
                    print(f"treeopt: {in_flags(str(warning.message), args)}", file=sys.stderr)
    return time.perf_counter() - start


def _demo_args(parser):
    parser.add_argument("--regularization", type=float, default=DEFAULT_REGULARIZATION,
                        help=f"λ, the objective cost of one leaf (default {DEFAULT_REGULARIZATION})")


def _demo(args) -> int:

    X, y = load_monk(1)
    print("treeopt demo: MONK-1 (432 robots generated from the rule "
          "'head_shape == body_shape or jacket_color == red'),")
    print(f"6 categorical attributes one-hot encoded; regularization {args.regularization}"
          f" (λ: a leaf must correct {args.regularization:.0%} of the rows).")
    if args.regularization > 0.02:
        print("With --regularization 0.02 a leaf pays for 2 % of the rows, and the tree recovers the whole rule.")
    print("")
    clf = OptimalTreeClassifier(regularization=args.regularization)
    try:
        elapsed = _fit(clf, X, y, args)
    except (ValueError, TypeError) as error:
        raise SystemExit(f"treeopt: {in_flags(str(error), args)}")
    _report(clf.tree_, certificate_of(clf, elapsed), X, y, clf)
    return exit_code(clf.status_)


def _fit_args(parser):
    parser.add_argument("csv", help="CSV file with a header row")
    parser.add_argument("--target", required=True, help="name of the label column")
    parser.add_argument("--regularization", type=float, default=DEFAULT_REGULARIZATION,
                        help=f"λ, the objective cost of one leaf (default {DEFAULT_REGULARIZATION})")
    parser.add_argument("--solver", default="auto", choices=["auto", *sorted(SOLVERS)],
                        help="the search: auto (default: GOSDT, the portfolio on wide data, OSDT for f1/auc), "
                             "or a registered solver by name")
    parser.add_argument("--objective", default="accuracy", choices=list(OBJECTIVES),
                        help="the loss: accuracy (default), balanced_accuracy, weighted_accuracy, f1, auc or "
                             "partial_auc (f1/auc/partial_auc need --solver osdt)")
    parser.add_argument("--omega", type=float, default=None,
                        help="weighted_accuracy: weight of a false negative; f1: a leaf predicts positive "
                             "when omega × positives > negatives (default 1)")
    parser.add_argument("--theta", type=float, default=None,
                        help="partial_auc: largest false-positive rate counted, in (0, 1] (default 0.1)")
    parser.add_argument("--depth-budget", type=_depth, default=None, metavar="DEPTH",
                        help="largest depth of the tree, in splits on a root-to-leaf path (an integer >= 0; "
                             "default: no limit; solvers that keep every depth take none)")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds for the whole command: reading the CSV, binarizing and the search "
                             "(default: no limit); the best tree so far is printed with its gap")
    parser.add_argument("--cache-limit", type=int, default=None,
                        help="memory cap: stop once the search holds more than this many cache entries "
                             "(memo problems, caches); the best tree so far is printed with its gap")
    parser.add_argument("--memory-limit", default=None,
                        help="cap on the process's resident memory, e.g. 2GB or 512MiB: stop once it is "
                             "exceeded; the best tree so far is printed with its gap")
    parser.add_argument("--max-thresholds", type=int, default=None,
                        help="cap threshold features per numeric column")
    parser.add_argument("--thresholds", choices=["auto", "all", "quantile", "guess"], default="auto",
                        help="numeric columns: every midpoint, quantiles, or guessed from a boosted model "
                             "(McTavish et al. 4.1); auto (default): all, or guessed above 256 thresholds (but all, as "
                             "sorted values for the continuous solver, with --solver auto, --depth-budget and only "
                             "numeric columns). "
                             "A tree certified over guessed thresholds exits with 4, not 0")
    parser.add_argument("--reference", choices=["gbdt"], default=None,
                        help="lower-bound guesses from a boosted reference model (McTavish et al. 4.3)")
    parser.add_argument("--random-state", type=int, default=None, help="seed of the boosted reference model")
    parser.add_argument("--penalty", choices=["leaf", "split"], default="leaf",
                        help="what λ is charged for: each leaf (default) or each split (needs --solver branches, "
                             "which keeps categorical columns whole as multiway splits)")
    parser.add_argument("--missing", choices=["error", "indicator"], default="error",
                        help="empty cells: refuse them (default) or add a feature '<column> is missing'")
    parser.add_argument("--top-k", type=int, default=1,
                        help="print the k best distinct trees with their objectives, not only the best "
                             "(needs --solver osdt; default 1)")
    parser.add_argument("--option", action="append", default=[], type=_option, metavar="NAME=VALUE",
                        help="an option of the chosen solver beyond these flags (repeatable), e.g. "
                             "--solver frontier --option max_leaves=8, --solver rashomon --option epsilon=0.05, or "
                             "--regularization 0 --option tie_break=any (certify the errors only); "
                             "VALUE is read as a number, true/false or none when it looks like one")
    parser.add_argument("--sep", default=None, help="column separator (default: sniffed)")
    parser.add_argument("--json", default=None, metavar="FILE",
                        help="write the tree and its certificate (status, objective, lower and upper bound, gap, "
                             "regularization, solver, time) as JSON to FILE; '-' writes it to stdout and the "
                             "report to stderr. Tree.from_json reads it back")


def _depth(text: str) -> int:
    """argparse type of ``--depth-budget``: an integer >= 0."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected an integer >= 0, got {text!r}")
    return value


def _option(text: str) -> tuple:
    """argparse type of ``--option``: ``name=value``, the value read as a number, boolean or None if it is one."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip().isidentifier():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE (e.g. max_leaves=8), got {text!r}")
    words = {"true": True, "false": False, "none": None}
    if value.strip().lower() in words:
        return name.strip(), words[value.strip().lower()]
    for kind in (int, float):
        try:
            return name.strip(), kind(value)
        except ValueError:
            pass
    return name.strip(), value


def _report_top_trees(clf, out=None) -> None:
    """With top_k > 1: each of the k best trees' objective and rules (the first is the tree above)."""
    out = sys.stdout if out is None else out
    top = getattr(clf, "top_trees_", [])
    if getattr(clf, "top_k", 1) == 1 or not top:
        return
    certified = "certified" if clf.optimal_ else f"best found, NOT certified ({clf.status_})"
    print(f"\nthe {len(top)} best trees ({certified}; asked for top_k={clf.top_k})", file=out)
    for i, (objective, tree) in enumerate(top, start=1):
        print(f"\n# tree {i} of {len(top)}: objective {objective:.10f}, {tree.n_leaves} leaves", file=out)
        print(tree.rules(), file=out)


def _fit_command(args) -> int:
    check_output(args.json, [args.csv], "--json")           # before the search, not after it
    start = time.perf_counter()
    deadline = None if args.time_limit is None else start + args.time_limit
    out = sys.stderr if args.json == STDOUT else sys.stdout  # stdout carries the JSON
    try:
        X, y = read_table(args.csv, args.target, args.sep, deadline=deadline)
    except ReadingTimeout as error:
        print(f"treeopt: {error}", file=sys.stderr)
        return EXIT_UNCERTIFIED
    clf = OptimalTreeClassifier(regularization=args.regularization, solver=args.solver,
                                objective=args.objective, omega=args.omega, theta=args.theta,
                                depth_budget=args.depth_budget,
                                time_limit=remaining_time(deadline), cache_limit=args.cache_limit,
                                memory_limit=args.memory_limit, max_thresholds=args.max_thresholds,
                                thresholds=args.thresholds, reference=args.reference,
                                random_state=args.random_state, missing=args.missing, penalty=args.penalty,
                                top_k=args.top_k, solver_options=dict(args.option) or None)
    try:
        _fit(clf, X, y, args)
        tree, certificate = clf.tree_, certificate_of(clf, time.perf_counter() - start)
        if getattr(clf, "setup_stopped_", None):              # fit kept the one-leaf tree
            print("treeopt: the time limit ran out while binarizing, before any search: the one-leaf tree "
                  "follows. Raise --time-limit, or binarize less (--max-thresholds, --thresholds quantile "
                  "or guess).", file=sys.stderr)
    except (ValueError, TypeError) as error:
        raise SystemExit(f"treeopt: {in_flags(str(error), args)}")
    except (BinarizationTimeout, MemoryError) as error:      # the setup ran out before any search
        status = "memory" if isinstance(error, MemoryError) else "time_limit"
        print(f"treeopt: {'memory' if status == 'memory' else 'the time limit'} ran out while binarizing, "
              "before any search: the one-leaf tree follows. Raise --time-limit, or binarize less "
              "(--max-thresholds, --thresholds quantile or guess).", file=sys.stderr)
        clf = None
        try:
            tree, certificate = single_leaf(X, y, regularization=args.regularization, objective=args.objective,
                                            omega=args.omega, theta=args.theta, penalty=args.penalty,
                                            status=status, elapsed=time.perf_counter() - start)
        except ValueError as invalid:
            raise SystemExit(f"treeopt: {in_flags(str(invalid), args)}")
    _report(tree, certificate, X, y, clf, out=out)
    if clf is not None:
        for name, report in getattr(clf, "guarantee_", {}).items():
            text = report if not isinstance(report, dict) else ", ".join(
                f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}" for k, v in report.items())
            print(f"guarantee      {name}: {text}", file=out)
        _report_top_trees(clf, out=out)
    if args.json:
        try:
            text = json.dumps(fit_document(tree, certificate.as_dict()), indent=2)
        except ValueError as error:                         # a value JSON cannot hold (bytes, ...)
            raise SystemExit(f"treeopt: cannot write --json: {error}")
        write_output(args.json, text, "--json")
        if args.json != STDOUT:
            print(f"tree written to {args.json}", file=out)
    return exit_code(certificate.status)


#: name -> (help, add_arguments, run)
COMMANDS = {
    "demo": ("fit an optimal tree on an embedded dataset and print it", _demo_args, _demo),
    "fit": ("fit an optimal tree on a CSV file", _fit_args, _fit_command),
    "ablation": ("OSDT's per-bound ablation (thesis Table 6.2) on a CSV file",
                 ablation_cli.add_cli_arguments, ablation_cli.run_cli),
    "frontier": ("every optimal tree for every λ (the accuracy–sparsity frontier) of a CSV file",
                 frontier_cli.add_cli_arguments, frontier_cli.run_cli),
}


def main(argv=None) -> int:
    """Entry point of the ``treeopt`` command; returns the exit code (:mod:`treeopt.cli.exits`)."""
    parser = argparse.ArgumentParser(prog="treeopt", description="Provably optimal sparse decision trees.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, (help_text, add_arguments, _) in COMMANDS.items():
        add_arguments(sub.add_parser(name, help=help_text))
    args = parser.parse_args(argv)
    # SIGTERM (timeout, kill) stops a search like Ctrl-C: the best tree is printed and written.
    with StopSignals() as stop:
        try:
            code = COMMANDS[args.command][2](args)
        except KeyboardInterrupt:
            print(f"treeopt: stopped by {stop.name} before there was a tree to report.",
                  file=sys.stderr)
            code = EXIT_INTERRUPTED
    return stop.exit_code if code == EXIT_INTERRUPTED else code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

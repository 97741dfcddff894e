"""A/B timing of treeopt's GOSDT: the working tree against an earlier git revision.

The instances are those where the C++ peers beat us in ``results.md`` (fico-binary λ=0.02,
balance-scale, compas, monk1, tic-tac-toe λ=0.02) plus car-evaluation λ=0.02. Each fit runs in
its own subprocess; the baseline and the working tree alternate, fit after fit, so load from
other jobs on a shared machine hits both alike. Reported: median CPU seconds (user + system of
the fit, data loading and ``Dataset`` construction included, imports excluded), and the
machine-independent counters of the search (expansions, problems created).

Usage::

    .venv/bin/python benchmarks/gosdt_perf.py --baseline 9cd0482 --repeats 5
    .venv/bin/python benchmarks/gosdt_perf.py --baseline HEAD~1 --candidate HEAD --instances fico-binary:0.02

Each revision is exported with ``git archive`` into a temporary directory and put first on
``PYTHONPATH`` (the working tree is installed editable, behind it); without ``--candidate`` the
working tree itself is measured against the baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
INSTANCES = ["fico-binary:0.02", "fico-binary:0.01", "balance-scale:0.01", "balance-scale:0.02",
             "compas-binary:0.005", "compas-binary:0.01", "compas-binary:0.02", "monk1:0.005",
             "monk1:0.01", "tic-tac-toe:0.02", "car-evaluation:0.02"]

WORKER = r"""
import json, resource, sys
sys.path.insert(0, {bench!r})
from run import read_binary
import treeopt.solvers
from treeopt.data import Dataset
from treeopt.solvers import GOSDT
def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime
X, y = read_binary({name!r})
start = cpu()
solver = GOSDT(Dataset.from_binary(X, y), regularization={lam!r})
result = solver.run(time_limit=600)
seconds = cpu() - start
print(json.dumps({{"cpu": seconds, "optimal": result.optimal, "objective": result.objective,
                  "expansions": result.expansions, "problems": len(solver.problems),
                  "module": treeopt.solvers.gosdt.search.__file__}}))
"""


def fit(name: str, lam: float, pythonpath: str | None) -> dict:
    env = None
    if pythonpath is not None:
        env = dict(os.environ, PYTHONPATH=pythonpath)
    code = WORKER.format(bench=str(HERE), name=name, lam=lam)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd="/tmp")
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1])
    return json.loads(done.stdout.strip().splitlines()[-1])


def export(revision: str, directory: str) -> None:
    """Write the ``treeopt`` package of a git revision into ``directory``."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", revision, "treeopt"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", directory], input=archive, check=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="HEAD", help="git revision to compare with (default HEAD)")
    parser.add_argument("--candidate", help="git revision to measure (default: the working tree)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--instances", nargs="+", default=INSTANCES, metavar="DATASET:LAMBDA")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as base, tempfile.TemporaryDirectory() as candidate:
        export(args.baseline, base)
        if args.candidate:
            export(args.candidate, candidate)
        new_path = candidate if args.candidate else None
        print(f"| instance | {args.baseline} CPU s | {args.candidate or 'working tree'} CPU s | ratio | "
              f"expansions before → after | problems before → after |")
        print("|---|---|---|---|---|---|")
        for spec in args.instances:
            name, lam = spec.split(":")
            runs = {"base": [], "new": []}
            for _ in range(args.repeats):
                runs["base"].append(fit(name, float(lam), base))
                runs["new"].append(fit(name, float(lam), new_path))
            before, after = runs["base"][0], runs["new"][0]
            if abs(before["objective"] - after["objective"]) > 1e-9 or not after["optimal"]:
                print(f"MISMATCH on {spec}: {before} vs {after}", file=sys.stderr)
            b = statistics.median(r["cpu"] for r in runs["base"])
            a = statistics.median(r["cpu"] for r in runs["new"])
            print(f"| {name} λ={lam} | {b:.3f} | {a:.3f} | {a / b:.2f} | "
                  f"{before['expansions']} → {after['expansions']} | {before['problems']} → {after['problems']} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

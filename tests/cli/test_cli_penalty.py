"""``treeopt fit --penalty {leaf,split}``: the estimator's penalty from the command line."""

from __future__ import annotations

import pytest

from treeopt import OptimalTreeClassifier
from treeopt.cli import main
from treeopt.cli.tables import read_table
from treeopt.datasets import load_monk


@pytest.fixture(scope="module")
def monk1_csv(tmp_path_factory):
    X, y = load_monk(1)
    frame = X.assign(label=y.to_numpy())
    path = tmp_path_factory.mktemp("cli") / "monk1.csv"
    frame.to_csv(path, index=False)
    return path


def printed_objective(out: str) -> float:
    return float(out.split("objective      ")[1].split()[0])


@pytest.mark.parametrize("penalty", ["leaf", "split"])
def test_fit_penalty_matches_the_estimator(monk1_csv, capsys, penalty):
    assert main(["fit", str(monk1_csv), "--target", "label", "--solver", "branches", "--regularization", "0.02",
                 "--penalty", penalty]) == 0
    out = capsys.readouterr().out
    X, y = read_table(str(monk1_csv), "label")
    clf = OptimalTreeClassifier(solver="branches", penalty=penalty, regularization=0.02).fit(X, y)
    assert "certified optimal" in out
    assert printed_objective(out) == pytest.approx(clf.objective_, abs=1e-9)
    assert ("λ per split" in out) == (penalty == "split")
    if penalty == "split":
        assert f"(λ per split; {clf.tree_.n_splits} splits)" in out


def test_the_two_penalties_print_different_objectives(monk1_csv, capsys):
    objectives = {}
    for penalty in ("leaf", "split"):
        main(["fit", str(monk1_csv), "--target", "label", "--solver", "branches", "--regularization", "0.02",
              "--penalty", penalty])
        objectives[penalty] = printed_objective(capsys.readouterr().out)
    # λ per split charges fewer units than λ per leaf (a k-way split has k leaves).
    assert objectives["split"] < objectives["leaf"]


def test_default_penalty_is_leaf(monk1_csv, capsys):
    main(["fit", str(monk1_csv), "--target", "label", "--solver", "branches", "--regularization", "0.02"])
    default = printed_objective(capsys.readouterr().out)
    main(["fit", str(monk1_csv), "--target", "label", "--solver", "branches", "--regularization", "0.02",
          "--penalty", "leaf"])
    assert default == printed_objective(capsys.readouterr().out)


def test_split_penalty_without_branches_is_a_clean_exit(monk1_csv):
    with pytest.raises(SystemExit, match=r"treeopt: --penalty split needs --solver branches") as info:
        main(["fit", str(monk1_csv), "--target", "label", "--penalty", "split"])
    assert isinstance(info.value.code, str)           # a message, not a traceback


def test_unknown_penalty_is_rejected_by_argparse(monk1_csv, capsys):
    with pytest.raises(SystemExit) as info:
        main(["fit", str(monk1_csv), "--target", "label", "--penalty", "node"])
    assert info.value.code == 2
    assert "invalid choice: 'node'" in capsys.readouterr().err

"""Tree.to_python and Tree.to_latex: generated code predicts as the tree does."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from conftest import DATASETS, require_datasets
from treeopt import OptimalTreeClassifier
from treeopt.binarize import BinaryFeature
from treeopt.code_export import latex_escape
from treeopt.datasets import load_balance_scale, load_tic_tac_toe
from treeopt.greedy_estimators import GreedyTreeClassifier
from treeopt.tree import Leaf, MultiwaySplit, Split, Tree


def compiled(tree: Tree, name: str = "predict"):
    scope: dict = {}
    exec(tree.to_python(name), scope)      # noqa: S102 - the point of the test
    return scope[name]


def assert_code_predicts_like_tree(tree: Tree, X: pd.DataFrame, expected) -> None:
    function = compiled(tree)
    rows = X.to_dict(orient="records")
    got = [function(row) for row in rows]
    assert got == list(np.asarray(expected).tolist())


def test_numeric_compas_tree_as_python():
    require_datasets()
    frame = pd.read_csv(DATASETS / "continuous" / "compas.csv")
    X, y = frame.iloc[:, :-1], frame.iloc[:, -1]
    clf = OptimalTreeClassifier(regularization=0.002, max_thresholds=6, depth_budget=4).fit(X, y)
    assert clf.tree_.n_leaves >= 4
    assert_code_predicts_like_tree(clf.tree_, X, clf.predict(X))
    # Pandas rows work too (indexed by column name).
    function = compiled(clf.tree_)
    assert [function(row) for _, row in X.head(50).iterrows()] == clf.predict(X.head(50)).tolist()


def test_one_hot_categorical_and_multiclass_trees_as_python():
    X, y = load_tic_tac_toe()
    clf = OptimalTreeClassifier(regularization=0.005, depth_budget=4).fit(X, y)
    assert_code_predicts_like_tree(clf.tree_, X, clf.predict(X))
    assert "row['middle_middle'] == " in clf.tree_.to_python()
    X, y = load_balance_scale()
    greedy = GreedyTreeClassifier(max_depth=5).fit(X, y)
    assert len(greedy.classes_) == 3
    assert_code_predicts_like_tree(greedy.tree_, X, greedy.predict(X))


def test_multiway_branches_tree_as_python_with_unseen_categories():
    X, y = load_tic_tac_toe()
    clf = OptimalTreeClassifier(solver="branches", regularization=0.01, depth_budget=3).fit(X, y)
    assert clf.tree_.has_multiway
    assert_code_predicts_like_tree(clf.tree_, X, clf.predict(X))
    unseen = X.head(30).copy()
    unseen.iloc[::2, :] = "?"                     # a category never seen in training: the heaviest child
    assert_code_predicts_like_tree(clf.tree_, unseen, clf.tree_.predict(unseen))


def test_missing_values_route_as_the_tree_routes_them():
    rng = np.random.default_rng(5)
    n = 200
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.normal(size=n),
                      "color": rng.choice(["red", "blue", "green"], n).astype(object)})
    y = np.array((X["a"] > 0) & (X["color"] != "blue"), dtype=int)
    for column, share in (("a", 0.15), ("b", 0.3), ("color", 0.2)):
        X.loc[rng.random(n) < share, column] = np.nan
    y[X["b"].isna().to_numpy()] = 1
    clf = OptimalTreeClassifier(regularization=0.01, depth_budget=3, max_thresholds=6, missing="indicator").fit(X, y)
    kinds = {clf.tree_.features[node.feature].kind for node in clf.tree_._nodes(clf.tree_.root)
             if isinstance(node, Split)}
    assert "missing" in kinds and "threshold" in kinds
    assert_code_predicts_like_tree(clf.tree_, X, clf.predict(X))
    # None and pandas.NA are missing too.
    odd = pd.DataFrame({"a": [None, pd.NA, 0.5, -0.5], "b": [pd.NA, 0.3, None, 1.0],
                        "color": [None, "red", pd.NA, "blue"]}, dtype=object)
    assert_code_predicts_like_tree(clf.tree_, odd, clf.predict(odd))
    branches = OptimalTreeClassifier(solver="branches", regularization=0.01, depth_budget=3, max_thresholds=6,
                                     missing="indicator").fit(X, y)
    assert_code_predicts_like_tree(branches.tree_, X, branches.predict(X))
    assert_code_predicts_like_tree(branches.tree_, odd, branches.predict(odd))


def test_any_column_name_and_label_is_valid_python():
    names = ["it's \"odd\"", "naïve col", "a\\b", "class", "x\ny"]
    features = [BinaryFeature(name, i, "threshold", 0.5 + i, f"{name} <= {0.5 + i}") for i, name in enumerate(names)]
    root = Split(0, Split(1, Leaf(0), Split(4, Leaf(1), Leaf(2))), Split(2, Leaf(2), Split(3, Leaf(0), Leaf(1))))
    tree = Tree(root, features, ["yes'no", 7, "Ω"])
    rng = np.random.default_rng(0)
    X = pd.DataFrame(rng.uniform(-1, 6, size=(200, len(names))), columns=names)
    assert_code_predicts_like_tree(tree, X, tree.predict(X, binarized=False))
    assert compiled(tree, "score_row").__name__ == "score_row"
    for bad in ("1st", "my-function", "def", ""):
        with pytest.raises(ValueError, match="valid Python identifier"):
            tree.to_python(bad)


def test_exact_thresholds_survive_the_source():
    t = 0.1 + 0.2                                   # 0.30000000000000004: prints as 0.3 in rules
    tree = Tree(Split(0, Leaf(0), Leaf(1)), [BinaryFeature("x", 0, "threshold", t, "x <= 0.3")], ["lo", "hi"])
    function = compiled(tree)
    assert function({"x": 0.3}) == "hi" and function({"x": t}) == "hi" and function({"x": 0.30000000000000010}) == "lo"


def latex_tree() -> Tree:
    """A depth-6 tree with LaTeX specials in column names, categories and labels."""
    features = [BinaryFeature("pct_income", 0, "threshold", 30.5, "pct_income <= 30.5"),
                BinaryFeature("R&D #", 1, "category", "50% off", "R&D # = 50% off"),
                BinaryFeature("a<=b", 2, "threshold", -1.25, "a<=b <= -1.25", has_missing=True),
                BinaryFeature("cost $", 3, "missing", None, "cost $ is missing")]
    node: object = Leaf(1, (2, 5))
    for depth in range(6):
        node = Split(depth % 4, Leaf(depth % 2, (3, 1)), node)
    return Tree(MultiwaySplit("tilde~caret^", 4, ["x_1", None], [node, Leaf(0, (1, 0))]), features, ["no_way", "50%"])


def test_latex_escapes_special_characters():
    text = latex_tree().to_latex()
    for raw, escaped in (("pct_income", r"pct\_income"), ("R&D #", r"R\&D \#"), ("50% off", r"50\% off"),
                         ("cost $", r"cost \$"), ("tilde~caret^", r"tilde\textasciitilde{}caret\textasciicircum{}"),
                         ("no_way", r"no\_way")):
        assert escaped in text, raw
    assert r"\emph{a\textless{}=b} $\le -1.25$" in text          # a name holding "<=", then the test
    assert r"$> -1.25$ or \emph{a\textless{}=b} is missing" in text
    body = "\n".join(line for line in text.splitlines() if not line.startswith("%"))
    unescaped = re.findall(r"(?<!\\)[%&#_]", body)
    assert unescaped == []
    assert latex_escape("<=") == r"\textless{}="


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_compiles_with_plain_latex(tmp_path):
    source = tmp_path / "tree.tex"
    source.write_text(latex_tree().to_latex(standalone=True), encoding="utf-8")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", source.name], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout[-2000:]
    assert (tmp_path / "tree.pdf").stat().st_size > 0

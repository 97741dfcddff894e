"""Model JSON read back without trusting the file: every bad field is a ModelJSONError naming its path."""

from __future__ import annotations

import copy
import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treeopt import OptimalTreeClassifier
from treeopt.binarize import BinaryFeature
from treeopt.model_json import ModelJSONError, fit_document
from treeopt.nodes import Leaf, MultiwaySplit, Split
from treeopt.tree import Tree


def _small_tree_dict() -> dict:
    """Two threshold features on two columns, one multiway-free binary tree: x <= 1.5, then y <= 0.5."""
    features = [BinaryFeature("x", 0, "threshold", 1.5, "x <= 1.5"), BinaryFeature("y", 1, "threshold", 0.5, "y <= 0.5")]
    root = Split(0, Split(1, Leaf(0, (4, 1)), Leaf(1, (0, 3))), Leaf(1, (1, 5)))
    return Tree(root, features, ["no", "yes"], columns_in=["x", "y"]).to_dict()


def _multiway_dict() -> dict:
    root = MultiwaySplit("color", 0, ["red", "blue", None], [Leaf(0, (3, 0)), Leaf(1, (0, 4)), Leaf(1, (1, 2))])
    return Tree(root, [], ["no", "yes"], columns_in=["color"]).to_dict()


def _raises_at(data, path: str):
    with pytest.raises(ValueError, match=re.escape(f"model JSON {path}:")) as info:
        Tree.from_dict(data)
    assert isinstance(info.value, ModelJSONError) and info.value.path == path
    return info.value


@pytest.mark.parametrize("key", ["root", "classes", "features"])
def test_a_missing_top_level_key_is_named(key):
    data = _small_tree_dict()
    del data[key]
    _raises_at(data, key)


def test_a_missing_feature_kind_is_named():
    data = _small_tree_dict()
    del data["features"][1]["kind"]
    _raises_at(data, "features[1].kind")


@pytest.mark.parametrize("path, value", [
    ("root.feature", "0"),                  # a string where an index belongs
    ("root.left", [1, 2]),                  # a list where a node belongs
    ("root.left.right.counts", "abc"),
    ("features[0].column_index", -1),
    ("classes", {"no": 0}),
    ("features", "x"),
])
def test_a_field_of_the_wrong_type_is_named(path, value):
    data = _small_tree_dict()
    *parents, last = re.findall(r"[^.\[\]]+", path)
    target = data
    for token in parents:
        target = target[int(token)] if token.isdigit() else target[token]
    target[int(last) if last.isdigit() else last] = value
    _raises_at(data, path)


def test_an_unknown_feature_kind_is_refused_not_evaluated_as_equality():
    data = _small_tree_dict()
    data["features"][0]["kind"] = "less_than"
    error = _raises_at(data, "features[0].kind")
    assert "binary, category, threshold, missing" in str(error)


def test_duplicated_classes_are_refused():
    data = _small_tree_dict()
    data["classes"] = ["no", "no"]
    _raises_at(data, "classes[1]")


def test_a_fractional_prediction_is_refused_not_truncated():
    data = _small_tree_dict()
    data["root"]["right"]["prediction"] = 0.7
    _raises_at(data, "root.right.prediction")


def test_a_nan_threshold_is_refused():
    data = _small_tree_dict()
    data["features"][1]["value"] = float("nan")
    _raises_at(data, "features[1].value")
    text = json.dumps(_small_tree_dict()).replace("1.5", "NaN")          # Python's json writes NaN
    with pytest.raises(ModelJSONError, match=re.escape("features[0].value")):
        Tree.from_json(text)


def test_columns_given_as_a_string_are_refused_not_read_letter_by_letter():
    data = _small_tree_dict()
    data["input"]["columns"] = "xy"
    _raises_at(data, "input.columns")


def test_a_multiway_split_with_more_values_than_children_is_refused():
    data = _multiway_dict()
    data["root"]["values"].append("green")
    _raises_at(data, "root.values")


def test_a_prediction_index_outside_the_classes_is_refused():
    data = _small_tree_dict()
    data["root"]["left"]["left"]["prediction"] = 2
    _raises_at(data, "root.left.left.prediction")


def test_a_cyclic_dict_is_refused_not_a_recursion_error():
    data = _small_tree_dict()
    data["root"]["left"]["left"] = data["root"]                         # a node that contains itself
    error = _raises_at(data, "root.left.left")
    assert "same object as root" in str(error)


def test_a_newer_version_asks_for_an_upgrade():
    data = _small_tree_dict()
    data["version"] = 2
    error = _raises_at(data, "version")
    assert "upgrade treeopt" in str(error)


def test_text_that_is_not_json_is_a_model_json_error():
    with pytest.raises(ModelJSONError, match="not valid JSON"):
        Tree.from_json('{"classes": ["a"]')
    with pytest.raises(ModelJSONError, match="nested too deeply"):
        Tree.from_json('{"root": ' * 100_000 + "{}" + "}" * 100_000)


def test_a_file_without_format_and_version_is_still_read():
    data = _small_tree_dict()
    del data["format"], data["version"]
    assert Tree.from_dict(data) == Tree.from_dict(_small_tree_dict())


def test_the_fit_envelope_is_read_as_its_tree():
    tree = Tree.from_dict(_small_tree_dict())
    document = fit_document(tree, {"status": "optimal", "objective": 0.1})
    assert Tree.from_dict(document) == tree
    assert Tree.from_json(json.dumps(document)) == tree
    document["tree"]["root"]["feature"] = 9
    _raises_at(document, "tree.root.feature")


def _deep_chain(depth: int) -> tuple[Tree, np.ndarray, list]:
    """A chain of ``depth`` splits on x: level i sends x <= i + 0.5 to a leaf of class i % 2, the rest deeper."""
    features = [BinaryFeature("x", 0, "threshold", i + 0.5, f"x <= {i + 0.5}") for i in range(depth)]
    node = Leaf(depth % 2, (1, 1))
    for i in reversed(range(depth)):
        node = Split(i, node, Leaf(i % 2, (1, 0)))
    X = np.arange(depth + 1, dtype=float).reshape(-1, 1)
    return Tree(node, features, [0, 1], columns_in=["x"]), X, [v % 2 for v in range(depth + 1)]


def test_a_tree_900_levels_deep_round_trips_with_identical_predictions():
    tree, X, expected = _deep_chain(900)
    assert tree.predict(X).tolist() == expected
    loaded = Tree.from_json(tree.to_json())
    assert loaded.to_json() == tree.to_json() and loaded.depth == 900
    assert loaded.predict(X).tolist() == expected
    assert Tree.from_json(json.dumps(fit_document(tree, {}), indent=2)).predict(X).tolist() == expected


def test_a_deep_multiway_chain_round_trips_as_a_dict_and_predicts():
    node = Leaf(0, (1, 0))
    for _ in range(900):
        node = MultiwaySplit("c", 0, ["go", "stop"], [node, Leaf(1, (0, 1))])
    tree = Tree(node, [], ["a", "b"], columns_in=["c"])
    loaded = Tree.from_dict(tree.to_dict())
    assert loaded.depth == 900
    assert loaded.predict([["go"], ["stop"]]).tolist() == ["a", "b"]
    # Two JSON levels per multiway level: beyond the json module's nesting, a clear error, not a traceback.
    with pytest.raises(ModelJSONError, match="nested too deeply"):
        tree.to_json()


def test_a_bytes_category_is_a_clear_export_error():
    X = pd.DataFrame({"c": [b"red", b"blue"] * 10})
    y = np.array([1, 0] * 10)
    clf = OptimalTreeClassifier(regularization=0.01).fit(X, y)
    with pytest.raises(ModelJSONError, match=r"features\[\d\]\.value: .*bytes.*decode"):
        clf.tree_.to_json()


@pytest.mark.parametrize("options", [{}, {"missing": "indicator"}, {"solver": "branches", "penalty": "split"}])
def test_fitted_trees_round_trip(options):
    rng = np.random.default_rng(1)
    X = pd.DataFrame({"age": rng.integers(18, 70, 60).astype(float), "colour": rng.choice(["red", "blue", "green"], 60)})
    y = np.where((X.age < 35) | (X.colour == "red"), "yes", "no")
    if options.get("missing"):
        X.loc[::7, "age"] = np.nan
    clf = OptimalTreeClassifier(regularization=0.02, max_thresholds=6, **options).fit(X, y)
    loaded = Tree.from_json(clf.tree_.to_json())
    assert loaded == clf.tree_
    assert (loaded.predict(X, binarized=False) == clf.predict(X)).all()


# -- the fuzz test -------------------------------------------------------------------------------------

_COLUMNS = ["x", "y", "z"]
_WRONG = ["abc", -1, 0.7, float("nan"), float("inf"), None, [], {}, True, 10**6]


@st.composite
def _tree_documents(draw):
    """Valid documents: four threshold features on three columns, a random tree of depth <= 4."""
    features = [BinaryFeature(_COLUMNS[c], c, "threshold", t, f"{_COLUMNS[c]} <= {t}")
                for c, t in [(0, 0.5), (1, 0.5), (2, 0.5), (0, 1.5)]]

    def grow(depth):
        if depth == 4 or draw(st.booleans()):
            return Leaf(draw(st.integers(0, 2)), tuple(draw(st.lists(st.integers(0, 9), min_size=3, max_size=3))))
        return Split(draw(st.integers(0, 3)), grow(depth + 1), grow(depth + 1))

    return Tree(grow(0), features, ["a", "b", "c"], columns_in=list(_COLUMNS)).to_dict()


def _locations(value, path=""):
    """Every (container, key, path) of a document: the places a mutation can hit."""
    stack = [(value, path)]
    while stack:
        value, path = stack.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for key, child in items:
            child_path = (f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}" if path else key)
            yield value, key, child_path
            stack.append((child, child_path))


def _resolve_parent(document, path: str) -> bool:
    """Whether everything but the last step of ``path`` exists in ``document``."""
    tokens = re.findall(r"[^.\[\]]+", path)
    node = document
    for token in tokens[:-1]:
        key = int(token) if token.isdigit() and isinstance(node, list) else token
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return False
    return True


def _oracle(document, rows) -> list:
    """Predictions read straight off the document, a row's path at a time (the schema's meaning)."""
    classes, features = document["classes"], document["features"]
    out = []
    for row in rows:
        node = document["root"]
        while "prediction" not in node:
            feature = features[node["feature"]]
            node = node["right"] if row[feature["column_index"]] <= feature["value"] else node["left"]
        out.append(classes[node["prediction"]])
    return out


@pytest.mark.slow
@settings(max_examples=200)
@given(document=_tree_documents(), data=st.data())
def test_fuzzed_model_json_is_refused_by_path_or_predicts_as_written(document, data):
    mutation = data.draw(st.sampled_from(["drop", "wrong", "unknown_kind", "deep", "cycle"]))
    places = list(_locations(document))
    if mutation == "drop":
        dicts = [(c, k) for c, k, _ in places if isinstance(c, dict)]
        container, key = data.draw(st.sampled_from(dicts))
        del container[key]
    elif mutation == "wrong":
        container, key, _ = data.draw(st.sampled_from(places))
        container[key] = copy.deepcopy(data.draw(st.sampled_from(_WRONG)))
    elif mutation == "unknown_kind":
        document["features"][data.draw(st.integers(0, 3))]["kind"] = data.draw(st.sampled_from(["less", "", "Threshold"]))
    elif mutation == "deep":
        for _ in range(900):
            document["root"] = {"feature": 3, "left": {"prediction": 2}, "right": document["root"]}
    else:
        splits = [c[k] for c, k, _ in places if isinstance(c, dict) and k in ("left", "right", "root")
                  and isinstance(c[k], dict) and "feature" in c[k]]
        if not splits:
            return
        split = data.draw(st.sampled_from(splits))
        split[data.draw(st.sampled_from(["left", "right"]))] = data.draw(st.sampled_from([split, document["root"]]))
    try:
        tree = Tree.from_dict(document)
    except ModelJSONError as error:
        assert mutation not in ("deep",)
        assert error.path in str(error)
        assert _resolve_parent(document, error.path), error.path
        return
    assert mutation in ("drop", "wrong", "deep")
    rows = np.array([[x, y, z] for x in (0.0, 1.0, 2.0) for y in (0.0, 1.0) for z in (0.0, 1.0)])
    assert tree.predict(rows).tolist() == _oracle(document, rows)
    assert all(math.isfinite(c) for _, leaf in tree.leaves() for c in leaf.counts)


def test_a_single_leaf_read_back_predicts_on_the_original_table():
    X = pd.DataFrame({"age": [20.0, 50.0, 70.0], "colour": ["red", "blue", "red"]})
    tree = Tree(Leaf(1, (1, 2)), [], ["no", "yes"], columns_in=["age", "colour"])
    loaded = Tree.from_json(tree.to_json())
    assert loaded.to_dict()["input"] == {"table": "original", "columns": ["age", "colour"], "named": True}
    assert loaded.predict(X).tolist() == ["yes"] * 3
    assert loaded.predict(X.to_numpy()).tolist() == ["yes"] * 3
    assert Tree.from_json(Tree(Leaf(0), [], ["a", "b"]).to_json()).predict(np.zeros((2, 4))).tolist() == ["a", "a"]

"""A tree as JSON: the documented schema, written and read back without trusting the file.

:meth:`Tree.to_dict <treeopt.tree.Tree.to_dict>` and :meth:`Tree.from_dict
<treeopt.tree.Tree.from_dict>` delegate here. A model file may come from elsewhere (edited by
hand, truncated, tampered with), so reading it checks every field against the schema below
before a :class:`~treeopt.tree.Tree` is built, and a bad field is reported as a
:class:`ModelJSONError` naming its JSON path (``root.children[1].values``) instead of a
``KeyError`` from deep inside, or worse, a tree that silently predicts something else.
Both directions walk the tree with an explicit stack, so a tree of any depth (a chain of
thousands of splits) is read and written without Python's recursion limit.

Schema (version 1)
------------------
A tree document is an object with these keys:

``format`` : ``"treeopt.tree"``, optional
    Files written before the key existed have no ``format`` and no ``version``.
``version`` : ``1``, optional
    A later version is refused: it may mean something this reader does not know.
``classes`` : list of distinct strings, integers, finite numbers or booleans, at least one
    Leaf prediction ``k`` means ``classes[k]``.
``input`` : object, optional
    ``{"table": "binary"}``: the tree reads the 0/1 feature matrix; ``{"table": "original",
    "columns": [names], "named": bool}``: it reads the original table with these column names (a
    list of strings; ``columns`` is optional). ``named`` (optional) says whether the tree was fitted
    on named columns (a DataFrame: it reads a table by name) or on an array (by position).
``features`` : list of objects
    Binary feature ``j`` is ``features[j]``: ``column`` (a string or an integer),
    ``column_index`` (an integer >= 0, below the number of ``columns`` when they are given),
    ``kind`` (one of ``"binary"``, ``"category"``, ``"threshold"``, ``"missing"``), ``value``
    (a threshold's finite number ``<=`` is tested against; ``null`` for ``missing``; the
    category or true value, a string, number or boolean, otherwise), ``name`` (a string) and
    optionally ``has_missing`` (a boolean).
``root`` : node
    A leaf ``{"prediction": k, "counts": [...], "loss": x}``: ``k`` an integer index into
    ``classes``; ``counts`` (optional) the non-negative finite weight of each class, empty or
    one per class; ``loss`` (optional) a finite number. A binary split ``{"feature": j,
    "left": node, "right": node}``: ``j`` an integer index into ``features``, ``left`` the
    subtree where the feature is false. A multiway split ``{"column": c, "column_index": i,
    "values": [...], "children": [...]}``: one child per value (as many children as values, at
    least one), values distinct strings, numbers or booleans, and ``null`` for the category of
    missing values. Every node is its own object: a node reached twice (a cycle) is refused.

A fit's certificate travels with the tree in an envelope, which :func:`tree_fields_from_dict` also
accepts (it reads the tree inside):

``{"format": "treeopt.fit", "version": 1, "certificate": {...}, "tree": {tree document}}``

Examples
--------
>>> from treeopt.binarize import BinaryFeature
>>> from treeopt.nodes import Leaf, Split
>>> from treeopt.tree import Tree
>>> t = Tree(Split(0, Leaf(0, (3, 1)), Leaf(1, (0, 4))), [BinaryFeature("x", 0, "binary", 1, "x")], ["a", "b"])
>>> data = tree_to_dict(t)
>>> data["format"], data["version"], data["root"]["feature"]
('treeopt.tree', 1, 0)
>>> Tree.from_dict(data) == t
True
>>> data["root"]["right"]["prediction"] = 0.7
>>> Tree.from_dict(data)
Traceback (most recent call last):
...
treeopt.model_json.ModelJSONError: model JSON root.right.prediction: expected an integer (an index into classes), got 0.7; the file is corrupt or was edited by hand.
"""

from __future__ import annotations

import json
import math
from numbers import Integral, Real
import numpy as np

from .binarize import BinaryFeature
from .nodes import Leaf, MultiwaySplit, Split

__all__ = ["ModelJSONError", "FORMAT", "FIT_FORMAT", "VERSION", "tree_to_dict", "tree_fields_from_dict",
           "tree_fields_from_json", "tree_to_json", "fit_document"]

#: ``format`` of a tree document and of a fit's envelope (tree + certificate).
FORMAT = "treeopt.tree"
FIT_FORMAT = "treeopt.fit"
#: The schema version this module writes and reads.
VERSION = 1
#: Feature kinds a reader knows how to evaluate (:class:`~treeopt.binarize.BinaryFeature`).
KINDS = ("binary", "category", "threshold", "missing")

_HINT = "the file is corrupt or was edited by hand."


class ModelJSONError(ValueError):
    """A model file that does not match the schema of :mod:`treeopt.model_json`.

    Attributes
    ----------
    path : str
        JSON path of the bad field, e.g. ``root.children[1].threshold`` (empty: the whole document).
    """

    def __init__(self, path: str, problem: str):
        self.path = path
        where = f" {path}" if path else ""
        super().__init__(f"model JSON{where}: {problem}")


def _fail(path: str, problem: str):
    raise ModelJSONError(path, f"{problem}; {_HINT}")


def _join(path: str, key) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def _is_integer(value) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


def _is_number(value) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool)


def _describe(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# -- writing -----------------------------------------------------------------

def _py(value, path: str):
    """A JSON scalar for ``value`` (numpy scalars as Python ones); anything else is refused by path."""
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, bytes):
        raise ModelJSONError(path, f"the value {_describe(value)} is bytes, which JSON cannot hold; decode the "
                                   "column to text before fitting (e.g. X[column].str.decode('utf-8')).")
    raise ModelJSONError(path, f"the value {_describe(value)} ({type(value).__name__}) is not a JSON string, "
                               "number or boolean; convert the column to one of them before fitting.")


def tree_to_dict(tree) -> dict:
    """The tree document of ``tree`` (see the module's schema), built without recursion.

    Parameters
    ----------
    tree : Tree

    Returns
    -------
    dict
        JSON-compatible; :func:`tree_fields_from_dict` reads it back into an equal tree.
    """
    if tree._features_are_columns and tree.binarizer is None:
        input_ = {"table": "binary"}
    else:
        input_ = {"table": "original",
                  **({"columns": list(tree.columns_in), "named": bool(tree.columns_named)}
                     if tree.columns_in is not None else {})}
    features = []
    for j, f in enumerate(tree.features):
        entry = {"column": _py(f.column, f"features[{j}].column"), "column_index": int(f.column_index),
                 "kind": f.kind, "value": _py(f.value, f"features[{j}].value"), "name": f.name}
        if f.has_missing:
            entry["has_missing"] = True
        features.append(entry)
    data = {"format": FORMAT, "version": VERSION,
            "classes": [_py(c, f"classes[{k}]") for k, c in enumerate(tree.classes)],
            "input": input_, "features": features}
    # Pre-order with an explicit stack: (node, path, container, key) fills container[key].
    stack = [(tree.root, "root", data, "root")]
    while stack:
        node, path, container, key = stack.pop()
        if isinstance(node, Leaf):
            container[key] = {"prediction": int(node.prediction),
                              "counts": [_py(c, _join(_join(path, "counts"), i)) for i, c in enumerate(node.counts)],
                              "loss": float(node.loss)}
        elif isinstance(node, MultiwaySplit):
            children = [None] * len(node.children)
            container[key] = {"column": _py(node.column, _join(path, "column")),
                              "column_index": int(node.column_index),
                              "values": [_py(v, _join(_join(path, "values"), i)) for i, v in enumerate(node.values)],
                              "children": children}
            for i, child in enumerate(node.children):
                stack.append((child, _join(_join(path, "children"), i), children, i))
        else:
            entry = container[key] = {"feature": int(node.feature), "left": None, "right": None}
            stack.append((node.right, _join(path, "right"), entry, "right"))
            stack.append((node.left, _join(path, "left"), entry, "left"))
    return data


def tree_to_json(tree, **kwargs) -> str:
    """:func:`tree_to_dict` as JSON text (``kwargs`` go to :func:`json.dumps`).

    Python's json module nests one level per call; a tree deeper than it can write (a chain of
    several hundred multiway splits: two JSON levels each) is a :class:`ModelJSONError`.
    """
    data = tree_to_dict(tree)
    try:
        return json.dumps(data, **kwargs)
    except RecursionError:
        raise ModelJSONError("root", "nested too deeply for Python's json module to write; keep the tree as "
                                     "a dict (Tree.to_dict) or pickle it.") from None


def fit_document(tree, certificate: dict) -> dict:
    """The envelope of a fit: its ``certificate`` (status, objective, bounds, ...) beside the tree document.

    Examples
    --------
    >>> from treeopt.nodes import Leaf
    >>> from treeopt.tree import Tree
    >>> doc = fit_document(Tree(Leaf(0, (2, 1)), [], ["a", "b"]), {"status": "optimal"})
    >>> doc["format"], doc["certificate"], Tree.from_dict(doc).n_leaves
    ('treeopt.fit', {'status': 'optimal'}, 1)
    """
    return {"format": FIT_FORMAT, "version": VERSION, "certificate": dict(certificate), "tree": tree_to_dict(tree)}


# -- reading -----------------------------------------------------------------

def _field(data: dict, key: str, path: str):
    if key not in data:
        _fail(_join(path, key), "is missing")
    return data[key]


def _object(value, path: str) -> dict:
    if not isinstance(value, dict):
        _fail(path, f"expected an object, got {_describe(value)}")
    return value


def _list(value, path: str) -> list:
    if not isinstance(value, list):
        _fail(path, f"expected a list, got {_describe(value)}")
    return value


def _index(value, bound: int, path: str, what: str) -> int:
    if not _is_integer(value):
        _fail(path, f"expected an integer (an index into {what}), got {_describe(value)}")
    if not 0 <= value < bound:
        _fail(path, f"{value} is outside 0..{bound - 1} (the {bound} {what})")
    return int(value)


def _column_index(value, n_columns: int | None, path: str) -> int:
    if not _is_integer(value) or value < 0:
        _fail(path, f"expected an integer >= 0 (a column position), got {_describe(value)}")
    if n_columns is not None and value >= n_columns:
        _fail(path, f"{value} is outside 0..{n_columns - 1} (the {n_columns} columns of input.columns)")
    return int(value)


def _scalar(value, path: str, *, allow_null: bool = False):
    if value is None and allow_null:
        return None
    if isinstance(value, str) or isinstance(value, bool) or _is_integer(value):
        return value
    if _is_number(value):
        if not math.isfinite(value):
            _fail(path, f"expected a finite number, got {_describe(value)}")
        return value
    _fail(path, f"expected a string, number or boolean{' or null' if allow_null else ''}, got {_describe(value)}")


def _finite(value, path: str, *, at_least: float | None = None) -> float:
    if not _is_number(value) or not math.isfinite(value):
        _fail(path, f"expected a finite number, got {_describe(value)}")
    if at_least is not None and value < at_least:
        _fail(path, f"expected a number >= {at_least:g}, got {_describe(value)}")
    return value


def _distinct(values: list, path: str) -> None:
    """Refuse equal entries (1 and 1.0 are equal; True and 1 are not: a boolean keeps its own type)."""
    seen = {}
    for i, value in enumerate(values):
        key = (isinstance(value, bool), value)
        if key in seen:
            _fail(_join(path, i), f"{_describe(value)} repeats {_join(path, seen[key])}; entries must be distinct")
        seen[key] = i


def _column_name(value, path: str):
    if isinstance(value, str) or _is_integer(value):
        return value
    _fail(path, f"expected a column name (a string or an integer), got {_describe(value)}")


def _read_feature(entry, path: str, n_columns: int | None) -> BinaryFeature:
    entry = _object(entry, path)
    column = _column_name(_field(entry, "column", path), _join(path, "column"))
    column_index = _column_index(_field(entry, "column_index", path), n_columns, _join(path, "column_index"))
    kind = _field(entry, "kind", path)
    if kind not in KINDS:
        _fail(_join(path, "kind"), f"unknown feature kind {_describe(kind)}; expected one of {', '.join(KINDS)}")
    value = _field(entry, "value", path)
    value_path = _join(path, "value")
    if kind == "threshold":
        value = _finite(value, value_path)
    elif kind == "missing":
        if value is not None:
            _fail(value_path, f"a missing-value feature has value null, got {_describe(value)}")
    else:
        value = _scalar(value, value_path)
    name = _field(entry, "name", path)
    if not isinstance(name, str):
        _fail(_join(path, "name"), f"expected a string, got {_describe(name)}")
    has_missing = entry.get("has_missing", False)
    if not isinstance(has_missing, bool):
        _fail(_join(path, "has_missing"), f"expected true or false, got {_describe(has_missing)}")
    return BinaryFeature(column, column_index, kind, value, name, has_missing)


def _unwrap(data, path: str = "") -> tuple[dict, str]:
    """The tree document and its path: ``data`` itself, or the ``tree`` of a fit's envelope."""
    data = _object(data, path or "(document)")
    if data.get("format") == FIT_FORMAT or ("tree" in data and "root" not in data):
        _version(data, path)
        return _object(_field(data, "tree", path), _join(path, "tree")), _join(path, "tree")
    return data, path


def _version(data: dict, path: str) -> None:
    if "version" in data:
        version = data["version"]
        if not _is_integer(version) or version < 1:
            _fail(_join(path, "version"), f"expected a positive integer, got {_describe(version)}")
        if version > VERSION:
            raise ModelJSONError(_join(path, "version"),
                                 f"version {version} is newer than this treeopt reads (version {VERSION}); "
                                 "upgrade treeopt to read it.")
    if "format" in data and data["format"] not in (FORMAT, FIT_FORMAT):
        _fail(_join(path, "format"), f"expected {FORMAT!r} or {FIT_FORMAT!r}, got {_describe(data['format'])}")


def tree_fields_from_dict(data) -> dict:
    """Check a tree document (or a fit's envelope) against the schema and read its fields.

    :meth:`Tree.from_dict <treeopt.tree.Tree.from_dict>` builds the tree from them, so this
    module needs no :class:`~treeopt.tree.Tree` (which calls it).

    Parameters
    ----------
    data : dict
        A tree document (:func:`tree_to_dict`) or the envelope of :func:`fit_document`.

    Returns
    -------
    dict
        The keyword arguments of ``Tree``: ``root``, ``features``, ``classes``, ``columns_in`` and
        ``columns_named``.

    Raises
    ------
    ModelJSONError
        A field is missing, has the wrong type or value, or the nodes form a cycle; the
        message and ``error.path`` name the field.
    """
    data, base = _unwrap(data)
    _version(data, base)
    classes = _list(_field(data, "classes", base), _join(base, "classes"))
    if not classes:
        _fail(_join(base, "classes"), "is empty; a tree predicts at least one class")
    for k, value in enumerate(classes):
        _scalar(value, _join(_join(base, "classes"), k))
    _distinct(classes, _join(base, "classes"))
    columns = None
    named = None
    input_ = data.get("input")
    if input_ is not None:
        input_ = _object(input_, _join(base, "input"))
        table = input_.get("table", "original")
        if table not in ("binary", "original"):
            _fail(_join(_join(base, "input"), "table"), f"expected 'binary' or 'original', got {_describe(table)}")
        if input_.get("columns") is not None:
            columns_path = _join(_join(base, "input"), "columns")
            columns = _list(input_["columns"], columns_path)
            for i, name in enumerate(columns):
                if not isinstance(name, str):
                    _fail(_join(columns_path, i), f"expected a column name (a string), got {_describe(name)}")
            _distinct(columns, columns_path)
        if input_.get("named") is not None:
            named = input_["named"]
            if not isinstance(named, bool):
                _fail(_join(_join(base, "input"), "named"), f"expected true or false, got {_describe(named)}")
    n_columns = None if columns is None else len(columns)
    features_path = _join(base, "features")
    features = [_read_feature(entry, _join(features_path, j), n_columns)
                for j, entry in enumerate(_list(_field(data, "features", base), features_path))]
    root = _read_nodes(_field(data, "root", base), _join(base, "root"), len(classes), len(features), n_columns)
    return dict(root=root, features=features, classes=classes,
                columns_in=None if columns is None else list(columns), columns_named=named)


def _read_nodes(root, root_path: str, n_classes: int, n_features: int, n_columns: int | None):
    """Build the nodes below ``root`` with an explicit stack, checking each against the schema."""
    seen: dict[int, str] = {}
    holder = [None]
    stack = [(root, root_path, holder, 0)]
    while stack:
        entry, path, container, key = stack.pop()
        entry = _object(entry, path)
        if id(entry) in seen:
            _fail(path, f"is the same object as {seen[id(entry)]}; every node must be its own object (a cycle or a "
                        "shared subtree)")
        seen[id(entry)] = path
        kinds = [name for name in ("prediction", "feature", "children") if name in entry]
        if len(kinds) != 1:
            problem = "has none of" if not kinds else f"has {' and '.join(kinds)}: only one of"
            _fail(path, f"{problem} 'prediction' (a leaf), 'feature' (a binary split), 'children' (a multiway split)")
        if kinds[0] == "prediction":
            node = _read_leaf(entry, path, n_classes)
        elif kinds[0] == "feature":
            feature = _index(entry["feature"], n_features, _join(path, "feature"), "features")
            node = Split(feature, None, None)
            stack.append((_field(entry, "right", path), _join(path, "right"), node, "right"))
            stack.append((_field(entry, "left", path), _join(path, "left"), node, "left"))
        else:
            node = _read_multiway(entry, path, n_columns)
            children_path = _join(path, "children")
            for i in reversed(range(len(node.children))):
                stack.append((entry["children"][i], _join(children_path, i), node.children, i))
        if isinstance(container, Split):          # a split's children are attributes, the rest list items
            setattr(container, key, node)
        else:
            container[key] = node
    return holder[0]


def _read_leaf(entry: dict, path: str, n_classes: int) -> Leaf:
    prediction = _index(entry["prediction"], n_classes, _join(path, "prediction"), "classes")
    counts_path = _join(path, "counts")
    counts = _list(entry.get("counts", []), counts_path)
    if len(counts) not in (0, n_classes):
        _fail(counts_path, f"has {len(counts)} entries; expected one per class ({n_classes}) or none")
    counts = tuple(_finite(c, _join(counts_path, i), at_least=0.0) for i, c in enumerate(counts))
    loss = _finite(entry.get("loss", 0.0), _join(path, "loss"))
    return Leaf(prediction, counts, float(loss))


def _read_multiway(entry: dict, path: str, n_columns: int | None) -> MultiwaySplit:
    column = _column_name(_field(entry, "column", path), _join(path, "column"))
    column_index = _column_index(_field(entry, "column_index", path), n_columns, _join(path, "column_index"))
    values_path, children_path = _join(path, "values"), _join(path, "children")
    values = _list(_field(entry, "values", path), values_path)
    children = _list(entry["children"], children_path)
    if not children:
        _fail(children_path, "is empty; a multiway split has at least one child")
    if len(values) != len(children):
        _fail(values_path, f"has {len(values)} values for {len(children)} children; a multiway split has one "
                           "child per value")
    for i, value in enumerate(values):
        _scalar(value, _join(values_path, i), allow_null=True)
    _distinct(values, values_path)
    return MultiwaySplit(column, column_index, list(values), [None] * len(children))


def tree_fields_from_json(text: str | bytes) -> dict:
    """:func:`tree_fields_from_dict` of a JSON text; text that is not JSON is a :class:`ModelJSONError` too.

    Examples
    --------
    >>> tree_fields_from_json('{"classes": ["a"], "features": [], "root": {"prediction": 0}}')["classes"]
    ['a']
    >>> tree_fields_from_json('{"classes": ["a"]')   # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    treeopt.model_json.ModelJSONError: model JSON: not valid JSON (Expecting ',' delimiter: line 1 column 18 (char 17)); ...
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        _fail("", f"not valid JSON ({error})")
    except RecursionError:
        _fail("", "nested too deeply for Python's JSON reader")
    return tree_fields_from_dict(data)

"""A fitted treeopt tree as a fitted scikit-learn ``DecisionTreeClassifier``.

:func:`to_sklearn` builds a ``DecisionTreeClassifier`` whose ``tree_`` has
the same splits and leaves as a treeopt :class:`~treeopt.tree.Tree`, so the
tools written for scikit-learn trees work on it: ``sklearn.tree.plot_tree``,
``sklearn.tree.export_text``, ``export_graphviz`` and dtreeviz (which reads
scikit-learn trees; ``dtreeviz.model(model, X, y, feature_names=...)``).
It predicts what treeopt predicts, and its ``predict_proba`` returns
treeopt's leaf class frequencies (:meth:`~treeopt.tree.Tree.leaf_probabilities`).

Which table the exported model reads (``input=``):

* ``"original"``: the original numeric table, column for column. A
  threshold feature ``x <= t`` becomes a node on column ``x`` with
  threshold ``t`` (scikit-learn goes left when ``x <= t``, so the true
  branch is the left child); a 0/1 column becomes ``x <= 0.5`` (its true
  side, ``x = 1``, on the right); ``x is missing`` becomes ``x <= inf``
  with missing values sent right (scikit-learn's missing-value routing:
  every present value is ``<= inf``). A missing value is false on every
  other test, as in treeopt: it goes to the ``x > t`` side of a threshold
  and the ``x = 0`` side of a 0/1 column. ``export_text``/``plot_tree``
  then print the original column names and thresholds. Not possible when
  the table has categorical (string) columns: scikit-learn trees read
  numbers only.
* ``"binarized"``: treeopt's binary feature matrix
  (``tree.binarizer.transform(X)``, or ``estimator.binarizer_.transform(X)``),
  one column per :class:`~treeopt.binarize.BinaryFeature`; every node
  tests ``feature <= 0.5`` (false on the left, true on the right). Always
  possible for binary splits; the feature names (``color = red``) go to
  ``feature_names=`` of ``export_text``/``plot_tree``.
* ``"auto"`` (default): ``"original"`` when possible, else ``"binarized"``.

The exported model records its choice in ``treeopt_input_`` and the names
of the columns it reads in ``treeopt_feature_names_`` (pass them as
``feature_names=`` to ``export_text``/``plot_tree``, which otherwise print
``feature_0``, ...).

The float32 boundary (``input="original"``). treeopt compares ``x <= t`` exactly (float64,
and integers as integers); a scikit-learn tree rounds ``x`` to float32 before comparing it
with its threshold, so it cannot tell apart values that round to the same float32 (about
seven significant digits: relative 6e-8, and integers beyond ``2**24``). What ``to_sklearn``
does about it: each threshold is stored as ``max(t, float32(t))``, so every value treeopt
sends to the true side of ``x <= t`` also goes left in scikit-learn (rounding is monotone),
a value equal to the threshold included. A value above ``t`` that rounds to the same
float32 as ``t`` goes left in scikit-learn and to the false side in treeopt: the exported
model can disagree there, and only there. To predict exactly, use treeopt (or
``input="binarized"``, whose 0/1 columns have no rounding). Other caveats: a 0/1 column given a value other than 0 or 1 is
read as ``x <= 0.5`` (treeopt: ``x = 1``); ``n_node_samples`` is the leaf's
training weight rounded (treeopt keeps weighted counts, not row counts).
Multiway splits (``solver="branches"``, ``multiway=True``) have no
scikit-learn equivalent and are refused.
"""

from __future__ import annotations

import numpy as np

from .tree import Leaf, MultiwaySplit, Split, Tree

__all__ = ["to_sklearn", "INPUTS", "NODE_VALUES"]

#: Values of ``input=``: which table the exported model reads.
INPUTS = ("auto", "original", "binarized")
#: Values of ``node_values=``: what a leaf's ``predict_proba`` returns.
NODE_VALUES = ("frequencies", "predictions")

#: Fields of scikit-learn's node record that the adapter fills (``missing_go_to_left`` since 1.3).
_KNOWN_FIELDS = ("left_child", "right_child", "feature", "threshold", "impurity", "n_node_samples",
                 "weighted_n_node_samples", "missing_go_to_left")
_TREE_LEAF = -1          # scikit-learn's child index of a leaf (sklearn.tree._tree.TREE_LEAF)
_TREE_UNDEFINED = -2     # its feature and threshold of a leaf (sklearn.tree._tree.TREE_UNDEFINED)


def to_sklearn(model, *, input: str = "auto", node_values: str = "frequencies", smoothing: float | None = None):
    """A fitted ``sklearn.tree.DecisionTreeClassifier`` equal to a treeopt tree.

    Parameters
    ----------
    model : Tree or fitted estimator
        A :class:`~treeopt.tree.Tree`, or an estimator with a ``tree_`` that
        is one (``OptimalTreeClassifier``, ``GreedyTreeClassifier``).
    input : {"auto", "original", "binarized"}, default="auto"
        Which table the exported model reads (see the module notes):
        the original numeric columns, or treeopt's binary feature matrix.
    node_values : {"frequencies", "predictions"}, default="frequencies"
        ``"frequencies"``: each leaf holds treeopt's leaf class frequencies,
        so ``predict_proba`` equals treeopt's. scikit-learn predicts the most
        frequent class (first on ties), so a leaf that predicts another class
        (class-weighted objectives such as ``balanced_accuracy``) is refused;
        ``"predictions"`` stores each leaf's prediction with probability 1
        instead (``predict`` agrees; ``predict_proba`` is 0/1).
    smoothing : float, optional
        Additive smoothing α of the leaf frequencies (see
        :meth:`~treeopt.tree.Tree.leaf_probabilities`). Default: the
        estimator's ``proba_smoothing`` (0 for a bare tree).

    Returns
    -------
    sklearn.tree.DecisionTreeClassifier
        Fitted, with ``tree_``, ``classes_``, ``n_features_in_`` (and
        ``feature_names_in_`` when the tree was fitted on a DataFrame with
        ``input="original"``), plus ``treeopt_input_`` and ``treeopt_feature_names_``.

    Raises
    ------
    ValueError
        Multiway splits; ``input="original"`` for a tree or table with
        categorical features; a leaf whose prediction is not its most
        frequent class under ``node_values="frequencies"``; an unknown
        scikit-learn tree format.
    TypeError
        ``model`` is neither a Tree nor a fitted tree estimator.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn.tree import export_text
    >>> from treeopt import OptimalTreeClassifier
    >>> X = pd.DataFrame({"age": [20, 25, 30, 35, 40, 45], "smoker": [0, 1, 0, 1, 0, 1]})
    >>> y = [0, 1, 0, 1, 1, 1]
    >>> clf = OptimalTreeClassifier(regularization=0.1).fit(X, y)
    >>> model = to_sklearn(clf)
    >>> model.treeopt_input_, (model.predict(X) == clf.predict(X)).all()
    ('original', np.True_)
    >>> print(export_text(model, feature_names=model.treeopt_feature_names_))
    |--- age <= 32.50
    |   |--- smoker <= 0.50
    |   |   |--- class: 0
    |   |--- smoker >  0.50
    |   |   |--- class: 1
    |--- age >  32.50
    |   |--- class: 1
    <BLANKLINE>
    """
    tree, estimator = _tree_of(model)
    if input not in INPUTS:
        raise ValueError(f"input={input!r} is not supported; use one of {INPUTS}.")
    if node_values not in NODE_VALUES:
        raise ValueError(f"node_values={node_values!r} is not supported; use one of {NODE_VALUES}.")
    if smoothing is None:
        smoothing = float(getattr(estimator, "proba_smoothing", 0.0) or 0.0)
    if tree.has_multiway:
        raise ValueError("this tree has multiway splits (one child per category: solver='branches' or "
                         "multiway=True), which scikit-learn trees cannot express (they split in two). Draw or "
                         "export it with tree.to_dot(), tree.rules() or tree.to_python(), or fit with binary "
                         "splits on one-hot features (solver='gosdt', multiway=False).")
    columns = _original_columns(tree)
    reason = _why_not_original(tree, columns)
    if input == "original" and reason:
        raise ValueError(f"input='original' is not possible: {reason}. scikit-learn trees read numbers only; use "
                         "input='binarized' and predict on the binary features, "
                         "e.g. model.predict(tree.binarizer.transform(X)).")
    kind = "binarized" if input == "binarized" or (input == "auto" and reason) else "original"
    probabilities = tree.leaf_probabilities(smoothing=smoothing)
    if node_values == "predictions":
        probabilities = np.eye(len(tree.classes))[[leaf.prediction for _, leaf in tree.leaves()]]
    else:
        _check_predictions_agree(tree, probabilities)
    nodes, values, depth = _node_arrays(tree, kind, probabilities)
    names = [f.name for f in tree.features] if kind == "binarized" else columns
    return _fitted_classifier(tree, estimator, kind, names, nodes, values, depth)


def _tree_of(model) -> tuple[Tree, object]:
    if isinstance(model, Tree):
        return model, None
    tree = getattr(model, "tree_", None)
    if isinstance(tree, Tree):
        return tree, model
    if hasattr(model, "fit") and tree is None:
        raise ValueError(f"this {type(model).__name__} is not fitted yet; call fit(X, y) before to_sklearn().")
    raise TypeError(f"to_sklearn needs a treeopt Tree or a fitted treeopt estimator (with a Tree in tree_), "
                    f"got {type(model).__name__}.")


def _original_columns(tree: Tree) -> list[str]:
    """Names of the original columns, in order (from the binarizer, else from the features)."""
    names = getattr(tree.binarizer, "feature_names_in_", None)
    if names is not None:
        return [str(name) for name in names]
    width = 1 + max([f.column_index for f in tree.features], default=-1)
    columns = [f"x{i}" for i in range(width)]
    for feature in tree.features:
        columns[feature.column_index] = str(feature.column)
    return columns


def _why_not_original(tree: Tree, columns: list[str]) -> str:
    """Why the tree cannot read the original table ('' when it can)."""
    features = list(getattr(tree.binarizer, "features_", None) or tree.features)
    for feature in features:
        if feature.kind == "category":
            return (f"column {feature.column!r} is categorical (feature {feature.name!r}), so the original table "
                    "holds values a scikit-learn tree cannot compare with a threshold")
        if feature.kind == "binary" and feature.value not in (1, True):
            return f"binary feature {feature.name!r} is true for {feature.value!r}, not for 1"
        if feature.kind not in ("threshold", "binary", "missing"):
            return f"feature {feature.name!r} has kind {feature.kind!r}"
    if not columns:
        return "the tree does not know its original columns"
    return ""


def _check_predictions_agree(tree: Tree, probabilities: np.ndarray) -> None:
    """scikit-learn predicts the first most probable class of a leaf: it must be treeopt's prediction."""
    for i, (_, leaf) in enumerate(tree.leaves()):
        favoured = int(np.argmax(probabilities[i]))
        if favoured != leaf.prediction:
            raise ValueError(
                f"leaf {i} predicts {tree.classes[leaf.prediction]!r} although its class frequencies "
                f"{np.round(probabilities[i], 4).tolist()} favour {tree.classes[favoured]!r} (a class-weighted "
                "objective, or an empty leaf); scikit-learn predicts a leaf's most frequent class. Pass "
                "node_values='predictions' to store each leaf's prediction instead (predict then agrees, "
                "predict_proba is 0/1).")


def _node_dtype() -> np.dtype:
    """scikit-learn's node record, checked against the fields the adapter knows."""
    import sklearn
    from sklearn.tree._tree import NODE_DTYPE

    dtype = np.dtype(NODE_DTYPE)
    unknown = [name for name in dtype.names if name not in _KNOWN_FIELDS]
    lacking = [name for name in _KNOWN_FIELDS[:-1] if name not in dtype.names]
    if unknown or lacking:
        raise ValueError(f"scikit-learn {sklearn.__version__} stores tree nodes with fields {list(dtype.names)}, "
                         f"which treeopt's adapter does not know (unknown {unknown}, absent {lacking}); "
                         "to_sklearn supports scikit-learn 1.4 to 1.9. Export with tree.to_dot() or "
                         "tree.to_json() instead, or install a supported scikit-learn.")
    return dtype


def _node_arrays(tree: Tree, kind: str, leaf_probabilities: np.ndarray):
    """(nodes, values, max_depth) of the tree in pre-order, as scikit-learn's Tree state holds them."""
    dtype = _node_dtype()
    leaf_index = {id(leaf): i for i, (_, leaf) in enumerate(tree.leaves())}
    records, values = [], []
    n_classes = len(tree.classes)
    deepest = [0]

    def weight_counts(node) -> np.ndarray:
        if isinstance(node, Leaf):
            counts = np.asarray(node.counts, dtype=float)
            return counts if counts.size == n_classes else np.zeros(n_classes)
        return weight_counts(node.left) + weight_counts(node.right)

    def add(node, depth) -> int:
        deepest[0] = max(deepest[0], depth)
        my_id = len(records)
        counts = weight_counts(node)
        weight = float(counts.sum())
        record = dict(left_child=_TREE_LEAF, right_child=_TREE_LEAF, feature=_TREE_UNDEFINED,
                      threshold=float(_TREE_UNDEFINED), n_node_samples=int(round(weight)),
                      weighted_n_node_samples=weight, missing_go_to_left=0)
        records.append(record)
        if isinstance(node, Leaf):
            value = leaf_probabilities[leaf_index[id(node)]]
        else:
            value = counts / weight if weight > 0 else np.full(n_classes, 1.0 / n_classes)
        values.append(value)
        record["impurity"] = float(1.0 - np.sum(np.square(value)))     # Gini, scikit-learn's default criterion
        if isinstance(node, MultiwaySplit):   # pragma: no cover - refused by to_sklearn before
            raise ValueError("multiway splits cannot be exported to scikit-learn.")
        if isinstance(node, Split):
            column, threshold, left, right, missing_left = _sklearn_split(tree, node, kind)
            if missing_left and "missing_go_to_left" not in dtype.names:
                raise ValueError("this scikit-learn has no missing-value routing (needs 1.3 or later), which the "
                                 "exported 0/1 column test needs; use input='binarized'.")
            record.update(feature=column, threshold=threshold, missing_go_to_left=int(missing_left))
            record["left_child"] = add(left, depth + 1)
            record["right_child"] = add(right, depth + 1)
        return my_id

    add(tree.root, 0)
    nodes = np.zeros(len(records), dtype=dtype)
    for i, record in enumerate(records):
        for name in dtype.names:
            nodes[name][i] = record[name]
    return nodes, np.asarray(values, dtype=np.float64).reshape(len(records), 1, n_classes), deepest[0]


def _float32_safe_threshold(t) -> float:
    """The threshold scikit-learn needs to send ``x`` left exactly when treeopt's ``x <= t`` holds.

    scikit-learn rounds ``x`` to float32 before comparing it with a float64
    threshold. Rounding is monotone, so ``x <= t`` implies
    ``float32(x) <= float32(t)``; when ``float32(t)`` rounds up past ``t``
    (``t = 0.05``), the threshold must be ``float32(t)`` or a row with
    ``x == t`` goes right. Only values within float32 precision of ``t`` but
    not equal to it can still be routed differently.

    Examples
    --------
    >>> _float32_safe_threshold(0.05) > 0.05, _float32_safe_threshold(2.5) == 2.5
    (True, True)
    """
    return max(float(t), float(np.float32(t)))


def _sklearn_split(tree: Tree, node: Split, kind: str) -> tuple[int, float, object, object, bool]:
    """(column, threshold, left child, right child, missing goes left) of one binary split.

    scikit-learn sends a row left when ``x <= threshold`` and a NaN left iff
    ``missing_go_to_left``; treeopt's ``Split`` has the false branch in
    ``left`` and the true branch in ``right``.
    """
    if kind == "binarized":
        return node.feature, 0.5, node.left, node.right, False
    feature = tree.features[node.feature]
    if feature.kind == "threshold":       # true = x <= t = left; a missing value is false: right
        return feature.column_index, _float32_safe_threshold(feature.value), node.right, node.left, False
    if feature.kind == "missing":         # every present value <= inf goes left (false); NaN right (true)
        return feature.column_index, float("inf"), node.left, node.right, False
    # A 0/1 column: true = (x = 1) = x > 0.5 = right; a missing value is false: left.
    return feature.column_index, 0.5, node.left, node.right, True


def _fitted_classifier(tree: Tree, estimator, kind: str, names: list[str], nodes, values, depth: int):
    from sklearn.tree import DecisionTreeClassifier
    from sklearn.tree._tree import Tree as SklearnTree

    n_classes = len(tree.classes)
    n_features = len(names)
    model = DecisionTreeClassifier()
    state = {"max_depth": int(depth), "node_count": len(nodes), "nodes": nodes, "values": values}
    sk_tree = SklearnTree(n_features, np.asarray([n_classes], dtype=np.intp), 1)
    try:
        sk_tree.__setstate__(state)
    except (KeyError, ValueError, TypeError) as error:
        import sklearn
        raise ValueError(f"scikit-learn {sklearn.__version__} refused the exported tree state ({error}); "
                         "to_sklearn supports scikit-learn 1.4 to 1.9. Export with tree.to_dot() or "
                         "tree.to_json() instead.") from error
    model.tree_ = sk_tree
    classes = np.asarray(tree.classes)
    if estimator is not None and getattr(estimator, "classes_", None) is not None:
        classes = np.asarray(estimator.classes_)
    model.classes_ = classes
    model.n_classes_ = n_classes
    model.n_outputs_ = 1
    model.n_features_in_ = n_features
    model.max_features_ = n_features
    if kind == "original" and _has_real_names(tree, estimator, names):
        model.feature_names_in_ = np.asarray(names, dtype=object)
    model.treeopt_input_ = kind
    model.treeopt_feature_names_ = list(names)
    return model


def _has_real_names(tree: Tree, estimator, names: list[str]) -> bool:
    """Whether the tree was fitted on a DataFrame with named columns (not ``x0, x1, ...`` of an array)."""
    if estimator is not None:
        return getattr(estimator, "feature_names_in_", None) is not None
    if tree.binarizer is None:
        return False
    return names != [f"x{i}" for i in range(len(names))]

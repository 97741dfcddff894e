"""What a fitted tree scores on data: its objective, accuracy and (binary) TPR/FPR.

:func:`evaluate` recomputes everything from the leaf partition of the rows
(:meth:`Tree.leaf_counts`), never from counts stored in the leaves, so it
works on training and on held-out data alike.
"""

from __future__ import annotations

import numpy as np

from .objectives import get_objective

__all__ = ["evaluate"]


def evaluate(tree, X, y, objective=None, *, regularization: float = 0.0, sample_weight=None,
             binarized: bool | None = None, penalty: str = "leaf") -> dict:
    """The objective's value plus accuracy and, for binary labels, TPR and FPR.

    Parameters
    ----------
    tree : Tree
    X, y : array_like
        Rows (original table, or the binary matrix with ``binarized=True``) and labels.
    objective : str or Objective, optional
        Default ``"accuracy"``. Pass an instance for parameters (``FScore(omega=2)``).
    regularization : float, default=0.0
        λ, to report ``objective + λ × leaves`` (or ``× splits``) as well.
    sample_weight : array_like, optional
    binarized : bool, optional
        As in :meth:`Tree.apply`.
    penalty : {"leaf", "split"}, default="leaf"
        What λ is charged for in ``penalized``: each leaf (GOSDT's
        objective), or each internal node (``"split"``, Branches'
        convention), as in :meth:`Tree.objective`.

    Returns
    -------
    dict
        ``objective`` (name), ``loss`` (objective units, the tree's leaf
        labels used where labels matter), ``value`` (= 1 − loss: the
        accuracy, balanced accuracy, F1, AUC or partial AUC itself),
        ``penalized`` (loss + λ × leaves, or × splits with
        ``penalty="split"``), ``accuracy``, ``n_leaves``, ``n_splits`` and,
        for two classes (class index 1 positive), ``tpr`` and ``fpr`` of
        the leaves' predicted labels (``None`` when undefined or multiclass).

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.tree import Tree, Leaf, Split
    >>> from treeopt.binarize import BinaryFeature
    >>> t = Tree(Split(0, Leaf(0), Leaf(1)), [BinaryFeature("x", 0, "threshold", 0.5, "x <= 0.5")], [0, 1])
    >>> X = np.array([[0], [0], [1], [1], [1]]); y = np.array([0, 1, 1, 1, 0])
    >>> r = evaluate(t, X, y, "f1", binarized=True)
    >>> r["objective"], round(r["value"], 4), r["accuracy"], round(r["tpr"], 4), r["fpr"]
    ('f1', 0.6667, 0.6, 0.6667, 0.5)

    λ per split instead of per leaf (two leaves, one split):

    >>> [round(evaluate(t, X, y, regularization=0.1, binarized=True, penalty=p)["penalized"], 6) for p in ("leaf", "split")]
    [0.6, 0.5]
    """
    if penalty not in ("leaf", "split"):
        raise ValueError(f"penalty must be 'leaf' (λ per leaf) or 'split' (λ per internal node), got {penalty!r}.")
    obj = get_objective(objective or "accuracy")
    counts = tree.leaf_counts(X, y, sample_weight=sample_weight, binarized=binarized)
    labels = np.array([leaf.prediction for _, leaf in tree.leaves()], dtype=int)
    loss = float(obj.tree_loss(counts, predictions=labels))
    total = counts.sum()
    correct = counts[np.arange(len(counts)), labels].sum()
    report = {
        "objective": obj.name,
        "loss": loss,
        "value": 1.0 - loss,
        "penalized": loss + regularization * (len(counts) if penalty == "leaf" else tree.n_splits),
        "accuracy": float(correct / total) if total > 0 else None,
        "n_leaves": len(counts),
        "n_splits": int(tree.n_splits),
        "tpr": None,
        "fpr": None,
    }
    if counts.shape[1] == 2:
        negatives, positives = counts.sum(axis=0)
        predicted_positive = labels == 1
        if positives > 0:
            report["tpr"] = float(counts[predicted_positive, 1].sum() / positives)
        if negatives > 0:
            report["fpr"] = float(counts[predicted_positive, 0].sum() / negatives)
    return report

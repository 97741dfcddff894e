"""Straightforward second implementations of every objective's metric, row by row.

The tests compare :mod:`treeopt.objectives` and :mod:`treeopt.roc` (which
work on per-leaf count tables with cumulative sums) against these, which
work on expanded rows with plain loops and share no code with the package.
They are in turn cross-checked against scikit-learn where the definitions
coincide.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

__all__ = ["tables", "expand", "error_rate", "balanced_error", "weighted_error", "f_loss", "auc_by_pairs",
           "partial_auc_by_segments", "omega_labels", "majority_labels"]


def expand(table):
    """Rows of a (leaves × classes) count table: (leaf, label, weight), one row per non-zero cell."""
    table = np.asarray(table, dtype=float)
    leaf, label, weight = [], [], []
    for i in range(table.shape[0]):
        for c in range(table.shape[1]):
            if table[i, c] > 0:
                leaf.append(i)
                label.append(c)
                weight.append(table[i, c])
    return np.array(leaf, dtype=int), np.array(label, dtype=int), np.array(weight, dtype=float)


def error_rate(y, pred, w) -> float:
    wrong = sum(wi for yi, pi, wi in zip(y, pred, w) if yi != pi)
    return wrong / sum(w)


def balanced_error(y, pred, w) -> float:
    rates = []
    for c in sorted(set(y.tolist())):
        total = sum(wi for yi, wi in zip(y, w) if yi == c)
        wrong = sum(wi for yi, pi, wi in zip(y, pred, w) if yi == c and pi != c)
        rates.append(wrong / total)
    return sum(rates) / len(rates)


def _confusion(y, pred, w):
    tp = sum(wi for yi, pi, wi in zip(y, pred, w) if yi == 1 and pi == 1)
    fp = sum(wi for yi, pi, wi in zip(y, pred, w) if yi == 0 and pi == 1)
    fn = sum(wi for yi, pi, wi in zip(y, pred, w) if yi == 1 and pi == 0)
    tn = sum(wi for yi, pi, wi in zip(y, pred, w) if yi == 0 and pi == 0)
    return tp, fp, fn, tn


def weighted_error(y, pred, w, omega) -> float:
    """(FP + ω FN) / (ω N⁺ + N⁻)."""
    tp, fp, fn, tn = _confusion(y, pred, w)
    return (fp + omega * fn) / (omega * (tp + fn) + fp + tn)


def f_loss(y, pred, w) -> float:
    """1 − F1 = 1 − 2 precision recall / (precision + recall)."""
    tp, fp, fn, _ = _confusion(y, pred, w)
    if tp == 0:
        return 1.0
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    return 1.0 - 2 * precision * recall / (precision + recall)


def auc_by_pairs(y, score, w) -> float:
    """Fraction of (positive, negative) weight pairs ranked correctly, ties counting one half."""
    good = total = 0.0
    for sp, wp in zip(score[y == 1], w[y == 1]):
        for sn, wn in zip(score[y == 0], w[y == 0]):
            total += wp * wn
            good += wp * wn * (1.0 if sp > sn else 0.5 if sp == sn else 0.0)
    return good / total


def partial_auc_by_segments(y, score, w, theta) -> float:
    """Area under the ROC curve of ``score`` for FPR <= θ, over θ: threshold by threshold, each
    segment clipped to [0, θ]."""
    negatives, positives = w[y == 0].sum(), w[y == 1].sum()
    area, fpr, tpr = 0.0, 0.0, 0.0
    for s in sorted(set(score.tolist()), reverse=True):
        at = score == s
        new_fpr = fpr + w[at & (y == 0)].sum() / negatives
        new_tpr = tpr + w[at & (y == 1)].sum() / positives
        if fpr < theta:
            end = min(new_fpr, theta)
            if new_fpr > fpr:
                tpr_end = tpr + (new_tpr - tpr) * (end - fpr) / (new_fpr - fpr)
                area += (end - fpr) * (tpr + tpr_end) / 2
        fpr, tpr = new_fpr, new_tpr
    return area / theta


def omega_labels(table, omega):
    """Appendix D: leaf labelled 0 when ω n⁺ <= n⁻."""
    return [0 if omega * pos <= neg else 1 for neg, pos in np.asarray(table, dtype=float)]


def majority_labels(table):
    """The label with the most weight in each leaf (ties: the lowest label)."""
    return [int(np.argmax(row)) for row in np.asarray(table, dtype=float)]


@st.composite
def tables(draw, n_classes=2, weights="int", max_leaves=6):
    """A (leaves × classes) count table in which every class has weight."""
    n_leaves = draw(st.integers(1, max_leaves))
    if weights == "int":
        cell = st.integers(0, 8).map(float)
    else:
        cell = st.one_of(st.just(0.0), st.floats(0.05, 5.0))
    table = np.array(draw(st.lists(st.lists(cell, min_size=n_classes, max_size=n_classes),
                                   min_size=n_leaves, max_size=n_leaves)))
    for c in range(n_classes):
        if table[:, c].sum() == 0:
            table[draw(st.integers(0, n_leaves - 1)), c] = 1.0
    return table

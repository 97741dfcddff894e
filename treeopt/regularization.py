"""The one default λ of every front end: the estimator, ``make_solver``, the greedy estimator and solver,
``treeopt demo``, ``treeopt fit`` and ``treeopt ablation``.

λ is the objective's price of one leaf: the objective is ``loss + λ × leaves`` with the loss a
fraction of the (weighted) rows, so a split is worth making only if its two leaves misclassify at
least a fraction λ of the rows fewer than the leaf they replace (Hu, Rudin and Seltzer, *Optimal
Sparse Decision Trees*, NeurIPS 2019, section 3: "misclassifying a fraction λ of the training data
suffers the same as adding one to the number of leaves").

:data:`DEFAULT_REGULARIZATION` is 0.05: a leaf must correct 5 % of the rows. On two classes the
one-leaf tree's objective is at most ½ + λ, which caps an optimal tree at ``1/(2λ) + 1`` leaves,
11 at this default: a tree a person reads at a glance, and a search space small enough to certify
on a newcomer's first table. A smaller λ (0.01, 0.005, as in the papers' experiments) finds larger,
more accurate trees at a higher search cost; pass it explicitly.

Examples
--------
>>> from treeopt import OptimalTreeClassifier
>>> OptimalTreeClassifier().regularization == DEFAULT_REGULARIZATION
True
"""

from __future__ import annotations

__all__ = ["DEFAULT_REGULARIZATION"]

#: λ when none is given: a leaf must save 5 % of the rows (see the module's docstring for why).
DEFAULT_REGULARIZATION = 0.05

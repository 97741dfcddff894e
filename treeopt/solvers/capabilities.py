"""What a solver accepts, declared as data, so that callers never branch on solver names.

:func:`treeopt.make_solver` reads a solver's :class:`Capabilities` to choose the dataset it
builds (binary features, or categorical columns kept whole), to refuse an objective or an option
the solver cannot take (naming the solvers that can), and to pass the solver's own options on.
A new solver declares its capabilities in its class and registers itself in
:mod:`treeopt.registry`; nothing else changes.

Examples
--------
>>> from treeopt.solvers import OSDT, Branches
>>> OSDT.CAPABILITIES.objectives, "schedule" in OSDT.CAPABILITIES.options
('any', True)
>>> Branches.CAPABILITIES.dataset, Branches.CAPABILITIES.penalties
('categorical', ('split', 'leaf'))
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Capabilities"]


@dataclass(frozen=True)
class Capabilities:
    """What a solver accepts.

    Attributes
    ----------
    dataset : {"binary", "categorical", "sorted"}
        ``"binary"``: a :class:`~treeopt.data.Dataset` of 0/1 features (numeric columns
        thresholded, categories one-hot). ``"categorical"``: a
        :class:`~treeopt.categorical.CategoricalDataset` whose categorical columns stay whole
        (multiway splits). ``"sorted"``: a :class:`~treeopt.sorted_columns.SortedDataset` whose
        numeric columns stay values, each sorted once (categories one-hot).
    objectives : {"additive", "any"}
        ``"additive"``: only objectives that are sums over leaves (dynamic programming needs
        them); ``"any"``: also F-score, AUC and partial AUC.
    penalties : tuple of str
        How λ may be charged: ``"leaf"`` (per leaf) and/or ``"split"`` (per internal node).
    options : tuple of str
        The solver's own keyword settings beyond ``regularization``, ``objective``, ``bounds``
        and ``depth_budget`` (for example ``"schedule"``), which :func:`treeopt.make_solver`
        passes on when given.
    guesses_lower_bounds : bool
        Whether the solver takes ``reference_errors`` (lower-bound guessing, McTavish et al.,
        *Fast sparse decision tree optimization via reference ensembles*, section 4.3).
    depth_budget : bool
        Whether the solver takes a ``depth_budget`` (the Rashomon set keeps trees of every depth
        and is filtered by depth afterwards).
    zero_regularization : bool
        Whether the solver takes ``regularization=0`` with a depth budget: the most accurate tree
        of at most that depth, ties broken by fewer leaves.
    single_class : bool
        Whether the solver takes labels of one class only: the frontier does (its one tree is the
        single leaf, a valid answer); the others refuse them, as a classifier does.
    """

    dataset: str = "binary"
    objectives: str = "additive"
    penalties: tuple = ("leaf",)
    options: tuple = ()
    guesses_lower_bounds: bool = False
    depth_budget: bool = True
    zero_regularization: bool = False
    single_class: bool = False

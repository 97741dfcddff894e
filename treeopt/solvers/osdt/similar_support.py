"""OSDT's similar support bound (Theorem 7 of Hu, *Optimal Sparse Decision Trees*, thesis 2019, section 3.6).

Two children ``d`` and ``D`` of one popped partial tree are *twins* when they
split the same leaves with the same features and carry the same fixed /
split marks, except for one split leaf ``p`` that ``d`` splits on ``f`` and
``D`` on ``g``. Theorem 7 bounds their difference by ``ω``, the weight of
``p ∧ (f xor g)``, and concludes: once ``D`` *and all its descendants* are
known to be no better than ``R^c + ω``, ``d`` and all its descendants can be
pruned (equation 3.19). Comparing with ``D``'s own lower bound is not enough:
``d``'s own lower bound already differs from it by at most ``ω``, so that
prunes nothing the hierarchical bound does not. The bound needed is the
minimum over ``D``'s *descendants*, known only once ``D``'s whole sub-search
has finished. This module keeps that bookkeeping.

When the twins apply
    The theorem needs the subtrees that can grow under ``p ∧ f`` in ``d`` to
    be exactly those that can grow under ``p ∧ g`` in ``D`` (the "{all
    possible t1's} = {all possible T1's}" condition under equation 3.17).
    Here it is used where that holds by construction: both new leaves of
    ``p`` are *fixed* in the twins, so they stay leaves in every descendant.
    Then every descendant ``d'`` of ``d`` that the search can reach (ignoring
    the lower bounds) is ``D``'s descendant ``D'`` with the same extensions
    of the identical other leaves, reached by the same moves (the other
    leaves are the same cached leaves, so leaf support, incremental accuracy,
    dead features and the depth budget decide alike), and the difference of
    objectives is not only at most ``ω`` but exactly
    ``Δ = loss(p∧f) + loss(p∧¬f) − loss(p∧g) − loss(p∧¬g)`` (``|Δ| <= ω``:
    only rows of ``p ∧ (f xor g)`` change leaf). So an optimal tree under
    ``d`` that the rules cutting a tree for a better one elsewhere
    (Theorems 3-5) keep has a twin under ``D`` that they keep too, and its
    objective is at least ``L(D) + Δ``. When a split new leaf of
    ``p`` is involved, the twin of a descendant can have an empty leaf or a
    split the search never generates, so no bound is claimed there.

The bound over a finished sub-search
    ``L(D)`` is the minimum over the places where ``D``'s sub-search stopped:
    the objective of every complete tree evaluated in it, the bound of every
    child pruned by a lower bound (or of a queued tree dropped when popped),
    the bound of every child dropped as a permutation of a queued tree
    (Corollary 6: the same descendants), and the bound of every tree pruned
    by this rule. It is a lower bound on every reachable descendant of
    ``D``, whatever the incumbent was when each place was bounded. So ``d``
    is pruned when ``L(D) + Δ >= R^c``.

Memory
    Every open tree holds a small record: its parent's record, how many of
    its children are still open, the running minimum, and the twins' key.
    A record finishes when its tree has been expanded and all its queued
    children have finished; it then reports to its parent and is dropped.
    The finished twins of one parent are kept (one number per twin class)
    only while that parent has open children, the only ones that can use
    them.

Examples
--------
>>> ledger = SimilarSupport()
>>> root = ledger.root()
>>> D = ledger.child(root, features=(3,), marks=(0,), twin_losses=(2.0,))
>>> d = ledger.child(root, features=(5,), marks=(0,), twin_losses=(2.5,))
>>> ledger.lower_bound(d) is None          # D's sub-search has not finished yet
True
>>> ledger.stop(D, 10.0)                    # a complete tree under D, objective 10
>>> ledger.stop(D, 12.0)                    # a child of D pruned with bound 12
>>> ledger.expanded(D)                      # D expanded, no child queued: finished, L(D) = 10
>>> ledger.lower_bound(d)                   # L(D) + Δ = 10 + (2.5 - 2.0)
10.5
"""

from __future__ import annotations

__all__ = ["SimilarSupport", "SubsearchRecord"]

INF = float("inf")


class SubsearchRecord:
    """The bookkeeping of one partial tree's sub-search (see the module docstring)."""

    __slots__ = ("parent", "open", "low", "features", "marks", "twin_losses", "twins")

    def __init__(self, parent, features, marks, twin_losses):
        self.parent = parent            # the record of the tree this one is a child of (None: the root)
        self.open = 1                   # 1 until expanded or dropped, + children queued and unfinished
        self.low = INF                  # minimum over the places where the sub-search stopped so far
        self.features = features        # the feature splitting each split leaf of the parent
        self.marks = marks              # per split leaf of the parent: bit 1 right split, bit 2 left split
        self.twin_losses = twin_losses  # per split leaf of the parent: loss of its two new leaves
        self.twins = {}                 # finished children's classes: key -> max(L(D) - twin loss)


class SimilarSupport:
    """Parent links, open counts and finished twins for OSDT's Theorem 7 (module docstring).

    All numbers are in the search's units (OSDT uses weight units). The
    search calls :meth:`root` and :meth:`child` when it queues a tree,
    :meth:`stop` for every place where a sub-search stops without queueing,
    :meth:`expanded` after expanding a tree and :meth:`dropped` when a popped
    tree is not expanded; :meth:`lower_bound` gives the bound of a tree from
    its finished twins.

    Examples
    --------
    >>> ledger = SimilarSupport()
    >>> root = ledger.root()
    >>> D = ledger.child(root, features=(1, 2), marks=(0, 2), twin_losses=(1.0, 3.0))
    >>> grandchild = ledger.child(D, features=(4,), marks=(1,), twin_losses=(0.5,))
    >>> ledger.expanded(D)                  # D expanded, its child still open
    >>> d = ledger.child(root, features=(7, 2), marks=(0, 2), twin_losses=(1.5, 3.0))
    >>> ledger.lower_bound(d) is None
    True
    >>> ledger.dropped(grandchild, 9.0)     # popped and not expanded: bound 9
    >>> ledger.lower_bound(d)               # only position 0 is fixed in both twins: 9 + 1.5 - 1.0
    9.5
    >>> ledger.open_records                 # the root and d
    2
    """

    def __init__(self):
        self.open_records = 0

    def root(self) -> SubsearchRecord:
        """The record of the search's first partial tree."""
        self.open_records += 1
        return SubsearchRecord(None, (), (), ())

    def child(self, parent: SubsearchRecord, features: tuple, marks: tuple,
              twin_losses: tuple) -> SubsearchRecord:
        """The record of a queued child of ``parent`` (its features, marks and new leaves' losses)."""
        parent.open += 1
        self.open_records += 1
        return SubsearchRecord(parent, features, marks, twin_losses)

    def stop(self, record: SubsearchRecord, value: float) -> None:
        """The sub-search of ``record`` stopped somewhere with a lower bound ``value`` there."""
        if value < record.low:
            record.low = value

    def expanded(self, record: SubsearchRecord) -> None:
        """``record``'s tree has been expanded (its children queued or stopped)."""
        self._close(record)

    def dropped(self, record: SubsearchRecord, value: float) -> None:
        """``record``'s tree was popped and not expanded, with lower bound ``value``."""
        self.stop(record, value)
        self._close(record)

    def lower_bound(self, record: SubsearchRecord) -> float | None:
        """The best bound Theorem 7 gives on every descendant of ``record``'s tree, or None.

        The maximum over its parent's finished twins (both new leaves of the
        differing split fixed) of ``L(D) + Δ``.
        """
        parent = record.parent
        if parent is None or not parent.twins:
            return None
        best = None
        twins = parent.twins
        for i, key in _twin_keys(record):
            known = twins.get(key)
            if known is not None:
                value = known + record.twin_losses[i]
                if best is None or value > best:
                    best = value
        return best

    def _close(self, record: SubsearchRecord) -> None:
        while True:
            record.open -= 1
            if record.open > 0:
                return
            self.open_records -= 1
            record.twins = None                     # no child of it can be popped any more
            parent = record.parent
            if parent is None:
                return
            parent.low = min(parent.low, record.low)
            twins = parent.twins
            if twins is not None and parent.open > 1:   # a sibling is still open to use it
                for i, key in _twin_keys(record):
                    value = record.low - record.twin_losses[i]
                    if value > twins.get(key, -INF):
                        twins[key] = value
            record.parent = None
            record = parent


def _twin_keys(record: SubsearchRecord):
    """(position, key) of each twin class: positions whose two new leaves are fixed."""
    features, marks = record.features, record.marks
    for i, mark in enumerate(marks):
        if mark == 0:
            yield i, (i, features[:i] + features[i + 1:], marks)

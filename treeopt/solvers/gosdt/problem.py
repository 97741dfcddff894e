"""A subproblem of GOSDT's dynamic program: the rows of one support set and bounds on their optimum.

Lin et al., *Generalized and Scalable Optimal Sparse Decision Trees* (ICML 2020), section 4 and
Algorithm 1: a problem is identified by its support set, keeps bounds ``lb <= R*(p) <= ub`` on its
optimal objective, and links to the parents whose splits reach it, so that a change of its bounds
propagates upwards.
"""

from __future__ import annotations

import math

__all__ = ["Problem", "counts_minus"]


def counts_minus(total: tuple, part: tuple) -> tuple:
    """Class counts of a support set minus those of a subset of it."""
    if len(total) == 2:
        return (total[0] - part[0], total[1] - part[1])
    return tuple([a - b for a, b in zip(total, part)])


class Problem:
    """A subproblem: the rows in ``support``, with bounds on its optimal objective (weight units)."""

    __slots__ = ("support", "depth_left", "lb", "ub", "leaf_obj", "leaf_loss", "prediction", "counts",
                 "eq", "plain_lb", "splits", "parent_links", "expanded", "origin", "queued", "scope", "scope_epoch",
                 "explored", "completion", "similar", "lb_split")

    def __init__(self, support, depth_left, counts, leaf_loss, prediction, leaf_obj, lb, eq, plain_lb, origin):
        self.support = support
        self.depth_left = depth_left
        self.counts = counts
        self.eq = eq                  # equivalent-points loss (0 with that bound off), equation 9
        self.leaf_loss = leaf_loss
        self.prediction = prediction
        self.leaf_obj = leaf_obj
        self.lb = lb
        self.ub = leaf_obj
        self.plain_lb = plain_lb      # eq + λ: what the bound would be without lookahead
        self.splits = None            # list of (feature, left, right) still viable, once expanded
        # For each split that has this problem as a child, its parent and the other child, flat:
        # [parent, sibling, parent, sibling, ...] (two references per split, no tuple each).
        self.parent_links = []
        self.expanded = False
        self.origin = origin          # (parent problem, feature, side) of the first path that reached it
        self.queued = False
        self.scope = -math.inf        # the largest objective a parent can still use (see GOSDT._explore)
        self.scope_epoch = 0          # the root incumbent's epoch that scope was computed in (GOSDT._fresh_scope)
        self.explored = -math.inf     # the target of the last _explore of this problem's splits
        self.completion = None        # (objective, spec of a small tree, or a ready tree) of a known subtree
        self.similar = None           # SimilarSupport of its splits (``similar_support``), or None
        self.lb_split = None          # the split of least lower bound at the last GOSDT._rebound, if below the leaf

    @property
    def solved(self) -> bool:
        return self.lb >= self.ub

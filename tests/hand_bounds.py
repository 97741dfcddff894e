"""A lower bound written by hand as a student would, shared by the plug-in tests of every search:
OSDT's lookahead bound (OSDT, Lemma 2) from the node's public fields."""

from __future__ import annotations

import treeopt


def lookahead_by_hand(node):
    """OSDT's lookahead bound (Lemma 2): the fixed leaves' loss plus λ for every leaf, split ones twice."""
    return node.fixed_loss + node.regularization * (node.n_leaves + node.n_split)


MY_LOOKAHEAD = treeopt.lower_bound("my_lookahead", lookahead_by_hand, citation="OSDT Lemma 2, by hand")

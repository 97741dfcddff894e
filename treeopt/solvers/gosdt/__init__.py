"""GOSDT's engine: the dynamic program over support sets and everything it delegates to.

Lin et al., *Generalized and Scalable Optimal Sparse Decision Trees* (ICML 2020).

- :mod:`.search`: the ``GOSDT`` solver, the paper's loop (pop a problem, make its children,
  bound them, propagate changes to the parents, extract the tree).
- :mod:`.starts`: the first incumbents (CART pruned at λ from ``treeopt.solvers.cart_start``,
  depth-two and depth-three trees, offered trees).
- :mod:`.depth_two`, :mod:`.two_class_depth_two`, :mod:`.sorted_depth_two`: exact depth-two
  solvers (terminal solvers) from pair counts, class-weight differences or sorted chains.
- :mod:`.depth_three`, :mod:`.depth_four`: the loop over root splits for depths three to six.
- :mod:`.similar_support`: Theorem B.10's similar-support bound between sibling splits.
- :mod:`.bit_columns`: columns as packed bits for counting and grouping equal columns.
- :mod:`.gc_pause`: the garbage collector paused while the memo grows.
- :mod:`.memo_trim`: problems the search can no longer reach dropped from a large memo.
- :mod:`.deepening`, :mod:`.portfolio`: depth budgets 1, 2, ... with the leaf-count certificate,
  and both searches interleaved, sharing the exact subsolvers.
"""

from .deepening import DepthDeepening
from .portfolio import Portfolio
from .search import GOSDT

__all__ = ["GOSDT", "DepthDeepening", "Portfolio"]

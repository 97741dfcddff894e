"""OSDT: leaf-set branch-and-bound (Hu, *Optimal Sparse Decision Trees*).

:mod:`~treeopt.solvers.osdt.search` is the search itself; its bounds on leaf sets live in
:mod:`~treeopt.solvers.osdt.leafset_bounds`, its queue policies in
:mod:`~treeopt.solvers.osdt.schedules`, its warm starts (a tree's leaves as clause sets; the CART
tree of every exact solver, ``treeopt.solvers.cart_start``) in
:mod:`~treeopt.solvers.osdt.warm_start`. The per-bound ablation of the thesis's Table 6.2
(:func:`treeopt.ablation`) is a front end: it builds through :func:`treeopt.make_solver`.
"""

from .search import OSDT

__all__ = ["OSDT"]

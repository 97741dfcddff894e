"""GOSDT's first incumbents: the trees a search holds before (or beside) its own.

GOSDT's proof needs no incumbent, but a user who stops a search wants its best tree, and a good
upper bound early closes more of the search (GOSDT, Theorem B.3 applied downwards). These are the
switches of kind ``first_incumbent`` of :class:`~treeopt.solvers.gosdt.search.GOSDT` (its
``SWITCHES``), plus trees offered by another search (:meth:`IncumbentStarts.offer_incumbent`):

- ``cart_start`` (``treeopt.solvers.cart_start``): CART pruned at λ, set in the search's first unit of work;
- ``depth_two_start``: the best tree of depth at most two over all rows, on wide data;
- ``depth_three_start``: an exact depth-three solve in the anytime order, advanced beside the
  search in slices, on wide data.

First incumbents, each a switch of kind ``first_incumbent`` (``strategies=``) with a counter in ``prune_counts``:

``cart_start``
    A first incumbent, not a bound: CART pruned at λ (cost-complexity pruning,
    ``treeopt/solvers/cart_start.py``) becomes the root's upper bound before the
    first expansion, so the incumbent is never worse than CART's tree. Counts 1
    when it was better than the single leaf.
``depth_two_start``
    A first incumbent too, on wide data (:attr:`GOSDT.wide_features` columns or more): one
    exact depth-two solve over all rows, against CART's tree, before the first expansion.
    On thousands of threshold columns a budgeted search can hold CART's tree for a long time
    while its first depth-three subproblems are solved one after the other; the best tree of
    depth two is cheap there and often better. Skipped when another search offered
    a tree before the start (iterative deepening offers a better one). Counts 1 when it
    beat CART's tree.
``depth_three_start``
    On wide data too, with a depth budget above three or none (and not solved at the root by the
    loops of ``depth_four`` or ``depth_five_six``, whose seeds give the trees): once the search has run
    :attr:`GOSDT.depth_three_start_after` seconds without certifying, an exact depth-three
    solve over all rows advances beside it, in slices taking at most
    :attr:`GOSDT.depth_three_start_share` of the time, and each better tree it finds becomes
    the incumbent: on thousands of threshold columns a deeper search can otherwise hold a tree
    worse than the depth-three optimum for its whole time limit. The solve serves trees, not a
    proof, so it tries root splits in the anytime order of ``treeopt/solvers/gosdt/depth_three.py``.
    Skipped when another search
    offers trees (iterative deepening solves depth three itself), unless
    :attr:`GOSDT.keep_start_when_offered` (the portfolio, whose deepening proves depth three
    least bound first while this solve looks for its trees). Counts the incumbents it gave.
"""

from __future__ import annotations

import time


from ...data import points_in
from ...tree import Tree
from .depth_two import LEAF, one_blas_thread

__all__ = ["IncumbentStarts"]


class IncumbentStarts:
    """The first incumbents and offered trees of a GOSDT search (a part of :class:`GOSDT`)."""

    def _start_from_depth_two(self) -> None:
        """``depth_two_start``: the best tree of depth at most two becomes the root's incumbent if better.

        One exact depth-two solve over all rows (``treeopt/solvers/gosdt/depth_two.py``, or
        ``sorted_depth_two.py`` on threshold chains), a fraction of a second even on 15,000
        columns, against the incumbent so far (CART's tree).
        """
        root = self.root
        with one_blas_thread():
            objective, spec = (self._pairs if self._sorted is None else self._sorted).best(
                points_in(root.support, self.dataset.n_points), root.ub)
        self._count_subsolves()
        if spec is not None and spec != LEAF and self._take_offer(objective, spec, record=False):
            self.prune_counts["depth_two_start"] += 1

    @property
    def start_due(self) -> bool:
        """Whether a ``depth_three_start`` solve is under way, or due (the search has run
        :attr:`depth_three_start_after` seconds) and not built yet."""
        return self._start_run is not None and not self.root.solved and self._seconds_past_start_delay() >= 0

    def end_depth_three_start(self) -> None:
        """Stop ``depth_three_start``: another search has proved depth three, so its trees cannot help."""
        self._start_run = None

    def _seconds_past_start_delay(self) -> float:
        """``depth_three_start``: seconds of search since :attr:`depth_three_start_after` (negative before)."""
        return time.perf_counter() - self._start_clock[0] - self.depth_three_start_after

    def _start_turn(self) -> bool:
        """``depth_three_start``: whether the next unit of work is a slice of the root's depth-three solve."""
        elapsed = self._seconds_past_start_delay()
        return elapsed >= 0 and self._start_clock[1] <= self.depth_three_start_share * elapsed

    def _advance_start(self) -> None:
        """``depth_three_start``: one slice of the exact depth-three solve over all rows.

        On wide data a search with a larger depth budget (or none) can hold a tree worse than the
        best tree of depth three for minutes: its first problems of depth three are solved one
        after the other, each against a tight target. This solve runs beside it, against the
        incumbent (``treeopt/solvers/gosdt/depth_three.py``), and each better tree it finds becomes the
        incumbent, as an offered tree would. An anytime start, not a bound: the depth-three
        optimum says nothing about deeper trees.
        """
        root = self.root
        begun = time.perf_counter()
        run = self._start_run
        if run is True:
            with one_blas_thread():
                run = self._start_run = self._three.start(points_in(root.support, self.dataset.n_points), root.ub,
                                                          anytime=True)
        else:
            run.lower_target(root.ub)                             # the search may have found better
        run.advance(self.unit_budget if self.three_slice_seconds is None else self.three_slice_seconds)
        self._count_subsolves()
        if run.spec is not None and run.spec != LEAF and run.best < root.ub - self.eps:
            self._take_offer(run.best, run.spec)
            self.prune_counts["depth_three_start"] += 1
        if run.done:
            self._start_run = None
        self._start_clock[1] += time.perf_counter() - begun

    def offer_incumbent(self, tree: Tree, objective: float) -> bool:
        """Take a tree found by another search over the same dataset as the incumbent, if it is better.

        The tree's objective becomes the root's upper bound, so every subtree that cannot beat it
        is pruned from then on (Theorem B.3), while the lower bound stays a bound on this search's
        own optimum. The combined searches (``treeopt/solvers/gosdt/deepening.py``,
        ``treeopt/solvers/gosdt/portfolio.py``) share their incumbents this way. The tree may be deeper
        than ``depth_budget``: the search then proves that no tree within the budget beats it.

        Parameters
        ----------
        tree : Tree
            A tree over this search's dataset (the same features).
        objective : float
            Its objective, in objective units (what :attr:`upper_bound` reports).

        Returns
        -------
        bool
            Whether the tree became the incumbent.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> from treeopt.solvers import GOSDT
        >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
        >>> ds = Dataset.from_binary(X, X[:, 0] ^ X[:, 1])
        >>> found = GOSDT(ds, regularization=0.05).run()
        >>> search = GOSDT(ds, regularization=0.05, depth_budget=1)
        >>> search.offer_incumbent(found.tree, found.objective)
        True
        >>> result = search.run()                 # depth one cannot beat the offered depth-two tree
        >>> round(result.objective, 4), result.tree.depth
        (0.2, 2)
        """
        weight = objective / self.model.scale
        if self.root is None:                                     # taken when the search starts
            current = self.upper_bound / self.model.scale if self._offered is None else self._offered[0]
            if weight >= current - self.eps:
                return False
            self._offered = (weight, tree.root)
            return True
        taken = self._take_offer(weight, tree.root)
        if taken and not self.keep_start_when_offered:
            self._start_run = None            # another search shares its trees: no depth_three_start of our own
        return taken

    def _take_offer(self, weight: float, node, record: bool = True) -> bool:
        """Make a whole tree (a ready tree or a small-tree spec, of objective ``weight``) the root's
        incumbent if it is better: offered trees, and the ``cart_start`` and ``*_start`` trees."""
        root = self.root
        if weight >= root.ub - self.eps:
            return False
        before = root.lb
        root.completion = (weight, node)                          # a ready tree, as cart_start's
        if root.splits is None:
            root.ub = weight
        else:
            self._rebound(root)
        if root.lb >= root.ub - self.eps:                         # the lower bound is now on min(R*, weight)
            root.lb = root.ub
        if record:
            self._record(improved=True, raised=root.lb > before)
        return True

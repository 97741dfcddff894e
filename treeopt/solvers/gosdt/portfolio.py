"""Two exact searches, interleaved, sharing their bounds: GOSDT and iterative deepening on depth.

They are good at different things on wide data (measured in ``benchmarks/results_wide.md``):
GOSDT with dives finds deep trees early and certifies with its hierarchical bounds when λ is
small relative to the data's noise; iterative deepening (``treeopt/solvers/gosdt/deepening.py``)
finds the best shallow trees first and certifies through the leaf-count bound when λ is large.
Neither dominates. Both bound the same optimum ``R*``, so the portfolio keeps

* the better incumbent (``upper_bound = min`` of the two), and
* the larger lower bound (``lower_bound = max`` of the two: each is a valid bound on ``R*``),

and stops as soon as they meet, whichever search closed the gap.

Both use one set of exact small-tree solvers (``GOSDT.adopt_subsolvers``), which keep their
results by support: with a depth budget of five, GOSDT's loop over root splits and iterative
deepening's last depth solve the same supports once.

Units of work alternate by time. *Anytime first*: during the first :attr:`Portfolio.ANYTIME_SECONDS`
of search time, iterative deepening gets :attr:`Portfolio.ANYTIME_SHARE` of it, because its
best shallow trees are what a user who stops early wants (the shares were chosen on the wide
suite, ``benchmarks/results_wide.md``). After that the two share evenly, since certificates come from
either: the member furthest behind its share goes next.

*A depth-three start on wide data.* Iterative deepening proves depth three least bound first,
which meets good trees late on thousands of columns. So the GOSDT member runs its
``depth_three_start`` (an exact depth-three solve over all rows in the anytime order of
``treeopt/solvers/gosdt/depth_three.py``, which meets the optimum sooner) from
:attr:`Portfolio.THREE_START_AFTER` seconds on, keeps it when trees are shared, and while it is
under way in the first seconds, iterative deepening's share is :attr:`Portfolio.ANYTIME_SHARE_WITH_START`
instead, most of the rest going to that solve. Its trees reach both members like any other.
It ends once iterative deepening has proved depth three: it can find nothing better then
(measurements in ``benchmarks/results_wide.md``).
"""

from __future__ import annotations

from ...data import Dataset
from ...events import Started
from ...tree import Tree
from ..base import EPS, Solver
from ..capabilities import Capabilities
from .deepening import DepthDeepening
from .search import GOSDT

__all__ = ["Portfolio"]


class Portfolio(Solver):
    """GOSDT and :class:`DepthDeepening` interleaved; certified when their bounds meet.

    Parameters
    ----------
    dataset : Dataset
    regularization : float
    objective : str or Objective, default="accuracy"
        Any additive objective.
    bounds : dict of str to bool, optional
        GOSDT's switches, passed to both searches.
    depth_budget : int, optional
    strategies : dict of str to bool, optional
        GOSDT's search orders, first incumbents and subsolvers, passed to both searches.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> solver = Portfolio(Dataset.from_binary(X, X[:, 0] ^ X[:, 1]), regularization=0.05)
    >>> result = solver.run()
    >>> result.optimal, round(result.objective, 4), solver.snapshot().extra["closed_by"] in ("gosdt", "deepening", "both")
    (True, 0.2, True)
    """

    name = "portfolio"
    CAPABILITIES = Capabilities()
    SWITCHES = DepthDeepening.SWITCHES
    #: Search seconds during which iterative deepening gets the larger share.
    ANYTIME_SECONDS = 10.0
    #: Iterative deepening's share of those first seconds (1/2 afterwards).
    ANYTIME_SHARE = 0.8
    #: On wide data the GOSDT member's ``depth_three_start`` begins after this many seconds ...
    THREE_START_AFTER = 1.0
    #: ... takes at most this share of the time from then on ...
    THREE_START_SHARE = 0.35
    #: ... and while it is under way, iterative deepening's share of the first seconds is this.
    ANYTIME_SHARE_WITH_START = 0.65

    def __init__(self, dataset: Dataset, *, regularization: float, objective="accuracy",
                 bounds: dict | None = None, depth_budget: int | None = None, strategies: dict | None = None):
        super().__init__(dataset, regularization=regularization, objective=objective, bounds=bounds,
                         depth_budget=depth_budget, strategies=strategies)
        common = dict(regularization=regularization, objective=self.objective, depth_budget=depth_budget,
                      **self.switch_settings())
        gosdt = GOSDT(dataset, **common)
        gosdt.depth_three_start_after = self.THREE_START_AFTER
        gosdt.depth_three_start_share = self.THREE_START_SHARE
        gosdt.keep_start_when_offered = True
        # One set of exact small-tree solvers for both: with a depth budget of five, GOSDT's loop over
        # root splits and iterative deepening's last depth solve the same supports.
        deepening = DepthDeepening.sharing(gosdt.subsolvers, dataset, **common)
        self.members = {"gosdt": gosdt, "deepening": deepening}
        self.eps = EPS                         # objective units (the members' tolerance, EPS × total weight)
        self.closed_by = None

    def _search(self):
        members = self.members
        self._emit(Started(0, self.lower_bound, self.upper_bound))
        self._record()
        live = dict(members)
        while live:
            name = self._next_member(live)
            member = live[name]
            before = (self.lower_bound, self.upper_bound)
            alive = self._member_unit(member, lambda: member.step(1))
            if member.status == "memory":
                # The member caught a MemoryError and released its search (its state is gone, only
                # its result answers): the whole portfolio stops with status ``memory``, as one
                # search would, instead of reading the member's released state.
                raise MemoryError(f"the portfolio's {name} search ran out of memory")
            if len(members["deepening"].depth_results) >= 3:
                # Deepening has proved depth three: the depth-three start can find nothing better.
                members["gosdt"].end_depth_three_start()
            self.expansions = sum(m.expansions for m in members.values())
            for bound in self.prune_counts:
                self.prune_counts[bound] = sum(m.prune_counts[bound] for m in members.values())
            lb, ub = self.lower_bound, self.upper_bound
            if ub < before[1]:
                # The better incumbent bounds the other search too (Theorem B.3): it explores only
                # subtrees that can beat it.
                for other in members.values():
                    if other is not member and member.upper_bound < other.upper_bound:
                        other.offer_incumbent(member.best_tree, member.upper_bound)
            if (lb, ub) != before:
                self._record(improved=ub < before[1], raised=lb > before[0])
            if not alive:
                del live[name]
                if member._finished and member._proves_optimality:
                    self.closed_by = name
                    return
            if lb >= ub - self.eps:
                self.closed_by = "both"
                return
            yield

    def _next_member(self, live: dict) -> str:
        """The live member furthest behind its share of the time both have used (deepening on a tie)."""
        if len(live) == 1:
            return next(iter(live))
        total = sum(m.elapsed for m in live.values())
        early = min(total, self.ANYTIME_SECONDS)
        share = self.ANYTIME_SHARE_WITH_START if live["gosdt"].start_due else self.ANYTIME_SHARE
        deepening_share = share * early + 0.5 * (total - early)
        owed = {"deepening": deepening_share - live["deepening"].elapsed,
                "gosdt": (total - deepening_share) - live["gosdt"].elapsed}
        return max(live, key=lambda n: (owed[n], n == "deepening"))

    @property
    def lower_bound(self) -> float:
        return max(m.lower_bound for m in self.members.values())

    @property
    def upper_bound(self) -> float:
        return min(m.upper_bound for m in self.members.values())

    @property
    def queue_size(self) -> int:
        return sum(m.queue_size for m in self.members.values())

    @property
    def cache_size(self) -> int:
        return sum(m.cache_size for m in self.members.values())

    def _incumbent(self) -> Tree:
        best = min(self.members.values(), key=lambda m: m.upper_bound)
        return best.best_tree

    def _queue_entries(self, k: int) -> list:
        return self.members["gosdt"]._queue_entries(k)

    def _snapshot_extra(self) -> dict:
        deepening = self.members["deepening"]
        return {"closed_by": self.closed_by, "depth": deepening.depth,
                "lower_bounds": {n: m.lower_bound for n, m in self.members.items()},
                "upper_bounds": {n: m.upper_bound for n, m in self.members.items()}}

    def _drop_search(self) -> None:
        for member in self.members.values():
            member.release()

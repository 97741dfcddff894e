"""The stepwise protocol every solver speaks.

A solver is a generator you can pause, resume and inspect:

>>> import numpy as np
>>> from treeopt.data import Dataset
>>> from treeopt.solvers import GOSDT
>>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
>>> y = np.array([0, 1, 1, 0] * 3)                       # XOR: needs two splits
>>> solver = GOSDT(Dataset.from_binary(X, y), regularization=0.05)
>>> events = solver.steps()
>>> first = next(events)                                # one small unit of work, then paused
>>> solver.snapshot().lower_bound <= solver.snapshot().upper_bound
True
>>> result = solver.run()                               # resume and drain on the fast path
>>> result.optimal, result.tree.n_leaves, round(result.objective, 3)
(True, 4, 0.2)

Subclasses implement :meth:`Solver._search`, a generator that does one
bounded unit of work per ``yield`` (one expansion), calls :meth:`_emit` for
events (a no-op on the fast path), :meth:`_count` for prunes, and
:meth:`_record` whenever a global bound changes; plus :attr:`Solver.lower_bound`,
:attr:`Solver.upper_bound`, :meth:`_incumbent` and :meth:`_queue_entries`.

The unit budget: every unit of work keeps to :attr:`Solver.unit_budget` seconds
(the player's slice), because the driver can only stop, pause or answer a
Ctrl-C, a ``time_limit`` or a ``memory_limit`` between two units. Work that
may take longer (growing a first incumbent, an exact subsolver, a fold) is cut
into slices: a generator that yields when its slice is spent
(:mod:`treeopt.solvers.slices`), driven by
``yield from`` inside ``_search`` so that each slice is a unit, with the
computation's state kept between them. The result must not depend on where the
slices fall (only the event boundaries may); check a clock, not a count of
steps, because steps differ in cost by orders of magnitude. A new solver
follows the same contract.

Memory: :attr:`Solver.cache_size` counts the entries a
search holds (its memo, caches, and the queue entries it owns; each solver
documents what it counts), and ``run(cache_limit=N)`` stops a search whose
cache has grown past ``N`` with status ``cache_limit``, keeping its
incumbent and honest gap like ``node_limit``; ``run(memory_limit="2GB")`` does
the same for the process's resident memory (status ``memory_limit``). A
``MemoryError`` inside a unit of work ends the search with status ``memory``,
its best tree and bounds kept and its state released.

Interrupts: Ctrl-C (and SIGTERM, when a Python handler is installed for it)
is held until the end of the unit of work it lands in
(:mod:`treeopt.solvers.interrupts`), so ``run()`` stops with status
``interrupted`` and a later ``run()`` or ``steps()`` resumes the same search.
"""

from __future__ import annotations

import functools
import gc
import inspect
import math
import time
import warnings
from dataclasses import replace
from collections import deque
from collections.abc import Mapping
from typing import Iterator

import numpy as np
import pandas as pd

from ..data import Dataset
from ..events import Event, Expanded, Finished, Improved, LowerBoundRaised, Progress, Pruned
from ..memory import parse_memory_limit, resident_memory
from ..objectives import Objective, get_objective
from ..tree import Leaf, Tree
from .capabilities import Capabilities
from .interrupts import DeferredSignals
from .memory_reserve import RESERVE
from .records import TRACE_COLUMNS, QueueEntry, SearchResult, Snapshot, TracePoint, trace_frame
from .switches import Switch, Switches, switches_from_citations

__all__ = ["Solver", "Snapshot", "QueueEntry", "SearchResult", "TracePoint", "trace_frame", "TRACE_COLUMNS", "check_cache_limit",
           "check_zero_regularization", "plain_value"]

#: Objective values closer than this fraction of the total weight are equal (each solver's ``eps`` is
#: ``EPS * total_weight``: relative, so that weights of 1e-10 or 1e6 decide ties alike).
EPS = 1e-9


#: ``run`` compares ``cache_size`` with ``cache_limit`` once every this many units of work (with the
#: time limit), so a search may overshoot the limit by what those units create.
CACHE_CHECK_EVERY = 16

#: ``run(memory_limit=...)`` reads the process's resident memory at most this often (seconds; with the
#: cache check, before the first unit of work and then every ``CACHE_CHECK_EVERY`` units).
MEMORY_CHECK_SECONDS = 0.01


@functools.cache
def _init_parameters(cls: type) -> Mapping:
    """The parameters of a solver class's ``__init__``, read from its signature once per class (every
    solver built reads it)."""
    return inspect.signature(cls.__init__).parameters


class Solver:
    """Base class of the stepwise solvers.

    Parameters
    ----------
    dataset : Dataset
    regularization : float
        λ, the penalty per leaf, in (0, 1].
    objective : str or Objective, default="accuracy"
    bounds : dict of str to bool, optional
        Switch named bounds off (``{"lookahead": False}``); see ``SWITCHES`` (kinds ``"bound"`` and
        ``"constraint"``).
    strategies : dict of str to bool, optional
        Switch the other parts of a search off: search orders, first incumbents and subsolvers
        (``{"cart_start": False}``); see ``SWITCHES``. Passing these in ``bounds`` still works and
        warns (``DeprecationWarning``).
    depth_budget : int, optional
        Maximum depth (a single leaf has depth 0).

    Attributes
    ----------
    SWITCHES : Switches
        Every part of the search that can be switched off, each a
        :class:`~treeopt.solvers.switches.Switch` with its kind (bound, constraint, subsolver,
        search order, first incumbent) and citation.
    BOUNDS : dict
        Name → citation of every switch (derived from ``SWITCHES``; kept for code that reads it).
    trace : list of TracePoint
    unit_budget : float
        Seconds each unit of work keeps to (default 0.05); see the module docstring.
    prune_counts : dict
    status : str
    expansions : int
    """

    name = "solver"
    #: Seconds a unit of work keeps to (the module docstring's unit budget): a stop, a pause, a
    #: Ctrl-C or a limit waits about this long at most. Set it on an instance to trade event
    #: granularity for overhead; results do not depend on it.
    unit_budget: float = 0.05
    #: The ``time_limit`` of the :meth:`run` call under way (None between calls, while stepped, or
    #: without one): a search may give a part of its work a share of it.
    run_time_limit: float | None = None
    SWITCHES: Switches = Switches()
    BOUNDS: dict = {}
    #: What the solver accepts (dataset kind, objectives, penalties, options); read by
    #: :func:`treeopt.make_solver` instead of branching on solver names.
    CAPABILITIES = Capabilities()
    #: Whether a search that runs to its end proves its tree optimal. Heuristics (the greedy
    #: builder) set it False: they finish with status "finished", ``optimal`` False and their gap.
    exact = True

    @property
    def finished_status(self) -> str:
        """Status of a search that ran to its end.

        ``optimal``; ``finished`` for a heuristic; ``guessed`` when the lower
        bound it closed was a guess (McTavish et al. 2022, section 4.3): the
        tree then carries Theorem 4.3's guarantee, not a certificate.
        """
        if not self.exact:
            return "finished"
        return "guessed" if self.lower_bound_guessed else "optimal"

    @property
    def _proves_optimality(self) -> bool:
        """Whether a search that ran to its end proves its tree optimal."""
        return self.exact and not self.lower_bound_guessed

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # A class declares SWITCHES (objects with kinds); BOUNDS, name -> citation, follows from them.
        # A class that declares only the old BOUNDS mapping gets switches of kind "bound".
        if "SWITCHES" in cls.__dict__:
            if not isinstance(cls.SWITCHES, Switches):
                cls.SWITCHES = Switches(cls.SWITCHES)
            cls.BOUNDS = cls.SWITCHES.citations()
        elif "BOUNDS" in cls.__dict__:
            cls.SWITCHES = switches_from_citations(cls.BOUNDS)

    def __new__(cls, *args, **settings):
        # Construction is data (like scikit-learn's get_params/clone): the keyword arguments a
        # solver is built with are kept as given, so rebuild() can make the same search again.
        solver = super().__new__(cls)
        solver._settings = dict(settings)
        solver._declared_switches = []    # (Switch, state or None) this instance declared (declare_switch)
        return solver

    def __init__(self, dataset: Dataset, *, regularization: float, objective: str | Objective = "accuracy",
                 bounds: dict | None = None, depth_budget: int | None = None, strategies: dict | None = None):
        if not isinstance(dataset, Dataset):
            raise TypeError(f"dataset must be a treeopt Dataset, got {type(dataset).__name__}; "
                            "build one with Dataset.from_arrays(X, y).")
        if isinstance(regularization, bool) or not isinstance(regularization, (int, float, np.floating)) \
                or not math.isfinite(regularization) or not 0 <= regularization <= 1:
            raise ValueError(f"regularization must be a number in (0, 1], got {regularization!r}. "
                             "It is the objective cost of one leaf (e.g. 0.01: a leaf must save 1% of errors).")
        if regularization == 0:
            check_zero_regularization(type(self), depth_budget)
        if depth_budget is not None and (not isinstance(depth_budget, (int, np.integer)) or depth_budget < 0):
            raise ValueError(f"depth_budget must be a non-negative integer or None, got {depth_budget!r}.")
        declared = self.__dict__.get("_declared_switches", [])
        self.switches = type(self).SWITCHES + [switch for switch, _ in declared]
        states = self._switch_states(bounds, strategies)
        self.dataset = dataset
        self.regularization = float(regularization)
        self.objective = get_objective(objective)
        self.depth_budget = depth_budget
        self.bounds = {name: switch.default for name, switch in self.switches.items()}
        self.bounds.update({switch.name: bool(on) for switch, on in declared if on is not None})
        self.bounds.update(states)
        self.prune_counts = {name: 0 for name in self.switches}
        self.trace: list[TracePoint] = []
        self.status = "not_started"
        self.expansions = 0
        self._elapsed = 0.0
        self._clock_start: float | None = None
        self._generator: Iterator | None = None
        self._events: list | None = None
        self._finished = False
        self._broken = False          # or why the search cannot resume (cannot_resume): its generator closed
        self._undelivered = deque()   # events of finished units not yet yielded by steps()
        self._handed_over: Event | None = None    # the last event steps() yielded (see _deliver)
        self._released: SearchResult | None = None   # the result kept when running out of memory

    # -- construction as data -------------------------------------------------
    @classmethod
    def setting_names(cls) -> list:
        """The keyword settings the solver's constructor takes (everything but the dataset)."""
        return [name for name, p in _init_parameters(cls).items() if p.kind is inspect.Parameter.KEYWORD_ONLY]

    @property
    def settings(self) -> dict:
        """Every keyword setting the solver was built with, defaults filled in, values as given.

        ``type(solver)(solver.dataset, **solver.settings)`` builds the same search again; see
        :meth:`rebuild`. :attr:`params` is the same as plain (JSON-able) values.
        """
        parameters = _init_parameters(type(self))
        values = {name: p.default for name, p in parameters.items()
                  if p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is not inspect.Parameter.empty}
        values.update(getattr(self, "_settings", {}))
        return values

    @property
    def params(self) -> dict:
        """The solver's settings as plain values (numbers, strings, lists, dicts): JSON-able.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> from treeopt.solvers import OSDT
        >>> solver = OSDT(Dataset.from_binary(np.eye(3, dtype=int), [0, 1, 1]), regularization=0.1,
        ...               schedule="dfs")
        >>> solver.params["schedule"], solver.params["objective"], solver.params["top_k"]
        ('dfs', 'accuracy', 1)
        """
        return {name: plain_value(value) for name, value in self.settings.items()}

    def rebuild(self, **changes) -> "Solver":
        """A fresh solver on the same dataset with the same settings, apart from ``changes``.

        Parameters
        ----------
        **changes
            Settings to change (names of :meth:`setting_names`), e.g. ``bounds={"lookahead": False}``.

        Returns
        -------
        Solver
            Not started; the same class as this one.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> from treeopt.solvers import Branches
        >>> X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]] * 3)
        >>> solver = Branches(Dataset.from_binary(X, [0, 1, 1, 0] * 3), regularization=0.05, penalty="leaf")
        >>> again = solver.rebuild(bounds={"purification": False})
        >>> again.settings["penalty"], again.bounds["purification"], again.status
        ('leaf', False, 'not_started')
        """
        unknown = sorted(set(changes) - set(self.setting_names()))
        if unknown:
            raise TypeError(f"{type(self).__name__} has no setting(s) {unknown}; its settings are "
                            f"{self.setting_names()}.")
        cls = getattr(type(self), "_unreleased_class", type(self))
        return cls(self.dataset, **{**getattr(self, "_settings", {}), **changes})

    def _switch_states(self, bounds: dict | None, strategies: dict | None) -> dict:
        """Check ``bounds`` and ``strategies`` against ``self.switches`` and merge them into one state."""
        states = {}
        for argument, given in (("bounds", bounds), ("strategies", strategies)):
            given = dict(given or {})
            unknown = sorted(set(given) - set(self.switches))
            if unknown:
                bound_names = [n for n, s in self.switches.items() if s.is_bound]
                others = [n for n, s in self.switches.items() if not s.is_bound]
                raise ValueError(f"unknown {argument[:-1] if argument == 'bounds' else 'strategy'} name(s) {unknown} "
                                 f"for {self.name}; its bounds are {bound_names} and its strategies {others}.")
            not_switches = {k: v for k, v in given.items() if not isinstance(v, (bool, np.bool_))}
            if not_switches:
                raise ValueError(f"{argument} switches must be True or False, got {not_switches!r} "
                                 "(a string such as 'false' would be read as on).")
            for name, on in given.items():
                switch = self.switches[name]
                if argument == "bounds" and not switch.is_bound:
                    warnings.warn(f"{name!r} is a {switch.kind.replace('_', ' ')}, not a bound: pass it as "
                                  f"strategies={{{name!r}: {bool(on)}}} (bounds= for it is deprecated).",
                                  DeprecationWarning, stacklevel=4)
                elif argument == "strategies" and switch.is_bound:
                    raise ValueError(f"{name!r} is a {switch.kind}: pass it as bounds={{{name!r}: {bool(on)}}}.")
                states[name] = bool(on)
        return states

    def declare_switch(self, switch: Switch, on: bool | None = None) -> None:
        """Add a switch to this instance's (a plug-in bound or order); it gets a state and a counter.

        The one way an instance adds a switch to its class's ``SWITCHES``. A solver that takes
        switches as settings (``plugins=``) declares them in its ``__init__`` *before* calling
        :class:`Solver`'s, so that ``bounds=`` and ``strategies=`` can set them like the built-in
        ones and :meth:`rebuild` declares them again. Declared later (but before the search
        starts), a switch gets its state and counter at once; :meth:`rebuild` then does not
        carry it, since it is not a setting.

        Parameters
        ----------
        switch : Switch
        on : bool, optional
            Its state; ``switch.default`` when not given (``bounds=`` or ``strategies=`` given
            to the constructor override it).

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> from treeopt.solvers import OSDT
        >>> from treeopt.solvers.switches import bound
        >>> solver = OSDT(Dataset.from_binary(np.eye(3, dtype=int), [0, 1, 1]), regularization=0.1)
        >>> solver.declare_switch(bound("my_bound", "my own lemma"))
        >>> solver.bounds["my_bound"], solver.prune_counts["my_bound"], "my_bound" in type(solver).SWITCHES
        (True, 0, False)
        """
        if not isinstance(switch, Switch):
            raise TypeError(f"declare_switch takes a Switch (treeopt.solvers.switches.bound(name, citation), ...), "
                            f"got {type(switch).__name__}.")
        if self.__dict__.get("status", "not_started") != "not_started":
            raise RuntimeError("switches can be declared only before the search starts.")
        declared = self.__dict__.setdefault("_declared_switches", [])
        if switch.name in type(self).SWITCHES or any(switch.name == known.name for known, _ in declared):
            raise ValueError(f"switch {switch.name!r} is declared twice on this {self.name} solver; give it "
                             "another name.")
        declared.append((switch, on))
        if "switches" in self.__dict__:                  # Solver.__init__ has run: state and counter now
            self.switches = self.switches + [switch]
            self.bounds[switch.name] = switch.default if on is None else bool(on)
            self.prune_counts[switch.name] = 0

    def switch_settings(self) -> dict:
        """This solver's switch states split as constructor arguments: ``{"bounds": ..., "strategies": ...}``.

        For a solver that builds others with the same switches (deepening, the portfolio).
        """
        return type(self).SWITCHES.split(self.bounds)

    # -- what subclasses provide ----------------------------------------------
    def _search(self) -> Iterator[None]:
        """Do the search, yielding after each bounded unit of work."""
        raise NotImplementedError

    @property
    def lower_bound(self) -> float:
        """Certified lower bound on the optimal objective."""
        raise NotImplementedError

    @property
    def upper_bound(self) -> float:
        """Objective of the incumbent tree."""
        raise NotImplementedError

    @property
    def lower_bound_guessed(self) -> bool:
        """Whether :attr:`lower_bound` is a guess (McTavish et al. 2022, section 4.3) rather than a proof.

        False unless a solver guesses lower bounds from a reference model
        (``GOSDT(reference_errors=...)``).
        """
        return False

    def _incumbent(self) -> Tree:
        """Build the incumbent tree."""
        raise NotImplementedError

    def _queue_entries(self, k: int) -> list:
        """The first ``k`` queue entries in priority order."""
        return []

    @property
    def queue_size(self) -> int:
        """Number of entries in the queue."""
        return 0

    @property
    def cache_size(self) -> int:
        """Entries the search holds in memory: what ``run(cache_limit=...)`` caps.

        Each solver documents what it counts: its memo of subproblems, its
        caches, and the queue entries it owns (a queue that only refers to
        memo entries adds nothing). 0 before the search starts.
        """
        return 0

    def _snapshot_extra(self) -> dict:
        return {}

    def _top_trees(self) -> list:
        """``(objective, Tree)`` of the best distinct trees kept, best first; [] unless the solver keeps several."""
        return []

    # -- helpers for subclasses -----------------------------------------------
    def _emit(self, event: Event) -> None:
        """Pass ``event`` to the caller of :meth:`steps` (dropped on the fast path of :meth:`run`)."""
        if self._events is not None:
            self._events.append(event)

    def _member_unit(self, member: "Solver", advance):
        """Run ``advance()``, one unit of a member search, passing its Expanded and Pruned events on.

        For solvers built from other searches (``deepening``, ``portfolio``): the member's own
        Started, Improved and LowerBoundRaised refer to its bounds only, so the owner emits the
        global ones from its ``_record``.
        """
        member._events = [] if self._events is not None else None
        try:
            return advance()
        finally:
            events, member._events = member._events or (), None
            for event in events:
                if isinstance(event, (Expanded, Pruned)):
                    self._emit(event)

    def _count(self, bound: str, n: int = 1) -> None:
        """Add ``n`` prunes to the counter of ``bound`` (a name in ``BOUNDS``)."""
        self.prune_counts[bound] += n

    def _record(self, improved: bool = False, raised: bool = False) -> None:
        """Append a trace point; call when a global bound changes."""
        lb, ub = self.lower_bound, self.upper_bound
        self.trace.append(TracePoint(self.elapsed, self.expansions, lb, ub, self.queue_size, self.cache_size))
        if self._events is not None:
            if improved:
                self._events.append(Improved(self.expansions, ub, self._incumbent_leaves()))
            if raised:
                self._events.append(LowerBoundRaised(self.expansions, lb))

    def _incumbent_leaves(self) -> int:
        return self.best_tree.n_leaves

    # -- the protocol ---------------------------------------------------------
    @property
    def elapsed(self) -> float:
        """Seconds spent searching so far (time while paused is not counted)."""
        if self._clock_start is None:
            return self._elapsed
        return self._elapsed + time.perf_counter() - self._clock_start

    def limit_reached(self, *, time_limit: float | None = None, cache_limit: int | None = None) -> str | None:
        """Which of these limits the search as a whole has reached: ``"time_limit"`` (its
        :attr:`elapsed` seconds), ``"cache_limit"`` (its :attr:`cache_size`), or None.

        For drivers that step the search themselves (the widgets' player) and stop it at a
        limit over the whole search, unlike :meth:`run`'s limits, which count from its call.

        Examples
        --------
        >>> from treeopt.data import Dataset
        >>> from treeopt.datasets import load_monk
        >>> from treeopt.solvers import GOSDT
        >>> solver = GOSDT(Dataset.from_arrays(*load_monk(1)), regularization=0.05)
        >>> _ = solver.step(5)
        >>> solver.limit_reached(cache_limit=1), solver.limit_reached(time_limit=3600.0)
        ('cache_limit', None)
        """
        if time_limit is not None and self.elapsed >= time_limit:
            return "time_limit"
        if cache_limit is not None and self.cache_size > cache_limit:
            return "cache_limit"
        return None

    @property
    def gap(self) -> float:
        """``upper_bound - lower_bound`` (0 when optimality is certified)."""
        return max(0.0, self.upper_bound - self.lower_bound)

    @property
    def best_tree(self) -> Tree:
        """The best tree found so far (always valid, even before the search starts)."""
        self._ensure_started()
        if self._released is not None:
            return self._released.tree
        return self._incumbent()

    def _ensure_started(self) -> None:
        if self._generator is None:
            self._generator = self._search()
            self.status = "paused"

    def _interrupted(self) -> None:
        """Note a KeyboardInterrupt. Ctrl-C is held until the end of the unit of work it lands in
        (:mod:`treeopt.solvers.interrupts`), so the search resumes; a KeyboardInterrupt raised
        inside a unit anyway (a second Ctrl-C, or one raised by code rather than a signal) closes
        the generator: the bounds and the incumbent stay valid, but that search cannot resume."""
        self.status = "interrupted"
        if self._generator is not None and getattr(self._generator, "gi_frame", True) is None:
            self._broken = ("a KeyboardInterrupt was raised inside a unit of work (a second Ctrl-C, or one "
                            "raised by code rather than a held signal) and closed the search")

    def _closed_by(self, error: BaseException) -> None:
        """Note an exception that left a unit of work: if it closed the generator, the search cannot resume.

        Python closes a generator an exception passes through, so a later ``next`` would end it
        as if it had finished; the search must say why it stopped instead of calling its
        incumbent optimal.
        """
        if not self._broken and self._generator is not None and getattr(self._generator, "gi_frame", True) is None:
            self._broken = f"{type(error).__name__} raised inside a unit of work closed the search: {error}"

    @property
    def cannot_resume(self) -> str | None:
        """Why this search cannot go on (None while it can, or once it finished).

        A search stops for good when an exception other than a held Ctrl-C ended a unit of
        work (its generator is then closed), when it ran out of memory, or after
        :meth:`release`. Its tree and bounds still answer; :meth:`rebuild` starts it again.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> from treeopt.solvers import GOSDT
        >>> X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]] * 5)
        >>> solver = GOSDT(Dataset.from_binary(X, X[:, 0] ^ X[:, 1]), regularization=0.1)
        >>> solver.cannot_resume is None
        True
        >>> solver.release()
        >>> solver.cannot_resume
        'release() freed the search state'
        """
        return self._broken or None

    def _resume(self) -> None:
        """Start or resume stepping: an interrupted search that can go on is paused again."""
        self._ensure_started()
        if self.status == "interrupted" and not self._finished and not self._broken:
            self.status = "paused"

    def _advance(self, n: int = 1, held: DeferredSignals | None = None) -> bool:
        """Do up to ``n`` units of work; False once the search is finished (or cannot resume).

        Signals are held until the end of each unit (by ``held``, or by a :class:`DeferredSignals`
        of this call); a Ctrl-C raises ``KeyboardInterrupt`` between two units, leaving the search
        resumable. A ``MemoryError`` ends the search with status ``memory`` (:meth:`_out_of_memory`).
        """
        if self._finished or self._broken:
            return False
        RESERVE.arm()
        if held is None:
            try:
                with DeferredSignals() as held:
                    return self._advance(n, held)
            except KeyboardInterrupt:               # delivered as the block closed
                self._interrupted()
                raise
            except MemoryError:                     # raised while the block closed
                RESERVE.spend()
                self._out_of_memory()
                return False
        generator = self._generator
        held.inside = True
        out_of_memory = False
        try:
            for _ in range(n):
                self._clock_start = time.perf_counter()
                try:
                    next(generator)
                except StopIteration:
                    self._finished = True
                    self.status = self.finished_status
                    self._record()
                    if held.pending:
                        held.deliver()              # a Ctrl-C held in the last unit is answered too
                    return False
                finally:
                    self._elapsed += time.perf_counter() - self._clock_start
                    self._clock_start = None
                if RESERVE.running_short():
                    raise MemoryError("the process is about to reach its address-space limit (RLIMIT_AS)")
                if held.pending:
                    held.deliver()
            return True
        except KeyboardInterrupt:
            self._interrupted()
            raise
        except MemoryError:
            RESERVE.spend()                 # room for what follows, at once
            out_of_memory = True            # handled once the error (and the frames it holds) is gone
        except BaseException as error:
            self._closed_by(error)
            raise
        finally:
            held.inside = False
        if out_of_memory:
            self._out_of_memory()
        return False

    def steps(self, every: int = 1) -> Iterator[Event]:
        """Yield events while searching; stop iterating to pause, iterate again to resume.

        Parameters
        ----------
        every : int, default=1
            1: every event of every unit of work (expansions, prunes,
            improvements). ``k > 1``: one :class:`~treeopt.events.Progress`
            event every ``k`` units (cheap, for progress bars).

        Yields
        ------
        Event
            Ends with a :class:`~treeopt.events.Finished` event.

        Notes
        -----
        A Ctrl-C inside a unit of work raises ``KeyboardInterrupt`` from this
        generator once the unit is done; a new ``steps()`` resumes the search
        and first yields the events of that unit, so none is lost. Events not
        yet yielded when the caller stops iterating (a Ctrl-C in the caller's
        own code between two events, a ``break``) come first from the next
        ``steps()`` too.
        """
        if every < 1:
            raise ValueError(f"every must be a positive integer, got {every!r}.")
        self._resume()
        # Events wait on the solver until yielded (``_undelivered``, first in, first out), so that
        # whatever ends this generator (a Ctrl-C in a unit or in the caller's code between two
        # events, or the caller dropping it) leaves the rest to the next steps().
        pending = self._undelivered
        yield from self._deliver()
        # One handler for the generator's life; it holds signals only inside units of work, and
        # passes them on at once while the caller's code runs between the events.
        with DeferredSignals() as held:
            held.inside = False
            while not self._finished and not self._broken:
                if every == 1:
                    events = self._events = []
                    try:
                        alive = self._advance(1, held)
                    finally:
                        self._events = None
                        pending.extend(events)     # the unit finished (or was cut): its events wait here
                    yield from self._deliver()
                    if not alive:
                        break
                else:
                    self._advance(every, held)
                    if not self._finished and not self._broken:
                        yield Progress(self.expansions, self.lower_bound, self.upper_bound, self.queue_size,
                                       self.elapsed)
        yield Finished(self.expansions, self._finished and self._proves_optimality, self.gap, self.status)

    def _deliver(self) -> Iterator[Event]:
        """Yield the events waiting on the solver, first in, first out; each leaves the queue once yielded.

        A Ctrl-C can raise ``KeyboardInterrupt`` wherever Python checks for signals: in the caller's code
        between two events, as this generator resumes, or as a call inside it returns. Popping first and
        yielding after would lose the popped event to a Ctrl-C landing in between; yielding first and
        popping after would repeat it. So the yielded event is remembered (``_handed_over``) before the
        yield, and an event at the head that is the one handed over is dropped wherever the next delivery
        starts: none is lost and none repeats.
        """
        pending = self._undelivered
        while pending:
            if pending[0] is self._handed_over:
                pending.popleft()
                continue
            self._handed_over = pending[0]
            yield self._handed_over

    def step(self, n: int = 1) -> bool:
        """Do ``n`` units of work on the fast path; return False once finished.

        A Ctrl-C during them raises ``KeyboardInterrupt`` at the end of the unit it landed in;
        the search resumes with the next call.
        """
        self._resume()
        return self._advance(n)

    def run(self, time_limit: float | None = None, node_limit: int | None = None,
            gap_tol: float = 0.0, progress=None, cache_limit: int | None = None,
            memory_limit: int | str | None = None) -> SearchResult:
        """Search until optimal or a limit is hit; return the tree and its certificate.

        Parameters
        ----------
        time_limit : float, optional
            Seconds of search (counted from this call), checked after every
            unit of work: the search overshoots by at most one unit, which
            keeps to :attr:`unit_budget`.
        node_limit : int, optional
            Maximum total expansions.
        gap_tol : float, default=0
            Stop when ``upper_bound - lower_bound <= gap_tol``.
        progress : callable, optional
            Called as ``progress(solver)`` about once a second.
        cache_limit : int, optional
            A memory cap: stop with status ``cache_limit`` once
            :attr:`cache_size` exceeds this many entries. Checked before the
            first unit of work and then every ``CACHE_CHECK_EVERY`` (16)
            units, so the cache may overshoot by what those units create.
            Like ``node_limit`` it bounds ``run`` only (``steps()`` and
            ``step()`` leave stopping to their caller), and a later ``run()``
            with a larger limit resumes the search.
        memory_limit : int or str, optional
            A cap on the whole process's resident memory, in bytes or as a
            string such as ``"2GB"`` or ``"512MiB"`` (:mod:`treeopt.memory`):
            stop with status ``memory_limit`` once it is exceeded. Checked
            before the first unit of work and then at most every
            ``MEMORY_CHECK_SECONDS`` seconds. Resumable like ``cache_limit``.

        Returns
        -------
        SearchResult
            ``optimal`` is True only when the gap closed; a stopped search
            still returns its best tree and an honest gap.

        Notes
        -----
        Ctrl-C (``KeyboardInterrupt``) stops the search at the end of the
        unit of work it lands in, with status ``interrupted``; a later
        ``run()`` resumes it and reaches the same optimum (a second Ctrl-C
        aborts the unit at once, and that search cannot resume). A
        ``MemoryError`` inside a unit of work ends the search with status
        ``memory``: the best tree and bounds so far are kept and the
        search's cache is released (:meth:`_release_search`); it cannot resume.

        A search stopped by a limit and then released (:meth:`release`, which
        ``OptimalTreeClassifier.fit`` calls unless ``keep_search=True``) cannot
        resume either: ``run()`` raises ``RuntimeError`` naming the fix instead of
        returning the same result as if it had searched. A released search that
        had finished, or had run out of memory, returns its result.
        """
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be positive seconds or None, got {time_limit!r}.")
        if node_limit is not None and node_limit < 0:
            raise ValueError(f"node_limit must be a non-negative integer or None, got {node_limit!r}.")
        check_cache_limit(cache_limit)
        memory_limit = parse_memory_limit(memory_limit)
        if self._released is not None and not self._finished and self.status != "memory":
            raise RuntimeError(_released_run_message(self.status))   # released while it could have resumed
        self._resume()
        if self._broken:
            return self.result()
        start = time.perf_counter()
        deadline = None if time_limit is None else start + time_limit
        self.run_time_limit = time_limit
        next_report = start + 1.0
        next_memory_check = start            # before the first unit, then every MEMORY_CHECK_SECONDS
        generator = self._generator
        self._clock_start = time.perf_counter()
        check_every = CACHE_CHECK_EVERY
        counter = 0
        out_of_memory = False
        RESERVE.arm()
        try:
            with DeferredSignals() as held:
                while True:
                    if node_limit is not None and self.expansions >= node_limit:
                        self.status = "node_limit"
                        break
                    if counter == 0:          # at the start and every check_every units
                        if cache_limit is not None and self.cache_size > cache_limit:
                            self.status = "cache_limit"
                            break
                        if memory_limit is not None and time.perf_counter() >= next_memory_check:
                            next_memory_check = time.perf_counter() + MEMORY_CHECK_SECONDS
                            if resident_memory() > memory_limit:
                                self.status = "memory_limit"
                                break
                    try:
                        next(generator)
                    except StopIteration:
                        self._finished = True
                        self.status = self.finished_status
                        break
                    except MemoryError:
                        # Give the reserve back before anything else allocates (restoring the signal
                        # handlers included), and handle it once the error and the frames it holds are gone.
                        RESERVE.spend()
                        out_of_memory = True
                        break
                    if RESERVE.running_short():   # stop before the cap, where some libraries crash
                        RESERVE.spend()
                        out_of_memory = True
                        break
                    if held.pending:
                        held.deliver()            # Ctrl-C held until this unit of work ended
                    if deadline is not None and time.perf_counter() >= deadline:
                        self.status = "time_limit"    # checked after every unit: overshoot <= one unit
                        break
                    counter += 1
                    if counter >= check_every:
                        counter = 0
                        now = time.perf_counter()
                        if gap_tol > 0 and self.upper_bound - self.lower_bound <= gap_tol:
                            self.status = "gap_reached"
                            break
                        if progress is not None and now >= next_report:
                            next_report = now + 1.0
                            progress(self)
        except KeyboardInterrupt:
            if not out_of_memory:              # a Ctrl-C held while memory ran out: the search ends anyway
                self._interrupted()
        except MemoryError:                    # outside a unit: a limit check, a signal handler
            RESERVE.spend()
            out_of_memory = True
        except BaseException as error:
            self._closed_by(error)
            raise
        finally:
            self.run_time_limit = None
            if self._clock_start is not None:
                self._elapsed += time.perf_counter() - self._clock_start
                self._clock_start = None
        if out_of_memory:
            self._out_of_memory()
            return self.result()
        self._record()
        return self.result()

    def _out_of_memory(self) -> None:
        """A ``MemoryError`` ended a unit of work: keep the result, release the search, stop for good.

        The generator the error passed through is closed, so the search cannot resume. The best
        tree, bounds and trace so far are kept (in :meth:`result` and :meth:`snapshot`), then
        :meth:`_release_search` drops the search's cache so the program can go on.
        """
        RESERVE.spend()
        if self._clock_start is not None:
            self._elapsed += time.perf_counter() - self._clock_start
            self._clock_start = None
        self._broken = "it ran out of memory (MemoryError) and its state was released"
        self.status = "memory"
        gc.collect()                       # the closed generator's frames and whatever cycles they held
        self.release()
        gc.collect()

    def _release_search(self) -> None:
        """Drop the search's state (memo, caches, queue) once it can never resume.

        Called by :meth:`release` (by the user, the estimator, or after a ``MemoryError``), when
        ``_released`` holds the result. The default
        drops every attribute a subclass set (everything but the solver's settings and the
        driver's own bookkeeping) and turns the solver into its released variant, whose
        :attr:`lower_bound`, :attr:`upper_bound`, :attr:`best_tree`, :meth:`result` and
        :meth:`snapshot` answer from the kept result.
        """
        keep = _DRIVER_ATTRIBUTES | set(self.setting_names())
        for name in list(vars(self)):
            if name not in keep:
                delattr(self, name)
        self.__class__ = _released_class(type(self))

    def result(self) -> SearchResult:
        """The current tree and certificate without searching further."""
        self._ensure_started()
        if self._released is not None:
            return self._released
        return self._current_result()

    def _current_result(self) -> SearchResult:
        # The same search state gives the same result: ``run`` ends with one and the estimator's
        # ``release`` asks again at once, and extracting the tree is a fifth of a small fit's search.
        # Any unit of work adds to ``elapsed`` (which runs on while a ``run`` is under way, so a
        # progress report never gets a stale result), and a tree offered from outside lowers the upper bound.
        state = (self.status, self._finished, self.expansions, self.elapsed, self.upper_bound, self.lower_bound,
                 len(self.trace))
        kept = getattr(self, "_last_result", None)
        if kept is not None and kept[0] == state:
            return replace(kept[1], prune_counts=dict(kept[1].prune_counts), trace=list(kept[1].trace))
        tree = self.best_tree
        optimal = self._finished and self._proves_optimality
        result = SearchResult(tree=tree, objective=self.upper_bound, lower_bound=self.lower_bound,
                              upper_bound=self.upper_bound, gap=0.0 if optimal else self.gap, optimal=optimal,
                              status=self.status, expansions=self.expansions, elapsed=self.elapsed,
                              prune_counts=dict(self.prune_counts), trace=list(self.trace),
                              cache_size=self.cache_size,
                              lower_bound_guessed=self.lower_bound_guessed, top_trees=self._top_trees())
        self._last_result = (state, result)
        return result

    def release(self) -> None:
        """Free the search graph, keeping the tree, the bounds, the counters and the trace.

        A search holds every subproblem it created (gigabytes on wide data);
        after ``release()`` it holds only its result: ``best_tree``, ``lower_bound``,
        ``upper_bound``, ``status``, ``trace`` and :meth:`result` still answer, the
        queue is empty and ``cache_size`` is 0. The search cannot continue (``step``
        returns False); :meth:`rebuild` starts it again. The estimator calls this after
        ``fit`` unless ``keep_search=True``.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> from treeopt.solvers import GOSDT
        >>> X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]] * 5)
        >>> solver = GOSDT(Dataset.from_binary(X, X[:, 0]), regularization=0.1)
        >>> result = solver.run()
        >>> solver.release()
        >>> solver.cache_size, solver.best_tree.n_leaves, solver.step(), solver.result().optimal
        (0, 2, False, True)
        """
        if self._released is not None:
            return
        self._ensure_started()
        if self._finished:
            self._broken = False
        elif not self._broken:               # cannot resume: never mistake the closed search for a finished one
            self._broken = "release() freed the search state"
        if self._generator is not None:
            self._generator.close()
        try:
            self._released = self._current_result()
        except MemoryError:                  # even the result does not fit: free the search, then keep less
            self._released = self._result_after_freeing()
            return
        self._drop_search()                  # the solver's own release (cuts reference cycles), then ...
        self._release_search()               # ... every attribute of the search state

    def hold(self, result: SearchResult) -> None:
        """Take ``result``, found by another search of the same problem, as this search's own, released.

        For a tree proved elsewhere (the accuracy–sparsity frontier certifies the optimum for
        every λ of an interval at once): the solver answers :meth:`result`, :meth:`snapshot`
        and ``best_tree`` from ``result`` as after :meth:`release`, without searching. An
        ``optimal`` result makes it a finished search; any other cannot resume (``run()`` says so).
        Only a search that has not started can take one.

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> from treeopt.solvers import GOSDT
        >>> X = np.array([[1, 0], [1, 1], [0, 1], [0, 0]] * 5)
        >>> dataset = Dataset.from_binary(X, X[:, 0])
        >>> proved = GOSDT(dataset, regularization=0.1).run()
        >>> solver = GOSDT(dataset, regularization=0.1)
        >>> solver.hold(proved)
        >>> solver.result().tree == proved.tree, solver.status, solver.step(), solver.cannot_resume
        (True, 'optimal', False, None)
        """
        if self._generator is not None or self._released is not None:
            raise RuntimeError("hold() gives a result to a search that has not started; this one has "
                               f"(status {self.status!r}).")
        self._ensure_started()
        self._generator.close()
        self._finished = bool(result.optimal)
        self._broken = False if self._finished else "its result came from another search (hold())"
        self.status = result.status
        self._released = result
        self._drop_search()
        self._release_search()

    def _result_after_freeing(self) -> SearchResult:
        """The result :meth:`release` keeps when building the current one ran out of memory.

        The search state is dropped first; then the result is the last one built (its tree and
        objective still hold, and the lower bound is raised to the search's latest), or, when none
        was, the single leaf. Either way the gap is honest: the tree's objective minus a proved
        lower bound.
        """
        lower, guessed = self.lower_bound, self.lower_bound_guessed
        kept = getattr(self, "_last_result", None)
        kept = None if kept is None else kept[1]
        status, expansions, elapsed = self.status, self.expansions, self.elapsed
        self._drop_search()
        self._release_search()              # the class answers from _released from now on
        gc.collect()
        if kept is not None:
            upper, tree, top = kept.upper_bound, kept.tree, kept.top_trees
        else:
            tree = self._leaf_tree()
            upper, top = tree.root.loss + self.regularization, []
        lower = min(lower, upper)
        return SearchResult(tree=tree, objective=upper, lower_bound=lower, upper_bound=upper, gap=upper - lower,
                            optimal=False, status=status, expansions=expansions, elapsed=elapsed,
                            prune_counts=dict(self.prune_counts), trace=list(self.trace), cache_size=0,
                            lower_bound_guessed=guessed, top_trees=list(top))

    def _leaf_tree(self) -> Tree:
        """The single leaf over all the data: the tree a search that kept nothing else still has."""
        ds = self.dataset
        model = self.objective.loss_model(ds)
        counts = ds.class_counts(ds.all_points)
        loss, prediction = model.leaf(counts)
        return Tree(Leaf(prediction, counts, model.to_objective(loss)), ds.features, ds.classes,
                    binarizer=ds.binarizer)

    def _drop_search(self) -> None:
        """Free what the search holds (the memo, the queue); :meth:`release` calls it once."""

    def snapshot(self, top_k: int = 10) -> Snapshot:
        """The state of the search now (cheap enough to call between steps)."""
        self._ensure_started()
        kept = self._released
        if kept is not None:                      # released: the search state is gone
            return Snapshot(solver=self.name, status=self.status, lower_bound=kept.lower_bound,
                            upper_bound=kept.upper_bound, gap=kept.gap, best_tree=kept.tree, queue_size=0,
                            queue=[], prune_counts=dict(self.prune_counts), expansions=self.expansions,
                            elapsed=self.elapsed, extra={}, cache_size=0,
                            lower_bound_guessed=kept.lower_bound_guessed, top_trees=list(kept.top_trees))
        return Snapshot(solver=self.name, status=self.status, lower_bound=self.lower_bound,
                        upper_bound=self.upper_bound, gap=self.gap, best_tree=self.best_tree,
                        queue_size=self.queue_size, queue=self._queue_entries(top_k),
                        prune_counts=dict(self.prune_counts), expansions=self.expansions,
                        elapsed=self.elapsed, extra=self._snapshot_extra(), cache_size=self.cache_size,
                        lower_bound_guessed=self.lower_bound_guessed, top_trees=self._top_trees())

    def trace_frame(self) -> pd.DataFrame:
        """The trace as a DataFrame."""
        return trace_frame(self.trace)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(regularization={self.regularization}, status={self.status!r}, "
                f"lower_bound={self.lower_bound:.6g}, upper_bound={self.upper_bound:.6g}, "
                f"expansions={self.expansions})") if self._generator is not None else \
            f"{type(self).__name__}(regularization={self.regularization}, status='not_started')"


def _released_run_message(status: str) -> str:
    """Why ``run()`` cannot resume a released search that had not finished, and what to do instead.

    Examples
    --------
    >>> _released_run_message("time_limit")  # doctest: +ELLIPSIS
    'run() cannot resume this search: it stopped (time_limit) and was then released ... keep_search=True ...'
    """
    return (f"run() cannot resume this search: it stopped ({status}) and was then released (Solver.release(), "
            "which OptimalTreeClassifier.fit calls unless keep_search=True), so only its result is kept. "
            "result() still gives its tree and gap. To continue a "
            "search with a larger limit, fit with keep_search=True (or do not call release()); to search "
            "again from the start, call rebuild().run(...).")


#: What Solver.__init__/__new__ and make_solver set: kept when _release_search drops the search state.
_DRIVER_ATTRIBUTES = frozenset({
    "_settings", "dataset", "regularization", "objective", "depth_budget", "bounds", "prune_counts", "trace",
    "status", "expansions", "_elapsed", "_clock_start", "_generator", "_events", "_finished", "_broken",
    "_undelivered", "_handed_over", "_released", "reference_predictions"})

#: The released variant of each solver class (see Solver._release_search), made once per class.
_RELEASED_CLASSES: dict = {}


def _released_class(cls: type) -> type:
    """``cls`` answering the protocol from the result kept in ``_released`` (its search state is gone).

    A subclass rather than a ``__getattr__`` on :class:`Solver`: a ``__getattr__`` slows every
    attribute access of every search (about 12 % of a GOSDT run).
    """
    released = _RELEASED_CLASSES.get(cls)
    if released is None:
        released = type(cls.__name__, (cls,), {
            "__module__": cls.__module__,
            "_unreleased_class": cls,
            "lower_bound": property(lambda self: self._released.lower_bound),
            "upper_bound": property(lambda self: self._released.upper_bound),
            "lower_bound_guessed": property(lambda self: self._released.lower_bound_guessed),
            "cache_size": property(lambda self: 0),
            "queue_size": property(lambda self: 0),
            "_incumbent": lambda self: self._released.tree,
            "_queue_entries": lambda self, k: [],
            "_top_trees": lambda self: list(self._released.top_trees),
            "_snapshot_extra": lambda self: {},
        })
        _RELEASED_CLASSES[cls] = released
    return released


def check_zero_regularization(cls: type | None, depth_budget) -> None:
    """Refuse ``regularization=0`` unless a solver that takes it has a depth budget.

    With ``cls=None`` (the solver not chosen yet) only the depth budget is checked.

    Without a penalty per leaf, the most accurate tree of unbounded depth is as deep as the data
    allow and certifying it is hopeless; with a ``depth_budget`` the most accurate tree of at most
    that depth is well defined (ties broken by fewer leaves).

    Examples
    --------
    >>> from treeopt.solvers import OSDT
    >>> check_zero_regularization(OSDT, 3)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: regularization=0 (the most accurate tree of at most depth_budget levels) needs solver='continuous' ...
    """
    if depth_budget is None:
        raise ValueError("regularization=0 needs a depth_budget (e.g. depth_budget=3): without a penalty per "
                         "leaf the most accurate tree is as deep as the data allow. Give depth_budget, or a "
                         "positive regularization such as 0.01.")
    if cls is not None and not cls.CAPABILITIES.zero_regularization:
        raise ValueError(f"regularization=0 (the most accurate tree of at most depth_budget levels) needs "
                         f"solver='continuous' (or solver='auto'); {cls.name!r} needs regularization in (0, 1].")


def check_cache_limit(cache_limit) -> int | None:
    """Validate a ``cache_limit``: None, or a positive integer number of cache entries.

    Parameters
    ----------
    cache_limit : int or None

    Returns
    -------
    int or None

    Examples
    --------
    >>> check_cache_limit(100_000)
    100000
    >>> check_cache_limit(0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: cache_limit must be a positive integer (entries the search may hold in memory, ...) or None, got 0.
    """
    if cache_limit is None:
        return None
    if isinstance(cache_limit, bool) or not isinstance(cache_limit, (int, np.integer)) or cache_limit < 1:
        raise ValueError(f"cache_limit must be a positive integer (entries the search may hold in memory, "
                         f"e.g. 1000000) or None, got {cache_limit!r}.")
    return int(cache_limit)


def plain_value(value):
    """``value`` as plain, JSON-able data (objectives by name and parameters, arrays as lists, trees as dicts).

    Examples
    --------
    >>> from treeopt.objectives import get_objective
    >>> plain_value(get_objective("weighted_accuracy", omega=2.0))
    {'name': 'weighted_accuracy', 'omega': 2.0}
    >>> plain_value(np.array([[1, 2]])), plain_value({"a": (1, np.float64(0.5))})
    ([[1, 2]], {'a': [1, 0.5]})
    """
    if isinstance(value, Objective):
        parameters = {k: plain_value(v) for k, v in vars(value).items()
                      if not k.startswith("_") and isinstance(v, (int, float, str, bool, type(None)))}
        return value.name if not parameters else {"name": value.name, **parameters}
    if isinstance(value, Tree):
        return value.to_dict()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, dict):
        return {str(k): plain_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_value(v) for v in value]
    return value

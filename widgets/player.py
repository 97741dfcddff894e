"""``SolverPlayer``: play, pause, step and replay any stepwise solver in Jupyter.

The player drives a solver through the stepwise protocol of
:mod:`treeopt.solvers.base` (``step(n)``, the fast path of ``steps()``) in
small *slices* on the notebook's asyncio event loop: it works for at most
``slice_seconds`` (and at most ``speed`` units of work), gives the loop a turn
(so a click on Pause is handled at once and the kernel stays responsive), and
repeats. A slice is bounded by time, not by a count of steps, because steps
differ in cost by orders of magnitude (an OSDT step on AUC against a GOSDT step
on monk): within a slice the player calls
``step(k)`` with ``k`` sized from the measured cost of the previous units.
Redraws are throttled: the views are refreshed at most every
``refresh_interval`` seconds, so playing at full speed is not dominated by
drawing.

Every refresh records a :class:`~widgets.recording.Frame`; the replay slider
scrubs back through them and every view shows the search as it was then.
:meth:`SolverPlayer.save` writes the recorded frames as one self-contained
HTML page that replays them in any browser, offline (:mod:`widgets.replay`).

Views (queue, trace, tree, bounds, ROC) are independent classes that observe
the player's ``frame`` trait; the player builds a default arrangement.
"""

from __future__ import annotations

import asyncio
import time
from html import escape
from typing import Callable

import ipywidgets as widgets
from traitlets import Any, Bool, Float, Int, TraitError, Unicode, validate

from treeopt.solvers.base import check_cache_limit

from .labels import gap_label, lower_bound_label, status_text
from .player_controls import PlayerControls
from .recording import Frame, Recording
from .time_slices import TimedSlices

SLOW_MOTION_RATE = 10.0
"""Units per second at or below which playing draws every slice (a slice is then one unit)."""

__all__ = ["SolverPlayer", "as_player"]


class SolverPlayer(widgets.VBox):
    """Watch, pause, step and replay a solver's search.

    Parameters
    ----------
    solver : Solver
        Any object speaking the stepwise protocol (``step``, ``snapshot``,
        ``lower_bound``, ``upper_bound``, ``gap``, ``status``, ``expansions``).
    views : "default", list or None, default="default"
        ``"default"``: a queue table, a trace plot, the tree, the bound
        counts and, for AUC objectives, the ROC hull. A list of view classes
        (each called with the player) or ``None`` for controls only.
    speed : int, default=200
        At most this many units of work per slice.
    slice_seconds : float, default=0.05
        At most about this many seconds of work per slice (a slice always does
        at least one unit, so one unit costing more than this is a slice).
    rate : float, optional
        Slow motion: at most this many units of work per second while
        playing (e.g. 1 to follow single expansions; at rates up to 10 a
        slice is one unit and every slice is drawn, whatever
        ``refresh_interval``). None: as fast as possible.
    delay : float, default=0
        Seconds to wait between slices while playing (to watch slowly).
    time_limit : float, optional
        Stop playing once the search has used this many seconds.
    cache_limit : int, optional
        Stop playing (status ``cache_limit``) once the search holds more than
        this many cache entries (the solver's ``cache_size``): a memory cap,
        checked after each slice like ``time_limit``.
    refresh_interval : float, default=0.5
        Minimum seconds between redraws while playing (0.5: the search keeps about 80 % of
        its speed in a browser on a busy machine, benchmarks/results_player.md).
    top_k : int, default=10
        Queue entries recorded per frame.
    max_frames : int, default=400
        Frames kept for replay (older ones are thinned evenly).
    solver_factory : callable, optional
        ``solver_factory(bounds) -> Solver``: how :meth:`reset` builds a new
        search (default: the same class and settings with ``bounds``).

    Attributes
    ----------
    n_steps : int
        Units of work done (the solver's expansions).
    status : str
        ``not_started``, ``running``, ``paused``, ``time_limit``, ``cache_limit``, or the
        solver's final status (``optimal``).
    lower_bound, upper_bound, gap : float
        The search's bounds now (the lower bound is certified unless
        ``lower_bound_guessed``).
    lower_bound_guessed : bool
        Whether the solver's lower bound is a guess from a reference model
        (McTavish et al. 2022, section 4.3): the status line then says
        "lower bound (guessed)" and "gap vs guessed bound".
    cache_size : int
        Entries the search holds in memory now (the solver's ``cache_size``,
        also in the status line).
    running : bool
    frame : Frame
        The moment the views show (the latest while ``live``).
    position : int
        Index of ``frame`` in ``recording``.
    live : bool
        Whether the views follow the newest frame.
    recording : Recording
    solver : Solver
    views : list

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.solvers import GOSDT
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3)
    >>> player = SolverPlayer(GOSDT(Dataset.from_binary(X, [0, 1, 1, 0] * 3), regularization=0.05), views=None)
    >>> player.step(1)
    True
    >>> player.n_steps, player.status, player.lower_bound <= player.upper_bound
    (1, 'paused', True)
    >>> player.step(1000)
    False
    >>> player.status, round(player.upper_bound, 3), player.gap
    ('optimal', 0.2, 0.0)
    """

    #: ``views="default"``: a callable ``arrangement(player) -> list of views``. The views observe a
    #: player and so sit above it; :mod:`widgets.default_views` registers the arrangement when the
    #: package is imported, so that this module imports no view.
    default_arrangement = None

    n_steps = Int(0)
    status = Unicode("not_started")
    lower_bound = Float(0.0)
    upper_bound = Float(0.0)
    gap = Float(0.0)
    cache_size = Int(0)
    lower_bound_guessed = Bool(False)
    running = Bool(False)
    speed = Int(200)
    delay = Float(0.0)
    time_limit = Float(None, allow_none=True)
    cache_limit = Int(None, allow_none=True)
    refresh_interval = Float(0.5)
    slice_seconds = Float(0.05)
    rate = Float(None, allow_none=True)
    position = Int(0)
    live = Bool(True)
    frame = Any(None)

    @validate("speed")
    def _valid_speed(self, proposal):
        value = proposal["value"]
        if value < 1:
            raise TraitError(f"speed must be at least 1 unit of work per slice, got {value!r}.")
        return value

    @validate("time_limit")
    def _valid_time_limit(self, proposal):
        value = proposal["value"]
        if value is not None and not value > 0:
            raise TraitError(f"time_limit must be positive seconds or None, got {value!r}.")
        return value

    @validate("cache_limit")
    def _valid_cache_limit(self, proposal):
        try:
            return check_cache_limit(proposal["value"])
        except ValueError as error:
            raise TraitError(str(error)) from None

    @validate("rate")
    def _valid_rate(self, proposal):
        value = proposal["value"]
        if value is not None and not value > 0:
            raise TraitError(f"rate must be positive units of work per second or None, got {value!r}.")
        return value

    @validate("slice_seconds")
    def _valid_slice_seconds(self, proposal):
        if not proposal["value"] > 0:
            raise TraitError(f"slice_seconds must be positive seconds, got {proposal['value']!r}.")
        return proposal["value"]

    @validate("delay", "refresh_interval")
    def _valid_seconds(self, proposal):
        if proposal["value"] < 0:
            raise TraitError(f"{proposal['trait'].name} must be non-negative seconds, got {proposal['value']!r}.")
        return proposal["value"]

    def __init__(self, solver, *, views="default", speed: int = 200, delay: float = 0.0,
                 time_limit: float | None = None, refresh_interval: float = 0.5, top_k: int = 10,
                 max_frames: int = 400, solver_factory: Callable | None = None, cache_limit: int | None = None,
                 slice_seconds: float = 0.05, rate: float | None = None, **kwargs):
        missing = [name for name in ("step", "snapshot", "lower_bound", "upper_bound", "expansions")
                   if not hasattr(solver, name)]
        if missing:
            raise TypeError(f"SolverPlayer needs a stepwise solver (treeopt.solvers); {type(solver).__name__} "
                            f"lacks {missing}. Build one with e.g. GOSDT(Dataset.from_arrays(X, y), "
                            "regularization=0.01) or use treeopt.widgets.explore(X, y).")
        if not isinstance(top_k, int) or top_k < 1:
            raise ValueError(f"top_k must be a positive integer, got {top_k!r}.")
        if isinstance(speed, bool) or not isinstance(speed, int) or speed < 1:
            raise ValueError(f"speed must be a positive integer (units of work per slice), got {speed!r}.")
        if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise ValueError(f"time_limit must be positive seconds or None, got {time_limit!r}.")
        check_cache_limit(cache_limit)
        for name, value in (("delay", delay), ("refresh_interval", refresh_interval)):
            if not isinstance(value, (int, float)) or value < 0:
                raise ValueError(f"{name} must be non-negative seconds, got {value!r}.")
        if isinstance(slice_seconds, bool) or not isinstance(slice_seconds, (int, float)) or not slice_seconds > 0:
            raise ValueError(f"slice_seconds must be positive seconds, got {slice_seconds!r}.")
        if rate is not None and (isinstance(rate, bool) or not isinstance(rate, (int, float)) or not rate > 0):
            raise ValueError(f"rate must be positive units of work per second or None, got {rate!r}.")
        if solver_factory is not None and not callable(solver_factory):
            raise TypeError(f"solver_factory must be callable as solver_factory(bounds), got {solver_factory!r}.")
        super().__init__(**kwargs)
        self.speed, self.delay, self.time_limit = speed, delay, time_limit
        self.cache_limit = cache_limit
        self.refresh_interval = refresh_interval
        self.slice_seconds = slice_seconds
        self.rate = rate
        self.top_k = top_k
        self.solver = solver
        self.solver_factory = solver_factory or self._rebuild_with
        self.recording = Recording(max_frames)
        self.error: BaseException | None = None
        self._finished = False
        self._stopped = ""
        self._generation = 0
        self._task = None
        self._last_refresh = 0.0
        self._clock = time.perf_counter              # replaceable in tests (a fake clock)
        self._slices = TimedSlices(lambda: self._clock())   # time-bounded slices (widgets/time_slices.py)
        self._improved = False
        self._step_callbacks = widgets.CallbackDispatcher()
        self._improve_callbacks = widgets.CallbackDispatcher()
        self._finish_callbacks = widgets.CallbackDispatcher()
        self._internal_move = False                    # the player moves `position` itself
        self.controls = PlayerControls(self)           # widgets/player_controls.py
        self.views: list = []
        self._sync()
        self._record()
        self.views = self._make_views(views)
        self._arrange()
        self.observe(self._on_position, names="position")

    # -- public control ----------------------------------------------------------
    def _rebuild_with(self, states: dict):
        """The same search with its switches set to ``states`` (bounds and strategies alike)."""
        switches = getattr(self.solver, "switches", None) or getattr(type(self.solver), "SWITCHES", None)
        if switches is None:
            return self.solver.rebuild(bounds=states)
        split = switches.split(states)
        if "strategies" not in self.solver.setting_names():
            split.pop("strategies")
        return self.solver.rebuild(**split)

    def step(self, n: int = 1) -> bool:
        """Do ``n`` units of work now, then refresh every view.

        Returns
        -------
        bool
            False once the search is finished.
        """
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be a positive integer, got {n!r}.")
        if self._finished:
            return False
        alive = self._slice(n)
        self._refresh(force=True)
        return alive

    def play(self):
        """Start playing on the running event loop; returns the asyncio task (or None if finished).

        In Jupyter the kernel's event loop is always running. Elsewhere call
        it from a coroutine, e.g. ``asyncio.run(player.play_until_done())``.
        Playing (or pressing Play on a finished search) while a replayed frame
        is shown returns every view to the live state.
        """
        if self._finished:
            self.go_live()
            return None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError("play() needs a running asyncio event loop (Jupyter provides one). In a script, "
                               "use player.step(n) or asyncio.run(player.play_until_done()).") from None
        self.go_live()
        if self.running:
            return self._task
        self._generation += 1
        self._stopped = ""
        self.running = True
        self.status = "running"
        self.controls.show_status()                  # "running" on screen before the first slice
        self._task = loop.create_task(self._play_loop(self._generation))
        return self._task

    def pause(self) -> None:
        """Stop playing after the current slice (at most about ``slice_seconds`` of work)."""
        if self.running:
            self._generation += 1
            self.running = False
            self._sync()
            self._refresh(force=True)

    async def play_until_done(self) -> str:
        """Play until the search finishes, is paused or hits the time limit; return the status."""
        task = self.play()
        if task is not None:
            await task
        return self.status

    def reset(self, bounds: dict | None = None) -> None:
        """Start the search again from scratch (optionally with other bounds switched on/off).

        Parameters
        ----------
        bounds : dict of str to bool, optional
            Default: the current search's bounds.
        """
        self.pause()
        current = dict(getattr(self.solver, "bounds", {}) or {})
        if bounds is not None:
            current.update(bounds)
        self.solver = self.solver_factory(current)
        self._slices.forget()                            # another search: measure its steps afresh
        self._finished = False
        self._stopped = ""
        self.error = None
        self.recording.clear()
        self.live = True
        self._sync()
        self._record()
        self._refresh(force=True)

    def on_step(self, callback: Callable, remove: bool = False) -> None:
        """Call ``callback(player)`` after every slice of work (and every :meth:`step`)."""
        self._step_callbacks.register_callback(callback, remove=remove)

    def on_improve(self, callback: Callable, remove: bool = False) -> None:
        """Call ``callback(player)`` whenever the incumbent tree improves."""
        self._improve_callbacks.register_callback(callback, remove=remove)

    def on_finish(self, callback: Callable, remove: bool = False) -> None:
        """Call ``callback(player)`` when the search ends (optimal) or stops at the time limit."""
        self._finish_callbacks.register_callback(callback, remove=remove)

    def show(self, position: int) -> Frame:
        """Show recorded frame ``position`` in every view (negative counts from the end)."""
        n = len(self.recording)
        if not -n <= position < n:
            raise IndexError(f"position {position} out of range: {n} frames recorded.")
        self.live = position % n == n - 1
        self.position = position % n
        return self.frame

    # -- the work ----------------------------------------------------------------
    def _slice(self, n: int, seconds: float | None = None) -> bool:
        """Do ``n`` units of work (with ``seconds``: stop earlier once that much time is used)."""
        solver = self.solver
        before = solver.upper_bound
        alive = self._slices.run(self.solver, n, seconds)
        improved = solver.upper_bound < before
        if improved:
            self._improved = True
        if not alive:
            self._finished = True
        self._sync()
        self._step_callbacks(self)
        if improved:
            self._improve_callbacks(self)
        if not alive:
            self._finish_callbacks(self)
        return alive

    async def _play_loop(self, generation: int) -> None:
        try:
            while self.running and generation == self._generation:
                rate, clock = self.rate, self._clock
                started, before = clock(), self.n_steps
                # Slow motion: a tenth of a second's worth of units, then a pause to keep `rate` units/s.
                units = self.speed if rate is None else max(1, min(self.speed, int(rate * 0.1)))
                if not self._slice(units, self.slice_seconds):
                    break
                reached = self.solver.limit_reached(time_limit=self.time_limit, cache_limit=self.cache_limit)
                if reached is not None:
                    self._stopped = reached
                    self.running = False
                    self._sync()
                    self._finish_callbacks(self)
                    break
                if rate is None:
                    self._refresh()
                    await asyncio.sleep(self.delay)
                else:                                   # slow motion: up to 10 units/s, draw every slice
                    self._refresh(force=rate <= SLOW_MOTION_RATE)
                    done = self.n_steps - before
                    await asyncio.sleep(self.delay + max(0.0, done / rate - (clock() - started)))
        except Exception as error:                      # shown in the status line, kept for inspection
            self.error = error
            self._stopped = "error"
            raise
        finally:
            if generation == self._generation:
                self.running = False
                self._sync()
                self._refresh(force=True)

    def _sync(self) -> None:
        solver = self.solver
        self.n_steps = int(solver.expansions)
        self.lower_bound = float(solver.lower_bound)
        self.upper_bound = float(solver.upper_bound)
        self.gap = float(max(0.0, self.upper_bound - self.lower_bound))
        self.cache_size = int(getattr(solver, "cache_size", 0))
        self.lower_bound_guessed = bool(getattr(solver, "lower_bound_guessed", False))
        if self._finished:
            self.status = str(solver.status)
        elif self.running:
            self.status = "running"
        elif self._stopped:
            self.status = self._stopped
        else:
            self.status = "not_started" if self.n_steps == 0 else "paused"

    def _record(self) -> Frame:
        frame = Frame.of(self.solver, self.top_k, improved=self._improved)
        self._improved = False
        shown = self.frame
        self.recording.append(frame)
        n = len(self.recording)
        if self.live or shown is None:
            self._set_position(n - 1)
        else:                                           # thinning may have moved the frame we show
            frames = self.recording.frames
            index = next((i for i, f in enumerate(frames) if f is shown), None)
            if index is None:
                expansions = shown.snapshot.expansions
                index = min(range(n), key=lambda i: abs(frames[i].snapshot.expansions - expansions))
            self._set_position(index)
        return frame

    def _refresh(self, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self._last_refresh < self.refresh_interval:
            return
        self._last_refresh = now
        if self.recording.frames and self.recording[-1].snapshot.expansions == self.n_steps \
                and self.recording[-1].snapshot.status == self.solver.status and not self._improved:
            self.controls.show_status()
            return
        self.controls.show_status()                     # the cheap label first, then the views
        self._record()

    def _set_position(self, index: int) -> None:
        self._internal_move = True
        try:
            self.position = index
        finally:
            self._internal_move = False
        self._show_frame(index)

    def _on_position(self, change) -> None:
        if not self._internal_move and 0 <= change["new"] < len(self.recording):
            self._show_frame(change["new"])

    def _show_frame(self, index: int) -> None:
        """Show recorded frame ``index`` in every view and on the replay slider."""
        self.frame = self.recording[index]
        self.controls.show_position(index, len(self.recording))

    def go_live(self) -> None:
        """Show the newest state again (after a replay) and follow it."""
        if not self.recording.frames:
            return
        if self.frame is not self.recording[-1] or not self.live:
            self.live = True
            self._set_position(len(self.recording) - 1)

    def _make_views(self, views) -> list:
        if views is None:
            return []
        if isinstance(views, str):
            if views != "default":
                raise ValueError(f"views must be 'default', a list of view classes or None, got {views!r}.")
            if type(self).default_arrangement is None:
                raise RuntimeError("no default arrangement of views is registered: import treeopt.widgets "
                                   "(its default_views module registers one), or pass views=[...].")
            return type(self).default_arrangement(self)
        made = []
        for view in views:
            made.append(view if isinstance(view, widgets.Widget) else view(self))
        return made

    def _arrange(self) -> None:
        # One wrapping row: views sit side by side while they fit (trace and tree from about 1000 px)
        # and wrap onto the next line instead of being clipped.
        views = [widgets.HBox(self.views, layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start"))] \
            if self.views else []
        self.children = [*self.controls.rows(), *views]
        self.controls.show_status()

    # -- static output -----------------------------------------------------------
    def to_html(self, replay: bool = False, *, title: str | None = None) -> str:
        """HTML of the search: a static summary, or with ``replay=True`` a page that replays it offline.

        Parameters
        ----------
        replay : bool, default=False
            False: an HTML fragment, the status line and every view's static
            picture of the frame shown (what a saved notebook displays).
            True: a complete, self-contained page that replays the recorded
            frames with a slider and Play/Pause, without a kernel or a
            network (:func:`~widgets.replay.replay_html`).
        title : str, optional
            The replay page's heading (default: "<solver> search").

        Returns
        -------
        str
        """
        if replay:
            from .replay import replay_html
            return replay_html(self.recording, title=title)
        guessed = self.lower_bound_guessed
        parts = [f"<div><b>{escape(type(self.solver).__name__)}</b>: {escape(status_text(self.status, guessed))}, "
                 f"{self.n_steps} steps, {lower_bound_label(guessed)} {self.lower_bound:.6g}, objective "
                 f"{self.upper_bound:.6g}, {gap_label(guessed)} {self.gap:.3g}</div>"]
        parts.extend(view.to_html() for view in self.views if hasattr(view, "to_html"))
        return "\n".join(parts)

    def save(self, path, replay: bool = True, *, title: str | None = None):
        """Write the search to ``path`` (an ``.html`` file): a replay page, or the static summary.

        Parameters
        ----------
        path : str or Path
        replay : bool, default=True
            True: the recorded frames (every redraw while playing, every
            :meth:`step`; at most ``max_frames``) as a self-contained page that
            plays offline in any browser (``to_html(replay=True)``). False: the
            static summary of the frame shown (``to_html()``).
        title : str, optional
            The replay page's heading.

        Returns
        -------
        Path

        See Also
        --------
        widgets.replay.record_replay : record a search from plain Python, one frame per
            evenly spread moment, and save its replay.
        """
        from pathlib import Path
        path = Path(path)
        if path.suffix.lower() not in (".html", ".htm"):
            raise ValueError(f"SolverPlayer.save writes HTML; use a .html path, got {path.name!r}.")
        text = self.to_html(replay=True, title=title) if replay else \
            f"<!DOCTYPE html><html><meta charset='utf-8'><body>{self.to_html()}</body></html>"
        path.write_text(text, encoding="utf-8")
        return path

    def _repr_mimebundle_(self, **kwargs):
        bundle = dict(super()._repr_mimebundle_(**kwargs) or {})
        bundle["text/html"] = self.to_html()
        return bundle

    def __repr__(self) -> str:
        return (f"SolverPlayer({type(self.solver).__name__}, status={self.status!r}, n_steps={self.n_steps}, "
                f"lower_bound={self.lower_bound:.6g}, upper_bound={self.upper_bound:.6g})")


def as_player(source) -> SolverPlayer:
    """A player for ``source``: a player is returned as is, a solver gets a new player without views."""
    # Duck-typed rather than isinstance: under pytest's doctest collection this folder is also
    # importable as the top-level package ``widgets``, which makes a second SolverPlayer class.
    if isinstance(source, widgets.Widget) and hasattr(source, "recording") and hasattr(source, "frame"):
        return source
    if hasattr(source, "step") and hasattr(source, "snapshot"):
        return SolverPlayer(source, views=None)
    raise TypeError(f"a view needs a SolverPlayer or a stepwise solver, got {type(source).__name__}.")

"""Record and replay: the moments of a search that a player keeps.

A :class:`Frame` is one moment: the solver's :class:`~treeopt.solvers.Snapshot`
(bounds, incumbent tree, top of the queue, prune counts) plus how much of the
solver's trace existed then. A :class:`Recording` keeps frames in time order
and thins itself when it grows past ``max_frames`` (every other frame is
dropped, except the first, the last and those where the incumbent improved),
so a long search keeps an even coverage of its whole history in bounded
memory.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Frame", "Recording"]


@dataclass(eq=False)
class Frame:
    """One recorded moment of a search.

    Attributes
    ----------
    snapshot : Snapshot
        What the solver reported (its queue entries' ``payload`` is the live
        solver object, which may have changed since).
    trace : list of TracePoint
        The solver's trace list (shared; only ``trace[:trace_length]`` belongs to this moment).
    trace_length : int
    improved : bool
        Whether the incumbent improved since the previous frame.
    bounds : dict
        Which bounds were switched on in this search.
    objective : Objective
        The solver's objective (what the ROC view needs).
    dataset : Dataset
        The solver's data (what the tree view needs to follow a row).
    """

    snapshot: object
    trace: list
    trace_length: int
    improved: bool = False
    bounds: dict = field(default_factory=dict)
    objective: object = None
    dataset: object = None

    @classmethod
    def of(cls, solver, top_k: int = 10, improved: bool = False) -> "Frame":
        """The frame of ``solver`` now: its snapshot with ``top_k`` queue entries.

        Parameters
        ----------
        solver : Solver
            Any stepwise solver (``snapshot``, ``trace``; ``bounds``, ``objective``
            and ``dataset`` when it has them).
        top_k : int, default=10
            Queue entries kept in the snapshot.
        improved : bool, default=False
            Whether the incumbent improved since the previous frame.

        Returns
        -------
        Frame

        Examples
        --------
        >>> import numpy as np
        >>> from treeopt.data import Dataset
        >>> from treeopt.solvers import GOSDT
        >>> solver = GOSDT(Dataset.from_binary(np.array([[0], [1]] * 3), [0, 1] * 3), regularization=0.1)
        >>> _ = solver.step(1)
        >>> frame = Frame.of(solver, top_k=3)
        >>> frame.snapshot.expansions == solver.expansions, frame.trace_length == len(solver.trace)
        (True, True)
        """
        return cls(snapshot=solver.snapshot(top_k), trace=solver.trace, trace_length=len(solver.trace),
                   improved=improved, bounds=dict(getattr(solver, "bounds", {}) or {}),
                   objective=getattr(solver, "objective", None), dataset=getattr(solver, "dataset", None))

    @property
    def points(self) -> list:
        """The trace up to this moment, ending with the moment itself.

        Returns
        -------
        list of tuple
            ``(elapsed, expansions, lower_bound, upper_bound)``; lower bounds
            never decrease and upper bounds never increase along the list.
        """
        pts = [(p.elapsed, p.expansions, p.lower_bound, p.upper_bound) for p in self.trace[:self.trace_length]]
        s = self.snapshot
        now = (s.elapsed, s.expansions, s.lower_bound, s.upper_bound)
        if not pts or pts[-1][1:] != now[1:]:
            pts.append(now)
        # Bounds are certified: the lower bound can only rise, the upper only fall. The trace
        # stores them as the solver reported them; keep the running extremes so rounding residue
        # (and the closing point of a finished search) never draws a spurious wiggle.
        out, lb, ub = [], float("-inf"), float("inf")
        for elapsed, expansions, low, high in pts:
            lb, ub = max(lb, low), min(ub, high)
            out.append((elapsed, expansions, lb, ub))
        return out


class Recording:
    """Frames of one search in time order, thinned to at most ``max_frames``.

    Parameters
    ----------
    max_frames : int, default=400

    Examples
    --------
    >>> rec = Recording(max_frames=4)
    >>> for i in range(10):
    ...     rec.append(Frame(snapshot=i, trace=[], trace_length=0, improved=(i == 3)))
    >>> [f.snapshot for f in rec.frames]
    [0, 3, 5, 9]
    """

    def __init__(self, max_frames: int = 400):
        if max_frames < 2:
            raise ValueError(f"max_frames must be at least 2, got {max_frames!r}.")
        self.max_frames = max_frames
        self.frames: list[Frame] = []

    def __len__(self) -> int:
        return len(self.frames)

    def __getitem__(self, index: int) -> Frame:
        return self.frames[index]

    def append(self, frame: Frame) -> None:
        """Add a frame at the end, thinning older ones if there are too many."""
        self.frames.append(frame)
        if len(self.frames) > self.max_frames:
            self._thin()

    def _thin(self) -> None:
        frames = self.frames
        kept = [frames[0]]
        for i, frame in enumerate(frames[1:-1], start=1):
            if frame.improved or i % 2 == 0:
                kept.append(frame)
        kept.append(frames[-1])
        if len(kept) > self.max_frames:               # too many improvements: keep the newest
            kept = kept[:1] + kept[len(kept) - self.max_frames + 1:]
        self.frames = kept

    def clear(self) -> None:
        """Forget every frame."""
        self.frames = []

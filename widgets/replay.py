"""A recorded search as one self-contained HTML file that replays without a kernel or a network.

The page holds the recording as data (JSON in a ``<script type="application/json">``
element) and a small inline player (``replay_template.html``, plain JavaScript
and SVG, no library): a slider over the frames, Play/Pause, and for the frame
shown the search's status and bounds, the bound trace up to that moment, the
incumbent tree (drawn by :func:`treeopt.render.tree_svg`, so graphviz is not
needed) with its rules, the top of the queue and the prune counts of each bound.

Each distinct tree is stored once and frames refer to it by index, and the
trace is stored once per search with each frame keeping its length, so a
replay of a few hundred frames stays small. Nothing in the page refers to
another file or to a URL: it can go on a course page, into slides or into an
e-mail, and plays from disk.

:func:`record_replay` records a search from plain Python (no widget, no
kernel); :meth:`SolverPlayer.save <widgets.player.SolverPlayer.save>` saves
what a player recorded.
"""

from __future__ import annotations

import json
import math
from html import escape
from importlib import resources
from pathlib import Path

from treeopt.render import tree_svg

from .labels import gap_label, leaf_legend, lower_bound_label, queue_text, status_text
from .recording import Frame, Recording

__all__ = ["replay_data", "replay_html", "save_replay", "record", "record_replay"]

#: The file (package data beside this module) holding the page's style and player script.
TEMPLATE = "replay_template.html"
_DATA_MARK = "__TREEOPT_REPLAY_DATA__"
_TITLE_MARK = "__TREEOPT_REPLAY_TITLE__"
_SVG_NAMESPACE = ' xmlns="http://www.w3.org/2000/svg"'


def _number(value):
    """A float for JSON, or None for an infinite or undefined bound (no incumbent yet)."""
    value = float(value)
    return value if math.isfinite(value) else None


def _is_auc(objective) -> bool:
    # The tree view's test (widgets/roc_view.py), without importing plotly.
    return "auc" in str(getattr(objective, "name", "")).lower()


def _frames_of(source) -> list:
    if isinstance(source, Recording):
        frames = source.frames
    elif hasattr(source, "recording") and isinstance(getattr(source.recording, "frames", None), list):
        frames = source.recording.frames                 # a SolverPlayer
    else:
        frames = list(source) if isinstance(source, (list, tuple)) else None
    if not frames or not all(isinstance(f, Frame) or hasattr(f, "snapshot") for f in frames):
        raise TypeError(f"a replay needs a Recording, a SolverPlayer or a list of Frames with at least one frame, "
                        f"got {type(source).__name__}{'' if frames is None else ' with no frames'}. Record one with "
                        "treeopt.widgets.record_replay(solver, 'search.html').")
    return frames


def replay_data(source) -> dict:
    """The recording as plain data: what the replay page stores and plays.

    Parameters
    ----------
    source : Recording, SolverPlayer or list of Frame

    Returns
    -------
    dict
        JSON-able: ``solver``, ``labels``, ``prune_names``, ``traces`` (each
        search's trace once, rows ``[elapsed, expansions, lower, upper]``),
        ``trees`` (each distinct incumbent once: ``rules``, ``svg``, ``leaves``,
        ``depth``, ``legend``) and ``frames``. A frame holds ``expansions``,
        ``elapsed``, ``lower``, ``upper``, ``gap`` (None while there is no
        incumbent), ``status``, ``guessed``, ``improved``, ``tree`` (an index
        into ``trees`` or None), ``queue_size``, ``queue_text``, ``cache_size``,
        ``queue`` (rows ``[lower, upper, support, rule]``), ``prunes`` (counts
        in the order of ``prune_names``) and ``trace`` (``[index into traces,
        length]``: the trace points that existed then).

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.solvers import GOSDT
    >>> solver = GOSDT(Dataset.from_binary(np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3), [0, 1, 1, 0] * 3),
    ...                regularization=0.05)
    >>> recording = record(solver)
    >>> data = replay_data(recording)
    >>> len(data["frames"]) == len(recording), data["frames"][-1]["status"]
    (True, 'optimal')
    >>> print(data["trees"][data["frames"][-1]["tree"]]["rules"])
    if x0:
        if x1:
            predict 0  (counts: 0=3, 1=0)
        else:  # not (x1)
            predict 1  (counts: 0=0, 1=3)
    else:  # not (x0)
        if x1:
            predict 1  (counts: 0=0, 1=3)
        else:  # not (x1)
            predict 0  (counts: 0=3, 1=0)
    """
    frames = _frames_of(source)
    prune_names: list = []
    for frame in frames:
        prune_names.extend(name for name in frame.snapshot.prune_counts if name not in prune_names)
    traces, trace_index = [], {}
    for frame in sorted(frames, key=lambda f: -f.trace_length):
        if id(frame.trace) not in trace_index:
            trace_index[id(frame.trace)] = len(traces)
            traces.append([[_number(p.elapsed), int(p.expansions), _number(p.lower_bound), _number(p.upper_bound)]
                           for p in frame.trace[:frame.trace_length]])
    trees, tree_index, tree_by_object = [], {}, {}
    out = []
    for frame in frames:
        s = frame.snapshot
        guessed = bool(getattr(s, "lower_bound_guessed", False))
        index = None
        if s.best_tree is not None:
            index = tree_by_object.get(id(s.best_tree))
            if index is None:
                index = _add_tree(s.best_tree, _is_auc(frame.objective), trees, tree_index)
                tree_by_object[id(s.best_tree)] = index
        out.append({
            "expansions": int(s.expansions), "elapsed": _number(s.elapsed),
            "lower": _number(s.lower_bound), "upper": _number(s.upper_bound),
            "gap": _number(s.gap) if math.isfinite(s.upper_bound) else None,
            "status": status_text(str(s.status), guessed), "guessed": guessed, "improved": bool(frame.improved),
            "tree": index, "queue_size": int(s.queue_size),
            "queue_text": queue_text(int(s.queue_size), str(s.status), guessed),
            "cache_size": int(getattr(s, "cache_size", 0) or 0),
            "queue": [[_number(e.lower_bound), _number(e.upper_bound), float(e.support), str(e.rule)]
                      for e in s.queue],
            "prunes": [int(s.prune_counts.get(name, 0)) for name in prune_names],
            "trace": [trace_index[id(frame.trace)], int(frame.trace_length)],
        })
    bounds = frames[-1].bounds or {}
    return {
        "solver": str(frames[-1].snapshot.solver),
        "bounds_off": sorted(name for name, on in bounds.items() if not on),
        "labels": {"lower": [lower_bound_label(False), lower_bound_label(True)],
                   "gap": [gap_label(False), gap_label(True)]},
        "prune_names": prune_names, "traces": traces, "trees": trees, "frames": out,
    }


def _add_tree(tree, ranking: bool, trees: list, tree_index: dict) -> int:
    """Index of ``tree`` in ``trees``, appending it (rules and SVG) the first time its drawing is seen."""
    rules = tree.rules()
    svg = tree_svg(tree, leaf_label="positive_rate" if ranking and len(tree.classes) == 2 else "class")
    key = (rules, svg)
    if key not in tree_index:
        tree_index[key] = len(trees)
        trees.append({"rules": rules, "svg": svg.replace(_SVG_NAMESPACE, "", 1), "leaves": int(tree.n_leaves),
                      "depth": int(tree.depth), "legend": leaf_legend(tree, ranking and len(tree.classes) == 2)})
    return tree_index[key]


def replay_html(source, *, title: str | None = None) -> str:
    """A complete HTML page that replays the recording offline.

    Parameters
    ----------
    source : Recording, SolverPlayer or list of Frame
    title : str, optional
        The page's heading (default: "<solver> search").

    Returns
    -------
    str
        The page: the data of :func:`replay_data` and an inline player; no
        URL and no reference to any other file.

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.solvers import GOSDT
    >>> solver = GOSDT(Dataset.from_binary(np.array([[0], [1]] * 3), [0, 1] * 3), regularization=0.1)
    >>> page = replay_html(record(solver), title="a first search")
    >>> page.startswith("<!DOCTYPE html>"), "a first search" in page, "http" in page
    (True, True, False)
    """
    data = replay_data(source)
    if title is None:
        title = f"{data['solver']} search"
    # Inside <script> only "</" could end the element early: escape <, > and & as JSON allows.
    text = json.dumps(data, separators=(",", ":"), allow_nan=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    template = resources.files(__package__).joinpath(TEMPLATE).read_text(encoding="utf-8")
    return template.replace(_TITLE_MARK, escape(str(title))).replace(_DATA_MARK, text)


def _check_html_path(path) -> Path:
    path = Path(path)
    if path.suffix.lower() not in (".html", ".htm"):
        raise ValueError(f"a replay is an HTML page; use a .html path, got {path.name!r}.")
    if not path.parent.exists():
        raise FileNotFoundError(f"cannot write {path}: the folder {path.parent} does not exist; create it first.")
    return path


def save_replay(source, path, *, title: str | None = None) -> Path:
    """Write :func:`replay_html` to ``path`` (an ``.html`` file); returns the path.

    Examples
    --------
    >>> import tempfile, numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.solvers import GOSDT
    >>> solver = GOSDT(Dataset.from_binary(np.array([[0], [1]] * 3), [0, 1] * 3), regularization=0.1)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = save_replay(record(solver), Path(folder) / "search.html")
    ...     path.read_text(encoding="utf-8").count("<script")
    2
    """
    path = _check_html_path(path)
    path.write_text(replay_html(source, title=title), encoding="utf-8")
    return path


def _check_record_args(solver, max_frames, top_k, time_limit) -> None:
    missing = [name for name in ("step", "snapshot", "trace", "upper_bound") if not hasattr(solver, name)]
    if missing:
        raise TypeError(f"record_replay needs a stepwise solver (treeopt.solvers); {type(solver).__name__} lacks "
                        f"{missing}. Build one with treeopt.make_solver(X, y, regularization=0.01).")
    if isinstance(max_frames, bool) or not isinstance(max_frames, int) or max_frames < 2:
        raise ValueError(f"max_frames must be an integer of at least 2, got {max_frames!r}.")
    if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
        raise ValueError(f"top_k must be a positive integer, got {top_k!r}.")
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not time_limit > 0):
        raise ValueError(f"time_limit must be positive seconds or None, got {time_limit!r}.")


def record(solver, *, max_frames: int = 200, top_k: int = 10, time_limit: float | None = None) -> Recording:
    """Drive ``solver`` to its end (or ``time_limit``), recording at most ``max_frames`` evenly spread frames.

    The first frames are one unit of work apart; whenever the recording thins
    itself (:class:`~widgets.recording.Recording` drops every other frame),
    the units between frames double, so the frames stay spread over the whole
    search however long it runs, and the solver is asked for a snapshot only
    a few times per frame kept.

    Parameters
    ----------
    solver : Solver
        A stepwise solver, usually not started yet (e.g. from :func:`treeopt.make_solver`).
    max_frames : int, default=200
    top_k : int, default=10
        Queue entries recorded per frame.
    time_limit : float, optional
        Stop after this many seconds of search (the status of the last frame is then ``time_limit``).

    Returns
    -------
    Recording

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.solvers import GOSDT
    >>> solver = GOSDT(Dataset.from_binary(np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3), [0, 1, 1, 0] * 3),
    ...                regularization=0.05)
    >>> recording = record(solver, max_frames=5)
    >>> len(recording) <= 5, recording[0].snapshot.expansions, recording[-1].snapshot.status
    (True, 0, 'optimal')
    """
    _check_record_args(solver, max_frames, top_k, time_limit)
    recording = Recording(max_frames)
    recording.append(Frame.of(solver, top_k))
    units, alive = 1, True
    while alive:
        before = solver.upper_bound
        alive = solver.step(units)
        reached = solver.limit_reached(time_limit=time_limit) if alive and hasattr(solver, "limit_reached") \
            else None
        frame = Frame.of(solver, top_k, improved=solver.upper_bound < before)
        if reached is not None:                        # the snapshot says "paused": say why it stopped
            frame.snapshot.status = reached
            alive = False
        size = len(recording)
        recording.append(frame)
        if len(recording) <= size:                     # thinned: half as many frames per unit from now on
            units *= 2
    return recording


def record_replay(solver, path, *, max_frames: int = 200, top_k: int = 10, time_limit: float | None = None,
                  title: str | None = None) -> Recording:
    """Record ``solver``'s search (:func:`record`) and save it as an offline HTML replay (:func:`save_replay`).

    No widget and no kernel is needed: this runs in a plain Python script.

    Parameters
    ----------
    solver : Solver
        A stepwise solver, usually not started yet, e.g.
        ``treeopt.make_solver(X, y, regularization=0.01, depth_budget=5)``.
    path : str or Path
        The ``.html`` file to write (checked before the search starts).
    max_frames, top_k, time_limit
        See :func:`record`.
    title : str, optional
        The page's heading.

    Returns
    -------
    Recording
        The frames the page replays.

    Examples
    --------
    >>> import tempfile, numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.solvers import GOSDT
    >>> solver = GOSDT(Dataset.from_binary(np.array([[0], [1]] * 3), [0, 1] * 3), regularization=0.1)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     recording = record_replay(solver, Path(folder) / "search.html")
    >>> recording[-1].snapshot.status
    'optimal'
    """
    path = _check_html_path(path)
    _check_record_args(solver, max_frames, top_k, time_limit)
    recording = record(solver, max_frames=max_frames, top_k=top_k, time_limit=time_limit)
    save_replay(recording, path, title=title)
    return recording

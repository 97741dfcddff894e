"""treeopt.widgets: watch, pause, step and replay any treeopt solver in Jupyter.

>>> from treeopt.widgets import explore                      # doctest: +SKIP
>>> explore(X, y, regularization=0.01)                       # doctest: +SKIP

The names below are imported on first use, so ``import treeopt.widgets``
itself never fails; using them needs the ``widgets`` extra
(``pip install 'treeopt[widgets]'``: ipywidgets, plotly, anywidget, graphviz).

* :class:`SolverPlayer`: controls (play, pause, step, step ×N, speed, time
  limit, reset), record and replay, hooks, and a default arrangement of views.
* Views observing a player: :class:`QueueView`, :class:`TraceView`,
  :class:`TreeView`, :class:`RocView`, :class:`BoundsView`.
* :func:`explore`: ``explore(X, y, **estimator_params)`` in one line.
* :func:`record_replay`: drive a solver from plain Python and save its search
  as one self-contained HTML page that replays offline (:func:`save_replay`
  saves a player's recording the same way).
* :class:`FrontierExplorer`: accuracy against leaves for every frontier tree,
  a λ slider along the convex hull, and the selected tree.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "SolverPlayer": "player",
    "PlayerView": "view",
    "QueueView": "queue_view",
    "TraceView": "trace_view",
    "TreeView": "tree_view",
    "RocView": "roc_view",
    "BoundsView": "bounds_view",
    "FrontierExplorer": "frontier_explorer",
    "RashomonExplorer": "rashomon_explorer",
    "explore": "explore",
    "Frame": "recording",
    "Recording": "recording",
    "record_replay": "replay",
    "save_replay": "replay",
    "render_tree_svg": "tree_view",
    "hull_points": "roc_view",
}

__all__ = sorted(_EXPORTS)



def __getattr__(name: str):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        # The player's default arrangement of views is registered by default_views (the views sit
        # above the player, which imports none of them); wire it before handing out any name.
        importlib.import_module(".default_views", __name__)
        module = importlib.import_module(f".{_EXPORTS[name]}", __name__)
    except ImportError as error:
        raise ImportError(f"treeopt.widgets.{name} needs the widgets extra ({error}); install it with "
                          "pip install 'treeopt[widgets]'.") from error
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))

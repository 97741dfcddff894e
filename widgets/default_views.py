"""The player's default arrangement of views.

Trace and tree side by side, then the queue and the bound counters, then the
ROC convex hull when the objective is an AUC-type objective on two classes.
"""

from __future__ import annotations

from .bounds_view import BoundsView
from .player import SolverPlayer
from .queue_view import QueueView
from .roc_view import RocView, is_auc_objective
from .trace_view import TraceView
from .tree_view import TreeView

__all__ = ["default_views"]


def default_views(player) -> list:
    """Build the default views for ``player``.

    Returns
    -------
    list of PlayerView
    """
    views = [TraceView(player), TreeView(player), QueueView(player), BoundsView(player)]
    dataset = getattr(player.solver, "dataset", None)
    if is_auc_objective(getattr(player.solver, "objective", None)) and dataset is not None \
            and dataset.n_classes == 2:
        views.append(RocView(player))
    return views


SolverPlayer.default_arrangement = staticmethod(default_views)

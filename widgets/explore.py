"""``explore(X, y)``: one line from a dataset to a player with every view."""

from __future__ import annotations

from treeopt.building import SETTINGS, make_solver, solver_options_of_all

from .player import SolverPlayer

__all__ = ["explore"]


def explore(X, y, *, sample_weight=None, views="default", speed: int = 200, delay: float = 0.0,
            refresh_interval: float = 0.5, slice_seconds: float = 0.05, rate: float | None = None,
            **estimator_params):
    """A :class:`SolverPlayer` with all views, ready to play, on ``(X, y)``.

    The data are validated and binarized exactly as
    :class:`~treeopt.OptimalTreeClassifier` would (same parameters), but
    nothing is searched until you press Play or call ``step``.

    Parameters
    ----------
    X : array_like or DataFrame of shape (n_samples, n_features)
    y : array_like of shape (n_samples,)
    sample_weight : array_like of shape (n_samples,), optional
    views : "default", list or None, default="default"
        See :class:`SolverPlayer`.
    speed : int, default=200
        At most this many units of work per slice.
    delay : float, default=0
        Seconds between slices while playing.
    refresh_interval : float, default=0.5
        Minimum seconds between redraws while playing (0.5: the search keeps about 80 % of
        its speed in a browser on a busy machine, benchmarks/results_player.md).
    slice_seconds : float, default=0.05
        At most about this many seconds of work per slice (so Pause answers quickly).
    rate : float, optional
        Slow motion: at most this many units of work per second (None: as fast as possible).
    **estimator_params
        Any parameter of :class:`~treeopt.OptimalTreeClassifier`
        (``regularization``, ``solver``, ``objective``, ``depth_budget``,
        ``bounds``, ``time_limit``, ``cache_limit``, ...). ``time_limit``
        and ``cache_limit`` become the player's limits.

    Returns
    -------
    SolverPlayer

    Examples
    --------
    >>> from treeopt.datasets import load_monk
    >>> player = explore(*load_monk(1), regularization=0.05, views=None)
    >>> player.step(10**6), player.status, player.n_steps > 0
    (False, 'optimal', True)
    """
    limits = {"time_limit": None, "cache_limit": None}
    if "node_limit" in estimator_params:
        raise TypeError("explore() has no node_limit: a player is paused by hand or stopped by time_limit or "
                        "cache_limit (a node limit belongs to solver.run(node_limit=...) or the estimator).")
    valid = {"solver", *SETTINGS, *solver_options_of_all(), "solver_options", *limits}
    unknown = sorted(set(estimator_params) - valid)
    if unknown:
        raise TypeError(f"explore() got unknown parameter(s) {unknown}; it accepts the parameters of "
                        f"OptimalTreeClassifier that shape the search: {sorted(valid)}.")
    limits.update({k: v for k, v in estimator_params.items() if k in limits})
    settings = {k: v for k, v in estimator_params.items() if k not in limits}
    solver = make_solver(X, y, sample_weight=sample_weight, **settings)

    return SolverPlayer(solver, views=views, speed=speed, delay=delay, time_limit=limits["time_limit"],
                        refresh_interval=refresh_interval, cache_limit=limits["cache_limit"],
                        slice_seconds=slice_seconds, rate=rate)

"""``explore(X, y)``: one line from a dataset to a player with every view."""

from __future__ import annotations

__all__ = ["explore"]


def explore(X, y, *, sample_weight=None, views="default", speed: int = 200, delay: float = 0.0,
            refresh_interval: float = 0.25, **estimator_params):
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
        Units of work per slice.
    delay : float, default=0
        Seconds between slices while playing.
    refresh_interval : float, default=0.25
        Minimum seconds between redraws while playing.
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
    from treeopt.estimator import OptimalTreeClassifier

    from .player import SolverPlayer

    valid = OptimalTreeClassifier().get_params()
    unknown = sorted(set(estimator_params) - set(valid))
    if unknown:
        raise TypeError(f"explore() got unknown parameter(s) {unknown}; it accepts the parameters of "
                        f"OptimalTreeClassifier: {sorted(valid)}.")
    estimator = OptimalTreeClassifier(**estimator_params)
    solver = estimator._make_solver(X, y, sample_weight)

    def factory(bounds: dict):
        params = {**estimator.get_params(), "bounds": bounds}
        return OptimalTreeClassifier(**params)._make_solver(X, y, sample_weight)

    return SolverPlayer(solver, views=views, speed=speed, delay=delay, time_limit=estimator.time_limit,
                        refresh_interval=refresh_interval, solver_factory=factory,
                        cache_limit=estimator.cache_limit)

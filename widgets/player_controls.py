"""The player's control bar: buttons, sliders and labels, kept in step with a player's traits.

:class:`PlayerControls` builds the widgets a person uses to drive a
:class:`~widgets.player.SolverPlayer` (Play, Pause, Step, Step ×N, Reset, speed, slow
motion, time limit, the replay slider, Live, "large") and the status and replay labels.
Each control calls the player's public methods or sets its traits, and each trait
change the player makes (from code, e.g. ``player.rate = 5``) shows in the controls,
so the two ways of driving a player stay in agreement. The player only arranges
:meth:`PlayerControls.rows` above its views.
"""

from __future__ import annotations

from html import escape

import ipywidgets as widgets

from .labels import gap_label, lower_bound_label, queue_text, status_text

__all__ = ["PlayerControls", "SPEEDS", "RATES"]

#: Choices of the speed slider (units of work per slice).
SPEEDS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
#: Choices of the slow-motion control (units of work per second; "max" = as fast as possible).
RATES = [1, 2, 5, 10, 20, 50, 100]

# The "large" toggle (for a projector): the whole player, plots included, drawn 1.3 times larger.
_STYLE = "<style>.treeopt-large { zoom: 1.3; }</style>"


class PlayerControls:
    """The control bar of one player.

    Parameters
    ----------
    player : SolverPlayer
        The player driven by these controls (its ``play``, ``pause``, ``step``, ``reset`` and
        its ``speed``, ``rate``, ``time_limit``, ``position`` and ``live`` traits).

    Examples
    --------
    >>> import numpy as np
    >>> from treeopt.data import Dataset
    >>> from treeopt.solvers import GOSDT
    >>> from widgets.player import SolverPlayer
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> player = SolverPlayer(GOSDT(Dataset.from_binary(X, X[:, 0] ^ X[:, 1]), regularization=0.05), views=None)
    >>> player.controls.step_button.click()          # the same as player.step(1)
    >>> player.n_steps
    1
    >>> player.rate = 5                              # code and controls agree
    >>> player.controls.rate_box.value
    5.0
    """

    def __init__(self, player):
        self.player = player

        def button(label, tooltip, handler, style=""):
            b = widgets.Button(description=label, tooltip=tooltip, button_style=style,
                               layout=widgets.Layout(width="auto"))
            b.on_click(lambda _: handler())
            return b

        self.play_button = button("Play", "run the search in slices", player.play, "success")
        self.pause_button = button("Pause", "pause after the current slice", player.pause, "warning")
        self.step_button = button("Step", "one unit of work", lambda: player.step(1))
        self.n_box = widgets.BoundedIntText(value=100, min=1, max=10**7, layout=widgets.Layout(width="90px"))
        self.step_n_button = button("Step ×N", "N units of work", lambda: player.step(int(self.n_box.value)))
        self.reset_button = button("Reset", "start the search again", player.reset, "danger")
        speeds = sorted(set(SPEEDS) | {player.speed})
        self.speed_slider = widgets.SelectionSlider(
            options=speeds, value=player.speed, description="speed",
            tooltip="at most this many units of work per slice (and at most slice_seconds of work)",
            layout=widgets.Layout(width="260px"))
        self.speed_slider.observe(lambda c: setattr(player, "speed", int(c["new"])), names="value")
        # 0 stands for "max" (no limit): a Dropdown whose value is None shows an empty box.
        rates = [("max", 0.0)] + [(f"{r:g}", float(r)) for r in RATES]
        if player.rate is not None and player.rate not in RATES:
            rates.append((f"{player.rate:g}", float(player.rate)))
        self.rate_box = widgets.Dropdown(options=rates, value=player.rate or 0.0, description="steps/s",
                                         tooltip="slow motion: units of work per second while playing",
                                         style={"description_width": "initial"},
                                         layout=widgets.Layout(width="130px"))
        self.rate_box.observe(lambda c: setattr(player, "rate", c["new"] or None), names="value")
        self.limit_box = widgets.FloatText(value=player.time_limit or 0.0, description="time limit (s)",
                                           tooltip="0 = none", layout=widgets.Layout(width="190px"),
                                           style={"description_width": "initial"})
        self.limit_box.observe(self._on_limit_box, names="value")
        self.steps_label = widgets.HTML()
        self.steps_label.add_class("treeopt-steps")
        self.status_label = widgets.HTML()
        self.status_label.add_class("treeopt-status")
        self.replay = widgets.IntSlider(value=0, min=0, max=0, description="replay", continuous_update=True,
                                        layout=widgets.Layout(width="420px"))
        self.replay.observe(self._on_replay, names="value")
        self.live_button = button("Live", "follow the newest state", player.go_live)
        self.replay_label = widgets.HTML()
        self.large = widgets.ToggleButton(value=False, description="large", tooltip="larger text and plots, "
                                          "for a projector", layout=widgets.Layout(width="auto"))
        self.large.observe(self._on_large, names="value")
        self._moving = False                  # the player moved the slider: not a person's replay
        player.observe(self._on_speed_trait, names="speed")
        player.observe(self._on_rate_trait, names="rate")

    # -- what the player shows -------------------------------------------------------
    def rows(self) -> list:
        """The control rows, top to bottom: buttons and settings, replay, status."""
        wrap = widgets.Layout(flex_flow="row wrap")
        controls = widgets.HBox([self.play_button, self.pause_button, self.step_button, self.step_n_button,
                                 self.n_box, self.reset_button, self.speed_slider, self.rate_box,
                                 self.limit_box], layout=wrap)
        replay = widgets.HBox([self.replay, self.live_button, self.replay_label, widgets.HTML(_STYLE), self.large],
                              layout=widgets.Layout(flex_flow="row wrap"))
        status = widgets.HBox([self.steps_label, widgets.HTML("&nbsp;·&nbsp;"), self.status_label],
                              layout=widgets.Layout(flex_flow="row wrap"))
        return [controls, replay, status]

    def show_status(self) -> None:
        """Write the steps and status labels from the player's traits."""
        p = self.player
        self.steps_label.value = f"<b>steps</b> <span class='treeopt-steps-value'>{p.n_steps}</span>"
        error = f" · <span style='color:#d62728'>{escape(repr(p.error))}</span>" if p.error else ""
        guessed = p.lower_bound_guessed
        self.status_label.value = (
            f"<b>{escape(status_text(p.status, guessed))}</b> · {lower_bound_label(guessed)} "
            f"{p.lower_bound:.6g} · objective {p.upper_bound:.6g} · {gap_label(guessed)} {p.gap:.3g} · "
            f"{escape(queue_text(getattr(p.solver, 'queue_size', 0), p.status, guessed))} · "
            f"cache {p.cache_size} · "
            f"{getattr(p.solver, 'elapsed', 0.0):.2f} s{error}")

    def show_position(self, index: int, frames: int) -> None:
        """Move the replay slider to frame ``index`` of ``frames`` and label it (not a person's replay)."""
        self._moving = True
        try:
            self.replay.max = frames - 1
            self.replay.value = index
        finally:
            self._moving = False
        frame = self.player.frame
        if frame is None:
            return
        s = frame.snapshot
        where = "live" if self.player.live else "replay"
        self.replay_label.value = (f"{where}: frame {index + 1}/{frames} · "
                                   f"{s.expansions} expansions · {s.elapsed:.2f} s")

    # -- a person's input ----------------------------------------------------------------
    def _on_replay(self, change) -> None:
        if not self._moving:
            player = self.player
            player.live = change["new"] == len(player.recording) - 1
            player.position = change["new"]

    def _on_limit_box(self, change) -> None:
        self.player.time_limit = float(change["new"]) if change["new"] and change["new"] > 0 else None

    def _on_large(self, change) -> None:
        if change["new"]:
            self.player.add_class("treeopt-large")
        else:
            self.player.remove_class("treeopt-large")

    # -- the player's traits, set from code -------------------------------------------------
    def _on_rate_trait(self, change) -> None:
        box, value = self.rate_box, change["new"] or 0.0
        if value not in [v for _, v in box.options]:
            box.options = list(box.options) + [(f"{value:g}", value)]
        box.value = value

    def _on_speed_trait(self, change) -> None:
        slider = self.speed_slider
        if change["new"] not in slider.options:
            slider.options = sorted(set(slider.options) | {change["new"]})
        slider.value = change["new"]

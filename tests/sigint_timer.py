"""Real SIGINTs, after a delay or at a chosen moment of the setup, for the tests that stop fits as a person
pressing Ctrl-C would."""

from __future__ import annotations

import signal
import threading
import time
import warnings

import pytest

import treeopt.binarize as binarize


def sigint_after(seconds: float) -> tuple[threading.Timer, list]:
    """Start a timer that sends SIGINT to this process's main thread after ``seconds``.

    Returns the timer (cancel it in a ``finally``) and a list that gets the ``time.perf_counter()``
    moment the signal was sent, so a test can measure how long the stop took.
    """
    sent = []
    main = threading.main_thread().ident

    def send():
        sent.append(time.perf_counter())
        signal.pthread_kill(main, signal.SIGINT)

    timer = threading.Timer(seconds, send)
    timer.start()
    return timer, sent


def answers_sigint(fit, moment: float) -> float:
    """Seconds from a real SIGINT sent ``moment`` seconds into ``fit()`` to ``KeyboardInterrupt`` leaving it
    (the fit must raise it; its warnings are silenced)."""
    timer, sent = sigint_after(moment)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(KeyboardInterrupt):
                fit()
        stopped = time.perf_counter()
    finally:
        timer.cancel()
    assert sent, "fit ended before the SIGINT was sent"
    return stopped - sent[0]


def ctrl_c_while_binarizing(monkeypatch) -> list:
    """Send a real SIGINT when the binarizer evaluates its first block of thresholds (once).

    Returns a list that gets an entry when the signal has been sent.
    """
    block = binarize._threshold_block
    sent = []

    def block_with_ctrl_c(*args, **kwargs):
        if not sent:
            sent.append(1)
            signal.raise_signal(signal.SIGINT)
        return block(*args, **kwargs)

    monkeypatch.setattr(binarize, "_threshold_block", block_with_ctrl_c)
    return sent

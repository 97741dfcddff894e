"""A real SIGINT to the main thread after a delay, for the tests that stop fits as a person pressing Ctrl-C would."""

from __future__ import annotations

import signal
import threading
import time


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

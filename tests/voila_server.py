"""Serve a notebook with Voila for the real-browser tests (``test_browser.py``, ``test_rashomon_browser.py``).

Debian's ``chromium`` package is used (``/usr/bin/chromium``); a browser is never downloaded.
:func:`serve` skips, not fails, when chromium, voila or playwright is missing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def wait_until(predicate, timeout: float, what: str) -> None:
    """Poll ``predicate`` every 0.2 s until it is true; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"voila exited early with code {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError(f"voila did not open port {port} within {timeout} s")


@contextlib.contextmanager
def serve(notebook: Path, tmp_path: Path):
    """Yield the URL of ``notebook`` served by Voila (its own Jupyter dirs under ``tmp_path``).

    Skips the calling test when chromium, voila or playwright is missing.
    """
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.skip("Debian's chromium is not installed (make system-deps installs it)")
    pytest.importorskip("voila")
    pytest.importorskip("playwright.sync_api")
    with serve_process(notebook, tmp_path) as url:
        yield url


@contextlib.contextmanager
def serve_process(notebook: Path, tmp_path: Path):
    """Yield the URL of ``notebook`` served by Voila, without pytest (``benchmarks/browser_bench.py``)."""
    port = _free_port()
    env = dict(os.environ)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_RUNTIME_DIR"):
        path = tmp_path / name.lower()
        path.mkdir()
        env[name] = str(path)
    log = open(tmp_path / "voila.log", "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "voila", str(notebook), "--no-browser", f"--port={port}",
         "--Voila.ip=127.0.0.1", "--show_tracebacks=True"],
        cwd=notebook.parent, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_for_port(port, proc, timeout=120)
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()

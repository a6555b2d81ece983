"""Processes the tests and benchmarks start: free ports, Chromium's flags, stopping a server with its workers, and a
Python snippet run in a process of its own."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]
GRACE_AFTER_PARENT = 5.0  # seconds the rest of a stopped server's group may take to exit before it is killed

# Headless Chromium as the browser tests and benchmarks run it (as root in a container: no sandbox).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def kept_port(*taken: int) -> int:
    """A free TCP port below the range the system draws `free_port()`'s and outgoing connections' ports from: a server
    that stops and starts again on it (as `reflex run` does, run after run) finds it still free, not taken meanwhile
    by another test's server; none of `taken`."""
    lowest = _ephemeral_start()
    while True:
        port = random.randrange(max(lowest - 10_000, 1_024), lowest)
        if port in taken:
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port


def _ephemeral_start() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768  # (Linux's default)


def stop_group(process: subprocess.Popen[bytes], first: signal.Signals = signal.SIGINT) -> None:
    """Stop a process started in a session of its own, and everything it started: `first`, then harder."""
    steps = [(signal.SIGINT, 15), (signal.SIGTERM, 10), (signal.SIGKILL, 5)]
    for sig, wait in steps[[sig for sig, _ in steps].index(first) :]:
        if process.poll() is not None:
            break
        try:
            os.killpg(process.pid, sig)  # the whole group: reflex and its server workers
        except ProcessLookupError:
            break
        try:
            process.wait(wait)
        except subprocess.TimeoutExpired:
            continue
    _until_group_gone(process.pid, GRACE_AFTER_PARENT)  # (a server's workers finish stopping after it: kept turns)
    try:
        os.killpg(process.pid, signal.SIGKILL)  # a worker left behind must not keep the port
    except ProcessLookupError:
        pass


def _until_group_gone(group: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)


def python_prints(code: str, env: dict[str, str] | None = None) -> str:
    """What `python -c code` prints, run in the checkout in a process of its own (a fresh interpreter: nothing imported
    yet); a failure shows its standard error."""
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=CHECKOUT, env=env, capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout

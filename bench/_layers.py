"""Where a served app's CPU goes, by layer: a sampling profiler for `python -m bench.load --profile`.

The app's workers (forked by `reflex run`; bench/_profiling/sitecustomize.py arms this in each) take a sample every
INTERVAL of their CPU time (SIGPROF): the stack of the main thread (where the event loop runs, and where Python
handles signals), read from the innermost frame outwards, counts for the first layer it passes through. So a library
called by a layer counts for that layer (pydantic validating the copilot's events counts for the copilot), and what
Reflex does when the copilot asks it (locking a tab's state) counts for Reflex. A sample taken while the event loop
waits is CPU of another thread (the store's writes, the server's I/O in Rust). The counts so far are written to
`<folder>/<pid>.json` twice a second; `layer_shares` reads them all. Not in the process that forks the workers: a
timer of SIGPROF survives exec, and would kill the programs it starts (Node).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections import Counter
from pathlib import Path
from types import FrameType

INTERVAL = 0.002  # seconds of the process's CPU time between two samples
WRITE_EVERY = 0.5  # seconds between two writes of the counts so far
# (where a frame's file is, the layer it counts for): the first that matches, innermost frame first
LAYERS = (
    ("/copilot_ui/server/_demo", "the demo model"),
    ("/anchor_app/", "the anchor app's handler"),
    ("/copilot_ui/protocol/", "copilot: protocol pipeline"),
    ("/copilot_ui/core/", "copilot: loop"),
    ("/copilot_ui/agents/", "copilot: agent adapter"),
    ("/copilot_ui/server/", "copilot: agent adapter"),
    ("/copilot_ui/state/sink/", "copilot: sink (what the page is sent)"),
    ("/copilot_ui/store/", "copilot: store"),
    ("/copilot_ui/", "copilot: state layer"),
    ("/pydantic_ai/", "pydantic-ai"),
    ("/pydantic_graph/", "pydantic-ai"),
    ("/ag_ui/", "pydantic-ai"),
    ("/socketio/", "transport (Socket.IO, ASGI)"),
    ("/engineio/", "transport (Socket.IO, ASGI)"),
    ("/granian/", "transport (Socket.IO, ASGI)"),
    ("/starlette/", "transport (Socket.IO, ASGI)"),
    ("/reflex", "Reflex: events, state, deltas"),
    ("/selectors.py", "other threads (while the event loop waits)"),
    ("/asyncio/", "event loop"),
)


_counts: Counter[str] = Counter()


def start(folder: str) -> None:
    """Sample each process this one forks into `folder`."""
    os.register_at_fork(after_in_child=lambda: _begin(Path(folder)))


def layer_shares(folder: Path) -> Counter[str]:
    """The samples of every process written to `folder` so far, by layer."""
    total: Counter[str] = Counter()
    for written in folder.glob("*.json"):
        with contextlib.suppress(OSError, ValueError):
            total.update(json.loads(written.read_text()))
    return total


def _begin(folder: Path) -> None:
    _counts.clear()
    signal.signal(signal.SIGPROF, _sample)
    signal.setitimer(signal.ITIMER_PROF, INTERVAL, INTERVAL)
    threading.Thread(target=_write, args=(folder / f"{os.getpid()}.json",), daemon=True, name="layers").start()


def _sample(_signal: int, frame: FrameType | None) -> None:
    _counts[_layer(frame)] += 1


def _layer(frame: FrameType | None) -> str:
    while frame is not None:
        path = frame.f_code.co_filename
        for marker, layer in LAYERS:
            if marker in path:
                return layer
        frame = frame.f_back
    return "other"


def _write(path: Path) -> None:
    while True:
        time.sleep(WRITE_EVERY)
        partial = path.with_suffix(".part")
        partial.write_text(json.dumps(dict(_counts)))
        partial.replace(path)

"""Where a served app's CPU goes, by layer: a sampling profiler for `python -m bench.load --profile`.

The app's workers (forked by `reflex run`; bench/_profiling/sitecustomize.py arms this in each) take a sample every
INTERVAL of their CPU time (SIGPROF): the stack of the main thread (where the event loop runs, and where Python
handles signals), read from the innermost frame outwards, counts for the first layer it passes through. So a library
called by a layer counts for that layer (pydantic validating the copilot's events counts for the copilot), and what
Reflex does when the copilot asks it (locking a tab's state) counts for Reflex. A sample taken while the event loop
waits is CPU of another thread: it counts for the layer of the thread that runs Python then (the store's writer),
else as "outside Python" (the server's I/O, in Rust). The counts so far are written to
`<folder>/<pid>.json` twice a second; `layer_shares` reads them all. Not in the process that forks the workers: a
timer of SIGPROF survives exec, and would kill the programs it starts (Node).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType

INTERVAL = 0.002  # seconds of the process's CPU time between two samples
WRITE_EVERY = 0.5  # seconds between two writes of the counts so far
WAITING = "waiting"  # the main thread's event loop waits for I/O
OUTSIDE_PYTHON = "outside Python (the server's I/O threads)"
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
    ("/selectors.py", WAITING),
    ("/asyncio/", "event loop"),
)

_IDLE_FILES = ("/threading.py", "/queue.py", "/selectors.py")
_counts: Counter[str] = Counter()
_main: int | None = None  # the thread the process's event loop runs in


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
    global _main  # (one sampler per process)
    _main = threading.get_ident()
    _counts.clear()
    signal.signal(signal.SIGPROF, _sample)
    signal.setitimer(signal.ITIMER_PROF, INTERVAL, INTERVAL)
    write_every(folder / f"{os.getpid()}.json", lambda: dict(_counts), name="layers")


def write_every(path: Path, figures: Callable[[], object], *, name: str) -> None:
    """Write `figures()` to `path` as JSON every WRITE_EVERY, from a thread of its own (a reader finds a whole file:
    each is written beside it, then moved in place)."""
    threading.Thread(target=_write, args=(path, figures), daemon=True, name=name).start()


def _sample(_signal: int, frame: FrameType | None) -> None:
    layer = _layer(frame)
    if layer == WAITING:  # the CPU went to another thread: the one that runs Python now, if one does
        working = [other for ident, other in sys._current_frames().items() if ident != _main and not _idle(other)]
        layer = f"{_layer(working[0])}, in another thread" if working else OUTSIDE_PYTHON
    _counts[layer] += 1


def _idle(frame: FrameType) -> bool:
    """Whether a thread other than the main one waits (for work, a lock, or its next write, as this module's)."""
    code = frame.f_code
    return code.co_filename.endswith(_IDLE_FILES) or code.co_name in ("_worker", "_write")


def _layer(frame: FrameType | None) -> str:
    while frame is not None:
        path = frame.f_code.co_filename
        for marker, layer in LAYERS:
            if marker in path:
                return layer
        frame = frame.f_back
    return "other"


def _write(path: Path, figures: Callable[[], object]) -> None:
    partial = path.with_name(path.name + ".part")
    while True:
        time.sleep(WRITE_EVERY)
        partial.write_text(json.dumps(figures()))
        partial.replace(path)

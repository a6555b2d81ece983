"""The objects the app made while starting are left out of the garbage collector's full passes.

A full pass walks every object the process holds, most of them made while starting (modules, the
compiled app, pydantic's schemas) and kept until the end. With 50 people at once, the worker ran
one every few seconds, each stopping its event loop for 40–80 ms: every reply in flight, and every
click, waited that long. Frozen (`gc.freeze`), those objects are never walked again (a pass took
30–60 ms), and what the sessions make is collected as before. Measured by `bench.load`, the two
interleaved three times: p95 Enter → first piece 0.85–1.12 s frozen against 1.17–1.30 s, on a
machine slowed by its neighbours.
"""

from __future__ import annotations

import gc

_frozen = False


def freeze_startup_heap() -> None:
    """Once per process, at the first tab's arrival (the app has started by then): freeze what it holds."""
    global _frozen
    if not _frozen:
        _frozen = True
        gc.freeze()

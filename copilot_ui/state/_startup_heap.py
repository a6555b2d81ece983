"""The objects the app made while starting are left out of the garbage collector's full passes.

Most objects a worker holds were made while starting (modules, the compiled app, pydantic's schemas) and live until
the end; a full pass walks them all and stops the event loop meanwhile, so every reply in flight and every click
waits. Frozen (`gc.freeze`), they are never walked again; what the sessions make is collected as before.
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

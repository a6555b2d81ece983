"""The worker's garbage collector, set up for a server that streams replies to many people at once.

What the app made while starting (modules, the compiled app, pydantic's schemas) lives until the end: frozen
(`gc.freeze`), a full pass never walks it again, which would stop the event loop and every reply in flight. A streamed
reply makes short-lived objects by the thousand; collected every YOUNG_THRESHOLD new objects (Python 3.13's default)
rather than 3.11's 700, most are gone before a pass, so fewer are promoted and walked again in the older generations.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 2000  # new objects between two passes over the youngest generation
PYTHON_DEFAULT = (700, 10, 10)  # Python 3.11's and 3.12's thresholds: the app has set none

_set_up = False


def set_up_garbage_collector() -> None:
    """Once per process, at the first tab's arrival (the app has started by then): freeze what the app holds, and pass
    over the youngest generation less often, unless the app set thresholds of its own."""
    global _set_up
    if _set_up:
        return
    _set_up = True
    gc.freeze()
    if gc.get_threshold() == PYTHON_DEFAULT:
        gc.set_threshold(YOUNG_THRESHOLD, *PYTHON_DEFAULT[1:])

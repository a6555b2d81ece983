"""The app served in production mode (`_prod_server.py`), its server respawning a worker that dies, as a process
manager would.

Reflex's own runner starts granian without `--respawn-failed-workers`: when one worker dies, granian
stops the others and the server exits. Several workers only outlive one of them with that option
(or as processes of their own behind a load balancer). Run as `python -m tests.browser._respawning PORT
[--as-built]`.
"""

from __future__ import annotations

import sys
from typing import Any

from granian.server import common

_start = common.AbstractServer.__init__


def _respawning(self: Any, *args: Any, **kwargs: Any) -> None:
    kwargs.setdefault("respawn_failed_workers", True)
    _start(self, *args, **kwargs)


common.AbstractServer.__init__ = _respawning  # type: ignore[method-assign]

if __name__ == "__main__":
    from tests.browser._prod_server import main

    main(sys.argv[1:])

"""The server prunes anonymous owners' conversations past their retention itself, at most once a day.

After a save, a worker looks at when the store was last pruned from this machine (the mtime of
`.copilot/pruned`); when that is a day ago or more, it notes the time and prunes in a worker thread.
The command `python -m copilot_ui threads prune` does the same at any time.
"""

from __future__ import annotations

import asyncio
import logging
import time

from ..._home import home
from ...store import ThreadStore
from ...store._retention import prune_anonymous, retention_days

logger = logging.getLogger("copilot_ui.state")

DAY = 86_400.0
MARKER = "pruned"  # in the copilot's folder: its mtime is when this machine last pruned
_checked_at = -DAY  # monotonic time of this process's last look at the marker (a stat per save at most once a minute)
_pruning: asyncio.Task[None] | None = None


def prune_now_and_then(store: ThreadStore) -> None:
    """Start a prune in the background if none ran from this machine for a day (never blocks, never raises)."""
    global _checked_at, _pruning
    now = time.monotonic()
    if now - _checked_at < 60 or (_pruning is not None and not _pruning.done()):
        return
    _checked_at = now
    try:
        marker = home() / MARKER
        if marker.exists() and time.time() - marker.stat().st_mtime < DAY:
            return
        marker.touch()
        days = retention_days()
    except (OSError, ValueError):
        logger.exception("could not decide whether to prune old conversations")
        return
    _pruning = asyncio.ensure_future(_prune(store, days))


async def _prune(store: ThreadStore, days: float) -> None:
    try:
        pruned = await asyncio.to_thread(prune_anonymous, store, days)
    except Exception:
        logger.exception("pruning anonymous owners' old conversations failed")
        return
    if pruned:
        logger.info("pruned %d conversations of anonymous owners unchanged for %g days", pruned, days)

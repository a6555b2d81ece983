"""Where the copilot keeps the files it writes while the app runs: `.copilot/` in the app's folder.

`reflex run` (dev mode) restarts the backend when a file in the app's folder changes, unless its
name is on Reflex's ignore list or it lies in a hidden folder. The store's SQLite file writes
`-wal` and `-shm` files beside it on every save, which that list does not name: kept next to the
app they restarted the backend in the middle of every turn. In `.copilot/` nothing the copilot
writes can restart it. COPILOT_HOME names another folder.

Files an earlier version kept in the app's folder (`copilot_threads.db`, `.copilot_secret`) are
moved in on first use, so that conversations and anonymous owners carry over.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

HOME_VARIABLE = "COPILOT_HOME"
DEFAULT_HOME = ".copilot"

logger = logging.getLogger("copilot_ui")


def home() -> Path:
    """The copilot's folder (relative to the app's folder unless COPILOT_HOME is absolute), made on first use."""
    folder = Path(os.environ.get(HOME_VARIABLE) or DEFAULT_HOME)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def home_file(name: str, *, formerly: str | None = None, companions: tuple[str, ...] = ()) -> Path:
    """A file in the copilot's folder; one an earlier version kept at `formerly` (with its companions, e.g. the
    `-wal` and `-shm` files of a SQLite database) is moved in first, unless the folder has it already."""
    path = home() / name
    old = Path(formerly) if formerly is not None else None
    if old is None or path.exists() or not old.exists():
        return path
    for suffix in ("", *companions):
        try:
            old.with_name(old.name + suffix).replace(path.with_name(path.name + suffix))
        except FileNotFoundError:  # no such companion, or another worker moved it first
            pass
    logger.info("moved %s to %s (the copilot keeps its files in %s)", old, path, path.parent)
    return path

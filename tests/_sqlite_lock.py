"""Another connection holding a SQLite database's write lock, as a backup or a migration would (for tests of every ring)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def write_lock_held(database: Path) -> Iterator[None]:
    """Another connection holds the database's write lock until the block ends (its writers wait, up to 30 s)."""
    other = sqlite3.connect(database, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("COMMIT")
    finally:
        other.close()

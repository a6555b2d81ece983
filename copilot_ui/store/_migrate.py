"""Bring a database's store tables to the newest schema revision, with Alembic: run whenever a store opens.

An empty database gets every table; one at the newest revision is left alone (found with one query,
without loading Alembic). Processes opening the same database at once take turns (an advisory lock
on PostgreSQL, a write transaction on SQLite).
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, select, text

from ._engine import WRITE
from ._schema import VERSION_TABLE, version_table

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("_migrations")
# The newest revisions in _migrations/versions (a test checks): more than one where revisions were added side by side
# from the same parent (each adds what it adds; Alembic runs them all, in either order).
HEADS = frozenset({"0003", "0003_feedback"})
_LOCK_KEY = zlib.crc32(b"copilot_ui.store migrations")  # any number the app's own locks are unlikely to use


def upgrade(engine: Engine) -> None:
    """Create or update the store's tables (in one transaction)."""
    with engine.connect() as connection:
        if _revisions(connection) == HEADS:
            return
    from alembic import command  # only a database behind the newest revision needs Alembic

    with engine.connect() as connection:
        connection.execution_options(**WRITE)  # SQLite: BEGIN IMMEDIATE (see _engine)
        with connection.begin():
            if connection.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
            command.upgrade(alembic_config(connection), "heads")


def alembic_config(connection: Connection | None = None, *, url: str | None = None) -> Config:
    """Alembic's configuration for the store's migrations, on a connection or a database URL."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def _revisions(connection: Connection) -> frozenset[str]:
    with connection.begin():
        if not inspect(connection).has_table(VERSION_TABLE):
            return frozenset()
        return frozenset(connection.execute(select(version_table.c.version_num)).scalars())

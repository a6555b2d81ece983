"""The SQLAlchemy engine of a store: a URL or a file path, pooled connections, SQLite set up for concurrent use.

SQLite runs in WAL mode (readers never wait for the writer) and a write transaction starts with
BEGIN IMMEDIATE: it takes the write lock first, waiting for it, instead of failing half-way when
two threads write at once. A `:memory:` database is one connection shared under a lock. A pooled
PostgreSQL connection the server closed is replaced before it is used (`_replace_closed_connections`).
"""

from __future__ import annotations

import os
import select
import sqlite3
import time
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Connection, Engine, create_engine, event, make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import StaticPool

from .._home import home_file

DEFAULT_FILE = "threads.db"  # in the copilot's folder (.copilot/), where dev mode's reload never looks
FORMER_FILE = "copilot_threads.db"  # where earlier versions kept it: moved in on first use
URL_VARIABLE = "COPILOT_STORE_URL"
SQLITE_COMPANIONS = ("-wal", "-shm")  # the files a SQLite database in WAL mode keeps beside it
WRITE = {"copilot_write": True}  # execution option of a connection that will write


def database_url(url_or_path: str | Path | URL | None) -> URL:
    """A SQLAlchemy URL from a URL, a SQLite file path, or nothing (COPILOT_STORE_URL, else .copilot/threads.db)."""
    if url_or_path is None:
        url_or_path = os.environ.get(URL_VARIABLE) or home_file(DEFAULT_FILE, formerly=FORMER_FILE, companions=SQLITE_COMPANIONS)
    if isinstance(url_or_path, URL):
        return url_or_path
    if isinstance(url_or_path, str) and "://" in url_or_path:
        return make_url(url_or_path)
    return URL.create("sqlite", database=str(url_or_path))


def in_memory(url: URL) -> bool:
    """A SQLite database that lives in the process only."""
    return url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")


def store_engine(url: URL, **options: Any) -> Engine:
    """An engine for the store's database (a SQLite file is created, with its folder, when missing)."""
    if url.get_backend_name() != "sqlite":
        if url.get_driver_name() != "psycopg" or "pool_pre_ping" in options:
            return create_engine(url, **{"pool_pre_ping": True, **options})  # a restarted server costs no request
        engine = create_engine(url, **options)
        _replace_closed_connections(engine)
        return engine
    connect_args = {"check_same_thread": False, "timeout": 30, **options.pop("connect_args", {})}
    if in_memory(url):
        engine = create_engine(url, **{"poolclass": StaticPool, **options}, connect_args=connect_args)
    else:
        assert url.database is not None  # in_memory: no database
        Path(url.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, **options, connect_args=connect_args)
    _set_up_sqlite(engine, wal=not in_memory(url), timeout=connect_args["timeout"])
    return engine


def _replace_closed_connections(engine: Engine) -> None:
    """A restarted server costs no request, without a ping at each checkout (three round trips with psycopg): a
    server that ends a connection says why, then closes it, so an idle connection with something to read is gone."""

    @event.listens_for(engine, "checkout")
    def checkout(dbapi_connection: Any, _record: object, _proxy: object) -> None:
        if dbapi_connection.closed or _readable(dbapi_connection.fileno()):
            raise DisconnectionError("the database server closed this connection")  # the pool opens another


def _readable(fd: int) -> bool:
    if hasattr(select, "poll"):  # (any descriptor number, unlike select)
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(0))
    return bool(select.select([fd], [], [], 0)[0])


def _set_up_sqlite(engine: Engine, *, wal: bool, timeout: float) -> None:
    @event.listens_for(engine, "connect")
    def connected(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.isolation_level = None  # transactions begin below, not in the driver
        cursor = dbapi_connection.cursor()
        if wal:
            _use_wal(cursor, timeout)
            cursor.execute("PRAGMA synchronous=NORMAL")  # durable at checkpoints; safe from corruption in WAL mode
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def begin(connection: Connection) -> None:
        writes = connection.get_execution_options().get("copilot_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")


def _use_wal(cursor: sqlite3.Cursor, timeout: float) -> None:
    """Switch to WAL, waiting as any other statement would while another connection (a store opening at the same
    time) holds the write lock: SQLite answers this pragma "database is locked" at once, without its busy handler."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)

"""The demo's orders, in the app's database: a refund or a cancellation survives a restart of the server.

Each browser gets a workspace of its own (a cookie) that starts with the same seven orders, so that people
trying the demo at once do not change each other's dashboards; its rows are written with its first change.
SQLite in `.data/demo.db` by default (a hidden folder: dev mode's reload never watches it); DEMO_DATABASE_URL
names another.
"""

from __future__ import annotations

import os
import re
import secrets
import sqlite3
import threading
from dataclasses import dataclass, replace
from pathlib import Path

from sqlalchemy import (
    URL,
    Column,
    Engine,
    Integer,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    insert,
    make_url,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError

URL_VARIABLE = "DEMO_DATABASE_URL"
DEFAULT_URL = "sqlite:///.data/demo.db"
REFUNDS_BEFORE = 22  # refunds this month before those in the table (the KPI adds the table's)


@dataclass
class Order:
    """A row of the orders table."""

    id: str  # as the dashboard shows it: "#1042"
    customer: str
    city: str
    total: str
    status: str


FIRST_ORDERS = (
    Order("#1042", "Ada Lovelace", "Berlin", "$120.00", "Shipped"),
    Order("#1041", "Alan Turing", "London", "$89.50", "Processing"),
    Order("#1040", "Grace Hopper", "Paris", "$310.25", "Delivered"),
    Order("#1039", "Edsger Dijkstra", "Berlin", "$45.00", "Refunded"),
    Order("#1038", "Margaret Hamilton", "Paris", "$210.00", "Shipped"),
    Order("#1037", "Linus Torvalds", "Berlin", "$75.00", "Delivered"),
    Order("#1036", "Barbara Liskov", "London", "$150.00", "Processing"),
)

_metadata = MetaData()
_orders = Table(
    "demo_orders",
    _metadata,
    Column("workspace", String(64), primary_key=True),
    Column("id", String(16), primary_key=True),
    Column("position", Integer, nullable=False),
    Column("customer", String(200), nullable=False),
    Column("city", String(100), nullable=False),
    Column("total", String(20), nullable=False),
    Column("status", String(20), nullable=False),
)
_engine: Engine | None = None
_engine_lock = threading.Lock()  # the first queries come from several worker threads at once


def new_workspace() -> str:
    """A fresh workspace id for a browser."""
    return secrets.token_hex(12)


def first_orders() -> list[Order]:
    """The orders a new workspace starts with, newest first."""
    return [replace(order) for order in FIRST_ORDERS]


def orders_of(workspace: str) -> list[Order]:
    """The workspace's orders, newest first (the first seven while it has not changed any)."""
    workspace = _checked(workspace)
    with _database().connect() as db:
        rows = db.execute(select(_orders).where(_orders.c.workspace == workspace).order_by(_orders.c.position)).all()
    if not rows:
        return first_orders()
    return [Order(row.id, row.customer, row.city, row.total, row.status) for row in rows]


def set_status(workspace: str, order_id: str, status: str) -> None:
    """Change an order's status (the workspace's first change writes its first orders)."""
    workspace = _checked(workspace)
    with _database().begin() as db:
        if db.execute(select(_orders.c.id).where(_orders.c.workspace == workspace).limit(1)).first() is None:
            _fill(db, workspace)
        db.execute(update(_orders).where(_orders.c.workspace == workspace, _orders.c.id == order_id).values(status=status))


def refunds(orders: list[Order]) -> int:
    """The Refunds figure: this month's refunds."""
    return REFUNDS_BEFORE + sum(order.status == "Refunded" for order in orders)


def _fill(db: object, workspace: str) -> None:
    rows = [{"workspace": workspace, "position": index, **vars(order)} for index, order in enumerate(FIRST_ORDERS)]
    try:
        with db.begin_nested():  # type: ignore[attr-defined]
            db.execute(insert(_orders), rows)  # type: ignore[attr-defined]
    except IntegrityError:  # another tab of this browser filled it at the same moment
        pass


def _checked(workspace: str) -> str:
    if not re.fullmatch(r"[0-9a-f]{8,64}", workspace or ""):
        raise ValueError("not a workspace id")
    return workspace


def _database() -> Engine:
    """The database, its table made the first time (once: two people's first pages at the same moment both waited
    for it, and the second failed on "table demo_orders already exists", leaving that person's dashboard empty)."""
    global _engine
    if _engine is None:
        with _engine_lock:
            if _engine is None:
                _engine = _opened(make_url(os.environ.get(URL_VARIABLE) or DEFAULT_URL))
    return _engine


def _opened(url: URL) -> Engine:
    if url.get_backend_name() == "sqlite" and url.database:
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url)
    if url.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    try:
        _metadata.create_all(engine)
    except DBAPIError:  # another worker made the table between the check and the creation: it is there now
        _metadata.create_all(engine)
    return engine


def _sqlite_pragmas(connection: object, _record: object) -> None:
    """WAL: readers do not wait for a writer, and a write costs no disk flush of its own (durable at checkpoints)."""
    cursor = connection.cursor()  # type: ignore[attr-defined]
    try:
        cursor.execute("PRAGMA journal_mode=WAL")  # (kept in the file: a worker turned away here finds it set)
    except sqlite3.OperationalError:  # another worker writes at this moment: SQLite answers at once, without waiting
        pass
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()

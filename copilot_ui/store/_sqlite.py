"""Threads kept in SQL: SQLite by default, one row per thread, written whole at the end of a turn.

A thread is stored as AG-UI JSON (its messages and state, readable by any AG-UI client) plus the run
loop's bookkeeping (Thread.bookkeeping_json: what waits for a person, their decisions, the messages
they queued, the turn's book), so that a thread waiting for a person is resumed after a restart
exactly where it stopped.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ag_ui.core import Message
from pydantic import TypeAdapter

from ..core import Thread

_MESSAGES = TypeAdapter(list[Message])
_SCHEMA = """
CREATE TABLE IF NOT EXISTS threads (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    messages TEXT NOT NULL,
    state TEXT NOT NULL,
    bookkeeping TEXT NOT NULL,
    updated_at REAL NOT NULL
)
"""


@dataclass(frozen=True)
class ThreadSummary:
    """A stored thread, for a list of conversations."""

    id: str
    title: str
    updated_at: float


class ThreadStore:
    """Threads by id in a SQLite database file (created when missing)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connection() as db:
            db.execute(_SCHEMA)

    def save(self, thread: Thread) -> None:
        """Write the thread whole (replacing what was stored under its id)."""
        messages = thread.messages
        row = (
            thread.id,
            _title(messages),
            _MESSAGES.dump_json(messages, by_alias=True).decode(),
            json.dumps(thread.state, default=str),
            json.dumps(thread.bookkeeping_json()),
            time.time(),
        )
        with self._connection() as db:
            db.execute("INSERT OR REPLACE INTO threads VALUES (?, ?, ?, ?, ?, ?)", row)

    def load(self, thread_id: str) -> Thread | None:
        """The thread with this id, as it was saved; None if there is none."""
        with self._connection() as db:
            row = db.execute("SELECT messages, state, bookkeeping FROM threads WHERE id = ?", (thread_id,)).fetchone()
        if row is None:
            return None
        thread = Thread(thread_id, _MESSAGES.validate_json(row[0]), json.loads(row[1]))
        thread.restore_bookkeeping(json.loads(row[2]))
        return thread

    def recent(self, limit: int = 50) -> list[ThreadSummary]:
        """The most recently saved threads first."""
        with self._connection() as db:
            rows = db.execute("SELECT id, title, updated_at FROM threads ORDER BY updated_at DESC LIMIT ?", (limit,)).fetchall()
        return [ThreadSummary(*row) for row in rows]

    def delete(self, thread_id: str) -> None:
        """Forget a thread."""
        with self._connection() as db:
            db.execute("DELETE FROM threads WHERE id = ?", (thread_id,))

    @contextmanager
    def _connection(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=10)
        try:
            with db:  # a transaction: committed on success, rolled back on error
                yield db
        finally:
            db.close()


def _title(messages: list[Any]) -> str:
    for message in messages:
        if message.role == "user" and isinstance(message.content, str) and message.content.strip():
            text = " ".join(message.content.split())
            return text if len(text) <= 80 else text[:79] + "…"
    return "New conversation"

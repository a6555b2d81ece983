"""What the served app's store has kept, read from its SQLite file as another process reads it: a test that kills
the server waits until what it checks afterwards is kept, instead of for a fixed time that a busy machine outlasts."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

from playwright.sync_api import Page

KEPT_WITHIN = 20  # seconds: the store's writer, on a busy two-core machine


def thread_id(page: Page) -> str:
    """The conversation the tab shows."""
    return page.evaluate("sessionStorage.getItem('cui_thread')") or ""


def until_kept(database: str | Path, thread: str, found: str, *, seconds: float = KEPT_WITHIN) -> None:
    """Until a message of the conversation the store keeps has `found` in its text, or a call of it waiting for the
    person is that tool's."""
    until(lambda: _kept(Path(database), thread, found), f"{found!r} kept in the store", seconds)


def until(met: Callable[[], bool], what: str, seconds: float) -> None:
    """Until `met()` (a look at the store, which another process writes), for at most `seconds`."""
    deadline = time.monotonic() + seconds
    while not met():
        assert time.monotonic() < deadline, f"{what}: not there within {seconds:g} s"
        time.sleep(0.1)


def kept_texts(database: str | Path, thread: str) -> list[str]:
    """The texts of the conversation's messages as the store keeps them now (what a failed check shows)."""
    return [text for text in _read(Path(database), thread)[0] if isinstance(text, str)]


def _kept(database: Path, thread: str, found: str) -> bool:
    said, waiting = _read(database, thread)
    return any(isinstance(text, str) and found in text for text in said) or found in waiting


def _read(database: Path, thread: str) -> tuple[list[object], list[str]]:
    """The contents of the conversation's messages, and the tools of its calls waiting for the person."""
    try:
        with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as reader:
            books = [book for (book,) in reader.execute("SELECT bookkeeping FROM copilot_threads WHERE id = ?", (thread,))]
            query = "SELECT body FROM copilot_messages JOIN copilot_threads ON thread_pk = pk WHERE id = ? ORDER BY position"
            bodies = [body for (body,) in reader.execute(query, (thread,))]
    except sqlite3.OperationalError:  # no file or tables yet, or the writer holds the database a moment
        return [], []
    waiting = [waits["tool_name"] for book in books for waits in json.loads(book).get("awaiting", [])]
    return [json.loads(body).get("content") for body in bodies], waiting

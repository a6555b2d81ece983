"""Every store test runs against a real SQLite file and a real PostgreSQL (skipped where PostgreSQL is missing)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from copilot_ui.store import SQLThreadStore


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path) -> str:
    """An empty database: a SQLite file in tmp_path, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'threads.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def open_store(database_url: str) -> Iterator[Callable[[], SQLThreadStore]]:
    """Opens a store on the test's database; each call is a new store, as a new process would open it."""
    opened: list[SQLThreadStore] = []

    def open_() -> SQLThreadStore:
        opened.append(SQLThreadStore(database_url))
        return opened[-1]

    yield open_
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store: Callable[[], SQLThreadStore]) -> SQLThreadStore:
    """A store on an empty database."""
    return open_store()

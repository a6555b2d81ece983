"""A PostgreSQL server that closed the store's connections (it restarted, or an administrator ended them) costs no
request: the store notices before it uses one, and opens another. A real server; its connections ended as a restart
ends them (`pg_terminate_backend`: the server says why, then closes)."""

from __future__ import annotations

import time

from ag_ui.core import AssistantMessage
from sqlalchemy import create_engine, text

from copilot_ui.core import Thread
from copilot_ui.store import SQLThreadStore


def _end_connections(admin_url: str, database: str) -> None:
    """End every connection to `database`, and wait until the server has let them all go."""
    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as db:
        others = {"name": database}
        where = "FROM pg_stat_activity WHERE datname = :name AND pid <> pg_backend_pid()"
        assert db.execute(text(f"SELECT count(pg_terminate_backend(pid)) {where}"), others).scalar() >= 1  # the pool's
        deadline = time.monotonic() + 10
        while db.execute(text(f"SELECT count(*) {where}"), others).scalar():
            assert time.monotonic() < deadline, "the server did not let the connections go"
            time.sleep(0.02)
    admin.dispose()


def test_a_save_and_a_list_after_the_server_closed_the_connections_succeed(postgres_server):
    database = postgres_server.create_database()
    store = SQLThreadStore(postgres_server.url(database))
    try:
        thread = Thread()
        thread.add_user_message("hello", "u1")
        store.create("alice", agent="default", thread_id=thread.id)
        store.save("alice", thread)
        assert store.engine.pool.checkedin() >= 1  # a connection waits in the pool

        _end_connections(postgres_server.url(), database)

        thread.add_message(AssistantMessage(id="a1", content="Hi there"))
        store.save("alice", thread)  # no error: a fresh connection
        assert [summary.id for summary in store.list("alice")] == [thread.id]
        stored = store.load("alice", thread.id)
        assert stored is not None and [message.id for message in stored.messages] == ["u1", "a1"]
    finally:
        store.close()
        postgres_server.drop_database(database)

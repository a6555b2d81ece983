"""The schema makes itself: an empty database gets the tables on first use, again and again changes nothing."""

from __future__ import annotations

import sqlite3
import threading

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text

from copilot_ui.core import Thread
from copilot_ui.store import SQLThreadStore, _migrate
from copilot_ui.store._migrate import MIGRATIONS, alembic_config, upgrade
from copilot_ui.store._schema import VERSION_TABLE, metadata

HEAD = ScriptDirectory(str(MIGRATIONS)).get_current_head()


def revision(engine) -> str | None:
    with engine.connect() as db:
        return MigrationContext.configure(db, opts={"version_table": VERSION_TABLE}).get_current_revision()


def test_an_empty_database_gets_the_tables_at_the_newest_revision(database_url):
    with SQLThreadStore(database_url) as store:
        assert {"copilot_threads", "copilot_messages", VERSION_TABLE} <= set(inspect(store.engine).get_table_names())
        assert revision(store.engine) == HEAD


def test_the_migrations_build_exactly_the_schema_the_store_declares(database_url):
    with SQLThreadStore(database_url) as store, store.engine.connect() as db:
        ours = lambda name, type_, _parent: type_ != "table" or name in metadata.tables  # noqa: E731
        context = MigrationContext.configure(db, opts={"version_table": VERSION_TABLE, "include_name": ours})
        assert compare_metadata(context, metadata) == []


def test_opening_the_store_again_keeps_the_schema_and_the_threads(database_url):
    with SQLThreadStore(database_url) as store:
        thread = Thread(store.create("alice", agent="default").id)
        thread.add_user_message("still here?")
        store.save("alice", thread)
        upgrade(store.engine)  # once more, on a database at the newest revision
    with SQLThreadStore(database_url) as again:
        assert revision(again.engine) == HEAD
        assert [m.content for m in again.load("alice", thread.id).messages] == ["still here?"]


def test_stores_opening_one_empty_database_at_once_all_open(database_url):
    errors: list[BaseException] = []

    def open_store() -> None:
        try:
            SQLThreadStore(database_url).close()
        except BaseException as error:  # reported below
            errors.append(error)

    workers = [threading.Thread(target=open_store, daemon=True) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert not any(worker.is_alive() for worker in workers), "stores opening at once blocked each other"
    assert errors == []
    engine = create_engine(database_url)
    assert revision(engine) == HEAD
    engine.dispose()


def test_a_store_opening_while_another_process_writes_to_its_new_sqlite_file_waits_its_turn(tmp_path):
    path = tmp_path / "threads.db"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)  # as another process would
    other.execute("BEGIN IMMEDIATE")  # writing to the file before it is in WAL mode
    threading.Timer(0.3, other.execute, ["COMMIT"]).start()
    with SQLThreadStore(path) as store:  # waits for the writer instead of failing "database is locked"
        assert revision(store.engine) == HEAD
    other.close()


def test_the_store_leaves_an_apps_own_tables_and_migrations_alone(database_url):
    engine = create_engine(database_url)
    with engine.begin() as db:  # what a Reflex app's own Alembic history leaves in its database
        db.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)"))
        db.execute(text("INSERT INTO alembic_version VALUES ('app0001')"))
        db.execute(text("CREATE TABLE orders (id INTEGER PRIMARY KEY)"))
    with SQLThreadStore(database_url):
        pass
    with engine.connect() as db:
        assert db.execute(text("SELECT version_num FROM alembic_version")).scalar() == "app0001"
        assert "orders" in inspect(db).get_table_names()
    engine.dispose()


def test_the_store_knows_its_newest_revision_without_loading_alembic():
    assert _migrate.HEAD == HEAD


def test_the_alembic_configuration_names_the_store_migrations():
    config = alembic_config(url="sqlite:///threads.db")
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD
    assert config.get_main_option("sqlalchemy.url") == "sqlite:///threads.db"

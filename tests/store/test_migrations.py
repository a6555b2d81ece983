"""The schema makes itself: an empty database gets the tables on first use, again and again changes nothing."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from datetime import UTC, datetime

from ag_ui.core import AssistantMessage, Message, ToolMessage, UserMessage
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, create_engine, insert, inspect, text

from copilot_ui.core import Thread
from copilot_ui.store import Rating, SQLThreadStore, _migrate
from copilot_ui.store._changes import digest, message_json
from copilot_ui.store._migrate import MIGRATIONS, alembic_config, upgrade
from copilot_ui.store._schema import VERSION_TABLE, messages, metadata, threads

HEAD = frozenset(ScriptDirectory(str(MIGRATIONS)).get_heads())  # revisions added side by side are heads together


def revision(engine) -> frozenset[str]:
    with engine.connect() as db:
        return frozenset(MigrationContext.configure(db, opts={"version_table": VERSION_TABLE}).get_current_heads())


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


def test_a_database_from_before_message_search_finds_its_conversations_by_their_messages_once_upgraded(database_url):
    command.upgrade(alembic_config(url=database_url), "0001")  # as the store left it before messages were searched
    engine = create_engine(database_url)
    with engine.begin() as db:
        long = [UserMessage(id=f"m{n:04}", content=f"question {n}") for n in range(1_499)]  # more than one batch
        long_id = thread_before_search(db, "alice", "Long talk", [*long, AssistantMessage(id="m1499", content="Voilà, FIN.")])
        said = [
            UserMessage(id="u1", content="Über die Brücke"),
            AssistantMessage(id="a1", content="Try the CRÈME brûlée"),
            ToolMessage(id="t1", tool_call_id="c1", content="secret zebra"),
        ]
        bridge_id = thread_before_search(db, "alice", "Über die Brücke", said)
        thread_before_search(db, "bob", "bob's", [AssistantMessage(id="b1", content="bob's creme brulee")])
    engine.dispose()

    with SQLThreadStore(database_url) as store:
        assert revision(store.engine) == HEAD
        found = lambda words: [summary.id for summary in store.list("alice", search=words)]  # noqa: E731
        assert found("creme brulee") == found("uber die brucke") == [bridge_id]  # words and titles folded again
        assert found("voila, fin") == found("question 1234") == [long_id]
        assert found("zebra") == found("bob's") == []
        thread = store.load("alice", bridge_id)
        thread.add_user_message("and the ferry?")
        store.save("alice", thread)
        assert found("ferry") == [bridge_id]


def test_the_message_search_migration_can_be_undone_and_done_again(database_url):
    with SQLThreadStore(database_url) as store:
        thread = Thread(store.create("alice", agent="default").id)
        thread.add_user_message("ships")
        thread.add_message(AssistantMessage(id="a1", content="the ferry leaves at nine"))
        store.save("alice", thread)
        assert "search_text" in message_columns(store.engine)
        command.downgrade(alembic_config(url=database_url), "0001")
        assert "search_text" not in message_columns(store.engine)
    with SQLThreadStore(database_url) as again:
        assert [summary.id for summary in again.list("alice", search="ferry")] == [thread.id]
        assert [m.content for m in again.load("alice", thread.id).messages] == ["ships", "the ferry leaves at nine"]


def test_the_store_knows_its_newest_revisions_without_loading_alembic():
    assert _migrate.HEADS == HEAD


def test_the_alembic_configuration_names_the_store_migrations():
    config = alembic_config(url="sqlite:///threads.db")
    assert frozenset(ScriptDirectory.from_config(config).get_heads()) == HEAD
    assert config.get_main_option("sqlalchemy.url") == "sqlite:///threads.db"


def thread_before_search(db: Connection, owner: str, title: str, said: list[Message]) -> str:
    """A thread written as the store of revision 0001 wrote it: title case-folded only, messages without their words."""
    now = datetime.now(UTC)
    row = {"owner": owner, "id": f"thread-{owner}-{len(said)}", "agent": "default", "title": None, "auto_title": title}
    row |= {"search_title": title.casefold(), "created_at": now, "updated_at": now, "archived": False}
    row |= {"message_count": len(said), "revision": 1, "state": "{}", "bookkeeping": "{}", "notes": "[]"}
    pk = db.execute(insert(threads).values(row)).inserted_primary_key[0]
    bodies = [message_json(message) for message in said]
    rows = [
        {"thread_pk": pk, "message_key": message.id, "position": n, "digest": digest(body), "body": body}
        for n, (message, body) in enumerate(zip(said, bodies, strict=True))
    ]
    db.execute(insert(messages), rows)
    return row["id"]


def message_columns(engine) -> set[str]:
    return {column["name"] for column in inspect(engine).get_columns("copilot_messages")}


def test_a_database_from_before_feedback_keeps_its_conversations_and_takes_ratings_once_upgraded(database_url):
    command.upgrade(alembic_config(url=database_url), "0002")  # as the store left it before replies were rated
    engine = create_engine(database_url)
    with engine.begin() as db:
        said = [UserMessage(id="u1", content="hello"), AssistantMessage(id="a1", content="hi there")]
        thread_id = thread_before_search(db, "alice", "hello", said)
    engine.dispose()

    with SQLThreadStore(database_url) as store:
        assert revision(store.engine) == HEAD
        assert "feedback" in message_columns(store.engine)
        assert store.load_with_notes("alice", thread_id).ratings == {}
        assert store.rate("alice", thread_id, "a1", Rating(rating="bad", comment="too short"))
        assert store.load_with_notes("alice", thread_id).ratings == {"a1": Rating(rating="bad", comment="too short")}
        assert not store.rate("bob", thread_id, "a1", Rating(rating="good"))  # not bob's conversation
    with SQLThreadStore(database_url) as again:
        command.downgrade(alembic_config(url=database_url), "0002")
        assert "feedback" not in message_columns(again.engine)


SIBLING = '''"""A revision added beside 0003_feedback on the same parent (as another feature's would be)."""

import sqlalchemy as sa
from alembic import op

revision = "0003_sibling"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("copilot_messages", sa.Column("sibling", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("copilot_messages") as batch:
        batch.drop_column("sibling")
'''


def test_a_revision_added_beside_feedback_on_the_same_parent_runs_too_whichever_came_first(database_url, tmp_path, monkeypatch):
    command.upgrade(alembic_config(url=database_url), "0003_feedback")  # a database that already has one of them
    migrations = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS, migrations, ignore=shutil.ignore_patterns("__pycache__"))
    (migrations / "versions" / "0003_sibling.py").write_text(SIBLING, encoding="utf-8")
    monkeypatch.setattr(_migrate, "MIGRATIONS", migrations)
    monkeypatch.setattr(_migrate, "HEADS", _migrate.HEADS | {"0003_sibling"})

    with SQLThreadStore(database_url) as store:
        assert {"feedback", "sibling"} <= message_columns(store.engine)
        assert revision(store.engine) == _migrate.HEADS
    with SQLThreadStore(database_url) as again:  # at every head: nothing to do
        assert revision(again.engine) == _migrate.HEADS

"""A person's conversations are kept: created, saved, opened again, listed, searched, renamed, archived, deleted."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from copilot_ui.agents import ScriptedAgent
from copilot_ui.agents import scripts as s
from copilot_ui.core import RunLoop, Thread
from copilot_ui.store import SQLThreadStore, ThreadExists, ThreadNotFound


def conversation(store, text_="hello", *, owner="alice", agent="default") -> Thread:
    """A stored thread holding one user message."""
    thread = Thread(store.create(owner, agent=agent).id)
    thread.add_user_message(text_)
    store.save(owner, thread)
    return thread


async def test_a_conversation_comes_back_as_it_was_saved(store, open_store):
    thread = Thread(store.create("alice", agent="default").id)
    await RunLoop(ScriptedAgent(s.text_reply("Hello there!"))).send(thread, "hello")
    thread.state = {"theme": "dark", "items": [1, 2], "note": "naïve ☕"}
    store.save("alice", thread)

    loaded = open_store().load("alice", thread.id)  # another store on the same database, as after a restart
    assert [(m.role, m.content) for m in loaded.messages] == [("user", "hello"), ("assistant", "Hello there!")]
    assert [m.id for m in loaded.messages] == [m.id for m in thread.messages]
    assert loaded.state == {"theme": "dark", "items": [1, 2], "note": "naïve ☕"}


def test_a_new_thread_is_named_after_its_first_message(store):
    created = store.create("alice", agent="default")
    assert (created.title, created.message_count) == ("New conversation", 0)
    assert [summary.title for summary in store.list("alice")] == ["New conversation"]

    thread = Thread(created.id)
    thread.add_user_message("  What is\n the weather   in Paris?  ")
    assert store.save("alice", thread).title == "What is the weather in Paris?"
    assert store.list("alice")[0].title == "What is the weather in Paris?"


def test_a_long_first_message_is_trimmed_into_a_short_title(store):
    conversation(store, "word " * 100)
    (summary,) = store.list("alice")
    assert len(summary.title) == 80 and summary.title.endswith("…")


def test_a_renamed_thread_keeps_its_name_as_the_conversation_goes_on(store):
    thread = conversation(store, "first question")
    assert store.rename("alice", thread.id, "Trip planning").title == "Trip planning"
    thread.add_user_message("second question")
    assert store.save("alice", thread).title == "Trip planning"
    assert store.list("alice")[0].title == "Trip planning"


def test_renaming_to_nothing_returns_to_the_automatic_title(store):
    thread = conversation(store, "first question")
    store.rename("alice", thread.id, "Trip planning")
    assert store.rename("alice", thread.id, "   ").title == "first question"
    assert store.list("alice", search="first")[0].title == "first question"


def test_a_title_given_at_creation_is_kept(store):
    created = store.create("alice", agent="default", title="Budget 2027")
    thread = Thread(created.id)
    thread.add_user_message("let's start")
    assert store.save("alice", thread).title == "Budget 2027"


def test_threads_are_listed_most_recently_changed_first(store):
    first, second = conversation(store, "first"), conversation(store, "second")
    assert [summary.title for summary in store.list("alice")] == ["second", "first"]
    first.add_user_message("more")
    store.save("alice", first)
    assert [summary.id for summary in store.list("alice")] == [first.id, second.id]


def test_renaming_or_archiving_does_not_move_a_thread_up_the_list(store):
    first, second = conversation(store, "first"), conversation(store, "second")
    store.rename("alice", first.id, "renamed")
    store.archive("alice", first.id)
    store.archive("alice", first.id, archived=False)
    assert [summary.id for summary in store.list("alice")] == [second.id, first.id]


def test_search_finds_titles_whatever_their_case(store):
    conversation(store, "Über die Brücke")
    conversation(store, "Weekly REPORT draft")
    conversation(store, "100% done_now")
    assert [summary.title for summary in store.list("alice", search="report")] == ["Weekly REPORT draft"]
    assert [summary.title for summary in store.list("alice", search="ÜBER")] == ["Über die Brücke"]
    assert [summary.title for summary in store.list("alice", search="0% d")] == ["100% done_now"]
    assert store.list("alice", search="%") != [] and store.list("alice", search="_n") != []
    assert store.list("alice", search="x%y") == []  # % and _ are letters here, not wildcards
    assert len(store.list("alice", search="")) == 3


def test_archived_threads_leave_the_list_and_still_open(store):
    kept, archived = conversation(store, "kept"), conversation(store, "old")
    summary = store.archive("alice", archived.id)
    assert summary.archived
    assert [s.id for s in store.list("alice")] == [kept.id]
    assert {s.id for s in store.list("alice", include_archived=True)} == {kept.id, archived.id}
    assert store.load("alice", archived.id) is not None
    assert not store.archive("alice", archived.id, archived=False).archived
    assert len(store.list("alice")) == 2


def test_the_list_comes_in_pages(store):
    ids = [conversation(store, f"question {n}").id for n in range(5)]
    newest_first = ids[::-1]
    assert [s.id for s in store.list("alice", limit=2)] == newest_first[:2]
    assert [s.id for s in store.list("alice", limit=2, offset=2)] == newest_first[2:4]
    assert [s.id for s in store.list("alice", limit=2, offset=4)] == newest_first[4:]


def test_a_deleted_thread_is_gone_with_its_messages(store):
    thread, other = conversation(store, "forget me"), conversation(store, "keep me")
    assert store.delete("alice", thread.id) is True
    assert store.load("alice", thread.id) is None
    assert [s.id for s in store.list("alice", include_archived=True)] == [other.id]
    with store.engine.connect() as db:
        assert db.execute(text("SELECT count(*) FROM copilot_messages")).scalar() == 1  # the other thread's
    assert store.delete("alice", thread.id) is False


def test_unknown_ids_open_as_nothing_and_cannot_be_changed(store):
    assert store.load("alice", "no-such-thread") is None
    assert store.load_with_notes("alice", "no-such-thread") is None
    with pytest.raises(ThreadNotFound):
        store.rename("alice", "no-such-thread", "x")
    with pytest.raises(ThreadNotFound):
        store.archive("alice", "no-such-thread")
    with pytest.raises(ThreadNotFound):
        store.save("alice", Thread("no-such-thread"))
    assert store.delete("alice", "no-such-thread") is False


def test_an_owner_cannot_create_the_same_thread_id_twice(store):
    store.create("alice", agent="default", thread_id="trip")
    with pytest.raises(ThreadExists):
        store.create("alice", agent="other", thread_id="trip")
    assert store.list("alice")[0].agent == "default"


def test_a_deleted_thread_is_not_brought_back_by_a_late_save(store):
    thread = conversation(store, "hello")
    store.delete("alice", thread.id)
    thread.add_user_message("still typing")
    with pytest.raises(ThreadNotFound):
        store.save("alice", thread)
    assert store.list("alice") == []


def test_the_views_notes_come_back_as_given(store, open_store):
    thread = Thread(store.create("alice", agent="default").id)
    thread.add_user_message("hello")
    notes = [{"kind": "error", "text": "The agent is unreachable", "after": 1}, {"kind": "stopped", "after": 1}]
    store.save("alice", thread, notes=notes)
    thread.add_user_message("again")
    store.save("alice", thread)  # no notes given: the stored ones stay

    stored = open_store().load_with_notes("alice", thread.id)
    assert stored.notes == notes
    assert [m.content for m in stored.thread.messages] == ["hello", "again"]
    assert (stored.summary.title, stored.summary.message_count) == ("hello", 2)
    store.save("alice", thread, notes=[])
    assert store.load_with_notes("alice", thread.id).notes == []


def test_a_summary_tells_the_agent_the_times_and_the_message_count(store):
    created = store.create("alice", agent="travel")
    thread = Thread(created.id)
    thread.add_user_message("hello")
    thread.add_user_message("anyone?")
    saved = store.save("alice", thread)
    (listed,) = store.list("alice")
    assert listed == saved
    assert (listed.agent, listed.message_count, listed.archived) == ("travel", 2, False)
    assert listed.created_at == created.created_at <= listed.updated_at
    assert listed.updated_at.tzinfo is not None


def test_the_database_keeps_one_ag_ui_json_row_per_message(store):
    thread = conversation(store, "hi")
    with store.engine.connect() as db:
        (body,) = db.execute(text("SELECT body FROM copilot_messages")).one()
    assert '"role":"user"' in body and '"content":"hi"' in body and f'"id":"{thread.messages[0].id}"' in body


def test_a_sqlite_file_is_created_with_its_folder_on_first_use(tmp_path):
    path = tmp_path / "data" / "nested" / "threads.db"
    with SQLThreadStore(path) as store:
        conversation(store, "hello")
    assert path.exists()
    with SQLThreadStore(str(path)) as again:
        assert [s.title for s in again.list("alice")] == ["hello"]


def test_without_a_url_the_store_uses_copilot_store_url_or_a_file_in_the_hidden_copilot_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COPILOT_STORE_URL", raising=False)
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    with SQLThreadStore() as store:
        assert store.url.database == ".copilot/threads.db"  # a hidden folder: dev mode's reload never watches it
        conversation(store)
    assert (tmp_path / ".copilot" / "threads.db").exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == [".copilot"]  # nothing beside the app's files
    monkeypatch.setenv("COPILOT_STORE_URL", f"sqlite:///{tmp_path / 'elsewhere.db'}")
    with SQLThreadStore() as store:
        assert store.list("alice") == []
    assert (tmp_path / "elsewhere.db").exists()


def test_a_store_file_of_an_earlier_version_moves_into_the_copilot_folder_with_its_conversations(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COPILOT_STORE_URL", raising=False)
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    with SQLThreadStore(tmp_path / "copilot_threads.db") as old:  # where earlier versions kept it, with -wal and -shm
        kept = conversation(old, "from last week")
        assert (tmp_path / "copilot_threads.db-wal").exists()
        with SQLThreadStore() as store:
            assert store.load("alice", kept.id).messages[0].content == "from last week"
    assert not any(path.name.startswith("copilot_threads.db") for path in tmp_path.iterdir())


def test_an_in_memory_database_serves_one_store(tmp_path):
    with SQLThreadStore("sqlite://") as store:
        thread = conversation(store, "hello")
        assert store.load("alice", thread.id).messages[0].content == "hello"


def test_sqlite_runs_in_wal_mode(tmp_path):
    with SQLThreadStore(tmp_path / "threads.db") as store, store.engine.connect() as db:
        assert db.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"

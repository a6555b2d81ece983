"""Threads survive in a real SQLite file: messages, state, and a wait for a person."""

from __future__ import annotations

import sqlite3

from copilot_ui.agents import ScriptedAgent
from copilot_ui.agents import scripts as s
from copilot_ui.core import Approve, RunLoop, Thread, Toolbox, tool_from_function
from copilot_ui.store import ThreadStore


def refund(order_id: int) -> str:
    """Refund an order."""
    return f"refunded {order_id}"


async def test_a_conversation_comes_back_as_it_was_saved(tmp_path):
    store = ThreadStore(tmp_path / "threads.db")
    thread = Thread()
    loop = RunLoop(ScriptedAgent(s.text_reply("Hello there!")))
    await loop.send(thread, "hello")
    thread.state = {"theme": "dark", "items": [1, 2]}
    store.save(thread)

    loaded = ThreadStore(tmp_path / "threads.db").load(thread.id)  # a new process opening the same file
    assert [(m.role, m.content) for m in loaded.messages] == [("user", "hello"), ("assistant", "Hello there!")]
    assert loaded.state == {"theme": "dark", "items": [1, 2]}


async def test_a_thread_waiting_for_approval_resumes_after_a_restart(tmp_path):
    store = ThreadStore(tmp_path / "threads.db")
    tools = Toolbox([tool_from_function(refund, approval="always")])
    thread = Thread()
    loop = RunLoop(ScriptedAgent(s.tool_calls_reply(("refund", {"order_id": 7}, "c1"))), tools, ask_person=True)
    assert (await loop.send(thread, "refund order 7")).status == "waiting"
    store.save(thread)

    restored = ThreadStore(tmp_path / "threads.db").load(thread.id)
    after_restart = RunLoop(ScriptedAgent(s.text_reply("Refunded.")), tools, ask_person=True)
    after_restart.decide(restored, "c1", Approve(), restored.awaiting["c1"].digest)
    assert (await after_restart.drive(restored)).status == "done"
    assert [m.content for m in restored.messages if m.role == "tool"] == ["refunded 7"]
    assert restored.messages[-1].content == "Refunded."


def test_recent_threads_are_listed_newest_first_with_a_title(tmp_path):
    store = ThreadStore(tmp_path / "threads.db")
    for text in ("first question", "second question"):
        thread = Thread()
        thread.add_user_message(text)
        store.save(thread)
    assert [summary.title for summary in store.recent()] == ["second question", "first question"]


def test_a_deleted_thread_is_gone_and_unknown_ids_load_as_nothing(tmp_path):
    store = ThreadStore(tmp_path / "threads.db")
    thread = Thread()
    thread.add_user_message("forget me")
    store.save(thread)
    store.delete(thread.id)
    assert store.load(thread.id) is None
    assert store.recent() == []


def test_the_file_is_plain_sqlite_with_ag_ui_json_inside(tmp_path):
    path = tmp_path / "threads.db"
    thread = Thread()
    thread.add_user_message("hi")
    ThreadStore(path).save(thread)
    (messages,) = sqlite3.connect(path).execute("SELECT messages FROM threads").fetchone()
    assert '"role":"user"' in messages and '"content":"hi"' in messages

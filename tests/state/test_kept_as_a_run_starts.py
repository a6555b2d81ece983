"""A run's start is kept once its first words are on their way to the page, so that the store's write does not compete
with them; a run that says nothing is kept KEPT_EVERY after it started all the same, and any later save covers it.

The store is SQLite in a file; the words are a turn's sink sending its first piece.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from ag_ui.core import AssistantMessage, TextMessageContentEvent, TextMessageStartEvent

from copilot_ui.agents import Scrubber
from copilot_ui.core import Thread
from copilot_ui.state.sink import ViewSink, ViewUpdate
from copilot_ui.state.turns import Keeper, _keeping, resumed, written
from copilot_ui.state.view import Conversation
from copilot_ui.store import SQLThreadStore


async def _shown(_view: ViewUpdate) -> None:
    return None


def _a_run_starts(tmp_path: Path) -> tuple[SQLThreadStore, Keeper, Thread, Conversation, ViewSink]:
    store = SQLThreadStore(f"sqlite:///{tmp_path / 'threads.db'}")
    thread = Thread()  # a new conversation: its first save makes it
    thread.add_user_message("tell me a story", "u1")
    conversation = Conversation.of(thread.id)
    sink = ViewSink(_shown, thread, conversation, scrubber=Scrubber(), interval=0.0)
    keeper = Keeper(store, "alice", "default")
    keeper.run_starts(thread, conversation, sink.words_sent)
    return store, keeper, thread, conversation, sink


def _kept(store: SQLThreadStore, thread: Thread) -> list[tuple[str, str]] | None:
    stored = store.load_with_notes("alice", thread.id)
    return None if stored is None else [(m.id, str(m.content)) for m in stored.thread.messages]


def test_a_runs_start_is_kept_once_its_first_words_go_and_a_crash_then_shows_it_cut_off(tmp_path):
    async def scenario() -> tuple[SQLThreadStore, Thread, list | None, list | None]:
        store, _keeper, thread, _conversation, sink = _a_run_starts(tmp_path)
        await sink.flush()  # the person's message and "Thinking…" show: no words of the agent yet
        await asyncio.sleep(0.3)
        await written(thread.id)
        before = _kept(store, thread)
        thread.add_message(AssistantMessage(id="m1", content=""))
        sink.emit(TextMessageStartEvent(message_id="m1"))
        thread.append_text("m1", "Once")
        sink.emit(TextMessageContentEvent(message_id="m1", delta="Once"))
        await sink.flush()  # the first words go
        await asyncio.sleep(0)  # (the keep follows them)
        await written(thread.id)
        return store, thread, before, _kept(store, thread)

    store, thread, before, after = asyncio.run(scenario())
    assert before is None  # not written while the run had not said a word
    assert after == [("u1", "tell me a story"), ("m1", "Once")]
    reopened, conversation = resumed(store.load_with_notes("alice", thread.id), frozenset())  # type: ignore[arg-type]
    assert [item["k"] for item in conversation.items(reopened)] == ["u", "a", "e"]  # cut off there, with Retry


def test_a_run_that_says_nothing_is_kept_all_the_same(tmp_path, monkeypatch):
    monkeypatch.setattr(_keeping, "KEPT_EVERY", 0.2)

    async def scenario() -> tuple[SQLThreadStore, Thread, list | None, list | None]:
        store, _keeper, thread, _conversation, _sink = _a_run_starts(tmp_path)
        await asyncio.sleep(0.05)
        soon = _kept(store, thread)
        await asyncio.sleep(0.4)
        await written(thread.id)
        return store, thread, soon, _kept(store, thread)

    store, thread, soon, later = asyncio.run(scenario())
    assert soon is None
    assert later == [("u1", "tell me a story")]
    reopened, conversation = resumed(store.load_with_notes("alice", thread.id), frozenset())  # type: ignore[arg-type]
    assert [item["k"] for item in conversation.items(reopened)] == ["u", "e"]  # the run shows cut off after the message


def test_a_save_before_the_first_words_covers_the_runs_start(tmp_path, monkeypatch):
    monkeypatch.setattr(_keeping, "KEPT_EVERY", 0.2)

    async def scenario() -> tuple[SQLThreadStore, Thread, list | None]:
        store, keeper, thread, conversation, sink = _a_run_starts(tmp_path)
        thread.add_message(AssistantMessage(id="m1", content="Hello."))  # the run ended before its words were sent
        await keeper.save(thread, conversation, running=False)
        await asyncio.sleep(0.4)  # (the run start's keep, had it not been covered, would come now)
        await sink.close()
        await written(thread.id)
        return store, thread, _kept(store, thread)

    store, thread, kept = asyncio.run(scenario())
    assert kept == [("u1", "tell me a story"), ("m1", "Hello.")]
    reopened, conversation = resumed(store.load_with_notes("alice", thread.id), frozenset())  # type: ignore[arg-type]
    assert [item["k"] for item in conversation.items(reopened)] == ["u", "a"]  # over, not cut off

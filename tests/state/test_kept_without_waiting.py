"""A conversation is kept without the run waiting for the database: the thread is read at once and written in the
store's own thread, in order; whoever opens the conversation again waits for what is on its way, so nothing is lost.

The database here is busy for real: another connection holds SQLite's write lock, as a backup or a migration would
(the store's writes then wait up to 30 s for it).
"""

from __future__ import annotations

import asyncio

from ag_ui.core import AssistantMessage

from copilot_ui.core import Thread
from copilot_ui.state.turns import Keeper, load, written
from copilot_ui.state.view import Conversation
from copilot_ui.store import SQLThreadStore

from .._sqlite_lock import write_lock_held


def test_a_save_does_not_wait_for_a_busy_database_and_lands_once_it_is_free(tmp_path):
    database = tmp_path / "threads.db"
    store = SQLThreadStore(f"sqlite:///{database}")
    keeper = Keeper(store, "alice", "default")
    thread = Thread()  # a new conversation: its first save creates it
    conversation = Conversation.of(thread.id)
    thread.add_user_message("what is our revenue?", "question")
    thread.add_message(AssistantMessage(id="reply", content="Revenue is"))

    async def scenario() -> None:
        with write_lock_held(database):
            running = keeper.save(thread, conversation, running=True)  # before the run: the run goes on at once
            thread.append_text("reply", " $48,210.")  # the run changes the thread while the write waits
            ended = keeper.save(thread, conversation, running=False)  # the end of the drive
            reopened = asyncio.ensure_future(load(store, "alice", thread.id))  # another tab opens it meanwhile
            await asyncio.sleep(0.5)
            assert not running.done() and not ended.done() and not reopened.done()
        stored = await asyncio.wait_for(reopened, 10)
        assert running.done() and ended.done()  # in the order they were made: the last one is what is kept
        assert stored is not None
        assert [(m.id, m.content) for m in stored.thread.messages] == [
            ("question", "what is our revenue?"),
            ("reply", "Revenue is $48,210."),
        ]
        assert Conversation.from_notes(thread.id, stored.notes).run_after is None  # not taken for a cut-off run
        await written(thread.id)  # nothing left on its way

    asyncio.run(scenario())
    store.close()

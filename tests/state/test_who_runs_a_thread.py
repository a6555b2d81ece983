"""Who runs a thread has one answer, the thread's claim: a message sent while something else holds the conversation
(a loop the app drives on it, say) waits for it to be released and is answered then, never dropped. Driven through
Reflex's event processor and the real run loop (copilot_ui.testing), the agent scripted."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator

import pytest
from ag_ui.core import AssistantMessage

from copilot_ui.core import Claim, Thread, claims
from copilot_ui.state import CopilotState
from copilot_ui.state._tab import StateTab
from copilot_ui.state.turns import thread_runs
from copilot_ui.store import SQLThreadStore, StoredThread
from copilot_ui.testing import CopilotSession

from ._running_turn import a_running_turn


def test_a_message_to_a_thread_held_elsewhere_in_the_process_waits_for_it_and_is_answered(copilot: CopilotSession):
    copilot.agent.says("Hello.")
    copilot.say("hi")
    thread_id = copilot.state(CopilotState).get_value("_thread").id
    app = copilot._app

    async def hold() -> Claim:
        held = claims.claim(thread_id)
        assert held is not None, "a turn still holds the thread"
        return held

    held = app.call(hold())
    copilot.agent.says("Now that it is free: hello again.")
    sent = app.call(app.dispatch(copilot.token, CopilotState.send({"message": "again", "agent": ""}), copilot._router_data()))

    async def still_waiting() -> bool:
        await asyncio.sleep(0.3)
        return not sent.done() and thread_runs.running(thread_id) is None

    assert app.call(still_waiting()), "the message did not wait for the thread: it was dropped, or ran a turn beside its holder"

    async def release() -> None:
        held.release()
        await asyncio.wait_for(sent, 10)

    app.call(release())
    assert copilot.replies == ["Hello.", "Now that it is free: hello again."]


def test_a_turn_whose_start_never_reached_the_tab_leaves_the_thread_free(
    copilot: CopilotSession, monkeypatch: pytest.MonkeyPatch
):
    """The turn starts in the tab's locked block that claims the thread; when the tab's change cannot be kept as that
    block ends (the state manager fails), the turn stops and the thread is free: the next message is answered."""
    copilot.agent.says("Hello.")
    copilot.say("hi")
    thread_id = copilot.state(CopilotState).get_value("_thread").id
    real_locked, real_say_running = StateTab.locked, StateTab.say_running
    claimed = []

    async def say_running(self: StateTab, *args: object) -> None:
        await real_say_running(self, *args)  # type: ignore[arg-type]
        claimed.append(True)

    @contextlib.asynccontextmanager
    async def locked(self: StateTab) -> AsyncIterator[CopilotState]:
        async with real_locked(self) as state:
            yield state
        if claimed and claimed.pop():
            raise ConnectionError("the state manager could not keep the change")

    monkeypatch.setattr(StateTab, "say_running", say_running)
    monkeypatch.setattr(StateTab, "locked", locked)
    app = copilot._app
    app.call(app.dispatch(copilot.token, CopilotState.send({"message": "again", "agent": ""}), copilot._router_data()))

    async def freed() -> bool:
        for _ in range(100):
            if thread_runs.running(thread_id) is None and claims.holder(thread_id) is None:
                return True
            await asyncio.sleep(0.05)
        return False

    assert app.call(freed()), "the thread stayed held by a turn the tab was never told of"
    monkeypatch.setattr(StateTab, "locked", real_locked)
    monkeypatch.setattr(StateTab, "say_running", real_say_running)
    copilot.agent.says("Hello again.")
    copilot.say("once more")
    assert copilot.replies[-1] == "Hello again."


def test_a_conversation_read_as_its_turn_ends_comes_with_the_turns_last_words(tmp_path):
    """Opened from the list (or on a reload) just as the turn working on it ends: the copy read from the store may
    miss the turn's last save, and the turn no longer shows the thread, so what was read is what the person sees."""

    async def opened_as_the_turn_ends() -> str:
        store = SQLThreadStore(f"sqlite:///{tmp_path / 'threads.db'}")
        thread = Thread(store.create("alice", agent="default").id)
        thread.add_user_message("tell me a story", "u1")
        thread.add_message(AssistantMessage(id="a1", content="Once upon"))
        turn = a_running_turn(store, "alice", thread)
        keeper, conversation = turn.keeper, turn.sink.conversation
        assert keeper is not None
        await keeper.save(thread, conversation, running=True)  # kept while it streams
        read, turn_left = threading.Event(), threading.Event()
        read_now = store.load_with_notes

        def read_as_the_turn_ends(owner: str, thread_id: str) -> StoredThread | None:
            stored = read_now(owner, thread_id)
            read.set()
            turn_left.wait(10)
            return stored

        store.load_with_notes = read_as_the_turn_ends  # type: ignore[method-assign]
        opening = asyncio.ensure_future(thread_runs.load_latest(store, "alice", thread.id))
        await asyncio.to_thread(read.wait, 10)
        thread_runs.leave(turn)  # its work is over: it writes the thread back now
        turn_left.set()
        thread.replace_messages([*thread.messages[:-1], AssistantMessage(id="a1", content="Once upon a time.")])
        saved = keeper.save(thread, conversation, running=False)
        await thread_runs.hand_over(turn, saved)
        stored = await asyncio.wait_for(opening, 10)
        assert stored is not None
        return str(stored.thread.messages[-1].content)

    assert asyncio.run(opened_as_the_turn_ends()) == "Once upon a time."

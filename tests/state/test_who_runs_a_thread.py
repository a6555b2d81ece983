"""Who runs a thread has one answer, the thread's claim: a message sent while something else holds the conversation
(a loop the app drives on it, say) waits for it to be released and is answered then, never dropped. Driven through
Reflex's event processor and the real run loop (copilot_ui.testing), the agent scripted."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from typing import Any

import pytest
from ag_ui.core import AssistantMessage

from copilot_ui.core import Claim, Thread, claims
from copilot_ui.state import CopilotState, ThreadsState, declarations
from copilot_ui.state._owner import owner_of_tab
from copilot_ui.state._tab import StateTab
from copilot_ui.state.turns import thread_runs
from copilot_ui.store import SQLThreadStore, StoredThread
from copilot_ui.testing import CopilotSession

from ._running_turn import a_running_turn
from .test_texts_handed_over import run_script


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


def test_a_conversation_opened_from_the_list_as_another_tabs_turn_ends_is_handed_its_last_words(
    copilot: CopilotSession, monkeypatch: pytest.MonkeyPatch
):
    """Open in the list reads the stored copy while another tab's turn writes the thread, and that turn ends before
    the tab's state comes (another of its events holds it): the tab is handed the reply whole, not cut where the copy
    read had it, and nothing says it was interrupted."""
    copilot.agent.says("Hello.")
    copilot.say("hi")  # (the tab is open: its owner is known)
    app = copilot._app
    store = app.call(declarations.copilot.open_store())
    assert store is not None
    owner = app.call(owner_of_tab(copilot.state(CopilotState)))
    thread = Thread(store.create(owner, agent="default").id)
    thread.add_user_message("tell me a story", "u1")
    thread.add_message(AssistantMessage(id="a1", content="Once upon"))
    turn = a_running_turn(store, owner, thread, tab=_AnotherTab())
    keeper = turn.keeper
    assert keeper is not None

    async def kept_while_it_streams() -> None:
        await keeper.save(thread, turn.sink.conversation, running=True)

    app.call(kept_while_it_streams())
    read = ended = False
    read_now = store.load_with_notes

    def load_with_notes(owner: str, thread_id: str) -> StoredThread | None:
        nonlocal read
        read = read or thread_id == thread.id
        return read_now(owner, thread_id)

    async def the_turn_ends() -> None:
        thread_runs.leave(turn)
        thread.replace_messages([*thread.messages[:-1], AssistantMessage(id="a1", content="Once upon a time.")])
        await thread_runs.hand_over(turn, keeper.save(thread, turn.sink.conversation, running=False))

    real_get_state = ThreadsState.get_state

    async def get_state(self: ThreadsState, state_cls: type[Any]) -> Any:
        nonlocal ended
        if read and not ended and state_cls is CopilotState:  # the tab's state comes once the turn is over
            ended = True
            await the_turn_ends()
        return await real_get_state(self, state_cls)

    monkeypatch.setattr(store, "load_with_notes", load_with_notes)
    monkeypatch.setattr(ThreadsState, "get_state", get_state)
    handed_before = len(copilot.browser_events)
    copilot.click(ThreadsState.select(thread.id))

    tab = copilot.state(CopilotState)
    reply = tab.get_value("_conversation").items(tab.get_value("_thread"))[-1]["id"]
    tab_texts: dict[str, tuple[int, str]] = {}
    for name, payload in copilot.browser_events[handed_before:]:
        if name == "_call_script":
            run_script(tab_texts, payload["javascript_code"])
    assert tab_texts[reply][1] == "Once upon a time."
    assert copilot.replies[-1] == "Once upon a time."
    assert copilot.errors == []


class _AnotherTab:
    """The tab of another session that the turn shows in (closed, say)."""

    token = "another-tab"

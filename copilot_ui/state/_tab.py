"""The tab: the conversation a tab's CopilotState shows (which thread, the window of its items, whether a run goes,
what waits for approval, which agent it talks to), and `StateTab`, the `turns.Tab` through which a turn reaches it.

These write the tab's CopilotState inside `async with state` (or in a plain event handler), each var only when
its value changes: every change is sent to the browser. Reflex sends a change to the tab named by the running
task's event context, not by the state, and a turn is also reached from tasks of other events (a control from
another worker, a message from another tab of the conversation): so StateTab runs each block in the context of
the event that made its tab.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from reflex.event import Event
from reflex.istate.manager import get_state_manager
from reflex.istate.manager.redis import StateManagerRedis
from reflex.istate.manager.token import BaseStateToken
from reflex.state import BaseState
from reflex_base.event.context import EventContext
from reflex_base.utils.exceptions import StateSchemaMismatchError

from ..core import Thread, TurnOutcome
from ._approval import ApprovalState
from ._closed_sessions import sent_while_connected
from ._live import LiveState
from ._owner import owner_of_tab
from .declarations import copilot, shared_state
from .sink import BrowserEvent, ViewUpdate, script_event
from .turns import Refused, at_exit, cut_off, load, remote, resumed, thread_runs, worker
from .view import (
    Conversation,
    Item,
    approval_request,
    handover,
    pending_approval,
    shown_arguments,
    whole_texts_script,
)

if TYPE_CHECKING:
    from ._copilot import CopilotState

WINDOW = 40  # items the browser holds before the person scrolls up: each change of the list resends them


class StateTab:
    """The tab of a CopilotState, for the turns of its conversation."""

    def __init__(self, state: CopilotState, *, to_the_end: bool = False) -> None:
        self._state = state
        self._to_the_end = to_the_end  # the person sent a message: the older items they read above are let go
        self.token = state.router.session.client_token
        self.page = state.router.url.path or "/"
        self.browser_answer = state.__class__.browser_result  # (`__class__`: a background event's state is a proxy)
        self.kept = True
        self._event = sent_while_connected(EventContext.get())  # (a reply goes on when the tab closes: sent nowhere)

    @contextlib.asynccontextmanager
    async def locked(self) -> AsyncIterator[CopilotState]:
        with in_context(self._event):
            async with self._state:  # `async with` a background event's state locks it
                await other_states_loaded(self._state, (LiveState, *copilot.page_states()))
                if self._to_the_end:  # (in the turn's first lock: no lock of its own)
                    self._state._older_from, self._to_the_end = -1, False
                yield self._state

    async def owner(self) -> str:
        return await owner_of_tab(self._state)

    async def conversation(self, owner: str) -> tuple[Thread, Conversation]:
        return await current_or_stored(self._state, owner)

    def agent(self, asked: str, thread: Thread, conversation: Conversation) -> str | Refused:
        return agent_for_turn(self._state, asked, thread, conversation)

    async def page_state(self, state_type: type) -> Any:
        return await self._state.get_state(state_type)

    async def show(self, shown: ViewUpdate) -> None:
        with in_context(self._event):
            await show_run(self._state, shown)

    async def send(self, event: Event) -> None:
        if not at_exit.stop_signalled:  # (once the server was asked to stop, what shows is what's kept)
            await self._event.emit_event(event)  # (to the tab that made the event, while it is connected)

    async def running(self, running: bool, status: str = "", dev: str = "") -> None:
        async with self.locked():
            await say_running(self._state, running, status, dev)

    async def say_running(self, running: bool, status: str = "", dev: str = "") -> None:
        await say_running(self._state, running, status, dev)

    async def turn_ended(self, outcome: TurnOutcome | None) -> None:
        pass  # (the sink showed how it ended)


@contextlib.contextmanager
def in_context(event: EventContext) -> Iterator[None]:
    """Run a block in the context of the event that made a tab: its changes go to that tab, from any task."""
    reset = EventContext.set(event)
    try:
        yield
    finally:
        EventContext.reset(reset)


def current(state: CopilotState) -> tuple[Thread, Conversation]:
    """The tab's thread and its view (made on first use), as plain objects: a turn uses them outside the lock."""
    thread, conversation = state.get_value("_thread"), state.get_value("_conversation")
    if thread is None or conversation is None:
        thread = Thread()
        conversation, _ = take(state, thread, None, agent_id=state._agent_id)  # an agent picked before the first message
    return thread, conversation


async def switch(state: CopilotState, thread: Thread, conversation: Conversation | None, agent_id: str = "") -> None:
    """Show this conversation in the tab, whether a run is working on it, and what waits for approval in it."""
    conversation, items = take(state, thread, conversation, agent_id)
    approval = await state.get_state(ApprovalState)
    approval._dismissed.clear()
    offer_approval(thread, conversation, items, approval)
    live = await state.get_state(LiveState)
    live.running, live.status = thread_runs.running(thread.id) is not None, ""


def take(
    state: CopilotState, thread: Thread, conversation: Conversation | None, agent_id: str = ""
) -> tuple[Conversation, list[Item]]:
    """Show this conversation in the tab (a new one when `conversation` is None); its view and its items."""
    conversation = conversation or Conversation.of(thread.id, copilot.rendered_tools())
    state._thread, state._conversation, state._agent_id, state._worker = thread, conversation, agent_id, worker()
    shown = agent_id or state._page_agent
    state.thread_id, state.agent, state.model, state.suggestions = thread.id, shown, copilot.model_label(shown), []
    state.items, state.older, state.has_older, state._older_from = [], [], False, -1
    items = conversation.items(thread)
    show_items(state, items)
    return conversation, items


async def show_run(state: CopilotState, shown: ViewUpdate) -> None:
    """A turn's sink writes what the tab shows: the items, the status line, the agent's state; the thread is kept
    with the tab's state."""
    async with state:
        with_approval = (ApprovalState,) if shown.items is not None else ()
        await other_states_loaded(state, (LiveState, *with_approval, *shown.shared))
        showing = state.get_value("_thread")
        if showing is not None and showing.id != shown.thread.id:
            return  # the tab moved on to another conversation: this turn's view is written nowhere
        thread, conversation = shown.thread, shown.conversation
        state._thread, state._conversation, state._worker = thread, conversation, worker()
        if shown.items is not None:
            show_items(state, shown.items)
            offer_approval(thread, conversation, shown.items, await state.get_state(ApprovalState))
        for state_type, values in shown.shared.items():
            shared_state(state_type).write(await state.get_state(state_type), values)
        if shown.suggestions is not None and shown.suggestions != state.suggestions:
            state.suggestions = shown.suggestions
        elif shown.running and state.suggestions:
            state.suggestions = []
        await say_running(state, shown.running, shown.status)


async def say_running(state: CopilotState, running: bool, status: str, dev: str = "") -> None:
    """Whether a turn runs for the tab and what it does now."""
    live = await state.get_state(LiveState)
    if live.status != status:
        live.status = status
    if live.running != running:
        live.running = running
    if dev and live.dev != dev:
        live.dev = dev


async def other_states_loaded(state: CopilotState, state_types: Iterable[type]) -> None:
    """With Redis, the tab's other states a block reads (its status, its approval, the page's states for the context
    and the agents' state) in one request, where Reflex's `get_state` would make one request each."""
    manager = get_state_manager()
    if not isinstance(manager, StateManagerRedis):
        return
    tab: BaseState = getattr(state, "__wrapped__", state)  # (a background event's state is a proxy)
    tree = manager._get_populated_states(tab)  # (the states it holds already: not fetched again)
    wanted: set[type[BaseState]] = set()
    for state_type in state_types:
        manager._get_required_state_classes(state_type, subclasses=True, required_state_classes=wanted)
    missing = sorted(wanted - {type(held) for held in tree.values()}, key=lambda state_type: state_type.get_full_name())
    if len(missing) < 2:
        return  # (`get_state` fetches one as it is read)
    token = BaseStateToken(ident=tab.router.session.client_token, cls=type(tab))
    stored = await manager.redis.mget([token._state_key(state_type) for state_type in missing])
    for state_type, data in zip(missing, stored, strict=True):  # (parents first: as Reflex's `get_state` attaches them)
        loaded = None
        if data is not None:
            with contextlib.suppress(StateSchemaMismatchError):
                loaded = BaseState._deserialize(data=data)
        if loaded is None:
            loaded = state_type(init_substates=False, _reflex_internal_init=True)  # pyright: ignore[reportCallIssue]
        parent_name, _, name = loaded.get_full_name().rpartition(".")
        parent = tree[parent_name]
        parent.substates[name], loaded.parent_state = loaded, parent
        tree[loaded.get_full_name()] = loaded


def offer_approval(thread: Thread, conversation: Conversation, items: list[Item], approval: ApprovalState) -> None:
    """Open the approval dialog on the first call that waits for one (or close it when none waits)."""
    pending = pending_approval(items, approval._dismissed)
    if pending is None:
        approval._open_on(None)
        return
    if approval.open and (approval.item, approval.digest) == pending:
        return
    call_id = conversation.call_of(pending[0])
    call = thread.tool_call(call_id) if call_id else None
    shown = shown_arguments(thread, call) if call is not None else None
    if call is not None and shown is not None:
        tool = copilot.tool(call.function.name)
        ui = copilot.tool_ui.get(call.function.name)
        approval._open_on(approval_request(pending[0], pending[1], call, shown, tool, ui))


def show_items(state: CopilotState, items: list[Item]) -> None:
    """Put the newest items (and those the person scrolled up to) where the browser sees them."""
    first = max(len(items) - WINDOW, 0)
    window = items[first:]
    older = items[state._older_from : first] if 0 <= state._older_from < first else []
    if window != state.items:
        state.items = window
    if older != state.older:
        state.older = older
    has_older = (state._older_from if older else first) > 0
    if has_older != state.has_older:
        state.has_older = has_older
    last = next((item for item in reversed(items) if item["k"] in ("a", "u")), None)
    last_reply = last["id"] if last is not None and last["k"] == "a" else ""  # after the person's last message
    if last_reply != state.last_reply:
        state.last_reply = last_reply


def show_older(state: CopilotState) -> None:
    """The person scrolled to the top: show the items before those shown."""
    thread, conversation = state.get_value("_thread"), state.get_value("_conversation")
    if thread is None or conversation is None:
        return
    items = conversation.items(thread)
    first_shown = state._older_from if state._older_from >= 0 else max(len(items) - WINDOW, 0)
    state._older_from = max(first_shown - WINDOW, 0)
    show_items(state, items)


async def hand_over_texts(state: CopilotState, tids: list[str]) -> AsyncIterator[BrowserEvent]:
    """The tab lacks these texts (it reloaded, reconnected, or scrolled to older items): hand them over."""
    async with state:
        held = state.get_value("_thread")
        # (a thread another life of the server left in the tab's state is older than the store's: as kept, it replaces
        # what the tab holds; the state came back as that life last wrote it, while the store has its last words)
        stale = held is not None and await outlived(state, held)
        if stale:
            await current_or_stored(state, await owner_of_tab(state))
        thread, conversation = state.get_value("_thread"), state.get_value("_conversation")
    if thread is None or conversation is None or not isinstance(tids, list):
        return
    if thread_runs.writing(thread.id) is None and await remote.texts(thread.id, tids):
        return  # the worker that runs the thread hands them over
    script = texts_handed_over(tids, thread, conversation, replace=stale)
    if script:
        yield script_event(script)


def texts_handed_over(tids: list[str], thread: Thread, conversation: Conversation, *, replace: bool = False) -> str:
    """The script that hands these texts to the tab: as the turn writing the thread sent them (up to the piece it
    counts), else as the thread has them (`replace`: as kept, which nothing writes any more)."""
    thread_run = thread_runs.writing(thread.id)  # (it holds the newest thread, and what it sent of each text)
    if thread_run is not None:
        return thread_run.texts(tids)
    return handover(tids, thread, conversation, None, copilot.scrubber(), replace=replace)


async def current_or_stored(state: CopilotState, owner: str) -> tuple[Thread, Conversation]:
    """The tab's thread as it is now: from the store when the tab lost it (a new session after a reconnect) or
    holds it from another life of the server."""
    held = state.get_value("_thread")
    if held is None or await outlived(state, held):
        store = await copilot.open_store()
        stored = await load(store, owner, state.thread_id) if state.thread_id and store is not None else None
        if stored is not None:
            await switch(state, *resumed(stored, copilot.rendered_tools()), agent_id=stored.summary.agent)
        elif held is not None:
            await keep_without_store(state, held)
    return current(state)


async def outlived(state: CopilotState, thread: Thread) -> bool:
    """Whether the tab's thread was put there by another life of the server (before a restart, or dev mode's
    reload) or by another worker, and no turn works on it now: then the store has it as it is, and a run the
    tab shows as going is gone."""
    if state._worker == worker():
        return False
    return thread_runs.running(thread.id) is None and not await thread_runs.runs_elsewhere(thread.id)


async def keep_without_store(state: CopilotState, thread: Thread) -> None:
    """A thread another life of the server left in the tab, which no store has: kept, the run it showed cut off."""
    conversation = state.get_value("_conversation") or Conversation.of(thread.id, copilot.rendered_tools())
    if (await state.get_state(LiveState)).running:
        cut_off(thread, conversation, thread.last_message_id())
    await switch(state, thread, conversation, agent_id=state._agent_id)


def agent_for_turn(state: CopilotState, asked: str, thread: Thread, conversation: Conversation) -> str | Refused:
    """The agent a new turn of the conversation talks to: the one it has, else the one asked for, if configured
    (then fixed); else the refusal, shown in the conversation (inside `async with state`)."""
    if state._agent_id:
        return state._agent_id
    known = copilot.agent_ids()
    wanted = asked or "default"
    if wanted not in known:
        shown = "".join(ch for ch in wanted[:40] if ch.isprintable())
        refusal = copilot.labels.said("no_such_agent", agent=repr(shown), agents=", ".join(known))
        note = conversation.add_note("error", refusal, None)
        show_items(state, conversation.items(thread))
        return Refused(whole_texts_script({note.id: [0, refusal]}))
    state._agent_id, state.agent, state.model = wanted, wanted, copilot.model_label(wanted)
    return wanted


def pick_agent(state: CopilotState, agent_id: str) -> None:
    """The picker: talk to another of the configured agents (a conversation keeps its agent, so a new one starts)."""
    if agent_id not in copilot.agent_ids() or agent_id == state.agent:
        return
    thread = state.get_value("_thread")
    if thread is not None and len(thread):
        take(state, Thread(), None)
    state._agent_id, state.agent, state.model = agent_id, agent_id, copilot.model_label(agent_id)

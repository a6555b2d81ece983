"""A tab's conversation comes back: after a reload, a reconnect, a restart of the server, while a turn runs it for
another session or on another worker, or when the person comes back to the tab after going on in another one.

The tab keeps its thread id in the browser's session storage and its thread in the state; the store has the thread
as its last turn kept it. What the tab holds is current unless another life of the server, or another worker, put
it there and no turn works on it now. A turn that shows the thread elsewhere writes into another session: the tab
shows the thread as kept, running, until that turn is over (or its worker's claim lapses), then as it ended up.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

from ..core import Thread
from ..store import StoredThread, ThreadStore
from ._owner import owner_of_tab
from ._tab import WINDOW, keep_without_store, outlived, say_running, switch
from .declarations import copilot
from .sink import BrowserEvent, script_event
from .turns import load, resumed, thread_runs
from .view import Conversation, window_texts

if TYPE_CHECKING:
    from ._copilot import CopilotState

_WATCHED: set[tuple[str, str]] = set()  # (tab token, thread id): tabs waiting here for another worker's turn to end


async def reopen(state: CopilotState, page_agent: str) -> AsyncIterator[BrowserEvent]:
    """Show the tab's conversation as it is now (from the store when the tab's thread is out of date; while a turn
    shows it elsewhere, as that turn shows it, and from the store once that turn is over, even by a worker's death)."""
    store = await copilot.open_store()  # (before anything of the tab's needs it)
    async with state:
        owner = await owner_of_tab(state)
        if page_agent in copilot.agent_ids():  # what a new conversation talks to
            state._page_agent = page_agent
            if not state._agent_id:
                state.agent, state.model = page_agent, copilot.model_label(page_agent)
        held = state.get_value("_thread")
        elsewhere = held is not None and await runs_elsewhere(held)
        current = held is not None and not elsewhere and not await outlived(state, held)
        wanted = state.thread_id
    stored: StoredThread | None = None
    if current and held is not None:
        stored = await _as_it_went_on(state, store, owner, held)
        if stored is None:
            return  # what the tab holds is current
    if elsewhere and held is not None and not await _until_run_nowhere_else(state, held):  # (elsewhere: held is not None)
        return
    if stored is None and wanted and store is not None:
        stored = await thread_runs.load_latest(store, owner, wanted)
    if stored is None:
        async with state:
            if _id_of(state.get_value("_thread")) != _id_of(held):
                return  # the person started meanwhile
            if held is not None:
                await keep_without_store(state, held)
            elif state.thread_id == wanted:
                state.thread_id = ""
        return
    # A turn works on it, yet the tab did not hold it: Reflex gave the tab a new session (it reconnected while its old
    # connection was still on record), and the turn writes into the old one, on this worker or another.
    here = run_of_another_session(state, stored.thread)
    going = here is not None or await runs_elsewhere(stored.thread)
    async for event in _show_stored(state, stored, _id_of(held), going=going):
        yield event
    if here is not None:
        over = await _until_over(state, stored.thread, here.ended)
    else:
        over = going and await _until_run_nowhere_else(state, stored.thread)
    if over and store is not None:  # (a stored thread came from the store)
        stored = await load(store, owner, stored.thread.id)
        if stored is not None:
            # (its texts as that turn last counted them: the tab got some of its pieces when it was first shown)
            counted = here.sink.conversation.seqs if here is not None else {}
            async for event in _show_stored(state, stored, stored.thread.id, counted=counted):
                yield event


def opened(
    stored: StoredThread, *, going: bool = False, counted: dict[str, int] | None = None
) -> tuple[Thread, Conversation, str]:
    """A stored conversation as a tab opens it: as the turn working on it has it (if one does), else as stored (cut
    off, unless `going` on another worker); and the script that hands over the texts of its window, to send before its
    items (so that it shows at once). `counted`: the pieces of its texts a turn sent, which the tab may hold (a whole
    text handed over at a lower count would be taken for an older one)."""
    writing = thread_runs.writing(stored.thread.id)  # (running, or sending its last pieces)
    if writing is not None:
        thread, conversation = writing.thread, writing.sink.conversation
    else:
        thread, conversation = resumed(stored, copilot.rendered_tools(), going=going)
        conversation.seqs.update(counted or {})
    so_far = writing.sink.text_so_far if writing is not None else None
    # (nothing writes it: its texts as kept replace what the tab holds, say the pieces a turn cut off had sent it)
    texts = window_texts(thread, conversation, so_far, copilot.scrubber(), WINDOW, replace=writing is None and not going)
    return thread, conversation, texts


async def _as_it_went_on(state: CopilotState, store: ThreadStore | None, owner: str, held: Thread) -> StoredThread | None:
    """The conversation the tab holds, as stored, when it went on in another of the person's tabs (a decision on what
    waited here, a message, an edit): a turn of another session runs it here, or the store has other messages. None
    when what the tab holds is current."""
    if store is None:
        return None
    thread_run = thread_runs.running(held.id)
    if thread_run is not None:
        mine = thread_run.tab.token == state.router.session.client_token
        return None if mine else await thread_runs.load_latest(store, owner, held.id)
    if not held.messages:
        return None
    stored = await thread_runs.load_latest(store, owner, held.id)  # (a turn that just left here writes it back first)
    changed = stored is not None and [m.id for m in stored.thread.messages] != [m.id for m in held.messages]
    return stored if changed else None


async def runs_elsewhere(thread: Thread) -> bool:
    """Whether another worker runs the tab's thread now (and writes what the tab shows of it)."""
    return thread_runs.running(thread.id) is None and await thread_runs.runs_elsewhere(thread.id)


def run_of_another_session(state: CopilotState, thread: Thread) -> thread_runs.ThreadRun | None:
    """The turn working on the thread on this worker for another session than the tab's, if any."""
    thread_run = thread_runs.running(thread.id)
    return thread_run if thread_run is not None and thread_run.tab.token != state.router.session.client_token else None


async def _show_stored(
    state: CopilotState, stored: StoredThread, showing: str | None, *, going: bool = False, counted: dict[str, int] | None = None
) -> AsyncIterator[BrowserEvent]:
    """Show a stored conversation (running, when it is `going` for another session or on another worker), unless the
    tab no longer shows the thread `showing` (the person started meanwhile) or a turn of the tab's took it up
    meanwhile (it shows it)."""
    thread, conversation, texts = opened(stored, going=going, counted=counted)
    if texts:
        yield script_event(texts)  # the texts first: the items that show them follow (the agent's words: as text)
    async with state:
        if _id_of(state.get_value("_thread")) != showing:
            return
        thread_run = thread_runs.running(thread.id)
        if (
            thread_run is not None
            and thread_run.thread is not thread
            and thread_run.tab.token == state.router.session.client_token
        ):
            return
        await switch(state, thread, conversation, agent_id=stored.summary.agent)
        if going:
            await say_running(state, True, "")


async def _until_run_nowhere_else(state: CopilotState, thread: Thread) -> bool:
    """Wait, outside the lock, for the turn of the tab's thread on another worker to be over (should that worker die,
    its claim lapses within the lease: the tab then shows the run cut off, with Retry, not going for ever)."""
    return await _until_over(state, thread, lambda: thread_runs.over_elsewhere(thread.id))


async def _until_over(state: CopilotState, thread: Thread, over: Callable[[], Awaitable[Any]]) -> bool:
    """Wait for `over()` (a turn of the tab's thread that shows it elsewhere is over), once per tab and thread on
    a worker (a tab reconnects often); True when the tab still shows the thread and no turn here took it up
    meanwhile: then the store has it as it ends up."""
    watch = (state.router.session.client_token, thread.id)
    if watch in _WATCHED:
        return False
    _WATCHED.add(watch)
    try:
        await over()
    finally:
        _WATCHED.discard(watch)
    async with state:
        return _id_of(state.get_value("_thread")) == thread.id and thread_runs.running(thread.id) is None


def _id_of(thread: Thread | None) -> str | None:
    return thread.id if thread is not None else None

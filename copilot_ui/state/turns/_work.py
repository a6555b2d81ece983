"""Working a tab's thread: a request of the person's (a message, a decision, Regenerate, an edit, Retry) reaches the
turn of the thread, or starts one, and is seen through.

The turn running the thread takes it (a message joins its next run, a decision is acted on at once), or the turn on
another worker does; else a new turn is claimed in the same short locked block of the tab that found none
(`_thread_runs`, which knows who runs each thread), so that two clicks never start two turns. The turn runs the loop
in a task of its own, started in that block (the agent starts while Reflex sends and keeps the tab's change); its sink
sends to the browser through the tab, and the background event that started it waits until the turn is over, the
thread saved and released. The tab is reached only through its `Tab` (`_tab.py`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass
from typing import Any

from ag_ui.core import Context

from ...core import Answer, Attachment, Claim, Decision, ErrorOccurred, RunLoop, Session, Thread, TurnOutcome
from ...protocol import new_id
from ...store import ThreadStore
from ..declarations import SharedStates, attachment_bytes_for, copilot, current_page
from ..sink import ViewSink, script_event
from ..view import Conversation, drawn_by_app
from . import _at_exit as at_exit
from . import _remote as remote
from . import _thread_runs as thread_runs
from ._browser_answers import ThreadRunPage
from ._keeping import Keeper
from ._session_states import SessionStates
from ._tab import Refused, Tab

logger = logging.getLogger("copilot_ui.state")

FAILED = "Something went wrong in the copilot; the server log has the details."
WAIT_ELSEWHERE = 20.0  # seconds a request nobody took waits for the other worker's turn to be over, before asking anew


@dataclass(frozen=True)
class SendMessage:
    """The person's message, with the files they attached; `agent_id` is the agent a new conversation asks for."""

    message_id: str
    text: str
    attachments: tuple[Attachment, ...] = ()
    agent_id: str = ""


@dataclass(frozen=True)
class Decide:
    """The person's decision on the call of the card `item_id`, as it was shown to them (`digest`)."""

    item_id: str
    digest: str
    decision: Decision


@dataclass(frozen=True)
class Regenerate:
    """Answer the person's last message again."""


@dataclass(frozen=True)
class Edit:
    """The person rewrote their message `message_id`: it and what follows are replaced by `text`."""

    message_id: str
    text: str


@dataclass(frozen=True)
class Retry:
    """Retry after an error: the failed step runs again."""


Request = SendMessage | Decide | Regenerate | Edit | Retry


async def work(tab: Tab, request: Request) -> AsyncIterator[Any]:
    """Hand the request to the turn of the tab's thread, here or on another worker, or start the turn that acts on it,
    and wait until that turn is over (yielding the refusal of an agent the conversation cannot talk to)."""
    refused = ""
    turn: asyncio.Task[None] | None = None  # the turn's task, started in the block that claims the thread
    waiting: Awaitable[Any] | None
    # (before the lock: it may wait for the database, the tab's clicks need not)
    store = await copilot.open_store() if tab.kept else None
    try:
        for _ in range(20):
            async with tab.locked():
                owner = await tab.owner()  # (it may await: before the look for a turn and the claim, which must not)
                thread, conversation = await tab.conversation(owner)
                # (A question of the agent's waits: the text is its answer; with files, it is a message said instead.)
                if isinstance(request, SendMessage) and not request.attachments:
                    question = _question_for_composer(thread, conversation)
                    request = Decide(*question, Answer(request.text)) if question is not None else request
                held = await thread_runs.take(thread.id)  # (the tab stays locked: no click slips in)
                match held:
                    case thread_runs.Elsewhere():
                        waiting = None  # handed over below, out of the lock: that worker may take seconds to say it took it
                    case thread_runs.ThreadRun():
                        if _taken_by(held, request, conversation):
                            return
                        waiting = held.ended()  # it winds down: the request waits for it, then starts a turn of its own
                    case thread_runs.Closing():
                        waiting = held.ended()  # the turn before writes the thread back first
                    case Claim():
                        waiting = None
                        try:
                            turn, refused = await _start(held, tab, request, thread, conversation, owner, store)
                        finally:
                            if turn is None:  # (a turn that did not start must not hold the thread)
                                await thread_runs.release(held)
            if isinstance(held, thread_runs.Elsewhere):
                if await _taken_elsewhere(request, thread, conversation):
                    return
                # (Nobody took the request: that turn just ended, or its worker died. The request waits for it to be
                # over, a dead worker's claim lapsing within the lease, and is then acted on here.)
                waiting = held.ended(WAIT_ELSEWHERE)
            if waiting is None:
                break
            await waiting
    except BaseException:
        if turn is not None:  # (the change that says it runs did not reach the tab: the turn stops, once it has
            turn.get_loop().call_soon(turn.cancel)  # begun, so that its own end frees the thread)
        raise

    if refused:
        yield script_event(refused)
    if turn is not None:
        await run(turn)


async def _start(
    claim: Claim, tab: Tab, request: Request, thread: Thread, conversation: Conversation, owner: str, store: ThreadStore | None
) -> tuple[asyncio.Task[None] | None, str]:
    """Start the turn that acts on the request, under the claim, in the tab's locked block: its task, and the script
    of a refusal (no task: nothing to start, or the agent asked for is refused)."""
    message = isinstance(request, SendMessage)
    if isinstance(request, Decide) and not _decided(thread, conversation, request):
        return None, ""
    if message and _holds(thread, request.message_id):
        return None, ""  # the other worker's turn took it after all, too late to say so
    agent = tab.agent(request.agent_id if message else "", thread, conversation)
    if isinstance(agent, Refused):
        return None, agent.script
    # (a message's first run reads the page in this block: one lock of the tab less)
    thread_run = await begin(claim, tab, thread, conversation, owner, agent, store, read_page_now=message)
    # (in this block: the claim and "Running" reach the tab in one change)
    await tab.say_running(True, copilot.labels.thinking, thread_run.sink.dev_tid if copilot.dev_console else "")
    # (started before the lock is let go: the agent starts while Reflex sends and keeps the change)
    return asyncio.create_task(_run_turn(tab, thread_run, request)), ""


def _taken_by(running: thread_runs.ThreadRun, request: Request, conversation: Conversation) -> bool:
    """Hand the request to the turn running the thread: whether it is taken care of (False: that turn winds down, so
    the request waits for it and starts a turn of its own)."""
    match request:
        case SendMessage():  # it goes with the turn's next run
            return running.take_message(request.message_id, request.text, request.attachments)
        case Decide():  # the turn acts on it at once
            call_id = _call_decided(conversation, request)
            return call_id is None or running.take_decision(call_id, request.decision, request.digest)
        case Regenerate() | Edit() | Retry():  # not while a turn runs
            return True


async def _taken_elsewhere(request: Request, thread: Thread, conversation: Conversation) -> bool:
    """Hand the request to the turn of the thread on another worker: whether it was taken (or needs none)."""
    match request:
        case SendMessage():
            return await remote.queue(thread.id, request.message_id, request.text, request.attachments)
        case Decide():
            call_id = conversation.call_of(request.item_id)
            return call_id is None or await remote.decide(thread.id, call_id, request.decision, request.digest)
        case Regenerate() | Edit() | Retry():
            return True


def _holds(thread: Thread, message_id: str) -> bool:
    """Whether the thread has the message already, said or queued."""
    return thread.message(message_id) is not None or any(queued.id == message_id for queued in thread.queued)


def _decided(thread: Thread, conversation: Conversation, request: Decide) -> bool:
    """Record the decision for a new turn to act on: whether it counts (the call waits, as it was shown)."""
    call_id = _call_decided(conversation, request)
    return call_id is not None and thread.decide(call_id, request.decision, request.digest)


def _call_decided(conversation: Conversation, request: Decide) -> str | None:
    """The call of the card the decision names (None, logged: no card of this conversation)."""
    call_id = conversation.call_of(request.item_id)
    if call_id is None:
        logger.warning("a decision named no card of this conversation (%r); ignored", request.item_id)
    return call_id


async def begin(
    claim: Claim,
    tab: Tab,
    thread: Thread,
    conversation: Conversation,
    owner: str,
    agent_id: str,
    store: ThreadStore | None,
    *,
    read_page_now: bool,
) -> thread_runs.ThreadRun:
    """Set up the turn of the claimed thread, kept in `store`, in the tab's locked block that claimed it; with
    `read_page_now`, the page's context for the first run is read there too."""
    shared = SharedStates(copilot.agent_states_of(agent_id))
    scrubber = copilot.scrubber()
    sink = ViewSink(tab.show, thread, conversation, scrubber=scrubber, send=tab.send, shared=shared)
    keeper = Keeper(store, owner, agent_id) if store is not None else None
    context = PageContext(tab, thread, sink, shared)

    async def commit() -> None:
        """Before each agent run: the thread is kept once the run's first words go, and the page shows the tools'
        changes."""
        if keeper is not None:
            keeper.run_starts(thread, conversation, sink.words_sent)
        if thread.turn.agent_runs == 0:  # the turn's first run: no tool changed anything yet, the message shows meanwhile
            sink.commit_soon()
        else:
            await sink.commit()

    loop = RunLoop(
        copilot.agent(agent_id),
        copilot.toolbox,
        hooks=sink.hooks(copilot.hooks),
        context=context,
        commit=commit,
        state_access=SessionStates(tab),
        session=Session(page=tab.page),
        emit=sink.emit,
        ask_person=True,
        limits=copilot.limits,
        attachment_bytes=attachment_bytes_for(owner, thread.id),
        scrubber=scrubber,
    )
    if keeper is not None:
        at_exit.kept_at_exit()
    thread_run = thread_runs.begin(claim, thread, loop, sink, tab, keeper)  # (`running` finds it from here on)
    if read_page_now and not copilot.hooks.before_run:  # (an app's hook may change what the page shows first)
        await context.read_in_lock()
    return thread_run


async def run(task: asyncio.Task[None]) -> None:
    """Wait while the turn runs in its task (the tab already says it runs), until it is over and its thread kept."""
    try:
        await task
    finally:
        if not task.done():  # the event itself was cancelled (the server stops): so is the turn
            task.cancel()


async def _run_turn(tab: Tab, thread_run: thread_runs.ThreadRun, request: Request) -> None:
    current_page.set(ThreadRunPage(thread_run))  # browser tools this turn runs (in tasks of this one) reach its tab
    keeping = None
    if (keeper := thread_run.keeper) is not None:
        sink = thread_run.sink  # (its thread is kept while the turn shows new text: a crash loses little of it)
        ticker = keeper.keep_while_it_shows(thread_run.thread, sink.conversation, lambda: sink.pieces_sent)
        keeping = asyncio.ensure_future(ticker)
    outcome: TurnOutcome | None = None
    try:
        outcome = await _act(thread_run, request)
    except asyncio.CancelledError:  # the server is going down (or the tab never heard of the turn): kept, cut off
        thread_run.interrupted = True
        if thread_run.keeper is not None:  # (now: the loop may stop before the end of this turn's `finally`)
            thread_run.keeper.save(thread_run.thread, thread_run.sink.conversation, running=True)
        raise
    except Exception:  # a bug must not leave the copilot spinning: the person sees that it failed
        logger.exception("the copilot's run failed")
        thread_run.sink.emit(ErrorOccurred(FAILED))
    finally:
        if keeping is not None:
            keeping.cancel()  # (before the last save, which then comes after its saves)
        thread_runs.leave(thread_run)
        saved: asyncio.Future[None] | None = None
        try:
            thread_run.sink.finish()
            await thread_run.sink.close()
            if thread_run.keeper is not None:
                saved = thread_run.keeper.save(thread_run.thread, thread_run.sink.conversation, running=thread_run.interrupted)
        except Exception:
            logger.exception("showing the end of a run failed")
            await _not_running(tab)
        finally:
            try:
                await tab.turn_ended(outcome)  # (while it holds the thread: the next turn's end is told after this one's)
            finally:
                await thread_runs.hand_over(thread_run, saved)


def _question_for_composer(thread: Thread, conversation: Conversation) -> tuple[str, str] | None:
    """The card (item id, digest) of the first question waiting for the person that a typed message answers: one
    whose answer is text (the default card asks for text; an app's own card, without a text answer, does not)."""
    thread_run = thread_runs.running(thread.id)
    thread = thread_run.thread if thread_run is not None else thread  # the running turn holds the newest thread
    for key, waiting in thread.awaiting.items():
        item_id = conversation.ids.get("c:" + key)
        if waiting.kind != "input" or key in thread.decisions or item_id is None:
            continue
        if waiting.interrupt_id is not None or _takes_text(waiting.tool_name):  # an agent's question is text
            return item_id, waiting.digest
    return None


def _takes_text(tool_name: str) -> bool:
    """Whether a question tool's answer may be a typed message: its answer function takes text, or it has none and
    its card is the default one (which asks for text)."""
    tool = copilot.tool(tool_name)
    if tool is None or not tool.takes_text_answer:
        return False
    return tool.answer_type is not None or not drawn_by_app(tool_name, copilot.rendered_tools())


async def _act(thread_run: thread_runs.ThreadRun, request: Request) -> TurnOutcome | None:
    """The turn acts on the request that started it."""
    loop, thread, claim, sink = thread_run.loop, thread_run.thread, thread_run.claim, thread_run.sink
    match request:
        case SendMessage():
            return await loop.send(
                thread, request.text, message_id=request.message_id, claim=claim, attachments=request.attachments
            )
        case Decide():  # recorded already: the turn goes on from it
            return await loop.resume(thread, claim=claim)
        case Regenerate():
            last = next((message for message in reversed(thread.messages) if message.role == "user"), None)
            if last is not None:
                sink.replacing_from(last.id)  # "Stopped." and errors under the old reply go with it
            return await loop.regenerate(thread, claim=claim)
        case Edit():
            sink.replacing_from(request.message_id)
            return await loop.edit(thread, request.message_id, request.text, new_id("user-"), claim=claim)
        case Retry():
            sink.retrying()  # the error (or "Interrupted") that offered Retry is answered now
            return await loop.retry(thread, claim=claim)


async def _not_running(tab: Tab) -> None:
    try:
        await tab.running(False)
    except Exception:
        logger.exception("could not reset the copilot's running state")


class PageContext:
    """What the agent sees, read fresh from the page's states for every run (and its state, where shared): the
    turn's `RunLoop.context`."""

    def __init__(self, tab: Tab, thread: Thread, sink: ViewSink, shared: SharedStates) -> None:
        self._tab, self._thread, self._sink, self._shared = tab, thread, sink, shared
        self._read_early: tuple[list[Context], int] | None = None  # (what was read, the thread's length then)

    async def read_in_lock(self) -> None:
        """Read now, in the tab's locked block that claimed the thread, for the turn's first run."""
        try:
            self._read_early = (await self._read(), len(self._thread.messages))
        except Exception:  # (the run reads it again, and fails there as it would have)
            self._read_early = None

    async def __call__(self) -> list[Context]:
        early, self._read_early = self._read_early, None
        if early is not None and all(message.role == "user" for message in self._thread.messages[early[1] :]):
            return early[0]  # only the person's messages came since: no tool changed the page
        async with self._tab.locked():
            return await self._read()

    async def _read(self) -> list[Context]:
        values = await page_context(self._tab)
        if self._shared:
            page: dict[str, Any] = {}
            for part in self._shared.parts:
                page |= part.read(await self._tab.page_state(part.state_type))
            thread = self._thread
            thread.state = {**thread.state, **page} if isinstance(thread.state, dict) else page
            self._sink.shared_state_read()
        return values


async def page_context(tab: Tab) -> list[Context]:
    """What the agent sees of the page: each context provider's value, from the page's states (locked)."""
    values = []
    for provider in copilot.contexts:
        page_state = await tab.page_state(provider.state) if provider.state is not None else None
        values.append(Context(description=provider.description, value=provider.value(page_state)))
    return values

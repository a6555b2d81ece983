"""Working a tab's thread: start its one turn, or hand a request to the turn already running, and see it through.

A request (a message, a decision, Retry) reaches the turn of the tab's thread: the running one
(a message is queued on it, a decision recorded and acted on), or a new one claimed in the same
short locked block of the tab that found none (`_thread_runs`, which knows who runs each thread),
so that two clicks never start two turns. The turn runs the loop in a task of its own; the
background event that started it yields what its sink sends to the browser until it is over, then
the thread is saved and released. The tab is reached only through its `Tab` (`_tab.py`).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing.util
import os
import signal
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from ag_ui.core import Context

from ...core import Claim, ErrorOccurred, RunLoop, Session, Thread
from ...store import ThreadStore
from ..declarations import SharedStates, attachment_bytes_for, copilot, current_page
from ..sink import ViewSink, script_event
from ..view import Conversation
from . import _thread_runs as thread_runs
from ._browser_answers import ThreadRunPage
from ._keeping import KEPT_EVERY, Keeper, writes_land
from ._session_states import SessionStates
from ._tab import Refused, Tab

logger = logging.getLogger("copilot_ui.state")

Work = Callable[[thread_runs.ThreadRun], Awaitable[Any]]
Join = Callable[[thread_runs.ThreadRun], bool]
Record = Callable[[Thread, Conversation, "thread_runs.ThreadRun | None"], bool]
RemoteRequest = Callable[[Thread, Conversation], Awaitable[bool]]  # True: the turn on the other worker took it
FAILED = "Something went wrong in the copilot; the server log has the details."
WAIT_ELSEWHERE = 20.0  # seconds a request nobody took waits for the other worker's turn to be over, before asking anew


async def work(
    tab: Tab,
    job: Work,
    *,
    join: Join | None = None,
    record: Record | None = None,
    remote_request: RemoteRequest | None = None,
    agent_id: str = "",
) -> AsyncIterator[Any]:
    """Start the turn of the tab's thread doing `job`, or hand the request to the turn already running.

    `join` puts a message on a running turn (False: it is winding down, so wait and start anew);
    `record` takes a decision (True: a new turn must act on it); `remote_request` hands the
    request to a turn of the thread on another worker (False: none took it; once no other
    worker drives the thread, the request is acted on here); `agent_id` is the agent a new
    conversation asks for.
    """
    thread_run, refused = None, ""
    waiting: Awaitable[Any] | None
    store = await copilot.open_store()  # (before the lock: it may wait for the database, the tab's clicks need not)
    for _ in range(20):
        async with tab.locked():
            owner = await tab.owner()  # (it may await: before the look for a turn and the claim, which must not)
            thread, conversation = await tab.conversation(owner)
            elsewhere = await thread_runs.driven_elsewhere(thread.id)  # (the tab stays locked: no click slips in)
            if elsewhere and (remote_request is None or await remote_request(thread, conversation)):
                return
            # (Driven elsewhere, and nobody took the request: that turn just ended, or its worker died. The request
            # waits for it to be over, a dead worker's claim lapsing within the lease, and is then acted on here.)
            running = thread_runs.running(thread.id) if not elsewhere else None
            waiting = thread_runs.closing(thread.id) if not elsewhere else thread_runs.over_elsewhere(thread.id, WAIT_ELSEWHERE)
            if running is not None:
                if record is not None:
                    record(thread, conversation, running)
                    if running.loop.accepting(running.thread):
                        return
                    record = None  # taken, but the turn is winding down: the next turn acts on it
                elif join is None or join(running):
                    return
                waiting = running.ended()
            if waiting is None:
                if record is not None and not record(thread, conversation, None):
                    return
                agent = tab.agent(agent_id, thread, conversation)
                if isinstance(agent, Refused):
                    refused = agent.script
                elif (claim := await thread_runs.claim(thread.id)) is not None:
                    try:
                        thread_run = begin(claim, tab, thread, conversation, owner, agent, store)
                    except BaseException:
                        await thread_runs.release(claim)  # (a turn that cannot begin must not hold the thread)
                        raise
                    # (in this block: the claim and "Running" reach the tab in one change)
                    await tab.say_running(True, copilot.labels.thinking, thread_run.sink.dev_tid if copilot.dev_console else "")
        if waiting is None:
            break
        await waiting  # the turn before writes the thread back first (here, or in the store on another worker)
    if refused:
        yield script_event(refused)
    if thread_run is not None:
        async for event in run(tab, thread_run, job):
            yield event


def begin(
    claim: Claim, tab: Tab, thread: Thread, conversation: Conversation, owner: str, agent_id: str, store: ThreadStore | None
) -> thread_runs.ThreadRun:
    """Set up the turn of the claimed thread (synchronous: it runs from here on), kept in `store`."""
    shared = SharedStates(copilot.agent_states_of(agent_id))
    sink = ViewSink(tab.show, thread, conversation, scrubber=copilot.scrubber(), shared=shared)
    keeper = Keeper(store, owner, agent_id) if store is not None else None

    async def read_context() -> list[Context]:
        return await _read_context(tab, thread, sink, shared)

    async def commit() -> None:
        """Before each agent run: the thread is kept (read now, written later) and the page shows the tools' changes."""
        if keeper is not None:
            keeper.run_starts(thread, conversation)
        if thread.turn.agent_runs == 0:  # the turn's first run: no tool changed anything yet, the message shows meanwhile
            sink.commit_soon()
        else:
            await sink.commit()

    loop = RunLoop(
        copilot.agent(agent_id),
        copilot.toolbox,
        hooks=sink.hooks(copilot.hooks),
        context=read_context,
        commit=commit,
        state_access=SessionStates(tab),
        session=Session(page=tab.page),
        emit=sink.emit,
        ask_person=True,
        limits=copilot.limits,
        attachment_bytes=attachment_bytes_for(owner, thread.id),
    )
    if keeper is not None:
        _kept_at_exit()
    return thread_runs.begin(claim, thread, loop, sink, tab, keeper)


async def run(tab: Tab, thread_run: thread_runs.ThreadRun, job: Work) -> AsyncIterator[Any]:
    """Run the turn in a task of its own (the tab already says it runs); yield what its sink sends to the browser
    until it is over."""
    task = asyncio.create_task(_run_turn(tab, thread_run, job))
    try:
        async for event in thread_run.sink.outbox():
            # Not to a closed tab (Reflex logs each), nor once the server was asked to stop (so what shows is what's kept).
            if tab.connected() and not _stop_signalled:
                yield event
        await task  # what the turn does after its last event for the browser: keeping the thread
    finally:
        if not task.done():  # the event itself was cancelled (the server stops): so is the turn
            task.cancel()


async def _run_turn(tab: Tab, thread_run: thread_runs.ThreadRun, job: Work) -> None:
    current_page.set(ThreadRunPage(thread_run))  # browser tools this turn runs (in tasks of this one) reach its tab
    keeping = asyncio.ensure_future(_keep_what_it_shows(thread_run)) if thread_run.keeper is not None else None
    try:
        await job(thread_run)
    except asyncio.CancelledError:  # the server is going down: the conversation is kept, marked as cut off
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
            await thread_runs.hand_over(thread_run, saved)


async def _keep_what_it_shows(thread_run: thread_runs.ThreadRun) -> None:
    """While the turn runs: its thread is kept every KEPT_EVERY seconds in which it showed new text (a reply, a
    call's arguments), so that a crash or a killed worker loses at most the words of the last KEPT_EVERY."""
    assert thread_run.keeper is not None
    kept = thread_run.sink.pieces_sent
    while True:
        await asyncio.sleep(KEPT_EVERY)
        if thread_run.sink.pieces_sent != kept:
            kept = thread_run.sink.pieces_sent
            thread_run.keeper.save(thread_run.thread, thread_run.sink.conversation, running=True)


def _keep_running_turns() -> None:
    """Keep each running turn's thread as it is now, every word shown included, its run cut off (the saves on their
    way land first)."""
    writes_land()
    for thread_run in thread_runs.all_running():
        if thread_run.keeper is not None:
            thread_run.keeper.save_now(thread_run.thread, thread_run.sink.conversation)


_exit_hook_in: set[int] = set()  # the processes whose turns are kept when they exit


def _kept_at_exit() -> None:
    """Have this process keep its turns when it is asked to stop and when it exits, once per process: a server's
    worker process (multiprocessing, as granian's are) exits without running `atexit`, and forgets the exit hooks its
    parent made before it was forked; multiprocessing's own exit hooks run in both, and in a plain process at
    `atexit`. A worker may be killed before it exits (dev mode's reload kills it 2 s after asking), hence the signal."""
    if os.getpid() not in _exit_hook_in:
        _exit_hook_in.add(os.getpid())
        multiprocessing.util.Finalize(None, _keep_running_turns, exitpriority=100)
        _keep_on_stop_signal(asyncio.get_running_loop())


def _keep_on_stop_signal(loop: asyncio.AbstractEventLoop) -> None:
    """Run `_keep_running_turns` first when the server's handler of SIGTERM or SIGINT on this loop runs (granian's
    and uvicorn's workers stop so); asyncio keeps a loop's handlers only in a private table, read with care."""
    handlers = getattr(loop, "_signal_handlers", None)
    if not isinstance(handlers, dict):
        return
    for stop in (signal.SIGTERM, signal.SIGINT):
        server_handler = handlers.get(stop)
        if isinstance(server_handler, asyncio.Handle):
            loop.add_signal_handler(stop, _kept_then, server_handler)


_stop_signalled = False  # this process was asked to stop: its turns were kept as they showed then


def _kept_then(server_handler: asyncio.Handle) -> None:
    global _stop_signalled
    _stop_signalled = True
    try:
        _keep_running_turns()
    finally:
        server_handler._run()  # pyright: ignore[reportPrivateUsage]


async def _not_running(tab: Tab) -> None:
    try:
        await tab.running(False)
    except Exception:
        logger.exception("could not reset the copilot's running state")


async def _read_context(tab: Tab, thread: Thread, sink: ViewSink, shared: SharedStates) -> list[Context]:
    """What the agent sees, read fresh from the page's states for every run (and its state, where shared)."""
    async with tab.locked():
        values = await page_context(tab)
        if shared:
            page: dict[str, Any] = {}
            for part in shared.parts:
                page |= part.read(await tab.page_state(part.state_type))
            thread.state = {**thread.state, **page} if isinstance(thread.state, dict) else page
            sink.shared_state_read()
    return values


async def page_context(tab: Tab) -> list[Context]:
    """What the agent sees of the page: each context provider's value, from the page's states (locked)."""
    values = []
    for provider in copilot.contexts:
        page_state = await tab.page_state(provider.state) if provider.state is not None else None
        values.append(Context(description=provider.description, value=provider.value(page_state)))
    return values

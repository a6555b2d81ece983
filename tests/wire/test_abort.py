"""Stopping a run: abort() ends iteration at once with AgentAborted and closes the connection, and only that run."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncGenerator

import pytest
from ag_ui.core import EventType

from copilot_ui.agents import AgentAborted, AgentRun, HttpAgent, HttpLimits
from copilot_ui.protocol import AGUIThread, EventPipeline

from ._misbehaving import TEXT_BEFORE_FAILURE, MisbehavingServer
from ._runs import RUN_TIMEOUT, outcome, run_input, thread_saying

NEVER_IDLE = HttpLimits(connect_timeout=0.5, idle_timeout=60)  # only an abort can end a silent run early
AT_ONCE = 1.0  # seconds: far longer than an abort takes, far shorter than any other way the run could end


class Listener:
    """Iterates a run in a task of its own, as the app does, applying its events to a thread."""

    def __init__(self, run: AgentRun, thread: AGUIThread) -> None:
        self.run = run
        self.thread = thread
        self.heard_text = asyncio.Event()
        self.task = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        pipeline = EventPipeline(self.thread)
        async for event in self.run:
            pipeline.feed(event)
            if event.type is EventType.TEXT_MESSAGE_CONTENT:
                self.heard_text.set()

    async def until_text(self) -> None:
        await asyncio.wait_for(self.heard_text.wait(), RUN_TIMEOUT)


async def test_abort_ends_a_silent_run_at_once_and_closes_its_connection(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/held"), limits=NEVER_IDLE)
    thread = thread_saying("hi")
    request = run_input(thread)
    listener = Listener(agent.run(request), thread)
    await listener.until_text()

    listener.run.abort()

    with pytest.raises(AgentAborted, match="the run was stopped"):
        await asyncio.wait_for(listener.task, AT_ONCE)
    await asyncio.wait_for(misbehaving.hung_up[request.run_id].wait(), AT_ONCE)
    assert thread.messages[-1].content == TEXT_BEFORE_FAILURE


async def test_abort_of_one_run_leaves_another_run_of_the_same_agent_going(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/held"), limits=NEVER_IDLE)
    stopped, going = thread_saying("first"), thread_saying("second")
    stopped_request, going_request = run_input(stopped), run_input(going)
    stopped_listener = Listener(agent.run(stopped_request), stopped)
    going_listener = Listener(agent.run(going_request), going)
    await stopped_listener.until_text()
    await going_listener.until_text()

    stopped_listener.run.abort()

    with pytest.raises(AgentAborted):
        await asyncio.wait_for(stopped_listener.task, AT_ONCE)
    await asyncio.wait_for(misbehaving.hung_up[stopped_request.run_id].wait(), AT_ONCE)
    assert not misbehaving.hung_up[going_request.run_id].is_set()
    assert not going_listener.task.done()
    misbehaving.release[going_request.run_id].set()
    await asyncio.wait_for(going_listener.task, RUN_TIMEOUT)
    assert going.messages[-1].content == "Hello world"
    assert outcome(going).kind == "success"


async def test_abort_right_after_the_run_starts_still_ends_it(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/held"), limits=NEVER_IDLE)
    thread = thread_saying("hi")
    listener = Listener(agent.run(run_input(thread)), thread)
    await asyncio.sleep(0)  # the listener starts iterating; the request has not gone out yet

    listener.run.abort()

    with pytest.raises(AgentAborted):
        await asyncio.wait_for(listener.task, AT_ONCE)


async def test_aborting_the_agent_stops_every_run_it_has_going(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/held"), limits=NEVER_IDLE)
    threads = [thread_saying("first"), thread_saying("second")]
    requests = [run_input(thread) for thread in threads]
    listeners = [Listener(agent.run(request), thread) for request, thread in zip(requests, threads, strict=True)]
    for listener in listeners:
        await listener.until_text()

    agent.abort()

    for listener, request in zip(listeners, requests, strict=True):
        with pytest.raises(AgentAborted):
            await asyncio.wait_for(listener.task, AT_ONCE)
        await asyncio.wait_for(misbehaving.hung_up[request.run_id].wait(), AT_ONCE)


async def test_abort_while_the_reader_handles_an_event_closes_the_run_in_the_readers_task(misbehaving: MisbehavingServer):
    agent = HttpAgent(misbehaving.url("/held"), limits=NEVER_IDLE)
    request = run_input(thread_saying("hi"))
    run = agent.run(request)

    async def stop_at_first_piece() -> None:
        async for event in run:
            if event.type is EventType.TEXT_MESSAGE_CONTENT:
                run.abort()  # Stop pressed while the turn shows this piece, not while it waits for the next

    with GarbageClosed() as closed_later:
        with pytest.raises(AgentAborted):
            await stop_at_first_piece()
        await asyncio.sleep(0.1)

    # Every step of the run was closed by the reader before it went on; none left for the garbage collector to close
    # in a task of its own, later.
    assert [name for name in closed_later.names if name.startswith("copilot_ui")] == []
    await asyncio.wait_for(misbehaving.hung_up[request.run_id].wait(), AT_ONCE)


class GarbageClosed:
    """The async generators the garbage collector finalizes (module and name) while the block runs."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self._hooks = sys.get_asyncgen_hooks()

    def __enter__(self) -> GarbageClosed:
        finalizer = self._hooks.finalizer

        def noted(generator: AsyncGenerator[object, None]) -> None:
            frame = generator.ag_frame  # (a generator the collector finalizes has not finished: its frame is there)
            self.names.append(f"{frame.f_globals.get('__name__') if frame else '?'}:{generator.__qualname__}")
            if finalizer is not None:
                finalizer(generator)

        sys.set_asyncgen_hooks(firstiter=self._hooks.firstiter, finalizer=noted)
        return self

    def __exit__(self, *_: object) -> None:
        sys.set_asyncgen_hooks(*self._hooks)

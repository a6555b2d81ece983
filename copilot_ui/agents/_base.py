"""The Agent interface: run a RunAgentInput, get AG-UI events; abort a run at once.

An agent only produces events. Verifying their order and applying them to a thread is the
caller's work (copilot_ui.protocol.EventPipeline), the same for every kind of agent.
"""

from __future__ import annotations

import asyncio
import contextlib
from abc import ABC, abstractmethod
from collections.abc import AsyncGenerator, AsyncIterator, Callable

from ag_ui.core import BaseEvent, RunAgentInput

from ..errors import AgentAborted


class Agent(ABC):
    """Something that answers a RunAgentInput with a stream of AG-UI events."""

    def __init__(self, agent_id: str = "default", description: str = "") -> None:
        self.agent_id = agent_id
        self.description = description
        self._runs: set[_Pump] = set()

    def run(self, run_input: RunAgentInput) -> AgentRun:
        """Start one run: iterate it for its events (errors are AgentError subclasses); abort() stops it."""
        pump = _Pump(self._events(run_input))
        # Known to abort() from its first step to its end; a run never iterated holds nothing open.
        return AgentRun(pump, pump.events(lambda: self._runs.add(pump), lambda: self._runs.discard(pump)))

    def secrets(self) -> list[str]:
        """The credentials this agent holds, which no person and no log may see (scrub with Scrubber(secrets)).

        Empty for an agent that holds none; HttpAgent names those of its URL and headers.
        """
        return []

    def abort(self) -> None:
        """Stop every run of this agent now (shutting down): connections close, streams end with AgentAborted."""
        for pump in list(self._runs):
            pump.abort()

    @abstractmethod
    def _events(self, run_input: RunAgentInput) -> AsyncIterator[BaseEvent]:
        """The events of one run, as the agent produces them."""


class AgentRun:
    """One run of an agent: an async iterator of its events that can be stopped at once."""

    def __init__(self, pump: _Pump, events: AsyncGenerator[BaseEvent, None]) -> None:
        self._pump = pump
        self._events = events

    def __aiter__(self) -> AsyncIterator[BaseEvent]:
        return self._events

    def abort(self) -> None:
        """Stop this run now: its connection closes and iterating it ends with AgentAborted."""
        self._pump.abort()

    async def aclose(self) -> None:
        """Stop the run if it still goes and release it (for a consumer that stops reading early)."""
        self._pump.abort()
        await self._events.aclose()


class _Pump:
    """Runs a producer in a task of its own, so that an abort reaches it even while it waits."""

    def __init__(self, source: AsyncIterator[BaseEvent]) -> None:
        self._source = source
        # The events, then None at the end or the exception that ended them.
        self._queue: asyncio.Queue[BaseEvent | Exception | None] = asyncio.Queue(maxsize=256)
        self._task: asyncio.Task[None] | None = None
        self._aborted = False

    def abort(self) -> None:
        self._aborted = True
        if self._task is not None:
            self._task.cancel()
        # Wakes the consumer itself: a producer cancelled before its first step never runs to wake it.
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)

    async def events(self, on_start: Callable[[], None], on_close: Callable[[], None]) -> AsyncGenerator[BaseEvent, None]:
        if self._aborted:
            raise AgentAborted()
        on_start()
        self._task = asyncio.create_task(self._produce())
        try:
            while True:
                item = await self._queue.get()
                if self._aborted:
                    raise AgentAborted()
                if item is None:
                    break
                if isinstance(item, Exception):
                    raise item
                yield item
        finally:
            on_close()
            if not self._task.done():
                self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _produce(self) -> None:
        try:
            async for event in self._source:
                await self._queue.put(event)
        except asyncio.CancelledError:
            # Wakes a consumer waiting on an empty queue; a full queue means it is not waiting.
            with contextlib.suppress(asyncio.QueueFull):
                self._queue.put_nowait(None)
            raise
        except Exception as error:  # the consumer re-raises it, after the events before it
            await self._queue.put(error)
            return
        await self._queue.put(None)

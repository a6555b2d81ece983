"""The Agent interface: run a RunAgentInput, get AG-UI events; abort a run at once.

An agent only produces events. Verifying their order and applying them to a thread is the
caller's work (copilot_ui.protocol.EventPipeline), the same for every kind of agent.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import AsyncGenerator, AsyncIterator

from ag_ui.core import BaseEvent, RunAgentInput

from ..errors import AgentAborted


class Agent(ABC):
    """Something that answers a RunAgentInput with a stream of AG-UI events."""

    def __init__(self, agent_id: str = "default", description: str = "") -> None:
        self.agent_id = agent_id
        self.description = description
        self._runs: set[AgentRun] = set()

    def run(self, run_input: RunAgentInput) -> AgentRun:
        """Start one run: iterate it for its events (errors are AgentError subclasses); abort() stops it."""
        return AgentRun(self._events(run_input), self._runs)

    def secrets(self) -> list[str]:
        """The credentials this agent holds, which no person and no log may see (scrub with Scrubber(secrets)).

        Empty for an agent that holds none; HttpAgent names those of its URL and headers.
        """
        return []

    def abort(self) -> None:
        """Stop every run of this agent now (shutting down): connections close, streams end with AgentAborted."""
        for run in list(self._runs):
            run.abort()

    @abstractmethod
    def _events(self, run_input: RunAgentInput) -> AsyncIterator[BaseEvent]:
        """The events of one run, as the agent produces them."""


class AgentRun:
    """One run of an agent: an async iterator of its events that can be stopped at once.

    The agent's events are read in the task that iterates the run, one by one as it asks (no task in between, no
    hop per event). abort() cancels that task while it waits for the agent, so a run stops even when it is silent;
    while the task does something else, the run ends when it asks for the next event.
    """

    def __init__(self, source: AsyncIterator[BaseEvent], runs: set[AgentRun]) -> None:
        self._source = source
        self._runs = runs  # the agent's runs going now: this one from its first step to its end
        self._aborted = False
        self._waiting: asyncio.Task[object] | None = None  # the task iterating, while it waits for the agent
        self._cancelled: asyncio.Task[object] | None = None  # the task abort() cancelled
        self._events = self._iterate()

    def __aiter__(self) -> AsyncIterator[BaseEvent]:
        return self._events

    def abort(self) -> None:
        """Stop this run now: its connection closes and iterating it ends with AgentAborted."""
        if self._aborted:
            return
        self._aborted = True
        if self._waiting is not None:
            self._cancelled = self._waiting
            self._waiting.cancel()

    async def aclose(self) -> None:
        """Stop the run if it still goes and release it (for a consumer that stops reading early)."""
        self.abort()
        await self._events.aclose()

    async def _iterate(self) -> AsyncGenerator[BaseEvent, None]:
        self._runs.add(self)
        try:
            while not self._aborted:
                task = self._waiting = asyncio.current_task()
                try:
                    event = await anext(self._source)
                except StopAsyncIteration:
                    break
                except asyncio.CancelledError:
                    if self._taken_back(task):  # this run's abort, and nothing else, cancelled the task
                        raise AgentAborted() from None
                    raise
                finally:
                    self._waiting = None
                if self._aborted:
                    self._taken_back(task)  # (the agent let the cancellation pass and went on)
                    break
                yield event
            if self._aborted:
                raise AgentAborted()
        finally:
            self._runs.discard(self)
            aclose = getattr(self._source, "aclose", None)
            if aclose is not None:
                await aclose()

    def _taken_back(self, task: asyncio.Task[object] | None) -> bool:
        """Take back the cancellation abort() asked of this task; whether no other was asked of it."""
        if task is None or self._cancelled is not task:
            return False
        self._cancelled = None
        return task.uncancel() == 0

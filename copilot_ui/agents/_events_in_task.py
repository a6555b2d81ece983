"""A pydantic-ai agent whose runs' events are read in the task that iterates them.

pydantic-ai's `run_stream_events` (which its AG-UI adapter runs) starts the agent in a task of its own and hands
each event over a memory stream: two task switches and anyio's locks per event. `EventsInTask` drives the same run
through `iter`, as pydantic-ai documents for streaming every event, so the adapter reads the model's pieces where
they are made. Pulling stays lazy: no event, no model call.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.agent import AbstractAgent, WrapperAgent
from pydantic_ai.run import AgentRunResultEvent


class EventsInTask(WrapperAgent[Any, Any]):
    """The wrapped agent, its `run_stream_events` run in the caller's task (everything else is the wrapped agent's)."""

    def run_stream_events(self, user_prompt: Any = None, **options: Any) -> Any:  # pyright: ignore[reportIncompatibleMethodOverride]
        # (a context manager, as pydantic-ai's: leaving it ends the run)
        return contextlib.aclosing(_events(self.wrapped, user_prompt, options))


async def _events(agent: AbstractAgent[Any, Any], user_prompt: Any, options: dict[str, Any]) -> AsyncGenerator[Any, None]:
    """Each node's events, then the run's result (as `run_stream_events` ends)."""
    async with agent.iter(user_prompt, **options) as run:
        async for node in run:
            if Agent.is_model_request_node(node) or Agent.is_call_tools_node(node):
                async with node.stream(run.ctx) as stream:
                    async for event in stream:
                        yield event
        assert run.result is not None, "the run ended without its result"  # (as pydantic-ai's own `run` asserts)
        yield AgentRunResultEvent(run.result)

"""LocalAgent: a pydantic-ai agent run in this process through pydantic-ai's AG-UI adapter, no HTTP hop.

pydantic-ai's adapter turns a failed run into RUN_ERROR with Python's view of the exception
(`status_code: 401, model_name: …, body: {…}`). A LocalAgent given `explain_error` asks it first:
the person reads its message instead (see copilot_ui.server's model errors). The adapter is pydantic-ai's, as
`_local_adapter` tunes it.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import TYPE_CHECKING, Any, cast

from ag_ui.core import BaseEvent, RunAgentInput

from ._base import Agent

if TYPE_CHECKING:
    from pydantic_ai import Agent as PydanticAgent

# (the exception that ended the run, whether part of a reply had arrived) → what the person reads; None keeps it as is.
ExplainError = Callable[[Exception, bool], str | None]


class LocalAgent(Agent):
    """Runs a pydantic-ai Agent on each RunAgentInput and streams its AG-UI events."""

    def __init__(
        self,
        agent: PydanticAgent[Any, Any],
        *,
        agent_id: str = "default",
        description: str = "",
        deps: Callable[[RunAgentInput], object] | None = None,
        explain_error: ExplainError | None = None,
    ) -> None:
        super().__init__(agent_id, description)
        self.agent = agent
        self._deps = deps
        self._explain_error = explain_error

    @property
    def model_name(self) -> str:
        """The name of the model that answers (e.g. "gpt-4o"), "" when the agent has none yet."""
        return str(getattr(self.agent.model, "model_name", "") or "")

    async def _events(self, run_input: RunAgentInput) -> AsyncIterator[BaseEvent]:
        from pydantic_ai.ui import StateHandler

        from ._events_in_task import EventsInTask
        from ._local_adapter import LocalAdapter

        self._run_starts(run_input)
        deps = self._deps(run_input) if self._deps is not None else None
        if run_input.state and not isinstance(deps, StateHandler):  # (pydantic-ai would ignore it, warning every run)
            run_input = run_input.model_copy(update={"state": {}})
        adapter = LocalAdapter(
            agent=EventsInTask(self.agent), run_input=run_input, accept="text/event-stream", explain_error=self._explain_error
        )
        # (closed here when the run is stopped between two events: left to the garbage collector, pydantic-ai's run
        # would end in another task, whose cancel scope then cancels this one)
        run = cast(AsyncGenerator[BaseEvent, None], adapter.run_stream(deps=deps, instructions=context_instructions(run_input)))
        async with contextlib.aclosing(run) as events:  # (pydantic-ai's run_stream is an async generator)
            async for event in events:
                yield event

    def _run_starts(self, run_input: RunAgentInput) -> None:
        """A run starts, in the task that reads its events (a subclass sets what its tools read there)."""


def context_instructions(run_input: RunAgentInput) -> str | None:
    """The page's context as instructions for the model (pydantic-ai's adapter does not pass it on)."""
    if not run_input.context:
        return None
    lines = [f"- {item.description}: {item.value}" for item in run_input.context]
    return "What the page shows now (read fresh for this request):\n" + "\n".join(lines)

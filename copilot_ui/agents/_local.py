"""LocalAgent: a pydantic-ai agent run in this process through pydantic-ai's AG-UI adapter, no HTTP hop."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING, Any

from ag_ui.core import BaseEvent, RunAgentInput

from ._base import Agent

if TYPE_CHECKING:
    from pydantic_ai import Agent as PydanticAgent


class LocalAgent(Agent):
    """Runs a pydantic-ai Agent on each RunAgentInput and streams its AG-UI events."""

    def __init__(
        self,
        agent: PydanticAgent[Any, Any],
        *,
        agent_id: str = "default",
        description: str = "",
        deps: Callable[[RunAgentInput], Any] | None = None,
    ) -> None:
        super().__init__(agent_id, description)
        self.agent = agent
        self._deps = deps

    async def _events(self, run_input: RunAgentInput) -> AsyncIterator[BaseEvent]:
        from pydantic_ai.ui.ag_ui import AGUIAdapter

        adapter = AGUIAdapter(agent=self.agent, run_input=run_input, accept="text/event-stream")
        deps = self._deps(run_input) if self._deps is not None else None
        async for event in adapter.run_stream(deps=deps, instructions=context_instructions(run_input)):
            yield event


def context_instructions(run_input: RunAgentInput) -> str | None:
    """The page's context as instructions for the model (pydantic-ai's adapter does not pass it on)."""
    if not run_input.context:
        return None
    lines = [f"- {item.description}: {item.value}" for item in run_input.context]
    return "What the page shows now (read fresh for this request):\n" + "\n".join(lines)

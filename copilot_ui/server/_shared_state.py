"""The state an agent shares with the page, on the agent's side: shown to the model, changed by tools as they work.

The page sends its state with every run (RunAgentInput.state); pydantic-ai's adapter puts it in
`StateDeps.state`. The model reads it in one line of its instructions, written fresh for each
request, and a tool changes it by emitting AG-UI state events while it runs, which the adapter
streams to the page at once (a ToolReturn's metadata would only reach it when the tool is done).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ag_ui.core import BaseEvent, StateDeltaEvent
from pydantic import BaseModel
from pydantic_ai import CustomEvent, RunContext

from ..protocol._json import JSONObject

SHARED_STATE = "The state you share with the page (the person may have edited it)"


def shared_state_instructions(state: BaseModel) -> str:
    """The instructions line that shows the model the shared state, in the shape of a context line."""
    return f"- {SHARED_STATE}: {state.model_dump_json()}"


async def emit_state_delta(ctx: RunContext[Any], patch: list[JSONObject]) -> None:
    """Send the page a STATE_DELTA (an RFC 6902 JSON Patch on the shared state) now, while the tool runs."""
    await ctx.emit(AGUIEventNow(event=StateDeltaEvent.model_validate({"delta": patch})))  # the operations from their dicts


@dataclass(kw_only=True, repr=False)
class AGUIEventNow(CustomEvent, name="copilot_ui.agui_event"):
    """An AG-UI event a tool sends while it works; pydantic-ai's AG-UI adapter passes it through as it is."""

    event: BaseEvent

    def to_payload(self) -> BaseEvent:
        return self.event

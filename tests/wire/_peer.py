"""The peer agent server of the wire tests: a pydantic-ai Agent served over AG-UI by pydantic-ai's own adapter.

Only the language model is a stand-in: a FunctionModel whose stream function decides from the
history, as a model would, and records every history it was shown.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from ag_ui.core import StateDeltaEvent, StateSnapshotEvent
from pydantic import BaseModel
from pydantic_ai import Agent, DeferredToolRequests, RunContext, ToolReturn
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart, UserPromptPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel
from pydantic_ai.ui import StateDeps

from copilot_ui.agents import HttpAgent, HttpLimits

from ._servers import RecordedRequest

AUTHORIZATION = "Bearer wire-test-secret-7f3a"  # a credential the app would configure
FRONTEND_CALL_ID = "call_frontend_1"
COUNTER_CALL_ID = "call_counter_1"
DELETE_CALL_ID = "call_delete_1"


class Counter(BaseModel):
    """The state the page shares with the peer."""

    counter: int = 0


@dataclass
class ScriptedModel:
    """Where a language model would be: scripted replies, and the histories it was shown."""

    seen: list[list[ModelMessage]] = field(default_factory=list)

    async def stream(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls]:
        self.seen.append(list(messages))
        returns = [part for part in _last_request(messages).parts if isinstance(part, ToolReturnPart)]
        if returns:
            for piece in _pieces(f"Result received from {returns[0].tool_name}: {returns[0].model_response_str()}", 8):
                yield piece
            return
        prompt = _last_prompt(messages)
        frontend = [tool for tool in info.function_tools if tool.kind == "external"]
        if "counter" in prompt:
            yield _call("increment_counter", '{"by": 1}', COUNTER_CALL_ID)
        elif "delete" in prompt:
            yield _call("delete_file", '{"path": "notes.txt"}', DELETE_CALL_ID)
        elif frontend:
            yield "Let me look that up."
            yield _call(frontend[0].name, '{"city": "Paris"}', FRONTEND_CALL_ID)
        else:
            for piece in _pieces(f"Echo: {prompt}", 4):
                yield piece

    def tool_returns(self) -> list[ToolReturnPart]:
        """Every tool return the model was shown, over all runs."""
        return [
            part
            for history in self.seen
            for message in history
            if isinstance(message, ModelRequest)
            for part in message.parts
            if isinstance(part, ToolReturnPart)
        ]


@dataclass
class Peer:
    """The pydantic-ai peer, served: where it answers, its stand-in model, and the requests it received."""

    url: str
    model: ScriptedModel
    requests: list[RecordedRequest]

    def agent(self) -> HttpAgent:
        """An HttpAgent to the peer, sending a credential the way an app configures one."""
        return HttpAgent(self.url, headers={"Authorization": AUTHORIZATION}, limits=HttpLimits(connect_timeout=5, idle_timeout=5))


def peer_agent(model: ScriptedModel) -> Agent[StateDeps[Counter], str | DeferredToolRequests]:
    """The agent: a backend tool that changes the shared state, and one that needs a person's approval."""
    agent = Agent(
        FunctionModel(stream_function=model.stream),
        deps_type=StateDeps[Counter],
        output_type=[str, DeferredToolRequests],
    )

    @agent.tool
    def increment_counter(ctx: RunContext[StateDeps[Counter]], by: int) -> ToolReturn:
        """Add to the counter the page shows."""
        ctx.deps.state.counter += by
        counter = ctx.deps.state.counter
        return ToolReturn(
            return_value=f"counter is now {counter}",
            metadata=[
                StateSnapshotEvent(snapshot={"counter": counter}),
                StateDeltaEvent(delta=[{"op": "add", "path": "/lastTool", "value": "increment_counter"}]),
            ],
        )

    @agent.tool_plain(requires_approval=True)
    def delete_file(path: str) -> str:
        """Delete a file (asks first)."""
        return f"deleted {path}"

    return agent


def _call(name: str, arguments: str, call_id: str) -> DeltaToolCalls:
    return {0: DeltaToolCall(name=name, json_args=arguments, tool_call_id=call_id)}


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def _last_request(messages: list[ModelMessage]) -> ModelRequest:
    return next(message for message in reversed(messages) if isinstance(message, ModelRequest))


def _last_prompt(messages: list[ModelMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, ModelRequest):
            for part in reversed(message.parts):
                if isinstance(part, UserPromptPart) and isinstance(part.content, str):
                    return part.content
    return ""

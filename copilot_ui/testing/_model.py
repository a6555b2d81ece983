"""The model of a test: the app's own built-in agent runs on it, its responses scripted in a few words.

A pydantic-ai FunctionModel whose next responses are written as `says`, `calls` and `calls_all`, one model request
each, in the order they come. A backend tool's call (or an MCP server's) is answered in the agent, and the next
response follows in the same run; a page's tool ends the run, and the next response comes in the run after its
result. It records what each request showed the model: the tools offered, the instructions, the messages.
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass

from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from ..protocol._json import JSON, JSONObject


@dataclass(frozen=True)
class Request:
    """What one request showed the model."""

    messages: list[ModelMessage]
    info: AgentInfo


class ScriptedModel(FunctionModel):
    """A model whose next responses are scripted: `copilot.model.calls("save_note", text="…").says("Noted.")`.

    A request with no script left fails, and the conversation shows the error.
    """

    def __init__(self) -> None:
        super().__init__(self._respond, stream_function=self._stream, model_name="scripted")
        self.scripts: deque[tuple[TextPart | ToolCallPart, ...]] = deque()
        self.requests: list[Request] = []
        self._call_ids = itertools.count(1)

    def says(self, text: str) -> ScriptedModel:
        """The next response is this text."""
        self.scripts.append((TextPart(text),))
        return self

    def calls(self, tool: str, /, **arguments: JSON) -> ScriptedModel:
        """The next response calls this tool with these arguments."""
        return self.calls_all((tool, arguments))

    def calls_all(self, *calls: tuple[str, JSONObject]) -> ScriptedModel:
        """The next response calls several tools at once: `calls_all(("a", {...}), ("b", {...}))`."""
        parts = (ToolCallPart(tool, arguments, tool_call_id=f"call_{next(self._call_ids)}") for tool, arguments in calls)
        self.scripts.append(tuple(parts))
        return self

    @property
    def offered_tools(self) -> list[str]:
        """The names of the tools offered on the last request: the page's, the agent's own, its toolsets'."""
        return [tool.name for tool in self._last.info.function_tools]

    @property
    def instructions(self) -> str:
        """The instructions of the last request (the page's context and the shared state are in them)."""
        return self._last.info.instructions or ""

    @property
    def unused(self) -> int:
        """Scripted responses not used yet."""
        return len(self.scripts)

    @property
    def _last(self) -> Request:
        if not self.requests:
            raise AssertionError("the model was not asked")
        return self.requests[-1]

    def _next(self, messages: list[ModelMessage], info: AgentInfo) -> tuple[TextPart | ToolCallPart, ...]:
        self.requests.append(Request(list(messages), info))
        if not self.scripts:
            raise RuntimeError(f"the scripted model has no response for request {len(self.requests)}")
        return self.scripts.popleft()

    def _respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        return ModelResponse(parts=list(self._next(messages, info)))

    async def _stream(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls]:
        for index, part in enumerate(self._next(messages, info)):
            if isinstance(part, TextPart):
                yield part.content
            else:
                yield {index: DeltaToolCall(part.tool_name, json.dumps(part.args), tool_call_id=part.tool_call_id)}

"""The built-in agent's tool results, scrubbed of the environment's secrets before the model reads them.

A backend tool is the app's code on the server, and what it returns may quote a key it holds (a URL with `?key=…`):
the model's provider would read it, and the thread and its store would keep it. The page gets it scrubbed anyway;
this keeps it from the others too, as the run loop does for the page's tools.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pydantic_ai import RunContext, ToolReturn
from pydantic_ai.capabilities import AbstractCapability, ValidatedToolArgs, WrapToolExecuteHandler
from pydantic_ai.exceptions import ToolFailedError, ToolRetryError
from pydantic_ai.messages import ToolCallPart
from pydantic_ai.tools import ToolDefinition

from ..agents import Scrubber, environment_secrets, scrubber_for


@dataclass
class ScrubToolResults(AbstractCapability[Any]):
    """Each result of a tool the agent runs itself, scrubbed of the environment's secrets (read at each call): what
    it returns, and what it says when it asks the model to try again (`ModelRetry`) or fails (`ToolFailed`)."""

    async def wrap_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: ValidatedToolArgs,
        handler: WrapToolExecuteHandler,
    ) -> Any:
        try:
            return await handler(args)
        except ToolRetryError as retry:
            part = retry.tool_retry
            raise ToolRetryError(replace(part, content=scrubbed(part.content, self._scrubber()))) from None
        except ToolFailedError as failure:
            part = failure.tool_failed
            raise ToolFailedError(replace(part, content=scrubbed(part.content, self._scrubber()))) from None

    async def after_tool_execute(
        self, ctx: RunContext[Any], *, call: ToolCallPart, tool_def: ToolDefinition, args: ValidatedToolArgs, result: Any
    ) -> Any:
        scrubber = self._scrubber()
        if isinstance(result, ToolReturn):  # (a copy: the tool's own object may be one it keeps)
            return replace(result, return_value=scrubbed(result.return_value, scrubber))
        return scrubbed(result, scrubber)

    @staticmethod
    def _scrubber() -> Scrubber:
        return scrubber_for(environment_secrets())


def scrubbed(value: object, scrubber: Scrubber) -> object:
    """The value with every text in it scrubbed (texts, lists and dicts of them; anything else as it is)."""
    if isinstance(value, str):
        return scrubber.scrub(value)
    if isinstance(value, list):
        return [scrubbed(item, scrubber) for item in value]
    if isinstance(value, dict):
        return {key: scrubbed(item, scrubber) for key, item in value.items()}
    return value

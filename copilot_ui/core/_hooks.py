"""Hooks: the one place to intercept a run. Each may stop the run; tool hooks may block, rewrite or replace.

    before_run(thread)                 -> None | Stop
    after_run(thread, outcome)         -> None
    before_agent_call(run_input)       -> None | RunAgentInput (a replacement) | Stop
    after_agent_call(run_input, thread) -> None | Stop
    before_tool(call)                  -> None | Block | Rewrite | Stop
    after_tool(call, result)           -> None | Replace | Stop
    on_event(event)                    -> None | Stop      (every AG-UI event applied to the thread)

A hook may be sync or async. A tool hook that raises becomes that call's error result; a run
hook that raises ends the run with an error; neither crashes the loop.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Stop:
    """End the run now (every call still gets a result)."""

    reason: str = "stopped by a hook"


@dataclass(frozen=True)
class Block:
    """Do not run this call; `reason` becomes its error result."""

    reason: str


@dataclass(frozen=True)
class Rewrite:
    """Run this call with these arguments instead."""

    arguments: dict[str, Any]


@dataclass(frozen=True)
class Replace:
    """Use this as the call's result instead."""

    result: Any
    is_error: bool = False


@dataclass(frozen=True)
class CallInfo:
    """A tool call as hooks see it."""

    call_id: str
    tool_name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ToolResult:
    """A call's result as after_tool sees it."""

    content: str
    is_error: bool


Hook = Callable[..., Any]


@dataclass
class Hooks:
    """Lists of hooks, called in order; the first that decides something wins."""

    before_run: list[Hook] = field(default_factory=list)
    after_run: list[Hook] = field(default_factory=list)
    before_agent_call: list[Hook] = field(default_factory=list)
    after_agent_call: list[Hook] = field(default_factory=list)
    before_tool: list[Hook] = field(default_factory=list)
    after_tool: list[Hook] = field(default_factory=list)
    on_event: list[Hook] = field(default_factory=list)

    async def call(self, name: str, *args: Any) -> Any:
        """Call the hooks of one kind; returns the first answer that is not None."""
        for hook in getattr(self, name):
            answer = hook(*args)
            if inspect.isawaitable(answer):
                answer = await answer
            if answer is not None:
                return answer
        return None

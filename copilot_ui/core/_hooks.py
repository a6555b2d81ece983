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

from ..protocol._json import JSONObject


@dataclass(frozen=True)
class Stop:
    """End the run now (every call still gets a result)."""

    reason: str = "stopped by a hook"
    """Why the run stopped (the server log says it)."""


@dataclass(frozen=True)
class Block:
    """Do not run this call; `reason` becomes its error result."""

    reason: str
    """Why: the call's error result says `blocked: <reason>`, and the agent reads it."""


@dataclass(frozen=True)
class Rewrite:
    """Run this call with these arguments instead."""

    arguments: JSONObject
    """The arguments the tool runs with (not validated again: a hook is the app's own code)."""


@dataclass(frozen=True)
class Replace:
    """Use this as the call's result instead."""

    result: object
    """The result the agent gets (text, or anything JSON can carry)."""
    is_error: bool = False
    """Whether it is an error result."""


@dataclass(frozen=True)
class CallInfo:
    """A tool call as hooks see it."""

    call_id: str
    """The agent's id of the call."""
    tool_name: str
    """The tool called."""
    arguments: JSONObject
    """The call's arguments, as the tool would run with them."""


@dataclass(frozen=True)
class ToolResult:
    """A call's result as after_tool sees it."""

    content: str
    """The result's text, as the agent reads it."""
    is_error: bool
    """Whether the call failed."""


Hook = Callable[..., object]


@dataclass
class Hooks:
    """Lists of hooks, called in order; the first that decides something wins."""

    before_run: list[Hook] = field(default_factory=list[Hook])
    """`(thread) -> None | Stop`: when a turn starts."""
    after_run: list[Hook] = field(default_factory=list[Hook])
    """`(thread, outcome) -> None`: after the turn, whatever its end."""
    before_agent_call: list[Hook] = field(default_factory=list[Hook])
    """`(run_input) -> None | RunAgentInput | Stop`: before each agent run; may replace what is sent."""
    after_agent_call: list[Hook] = field(default_factory=list[Hook])
    """`(run_input, thread) -> None | Stop`: after each agent run."""
    before_tool: list[Hook] = field(default_factory=list[Hook])
    """`(call) -> None | Block | Rewrite | Stop`: a call with valid arguments, before it runs or asks for approval."""
    after_tool: list[Hook] = field(default_factory=list[Hook])
    """`(call, result) -> None | Replace | Stop`: after a call has its result."""
    on_event: list[Hook] = field(default_factory=list[Hook])
    """`(event) -> None | Stop`: for every AG-UI event applied to the thread."""

    async def call(self, name: str, *args: object) -> object:
        """Call the hooks of one kind; returns the first answer that is not None."""
        for hook in getattr(self, name):
            answer = hook(*args)
            if inspect.isawaitable(answer):
                answer = await answer
            if answer is not None:
                return answer
        return None

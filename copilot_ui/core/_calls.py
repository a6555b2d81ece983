"""Preparing a tool call to run: parse its arguments, find its tool, validate, ask whether a person must decide.

Each step either lets the call go on or answers it at once with an error result the agent can
read and correct, so that a call never fails silently and never runs with arguments that do not
fit its tool.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, Union

from ag_ui.core import ToolCall

from ._context import Session
from ._decisions import Answer, Approve, Decision, Deny
from ._results import result_text
from ._toolbox import Toolbox
from ._tools import ArgumentsInvalid, Tool


@dataclass(frozen=True)
class Ready:
    """The call may run: its tool, the handler's keyword arguments and the arguments as sent."""

    tool: Tool
    kwargs: dict[str, Any]
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Answered:
    """The call is answered without running: an error, a denial, or a person's answer."""

    content: str
    is_error: bool
    status: Literal["complete", "error", "denied"]
    tool: Tool | None = None
    arguments: dict[str, Any] | None = None


@dataclass(frozen=True)
class Waiting:
    """The call waits for a person: approval before it runs, or their answer."""

    tool: Tool
    arguments: dict[str, Any]
    kind: Literal["approval", "input"]


Prepared = Union[Ready, Answered, Waiting]


def parse_arguments(call: ToolCall) -> dict[str, Any]:
    """The call's arguments as an object: "", null or nothing mean {}; anything else must be a JSON object.

    Raises ValueError with a message naming the tool and the problem.
    """
    raw = call.function.arguments
    if raw is None or not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"the arguments of {call.function.name} are not valid JSON ({error.msg} at character {error.pos}); "
            "send them again as one JSON object, with quotes and newlines escaped"
        ) from None
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"the arguments of {call.function.name} must be a JSON object, not {_json_type(value)}")
    return value


def signature(call: ToolCall, arguments: dict[str, Any]) -> str:
    """Name and canonical arguments: two calls with the same signature do the same thing."""
    return call.function.name + "\x00" + json.dumps(arguments, sort_keys=True, separators=(",", ":"), default=str)


def prepare(
    call: ToolCall,
    arguments: dict[str, Any],
    *,
    toolbox: Toolbox,
    agent_id: str,
    session: Session,
    decision: Decision | None,
    ask_person: bool,
) -> Prepared:
    """Find the call's tool, validate its arguments, and apply the approval policy and the person's decision."""
    name = call.function.name
    tool = toolbox.find(name, agent_id)
    if tool is None:
        offered = ", ".join(toolbox.names(agent_id, session)) or "none"
        return Answered(f"Unknown tool {name!r}. The tools available are: {offered}.", True, "error")
    if not tool.is_available(session):
        return Answered(f"Tool {name!r} is not available here (page {session.page}).", True, "error", tool)
    if isinstance(decision, Deny):
        return Answered(_denied(decision.reason), True, "denied", tool, arguments)
    if tool.kind == "human":
        return _human(tool, arguments, decision, ask_person)
    if isinstance(decision, Approve) and decision.arguments is not None:
        arguments = decision.arguments
    try:
        if tool.prepare_arguments is not None:
            arguments = tool.prepare_arguments(dict(arguments))
        kwargs = tool.validate(arguments)
    except ArgumentsInvalid as invalid:
        return Answered(str(invalid), True, "error", tool, arguments)
    except Exception as error:  # a repair step that fails is an error result, like any other
        return Answered(f"could not prepare the arguments of {name}: {describe_error(error)}", True, "error", tool, arguments)
    if isinstance(decision, Approve):
        return Ready(tool, kwargs, arguments)
    try:
        needs_approval = tool.needs_approval(arguments)
    except Exception as error:
        return Answered(f"the approval policy of {name} failed: {describe_error(error)}", True, "error", tool, arguments)
    if needs_approval:
        if not ask_person:
            return Answered(_denied("no person could be asked to approve this call"), True, "denied", tool, arguments)
        return Waiting(tool, arguments, "approval")
    return Ready(tool, kwargs, arguments)


def _human(tool: Tool, arguments: dict[str, Any], decision: Decision | None, ask_person: bool) -> Prepared:
    try:
        tool.validate(arguments)
    except ArgumentsInvalid as invalid:
        return Answered(str(invalid), True, "error", tool, arguments)
    if isinstance(decision, Answer):
        return Answered(result_text(decision.value), False, "complete", tool, arguments)
    if not ask_person:
        return Answered(f"{tool.name} needs a person's answer, and no person can be asked here", True, "error", tool, arguments)
    return Waiting(tool, arguments, "input")


def _denied(reason: str) -> str:
    return f"denied by the user: {reason}" if reason else "denied by the user"


def describe_error(error: BaseException) -> str:
    """An exception as the text of an error result."""
    text = str(error)
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _json_type(value: Any) -> str:
    return {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}.get(type(value), "that")

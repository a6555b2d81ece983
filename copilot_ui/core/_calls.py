"""A tool call as the loop sees it: its arguments parsed, its signature, and what preparing it decided.

A prepared call is one of three values: Ready (it may run), Answered (it has its result without
running: an error, a denial, a person's answer) or Waiting (a person must decide first).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal, Union

from ag_ui.core import ToolCall

from ..agents import Scrubber
from ..protocol._json import JSON, JSONObject
from ._tools import Tool

AnsweredStatus = Literal["complete", "error", "denied", "skipped", "aborted"]


@dataclass(frozen=True)
class Ready:
    """The call may run: its tool, the handler's keyword arguments and the arguments as shown."""

    tool: Tool
    kwargs: dict[str, object]
    arguments: JSONObject


@dataclass(frozen=True)
class Answered:
    """The call has its result without running: an error, a denial, or a person's answer."""

    content: str
    is_error: bool
    status: AnsweredStatus
    tool: Tool | None = None


@dataclass(frozen=True)
class Waiting:
    """The call waits for a person: approval before it runs, or their answer; bound to its digest."""

    tool: Tool
    arguments: JSONObject  # as the person is shown them (repaired, validated, rewritten by hooks)
    kwargs: dict[str, object]
    kind: Literal["approval", "input"]
    digest: str


Prepared = Union[Ready, Answered, Waiting]


def parse_arguments(call: ToolCall) -> JSONObject:
    """The call's arguments as an object: "", null or nothing mean {}; anything else must be a JSON object.

    Raises ValueError with a message naming the tool and the problem.
    """
    raw = call.function.arguments
    if not raw.strip():
        return {}
    try:
        value: JSON = json.loads(raw)
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


def signature(call: ToolCall) -> str:
    """Name and canonical arguments (their text when they are not JSON): equal signatures do the same thing."""
    try:
        arguments: JSON = parse_arguments(call)
    except ValueError:
        arguments = call.function.arguments
    return call.function.name + "\x00" + canonical_json(arguments)


def canonical_json(value: object) -> str:
    """One text for equal values: keys sorted, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def describe_error(error: BaseException, scrubber: Scrubber) -> str:
    """An exception as the text of an error result (the message only; the traceback goes to the log), scrubbed: it
    may quote a secret (a key in a URL), and the card, the store and the agent, and so its model's provider, get it."""
    text = scrubber.scrub(str(error))
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _json_type(value: JSON) -> str:
    names: dict[type, str] = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return names.get(type(value), "that")

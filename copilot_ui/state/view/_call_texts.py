"""What a tool call and an activity read as: for the person (arguments, question, result, as text) and for an app's
own card (its data, bounded)."""

from __future__ import annotations

import json
from typing import Any

from ag_ui.core import ActivityMessage, ToolCall, ToolMessage

from ...core import Thread, parse_arguments, unused_answer
from ..declarations import ACTIVITY, copilot

RENDERED_FIELD_LIMIT = 4000  # characters of a result or an argument given to an app's tool renderer
RENDERED_ITEMS_LIMIT = 200  # entries of a list (or an object) given to an app's renderer


# pydantic-ai's outcomes, as a card's status
AGENT_OUTCOMES: dict[str | None, str] = {"failed": "error", "denied": "denied", "interrupted": "aborted"}


def agent_outcome(result: ToolMessage) -> str:
    """How a call the agent ran itself (a backend or MCP tool) ended: AG-UI's tool result has no outcome, so
    pydantic-ai puts a failure in the result message's encrypted_value, under its own key; anything else is done."""
    try:
        claim = json.loads(result.encrypted_value or "{}").get("pydantic_ai") or {}
    except (ValueError, AttributeError):
        return "complete"
    return AGENT_OUTCOMES.get(claim.get("outcome"), "complete") if isinstance(claim, dict) else "complete"


def result_for_person(result: str) -> str:
    """A call's result as the person reads it: the agent's own, but for an answer of theirs that could not be used,
    which is said in the app's labels (the agent reads why, in the result)."""
    answered = unused_answer(result)
    if answered is None:
        return result
    return copilot.labels.said("answer_not_used", answer=answered if len(answered) <= 200 else answered[:200] + "…")


def shown_arguments(thread: Thread, call: ToolCall) -> dict[str, Any] | None:
    """The arguments a waiting call is put to the person with: the ones it will run with, which a tool's
    prepare_arguments or a before_tool hook may have changed from the agent's (None: the call does not wait)."""
    waiting = getattr(thread, "awaiting", {}).get(call.id)
    return dict(waiting.arguments) if waiting is not None else None


def drawn_by_app(tool_name: str, rendered: frozenset[str]) -> bool:
    """Whether an app's renderer draws this tool's calls (one for its name, or the wildcard)."""
    return tool_name in rendered or "*" in rendered


def drawn_activity(activity_type: str, rendered: frozenset[str]) -> bool:
    """Whether an app's renderer draws activities of this type (one for the type, or the wildcard)."""
    return ACTIVITY + activity_type in rendered or ACTIVITY + "*" in rendered


def activity_text(message: ActivityMessage) -> str:
    """An activity's content as a person reads it where no app draws it: indented JSON."""
    return pretty_json(message.content)


def bounded_json(value: Any) -> Any:
    """A JSON value for an app's card, bounded: long strings cut, long lists and objects shortened."""
    if isinstance(value, str):
        return bounded(value)
    if isinstance(value, list):
        return [bounded_json(entry) for entry in value[:RENDERED_ITEMS_LIMIT]]
    if isinstance(value, dict):
        return {str(key): bounded_json(entry) for key, entry in list(value.items())[:RENDERED_ITEMS_LIMIT]}
    return value


def arguments_text(call: ToolCall) -> str:
    """A call's arguments as a person reads them: pretty JSON, or the raw text when it is not valid JSON."""
    try:
        return pretty_json(parse_arguments(call))
    except ValueError:
        return call.function.arguments


def question_of(thread: Thread, call: ToolCall) -> str:
    """What a waiting call asks the person: the agent's message, or the call's question, or its arguments."""
    waiting = getattr(thread, "awaiting", {}).get(call.id)
    if waiting is not None and waiting.message:
        return waiting.message
    try:
        arguments = parse_arguments(call)
    except ValueError:
        return call.function.arguments
    for key in ("question", "prompt", "message"):
        if isinstance(asked := arguments.get(key), str):
            return asked
    return pretty_json(arguments)


def pretty_json(value: Any) -> str:
    """JSON indented for people."""
    return json.dumps(value, indent=2, ensure_ascii=False, default=str)


def json_or_none(text: str) -> Any:
    """A result's JSON value for an app's card (None when it is not JSON, or was cut)."""
    try:
        return json.loads(text)
    except ValueError:
        return None


def bounded(value: Any) -> Any:
    if isinstance(value, str) and len(value) > RENDERED_FIELD_LIMIT:
        return value[:RENDERED_FIELD_LIMIT] + "…"
    return value

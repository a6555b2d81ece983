"""A call's result: a handler's return value as text, and recording it, the one way a call gets its result.

recording writes the result after the call's assistant message (in call order), uses up what
waited on the call (Thread._index), books what the result asks of the turn (a follow-up, the end
of the run, nothing), and tells subscribers how the call ended.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable, Iterable
from typing import Literal, cast

from ag_ui.core import ToolCall, ToolCallResultEvent
from pydantic import BaseModel

from ._events import Event, ToolExecutionEnded
from ._thread import Thread
from ._tools import Tool

Notify = Callable[[Event], Awaitable[None]]
Status = Literal["complete", "error", "denied", "skipped", "aborted"]


def result_text(value: object) -> str:
    """The text the agent reads for a handler's return value: None → "", str as is, models and data → JSON."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, BaseModel):
        return value.model_dump_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return json.dumps(dataclasses.asdict(value), default=str, ensure_ascii=False)
    try:
        return json.dumps(value, default=_jsonable, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def ended_by_agent(event: ToolCallResultEvent, thread: Thread) -> ToolExecutionEnded:
    """A result the agent sent (its own tool's, run on its side), as the loop says a call of this side ended: for
    subscribers that show both alike."""
    call = thread.tool_call(event.tool_call_id)
    content = event.content if isinstance(event.content, str) else result_text(event.content)
    return ToolExecutionEnded(event.tool_call_id, call.function.name if call else "", content, False)


def error_text(message: str) -> str:
    """The text of an error result (CopilotKit's form, which agents already understand)."""
    return f"Error: {message}"


ANSWER_NOT_USED = "the person's answer could not be used"


def answer_not_used(problem: str, answer: object) -> str:
    """The error result of a question whose answer could not be used: why, for the agent, and what the person said."""
    return error_text(f"{ANSWER_NOT_USED} ({problem}); they answered: {result_text(answer)}")


def unused_answer(result: str) -> str | None:
    """What the person answered, when this result says their answer could not be used (None for any other result)."""
    if not result.startswith(error_text(ANSWER_NOT_USED)):
        return None
    return result.rpartition("; they answered: ")[2]


async def record_result(
    thread: Thread, notify: Notify, call: ToolCall, tool: Tool | None, content: str, is_error: bool, status: Status
) -> None:
    """Give the call its result (a second result for a call is never written) and say so."""
    text = error_text(content) if is_error and not content.startswith("Error") else content
    written = thread.add_tool_result(call.id, text, error=content if is_error else None)
    if written is None:  # the call's message left the thread meanwhile: written nowhere, asks nothing
        shown_status = "dropped"
    else:
        shown_status = status
        thread.turn.batch[call.id] = _wish(tool, is_error)
    await notify(ToolExecutionEnded(call.id, call.function.name, text, is_error, shown_status))  # type: ignore[arg-type]


def _wish(tool: Tool | None, is_error: bool) -> str:
    """What a result asks of the turn: an error is always shown to the agent; a tool says the rest."""
    if tool is not None and tool.completes_run and not is_error:
        return "complete_run"
    if is_error or tool is None or tool.follow_up:
        return "follow_up"
    return "quiet"


def _jsonable(value: object) -> object:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(cast("Iterable[object]", value))  # isinstance cannot tell their elements' type
    return str(value)

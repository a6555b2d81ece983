"""Builders of scripted runs for ScriptedAgent: the event lists an AG-UI server would send."""

from __future__ import annotations

import json

from ag_ui.core import (
    BaseEvent,
    Interrupt,
    RunErrorEvent,
    RunFinishedEvent,
    RunFinishedInterruptOutcome,
    RunFinishedOutcome,
    RunFinishedSuccessOutcome,
    RunStartedEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)

from ..protocol import new_id
from ..protocol._json import JSON


def run(
    *body: BaseEvent | list[BaseEvent],
    outcome: RunFinishedOutcome | None = None,
    thread_id: str = "thread",
    run_id: str | None = None,
) -> list[BaseEvent]:
    """RUN_STARTED, the body, RUN_FINISHED."""
    started = RunStartedEvent(thread_id=thread_id, run_id=run_id or new_id("run-"), protocol_version="1.0")
    events: list[BaseEvent] = [started]
    for part in body:
        events.extend(part if isinstance(part, list) else [part])
    events.append(RunFinishedEvent(thread_id=thread_id, run_id=started.run_id, outcome=outcome))
    return events


def text(content: str, *, message_id: str | None = None, pieces: int = 1) -> list[BaseEvent]:
    """An assistant message streamed in about `pieces` deltas."""
    message_id = message_id or new_id("msg-")
    size = max(1, -(-len(content) // max(1, pieces)))
    deltas = [content[i : i + size] for i in range(0, len(content), size)] or [""]
    return [
        TextMessageStartEvent(message_id=message_id, role="assistant"),
        *(TextMessageContentEvent(message_id=message_id, delta=delta) for delta in deltas if delta),
        TextMessageEndEvent(message_id=message_id),
    ]


def tool_call(
    name: str, arguments: JSON = None, *, call_id: str | None = None, parent_message_id: str | None = None, pieces: int = 1
) -> list[BaseEvent]:
    """A tool call; `arguments` is a dict (sent as JSON) or a raw string sent as it is."""
    call_id = call_id or new_id("call-")
    raw = arguments if isinstance(arguments, str) else json.dumps({} if arguments is None else arguments)
    size = max(1, -(-len(raw) // max(1, pieces)))
    deltas = [raw[i : i + size] for i in range(0, len(raw), size)]
    return [
        ToolCallStartEvent(tool_call_id=call_id, tool_call_name=name, parent_message_id=parent_message_id),
        *(ToolCallArgsEvent(tool_call_id=call_id, delta=delta) for delta in deltas),
        ToolCallEndEvent(tool_call_id=call_id),
    ]


def text_reply(content: str, *, message_id: str | None = None, pieces: int = 1) -> list[BaseEvent]:
    """A whole run that answers with text."""
    return run(text(content, message_id=message_id, pieces=pieces))


def tool_calls_reply(*calls: tuple[str, JSON] | tuple[str, JSON, str], preamble: str | None = None) -> list[BaseEvent]:
    """A whole run that calls tools (name, arguments[, call id]) under one assistant message."""
    message_id = new_id("msg-")
    body: list[BaseEvent] = text(preamble or "", message_id=message_id)
    for call in calls:
        name, arguments = call[0], call[1]
        body += tool_call(name, arguments, call_id=call[2] if len(call) > 2 else None, parent_message_id=message_id)
    pending = [event.tool_call_id for event in body if isinstance(event, ToolCallStartEvent)]
    return run(body, outcome=RunFinishedSuccessOutcome(pending_tool_call_ids=pending))


def interrupt_reply(*interrupts: Interrupt, body: list[BaseEvent] | None = None) -> list[BaseEvent]:
    """A run that ends asking a person (AG-UI interrupts)."""
    return run(body or [], outcome=RunFinishedInterruptOutcome(interrupts=list(interrupts)))


def error_reply(message: str, code: str | None = None) -> list[BaseEvent]:
    """A run that fails."""
    return [RunStartedEvent(thread_id="thread", run_id=new_id("run-")), RunErrorEvent(message=message, code=code)]

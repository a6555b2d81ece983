"""AG-UI events, once applied to the thread, as the loop events a UI subscribes to."""

from __future__ import annotations

from typing import Any

from ag_ui.core import EventType

from . import _events as events
from ._results import result_text
from ._thread import Thread

# Said by the loop itself: the run's start and end (AgentRunStarted/Finished), its error (ErrorOccurred, once).
SILENT = frozenset({EventType.RUN_STARTED, EventType.RUN_FINISHED, EventType.RUN_ERROR})


def translate(event: Any, thread: Thread) -> events.LoopEvent | None:
    """The loop event an applied AG-UI event stands for; None when it has none (it reaches subscribers as it is)."""
    kind = event.type
    if kind is EventType.TEXT_MESSAGE_CONTENT:
        return events.TextDelta(event.message_id, event.delta)
    if kind is EventType.TOOL_CALL_ARGS:
        return events.ToolCallArguments(event.tool_call_id, event.delta)
    if kind is EventType.REASONING_MESSAGE_CONTENT:
        return events.ReasoningDelta(event.message_id, event.delta)
    if kind is EventType.TEXT_MESSAGE_START:
        return events.MessageStarted(event.message_id, event.role or "assistant")
    if kind is EventType.TEXT_MESSAGE_END:
        return events.MessageEnded(event.message_id)
    if kind is EventType.REASONING_MESSAGE_START:
        return events.ReasoningStarted(event.message_id)
    if kind is EventType.REASONING_MESSAGE_END:
        return events.ReasoningEnded(event.message_id)
    if kind is EventType.TOOL_CALL_START:
        return events.ToolCallStarted(event.tool_call_id, event.tool_call_name, event.parent_message_id)
    if kind is EventType.TOOL_CALL_END:
        return events.ToolCallEnded(event.tool_call_id)
    if kind is EventType.TOOL_CALL_RESULT:
        call = thread.tool_call(event.tool_call_id)
        content = event.content if isinstance(event.content, str) else result_text(event.content)
        return events.ToolExecutionEnded(event.tool_call_id, call.function.name if call else "", content, False)
    if kind is EventType.STATE_SNAPSHOT or kind is EventType.STATE_DELTA:
        return events.StateChanged(thread.state)
    return None


def finish_reason(result: Any) -> str | None:
    """The reason a reply ended, as a RUN_FINISHED result may carry it ("length" when it was cut off)."""
    if isinstance(result, dict):
        for key in ("finishReason", "finish_reason", "stopReason", "stop_reason"):
            if isinstance(result.get(key), str):
                return result[key]
    return None

"""AG-UI events, once applied to the thread, as the loop events a UI subscribes to."""

from __future__ import annotations

from ag_ui.core import (
    BaseEvent,
    EventType,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    StateDeltaEvent,
    StateSnapshotEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
)

from ..protocol._json import JSON
from ._events import (
    LoopEvent,
    MessageEnded,
    MessageStarted,
    ReasoningDelta,
    ReasoningEnded,
    ReasoningStarted,
    StateChanged,
    TextDelta,
    ToolCallArguments,
    ToolCallEnded,
    ToolCallStarted,
    ToolExecutionEnded,
)
from ._results import result_text
from ._thread import Thread

# Said by the loop itself: the run's start and end (AgentRunStarted/Finished), its error (ErrorOccurred, once).
SILENT = frozenset({EventType.RUN_STARTED, EventType.RUN_FINISHED, EventType.RUN_ERROR})


def translate(event: BaseEvent, thread: Thread) -> LoopEvent | None:
    """The loop event an applied AG-UI event stands for; None when it has none (it reaches subscribers as it is)."""
    match event:
        case TextMessageContentEvent():
            return TextDelta(event.message_id, event.delta)
        case ToolCallArgsEvent():
            return ToolCallArguments(event.tool_call_id, event.delta)
        case ReasoningMessageContentEvent():
            return ReasoningDelta(event.message_id, event.delta)
        case TextMessageStartEvent():
            return MessageStarted(event.message_id, event.role or "assistant")
        case TextMessageEndEvent():
            return MessageEnded(event.message_id)
        case ReasoningMessageStartEvent():
            return ReasoningStarted(event.message_id)
        case ReasoningMessageEndEvent():
            return ReasoningEnded(event.message_id)
        case ToolCallStartEvent():
            return ToolCallStarted(event.tool_call_id, event.tool_call_name, event.parent_message_id)
        case ToolCallEndEvent():
            return ToolCallEnded(event.tool_call_id)
        case ToolCallResultEvent():
            call = thread.tool_call(event.tool_call_id)
            content = event.content if isinstance(event.content, str) else result_text(event.content)
            return ToolExecutionEnded(event.tool_call_id, call.function.name if call else "", content, False)
        case StateSnapshotEvent() | StateDeltaEvent():
            return StateChanged(thread.state)
        case _:
            return None


def finish_reason(result: JSON) -> str | None:
    """The reason a reply ended, as a RUN_FINISHED result may carry it ("length" when it was cut off)."""
    if isinstance(result, dict):
        for key in ("finishReason", "finish_reason", "stopReason", "stop_reason"):
            if isinstance(reason := result.get(key), str):
                return reason
    return None

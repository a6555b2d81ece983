"""CHUNK events expanded into START / CONTENT / END, as the reference client does.

A chunk is shorthand: the first chunk of a stream opens it (a START is made up), each chunk with a
delta adds CONTENT (ARGS for a tool call), and the stream is closed (an END is made up) when the
next non-chunk event of the same producer arrives, or a run-level event closes every stream.
Producers are kept apart in lanes, one per subagent (the parent agent is the lane None), so two
subagents streaming at once do not close each other's messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ag_ui.core import (
    BaseEvent,
    EventType,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)

from ..errors import ProtocolError
from ._rules import Rule

# Events that close the open chunk stream of their own producer.
_CLOSES_OWN_LANE = frozenset(
    {
        EventType.TEXT_MESSAGE_START,
        EventType.TEXT_MESSAGE_CONTENT,
        EventType.TEXT_MESSAGE_END,
        EventType.TOOL_CALL_START,
        EventType.TOOL_CALL_ARGS,
        EventType.TOOL_CALL_END,
        EventType.TOOL_CALL_RESULT,
        EventType.STATE_SNAPSHOT,
        EventType.STATE_DELTA,
        EventType.CUSTOM,
        EventType.STEP_STARTED,
        EventType.STEP_FINISHED,
        EventType.REASONING_START,
        EventType.REASONING_MESSAGE_START,
        EventType.REASONING_MESSAGE_CONTENT,
        EventType.REASONING_MESSAGE_END,
        EventType.REASONING_END,
        EventType.SUBAGENT_FINISHED,
        EventType.SUBAGENT_ERROR,
    }
)
# Events about the run as a whole close every open chunk stream.
_CLOSES_ALL_LANES = frozenset({EventType.RUN_STARTED, EventType.RUN_FINISHED, EventType.RUN_ERROR, EventType.MESSAGES_SNAPSHOT})
CHUNK_TYPES = frozenset({EventType.TEXT_MESSAGE_CHUNK, EventType.TOOL_CALL_CHUNK, EventType.REASONING_MESSAGE_CHUNK})


@dataclass(slots=True)
class _OpenStream:
    kind: EventType  # the chunk type that opened it
    id: str
    owner: str | None
    role: Any = None
    name: str | None = None
    parent: str | None = None


class ChunkExpander:
    """Turns a stream that may contain CHUNK events into one that has none."""

    def __init__(self) -> None:
        self._lanes: dict[str | None, _OpenStream] = {}

    @property
    def idle(self) -> bool:
        """No chunk stream is open: an event that is not a chunk passes through as it is."""
        return not self._lanes

    def expand(self, event: BaseEvent) -> tuple[BaseEvent, ...]:
        """The events that stand for this one, in order."""
        kind = event.type
        if kind in CHUNK_TYPES:
            return self._chunk(event)
        if not self._lanes:
            return (event,)
        if kind in _CLOSES_ALL_LANES:
            return (*self.close_all(), event)
        if kind in _CLOSES_OWN_LANE:
            closing = self._close(event.subagent_run_id)
            return (*closing, event) if closing else (event,)
        return (event,)

    def close_all(self) -> list[BaseEvent]:
        """END events for every stream still open, in the order they opened."""
        return [end for owner in list(self._lanes) for end in self._close(owner)]

    def _close(self, owner: str | None) -> tuple[BaseEvent, ...]:
        open_stream = self._lanes.pop(owner, None)
        if open_stream is None:
            return ()
        extra = {} if owner is None else {"subagent_run_id": owner}
        if open_stream.kind is EventType.TEXT_MESSAGE_CHUNK:
            return (TextMessageEndEvent(message_id=open_stream.id, **extra),)
        if open_stream.kind is EventType.TOOL_CALL_CHUNK:
            return (ToolCallEndEvent(tool_call_id=open_stream.id, **extra),)
        return (ReasoningMessageEndEvent(message_id=open_stream.id, **extra),)

    def _chunk(self, chunk: Any) -> tuple[BaseEvent, ...]:
        owner = chunk.subagent_run_id
        extra = {} if owner is None else {"subagent_run_id": owner}
        is_tool = chunk.type is EventType.TOOL_CALL_CHUNK
        chunk_id = chunk.tool_call_id if is_tool else chunk.message_id
        open_stream = self._lanes.get(owner)
        out: list[BaseEvent] = []
        if open_stream and open_stream.kind is chunk.type and chunk_id in (None, open_stream.id):
            self._check_agreement(chunk, open_stream)
        else:
            out.extend(self._close(owner))
            open_stream = self._open(chunk, chunk_id, owner)
            out.append(self._start_event(chunk, open_stream, extra))
        if chunk.delta is not None or chunk.raw_event is not None:
            out.append(self._content_event(chunk, open_stream, extra))
        return tuple(out)

    def _open(self, chunk: Any, chunk_id: str | None, owner: str | None) -> _OpenStream:
        name = chunk.type.value
        if chunk_id is None:
            raise ProtocolError(Rule.CHUNK_WITHOUT_ID, f"the first {name} of a stream must carry its id")
        if chunk.type is EventType.TOOL_CALL_CHUNK:
            if chunk.tool_call_name is None:
                raise ProtocolError(Rule.CHUNK_WITHOUT_ID, f"the first {name} must carry toolCallName")
            stream = _OpenStream(chunk.type, chunk_id, owner, name=chunk.tool_call_name, parent=chunk.parent_message_id)
        elif chunk.type is EventType.TEXT_MESSAGE_CHUNK:
            stream = _OpenStream(chunk.type, chunk_id, owner, role=chunk.role or "assistant", name=chunk.name)
        else:
            stream = _OpenStream(chunk.type, chunk_id, owner, role="reasoning")
        self._lanes[owner] = stream
        return stream

    @staticmethod
    def _check_agreement(chunk: Any, stream: _OpenStream) -> None:
        if chunk.type is EventType.TOOL_CALL_CHUNK:
            pairs = (
                ("toolCallName", chunk.tool_call_name, stream.name),
                ("parentMessageId", chunk.parent_message_id, stream.parent),
            )
        elif chunk.type is EventType.TEXT_MESSAGE_CHUNK:
            pairs = (("role", chunk.role, stream.role), ("name", chunk.name, stream.name))
        else:
            pairs = ()
        for field, given, opened in pairs:
            if given is not None and given != opened:
                raise ProtocolError(
                    Rule.CHUNK_DISAGREES,
                    f"{field} {given!r} differs from {opened!r} given when {stream.id!r} was opened",
                )

    @staticmethod
    def _start_event(chunk: Any, stream: _OpenStream, extra: dict[str, Any]) -> BaseEvent:
        meta = {"metadata": chunk.metadata} if chunk.metadata is not None else {}
        if stream.kind is EventType.TOOL_CALL_CHUNK:
            return ToolCallStartEvent(
                tool_call_id=stream.id, tool_call_name=stream.name, parent_message_id=stream.parent, **extra, **meta
            )
        if stream.kind is EventType.TEXT_MESSAGE_CHUNK:
            return TextMessageStartEvent(message_id=stream.id, role=stream.role, name=stream.name, **extra, **meta)
        return ReasoningMessageStartEvent(message_id=stream.id, role="reasoning", **extra, **meta)

    @staticmethod
    def _content_event(chunk: Any, stream: _OpenStream, extra: dict[str, Any]) -> BaseEvent:
        delta = "" if chunk.delta is None else chunk.delta
        raw = {"raw_event": chunk.raw_event} if chunk.raw_event is not None else {}
        if stream.kind is EventType.TOOL_CALL_CHUNK:
            return ToolCallArgsEvent(tool_call_id=stream.id, delta=delta, **extra, **raw)
        if stream.kind is EventType.TEXT_MESSAGE_CHUNK:
            return TextMessageContentEvent(message_id=stream.id, delta=delta, **extra, **raw)
        return ReasoningMessageContentEvent(message_id=stream.id, delta=delta, **extra, **raw)

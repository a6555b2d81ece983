"""CHUNK events expanded into START / CONTENT / END, as the reference client does.

A chunk is shorthand: the first chunk of a stream opens it (a START is made up), each chunk with a
delta adds CONTENT (ARGS for a tool call), and the stream is closed (an END is made up) when the
next non-chunk event of the same producer arrives, or a run-level event closes every stream.
Producers are kept apart in lanes, one per subagent (the parent agent is the lane None), so two
subagents streaming at once do not close each other's messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias, TypeVar

from ag_ui.core import (
    BaseEvent,
    EventType,
    ReasoningMessageChunkEvent,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    TextMessageChunkEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallChunkEvent,
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
_Chunk: TypeAlias = "TextMessageChunkEvent | ToolCallChunkEvent | ReasoningMessageChunkEvent"
_Event = TypeVar("_Event", bound=BaseEvent)


@dataclass(slots=True)
class _OpenStream:
    kind: EventType  # the chunk type that opened it
    id: str
    owner: str | None
    role: str | None = None
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
        if isinstance(event, TextMessageChunkEvent | ToolCallChunkEvent | ReasoningMessageChunkEvent):
            return self._chunk(event)
        if not self._lanes:
            return (event,)
        if kind in _CLOSES_ALL_LANES:
            return (*self.close_all(), event)
        if kind in _CLOSES_OWN_LANE:
            closing = self._close(getattr(event, "subagent_run_id", None))  # every event of these has one
            return (*closing, event) if closing else (event,)
        return (event,)

    def close_all(self) -> list[BaseEvent]:
        """END events for every stream still open, in the order they opened."""
        return [end for owner in list(self._lanes) for end in self._close(owner)]

    def _close(self, owner: str | None) -> tuple[BaseEvent, ...]:
        open_stream = self._lanes.pop(owner, None)
        if open_stream is None:
            return ()
        if open_stream.kind is EventType.TEXT_MESSAGE_CHUNK:
            return (_attributed(TextMessageEndEvent(message_id=open_stream.id), owner),)
        if open_stream.kind is EventType.TOOL_CALL_CHUNK:
            return (_attributed(ToolCallEndEvent(tool_call_id=open_stream.id), owner),)
        return (_attributed(ReasoningMessageEndEvent(message_id=open_stream.id), owner),)

    def _chunk(self, chunk: _Chunk) -> tuple[BaseEvent, ...]:
        owner = chunk.subagent_run_id
        chunk_id = chunk.tool_call_id if isinstance(chunk, ToolCallChunkEvent) else chunk.message_id
        open_stream = self._lanes.get(owner)
        out: list[BaseEvent] = []
        if open_stream and open_stream.kind is chunk.type and chunk_id in (None, open_stream.id):
            self._check_agreement(chunk, open_stream)
        else:
            out.extend(self._close(owner))
            open_stream = self._open(chunk, chunk_id, owner)
            out.append(_attributed(self._start_event(chunk, open_stream), owner))
        if chunk.delta is not None or chunk.raw_event is not None:
            out.append(_attributed(self._content_event(chunk, open_stream), owner))
        return tuple(out)

    def _open(self, chunk: _Chunk, chunk_id: str | None, owner: str | None) -> _OpenStream:
        name = chunk.type.value
        if chunk_id is None:
            raise ProtocolError(Rule.CHUNK_WITHOUT_ID, f"the first {name} of a stream must carry its id")
        if isinstance(chunk, ToolCallChunkEvent):
            if chunk.tool_call_name is None:
                raise ProtocolError(Rule.CHUNK_WITHOUT_ID, f"the first {name} must carry toolCallName")
            stream = _OpenStream(chunk.type, chunk_id, owner, name=chunk.tool_call_name, parent=chunk.parent_message_id)
        elif isinstance(chunk, TextMessageChunkEvent):
            stream = _OpenStream(chunk.type, chunk_id, owner, role=chunk.role or "assistant", name=chunk.name)
        else:
            stream = _OpenStream(chunk.type, chunk_id, owner, role="reasoning")
        self._lanes[owner] = stream
        return stream

    @staticmethod
    def _check_agreement(chunk: _Chunk, stream: _OpenStream) -> None:
        pairs: tuple[tuple[str, str | None, str | None], ...]
        if isinstance(chunk, ToolCallChunkEvent):
            pairs = (
                ("toolCallName", chunk.tool_call_name, stream.name),
                ("parentMessageId", chunk.parent_message_id, stream.parent),
            )
        elif isinstance(chunk, TextMessageChunkEvent):
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
    def _start_event(chunk: _Chunk, stream: _OpenStream) -> BaseEvent:
        # The chunk is the one that opened the stream (_open checked its name).
        start: BaseEvent
        if isinstance(chunk, ToolCallChunkEvent):
            start = ToolCallStartEvent(
                tool_call_id=stream.id, tool_call_name=chunk.tool_call_name or "", parent_message_id=stream.parent
            )
        elif isinstance(chunk, TextMessageChunkEvent):
            start = TextMessageStartEvent(message_id=stream.id, role=chunk.role or "assistant", name=chunk.name)
        else:
            start = ReasoningMessageStartEvent(message_id=stream.id, role="reasoning")
        if chunk.metadata is not None:
            start.metadata = chunk.metadata
        return start

    @staticmethod
    def _content_event(chunk: _Chunk, stream: _OpenStream) -> BaseEvent:
        delta = "" if chunk.delta is None else chunk.delta
        content: BaseEvent
        if stream.kind is EventType.TOOL_CALL_CHUNK:
            content = ToolCallArgsEvent(tool_call_id=stream.id, delta=delta)
        elif stream.kind is EventType.TEXT_MESSAGE_CHUNK:
            content = TextMessageContentEvent(message_id=stream.id, delta=delta)
        else:
            content = ReasoningMessageContentEvent(message_id=stream.id, delta=delta)
        if chunk.raw_event is not None:
            content.raw_event = chunk.raw_event
        return content


def _attributed(event: _Event, owner: str | None) -> _Event:
    # Set only when there is one: a subagentRunId set to null is refused (SequenceVerifier).
    if owner is not None:
        setattr(event, "subagent_run_id", owner)  # noqa: B010 (every event made here has the field; BaseEvent does not)
    return event

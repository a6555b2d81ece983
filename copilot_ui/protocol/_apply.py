"""Applying a stream of AG-UI events to a thread: `EventPipeline` is the reference client's pipeline
(transformChunks → verifyEvents → defaultApplyEvents) in one object, and a protocol error it raises names the
rule, the index of the event in the stream and its type; `EventApplier` applies each event as defaultApplyEvents.

Each event costs about its own size: text and arguments are appended as pieces, lookups go through
the thread's indexes, and a state patch is applied in place (atomically: a patch that fails leaves
the state as it was and records a warning). A CUSTOM `PredictState` maps tool arguments to keys of
the state, which then follow those arguments as they stream (_predict_state). Events that only
inform (other CUSTOM events, RAW, STEP_*, SUBAGENT_*, reasoning spans) change nothing here; the
caller hands them to its subscribers.
"""

from __future__ import annotations

import copy
import logging

from ag_ui.core import (
    ActivityDeltaEvent,
    ActivityMessage,
    ActivitySnapshotEvent,
    AssistantMessage,
    BaseEvent,
    CustomEvent,
    DeveloperMessage,
    FunctionCall,
    Message,
    MessagesSnapshotEvent,
    ReasoningEncryptedValueEvent,
    ReasoningMessage,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    RunErrorEvent,
    RunFinishedEvent,
    RunStartedEvent,
    StateDeltaEvent,
    StateSnapshotEvent,
    SystemMessage,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCall,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
    ToolMessage,
    UserMessage,
)
from pydantic import ValidationError

from ..errors import PatchError, ProtocolError
from ._chunks import CHUNK_TYPES, ChunkExpander
from ._json import JSONObject
from ._parse import reject_frame, validate_event_json, validate_event_object
from ._patch import apply_patch
from ._predict_state import PREDICT_STATE, StatePredictor
from ._thinking_0_1 import ThinkingTranslator
from ._thread import AGUIThread, RunOutcome
from ._verify import Attributed as _Attributed
from ._verify import SequenceVerifier

logger = logging.getLogger("copilot_ui.protocol")

_TEXT_MESSAGE_TYPES: dict[str, type[AssistantMessage | UserMessage | SystemMessage | DeveloperMessage]] = {
    "assistant": AssistantMessage,
    "user": UserMessage,
    "system": SystemMessage,
    "developer": DeveloperMessage,
}


class EventPipeline:
    """Feeds events of one stream into a thread."""

    def __init__(self, thread: AGUIThread) -> None:
        self.thread = thread
        self.index = -1  # index of the last event fed
        self._expander = ChunkExpander()
        self._verifier = SequenceVerifier()
        self._applier = EventApplier(thread)
        self._thinking = ThinkingTranslator()  # THINKING_* events of an older server, as REASONING_*

    @property
    def run_open(self) -> bool:
        """A run has started and not yet ended."""
        return self._verifier.run_open

    def feed(self, event: BaseEvent) -> tuple[BaseEvent, ...]:
        """Verify and apply one event; returns the events it stands for (chunks expanded)."""
        self.index += 1
        try:
            if self._expander.idle and event.type not in CHUNK_TYPES:
                self._verifier.verify(event)
                self._applier.apply(event)
                return (event,)
            events = self._expander.expand(event)
            for expanded in events:
                self._verifier.verify(expanded)
                self._applier.apply(expanded)
        except ProtocolError as error:
            raise error.at(self.index, event.type.value, event.model_dump_json(by_alias=True)) from None
        return events

    def feed_frame(self, frame: str | bytes | JSONObject) -> tuple[BaseEvent, ...]:
        """Parse, verify and apply one frame; an event of unknown type is skipped (it still counts)."""
        try:
            event = validate_event_object(frame) if isinstance(frame, dict) else validate_event_json(frame)
        except ValidationError as invalid:
            event = self._rejected(frame, invalid)
        if event is None:
            self.index += 1
            return ()
        return self.feed(event)

    def _rejected(self, frame: str | bytes | JSONObject, invalid: ValidationError) -> BaseEvent | None:
        try:
            return reject_frame(frame, invalid, self._thinking)
        except ProtocolError as error:
            self.index += 1
            text = frame.decode("utf-8", "replace") if isinstance(frame, bytes) else str(frame)
            raise error.at(self.index, None, text.strip()) from None

    def finish(self) -> None:
        """The stream ended: check that no run was left open."""
        try:
            self._verifier.finish()
        except ProtocolError as error:
            raise error.at(self.index + 1, "end of stream") from None


class EventApplier:
    """Applies events, one at a time, to one thread."""

    def __init__(self, thread: AGUIThread) -> None:
        self.thread = thread
        self._predictor = StatePredictor(thread)

    def apply(self, event: BaseEvent) -> None:
        """Change the thread as the event says (chunk events must be expanded before)."""
        match event:  # the events of every token first
            case TextMessageContentEvent() | ReasoningMessageContentEvent():
                self._text_content(event)
            case ToolCallArgsEvent():
                self._tool_args(event)
            case StateDeltaEvent():
                self._state_delta(event)
            case TextMessageStartEvent():
                self._text_start(event)
            case TextMessageEndEvent() | ReasoningMessageEndEvent():
                self._text_end(event)
            case ToolCallStartEvent():
                self._tool_start(event)
            case ToolCallEndEvent():
                self._tool_end(event)
            case ToolCallResultEvent():
                self._tool_result(event)
            case StateSnapshotEvent():
                self._state_snapshot(event)
            case MessagesSnapshotEvent():
                self._messages_snapshot(event)
            case ActivitySnapshotEvent():
                self._activity_snapshot(event)
            case ActivityDeltaEvent():
                self._activity_delta(event)
            case ReasoningMessageStartEvent():
                self._reasoning_start(event)
            case ReasoningEncryptedValueEvent():
                self._encrypted_value(event)
            case CustomEvent():
                self._custom(event)
            case RunStartedEvent():
                self._run_started(event)
            case RunFinishedEvent():
                self._run_finished(event)
            case RunErrorEvent():
                self._run_error(event)
            case _:
                pass

    def _warn(self, text: str) -> None:
        self.thread.warnings.append(text)
        logger.warning(text)

    # Text and reasoning messages

    def _text_start(self, event: TextMessageStartEvent) -> None:
        thread, message_id = self.thread, event.message_id
        existing = thread.message(message_id)
        if isinstance(existing, ActivityMessage):
            self._warn(f"TEXT_MESSAGE_START: {message_id!r} is an activity message; ids must be unique")
            return
        if existing is None:
            existing = _TEXT_MESSAGE_TYPES.get(event.role or "assistant", AssistantMessage)(id=message_id, content="")
            if event.name is not None:
                existing.name = event.name
            _attribute(existing, event)
            thread.add_message(existing)
        _merge_metadata(existing, event)

    def _text_content(self, event: TextMessageContentEvent | ReasoningMessageContentEvent) -> None:
        message = self.thread.append_text(event.message_id, event.delta)
        if message is None:
            self._warn(f"{event.type.value}: no text message {event.message_id!r}")
            return
        if event.metadata is not None:
            _merge_metadata(message, event)

    def _text_end(self, event: TextMessageEndEvent | ReasoningMessageEndEvent) -> None:
        message = self.thread.message(event.message_id)
        if message is None or isinstance(message, ActivityMessage):
            self._warn(f"{event.type.value}: no text message {event.message_id!r}")
            return
        self.thread.end_text(event.message_id)
        _merge_metadata(message, event)

    def _reasoning_start(self, event: ReasoningMessageStartEvent) -> None:
        existing = self.thread.message(event.message_id)
        if isinstance(existing, ActivityMessage):
            self._warn(f"REASONING_MESSAGE_START: {event.message_id!r} is an activity message; ids must be unique")
            return
        if existing is None:
            existing = ReasoningMessage(id=event.message_id, content="")
            _attribute(existing, event)
            self.thread.add_message(existing)
        _merge_metadata(existing, event)

    def _encrypted_value(self, event: ReasoningEncryptedValueEvent) -> None:
        thread = self.thread
        target = thread.tool_call(event.entity_id) if event.subtype == "tool-call" else thread.message(event.entity_id)
        if target is None or isinstance(target, ActivityMessage):
            self._warn(f"REASONING_ENCRYPTED_VALUE: nothing with id {event.entity_id!r} to hold it")
            return
        target.encrypted_value = event.encrypted_value

    # Tool calls

    def _tool_start(self, event: ToolCallStartEvent) -> None:
        thread, call_id = self.thread, event.tool_call_id
        existing = thread.tool_call(call_id)
        if existing is not None:
            if existing.function.name != event.tool_call_name:
                self._warn(f"TOOL_CALL_START: {call_id!r} renamed from {existing.function.name!r} to {event.tool_call_name!r}")
                existing.function.name = event.tool_call_name
            _merge_metadata(existing, event)
            return
        owner = self._assistant_for(event)
        call = ToolCall(id=call_id, function=FunctionCall(name=event.tool_call_name, arguments=""))
        _merge_metadata(call, event)
        thread.start_tool_call(owner, call)
        self._predictor.call_started(call_id, event.tool_call_name)

    def _assistant_for(self, event: ToolCallStartEvent) -> AssistantMessage:
        thread, parent_id = self.thread, event.parent_message_id
        parent = thread.message(parent_id) if parent_id is not None else None
        if isinstance(parent, AssistantMessage):
            return parent
        if parent is not None:
            self._warn(f"TOOL_CALL_START: parent {parent_id!r} is a {parent.role} message; the call gets its own")
        created = AssistantMessage(id=parent_id if parent is None and parent_id else event.tool_call_id, tool_calls=[])
        _attribute(created, event)
        thread.add_message(created)
        return created

    def _tool_args(self, event: ToolCallArgsEvent) -> None:
        call = self.thread.append_arguments(event.tool_call_id, event.delta)
        if call is None:
            self._warn(f"TOOL_CALL_ARGS: no tool call {event.tool_call_id!r}")
            return
        if event.metadata is not None:
            _merge_metadata(call, event)
        if event.tool_call_id in self.thread.predicting:
            self._predictor.arguments_grew(event.tool_call_id)

    def _tool_end(self, event: ToolCallEndEvent) -> None:
        call = self.thread.tool_call(event.tool_call_id)
        if call is None:
            self._warn(f"TOOL_CALL_END: no tool call {event.tool_call_id!r}")
            return
        self.thread.end_tool_call(event.tool_call_id)
        _merge_metadata(call, event)
        self._predictor.call_ended(event.tool_call_id)

    def _tool_result(self, event: ToolCallResultEvent) -> None:
        result = ToolMessage(id=event.message_id, tool_call_id=event.tool_call_id, content=event.content)
        _attribute(result, event)
        _merge_metadata(result, event)
        self.thread.append_result(result)

    # State and snapshots

    def _state_snapshot(self, event: StateSnapshotEvent) -> None:
        self.thread.state = copy.deepcopy(event.snapshot)  # deltas patch the state in place, not the event

    def _state_delta(self, event: StateDeltaEvent) -> None:
        try:
            self.thread.state = apply_patch(self.thread.state, event.delta)
        except PatchError as error:
            self._warn(f"STATE_DELTA did not apply, the state is unchanged: {error}")

    def _messages_snapshot(self, event: MessagesSnapshotEvent) -> None:
        thread, snapshot = self.thread, event.messages
        by_id = {message.id: message for message in snapshot}
        keep_activity = not any(message.role == "activity" for message in snapshot)
        keep_reasoning = not any(message.role == "reasoning" for message in snapshot)
        kept = [
            by_id.pop(message.id, message)
            for message in thread.messages
            if message.id in by_id
            or (keep_activity and message.role == "activity")
            or (keep_reasoning and message.role == "reasoning")
        ]
        thread.replace_messages([*kept, *(message for message in snapshot if message.id in by_id)])

    def _activity_snapshot(self, event: ActivitySnapshotEvent) -> None:
        thread = self.thread
        existing = thread.message(event.message_id)
        replace = event.replace is not False
        content = copy.deepcopy(event.content)  # deltas patch the content in place, not the event
        if existing is None:
            created = ActivityMessage(id=event.message_id, activity_type=event.activity_type, content=content)
            _attribute(created, event)
            _merge_metadata(created, event)
            thread.add_message(created)
        elif replace:
            updated = ActivityMessage(id=event.message_id, activity_type=event.activity_type, content=content)
            _attribute(updated, event)
            if existing.role == "activity":
                updated.metadata = existing.metadata
            _merge_metadata(updated, event)
            thread.replace_message(existing, updated)
        else:
            _merge_metadata(existing, event)

    def _activity_delta(self, event: ActivityDeltaEvent) -> None:
        activity = self.thread.message(event.message_id)
        if activity is None:
            return
        if not isinstance(activity, ActivityMessage):
            self._warn(f"ACTIVITY_DELTA: {event.message_id!r} is not an activity message")
            return
        try:
            content = apply_patch(activity.content or {}, event.patch)
        except PatchError as error:
            self._warn(f"ACTIVITY_DELTA did not apply to {event.message_id!r}, its content is unchanged: {error}")
            return
        if not isinstance(content, dict):  # only a patch of the whole content can make it so
            self._warn(f"ACTIVITY_DELTA did not apply to {event.message_id!r}: an activity's content is an object")
            return
        activity.content = content
        activity.activity_type = event.activity_type
        _merge_metadata(activity, event)

    def _custom(self, event: CustomEvent) -> None:
        if event.name == PREDICT_STATE:
            self._predictor.mapped(event.value)

    # Runs

    def _run_started(self, event: RunStartedEvent) -> None:
        thread = self.thread
        thread.run_tool_call_ids = []
        thread.predicting, self._predictor = {}, StatePredictor(thread)  # each run maps tools to keys afresh
        if event.input is not None:
            for message in event.input.messages:
                if thread.message(message.id) is None:
                    thread.add_message(message)

    def _run_finished(self, event: RunFinishedEvent) -> None:
        thread, outcome = self.thread, event.outcome
        if outcome is not None and outcome.type == "interrupt":
            thread.outcome = RunOutcome("interrupt", interrupts=list(outcome.interrupts), result=event.result)
            thread.interrupts = list(outcome.interrupts)
            return
        thread.interrupts = []
        if outcome is not None and outcome.type == "cancelled":
            thread.outcome = RunOutcome("cancelled", result=event.result)
            return
        named = getattr(outcome, "pending_tool_call_ids", None)
        pending = list(named) if named else [c for c in thread.run_tool_call_ids if thread.result_of(c) is None]
        thread.outcome = RunOutcome("success", pending_tool_call_ids=pending, result=event.result)

    def _run_error(self, event: RunErrorEvent) -> None:
        self.thread.outcome = RunOutcome("error", message=event.message, code=event.code)


def _attribute(message: Message, event: _Attributed) -> None:
    # Set only when given: a subagentRunId set to null would say something else than one left out.
    if event.subagent_run_id is not None:
        message.subagent_run_id = event.subagent_run_id


def _merge_metadata(target: Message | ToolCall, event: BaseEvent) -> None:
    if event.metadata is not None:
        target.metadata = {**(target.metadata or {}), **event.metadata}

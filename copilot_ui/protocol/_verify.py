"""Sequence verification with the rules of the reference client (@ag-ui/client 1.0 verifyEvents).

The verifier sees every event after chunk expansion and raises ProtocolError at the first one that
breaks a rule. Several runs may follow one another in one stream; each RUN_STARTED after a
finished or failed run starts the tracking afresh. Owners (the subagent that opened a message,
tool call, reasoning block or activity) are kept per kind of entity for the whole run, so that an
event continuing an entity cannot come from another producer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ag_ui.core import (
    ActivityDeltaEvent,
    ActivitySnapshotEvent,
    BaseEvent,
    EventType,
    Interrupt,
    Message,
    MessagesSnapshotEvent,
    ReasoningEncryptedValueEvent,
    ReasoningEndEvent,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    ReasoningStartEvent,
    RunErrorEvent,
    RunFinishedEvent,
    RunStartedEvent,
    StepFinishedEvent,
    StepStartedEvent,
    SubagentErrorEvent,
    SubagentFinishedEvent,
    SubagentStartedEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
)

from ..errors import ProtocolError
from ._rules import Rule

_PARENT = "(the parent agent)"


class Attributed(Protocol):
    """An event that may belong to a subagent's work."""

    @property
    def subagent_run_id(self) -> str | None: ...


class SequenceVerifier:
    """Checks the order of events; raises ProtocolError naming the broken rule."""

    def __init__(self) -> None:
        self._started = False  # a first event was seen
        self._run_active = False
        self._finished = False
        self._errored = False
        self._reset_run()

    @property
    def run_open(self) -> bool:
        """A run has started and has neither finished nor failed."""
        return self._run_active

    def verify(self, event: BaseEvent) -> None:
        """Accept the event or raise ProtocolError."""
        kind = event.type
        if self._errored and kind is not EventType.RUN_STARTED:
            raise ProtocolError(
                Rule.EVENT_AFTER_TERMINAL, "the run already failed with RUN_ERROR; only a new RUN_STARTED may follow"
            )
        if self._finished and kind is not EventType.RUN_STARTED and kind is not EventType.RUN_ERROR:
            raise ProtocolError(Rule.EVENT_AFTER_TERMINAL, "the run already finished; only RUN_STARTED or RUN_ERROR may follow")
        if not self._started:
            self._started = True
            if kind is not EventType.RUN_STARTED and kind is not EventType.RUN_ERROR:
                raise ProtocolError(Rule.FIRST_EVENT, "the first event must be RUN_STARTED")
        if getattr(event, "subagent_run_id", 0) is None and "subagent_run_id" in event.__pydantic_fields_set__:
            raise ProtocolError(Rule.NULL_ATTRIBUTION, "subagentRunId is null; leave it out instead")
        self._check(event)

    def _check(self, event: BaseEvent) -> None:
        match event:  # the events of every token first
            case TextMessageContentEvent():
                self._text_continue(event)
            case ToolCallArgsEvent():
                self._tool_continue(event)
            case ReasoningMessageContentEvent() | ReasoningMessageEndEvent() | ReasoningEndEvent():
                self._reasoning_continue(event)
            case TextMessageStartEvent():
                self._text_start(event)
            case TextMessageEndEvent():
                self._text_end(event)
            case ToolCallStartEvent():
                self._tool_start(event)
            case ToolCallEndEvent():
                self._tool_end(event)
            case ToolCallResultEvent():
                self._tool_result(event)
            case StepStartedEvent():
                self._step_started(event)
            case StepFinishedEvent():
                self._step_finished(event)
            case ReasoningStartEvent() | ReasoningMessageStartEvent():
                self._reasoning_open(event)
            case ReasoningEncryptedValueEvent():
                self._encrypted_value(event)
            case ActivitySnapshotEvent():
                self._activity_snapshot(event)
            case ActivityDeltaEvent():
                self._activity_delta(event)
            case SubagentStartedEvent():
                self._subagent_started(event)
            case SubagentFinishedEvent() | SubagentErrorEvent():
                self._subagent_ended(event)
            case MessagesSnapshotEvent():
                self._messages_snapshot(event)
            case RunStartedEvent():
                self._run_started(event)
            case RunFinishedEvent():
                self._run_finished(event)
            case RunErrorEvent():
                self._run_error(event)
            case _:
                pass

    def finish(self) -> None:
        """The stream ended: a run that started must have ended too."""
        if self._run_active:
            raise ProtocolError(Rule.RUN_NOT_TERMINATED, "the stream ended before RUN_FINISHED or RUN_ERROR")

    # Lifecycle

    def _reset_run(self) -> None:
        self._open_text: set[str] = set()
        self._open_tools: set[str] = set()
        self._open_spans: set[str] = set()
        self._open_reasoning: set[str] = set()
        self._owners: dict[str, dict[str, str | None]] = {
            "message": {},
            "tool call": {},
            "activity": {},
            "reasoning": {},
        }
        self._steps: dict[str | None, set[str]] = {}
        self._active_subagents: set[str] = set()
        self._closed_subagents: set[str] = set()

    def _run_started(self, event: RunStartedEvent) -> None:
        if self._run_active:
            raise ProtocolError(Rule.RUN_ALREADY_ACTIVE, "RUN_STARTED while a run is still active")
        self._reset_run()
        self._run_active, self._finished, self._errored = True, False, False
        if event.input is not None:
            self._seed_owners(event.input.messages, authoritative=False)

    def _run_finished(self, event: RunFinishedEvent) -> None:
        for interrupt in getattr(event.outcome, "interrupts", None) or ():
            _refuse_null_attribution(interrupt, f"interrupt {interrupt.id!r}")
        open_steps = [f"{name} (subagent {owner!r})" if owner else name for owner, names in self._steps.items() for name in names]
        for rule, what, still_open in (
            (Rule.STEP_UNTERMINATED, "steps", open_steps),
            (Rule.TEXT_UNTERMINATED, "text messages", self._open_text),
            (Rule.REASONING_UNTERMINATED, "reasoning messages", self._open_reasoning),
            (Rule.REASONING_UNTERMINATED, "reasoning spans", self._open_spans),
            (Rule.TOOL_UNTERMINATED, "tool calls", self._open_tools),
            (Rule.SUBAGENT_UNTERMINATED, "subagents", self._active_subagents),
        ):
            if still_open:
                raise ProtocolError(rule, f"RUN_FINISHED while {what} are still open: {', '.join(sorted(still_open))}")
        self._run_active, self._finished = False, True

    def _run_error(self, _event: RunErrorEvent) -> None:
        self._run_active, self._finished, self._errored = False, False, True

    # Text messages

    def _text_start(self, event: TextMessageStartEvent) -> None:
        message_id = event.message_id
        if message_id in self._open_text:
            raise ProtocolError(Rule.TEXT_ALREADY_OPEN, f"text message {message_id!r} is already open")
        self._claim("message", message_id, event)
        self._open_text.add(message_id)

    def _text_continue(self, event: TextMessageContentEvent) -> None:
        if event.message_id not in self._open_text:
            raise ProtocolError(Rule.TEXT_WITHOUT_START, f"no open text message {event.message_id!r}")
        self._check_owner("message", event.message_id, event)

    def _text_end(self, event: TextMessageEndEvent) -> None:
        if event.message_id not in self._open_text:
            raise ProtocolError(Rule.TEXT_END_WITHOUT_START, f"no open text message {event.message_id!r}")
        self._check_owner("message", event.message_id, event)
        self._open_text.discard(event.message_id)

    # Tool calls

    def _tool_start(self, event: ToolCallStartEvent) -> None:
        call_id = event.tool_call_id
        if call_id in self._open_tools:
            raise ProtocolError(Rule.TOOL_ALREADY_OPEN, f"tool call {call_id!r} is already open")
        tag, parent = event.subagent_run_id, event.parent_message_id
        inherited: tuple[str | None] | None = None
        messages = self._owners["message"]
        if parent is not None and parent in messages:
            if tag is not None and tag != messages[parent]:
                raise ProtocolError(
                    Rule.OWNER_MISMATCH,
                    f"tool call {call_id!r} is tagged {tag!r} but its parent message {parent!r} belongs to "
                    f"{messages[parent] or _PARENT}",
                )
            inherited = (messages[parent],)
        calls = self._owners["tool call"]
        if call_id in calls:
            self._check_owner("tool call", call_id, event)
            if tag is None and inherited is not None and inherited[0] != calls[call_id]:
                raise ProtocolError(
                    Rule.OWNER_MISMATCH, f"tool call {call_id!r} and its parent message {parent!r} have different owners"
                )
        else:
            calls[call_id] = tag if tag is not None else (inherited[0] if inherited else None)
        self._open_tools.add(call_id)

    def _tool_continue(self, event: ToolCallArgsEvent) -> None:
        if event.tool_call_id not in self._open_tools:
            raise ProtocolError(Rule.TOOL_ARGS_WITHOUT_START, f"no open tool call {event.tool_call_id!r}")
        self._check_owner("tool call", event.tool_call_id, event)

    def _tool_end(self, event: ToolCallEndEvent) -> None:
        if event.tool_call_id not in self._open_tools:
            raise ProtocolError(Rule.TOOL_END_WITHOUT_START, f"no open tool call {event.tool_call_id!r}")
        self._check_owner("tool call", event.tool_call_id, event)
        self._open_tools.discard(event.tool_call_id)

    def _tool_result(self, event: ToolCallResultEvent) -> None:
        self._owners["message"][event.message_id] = event.subagent_run_id

    # Steps

    def _step_started(self, event: StepStartedEvent) -> None:
        names = self._steps.setdefault(event.subagent_run_id, set())
        if event.step_name in names:
            raise ProtocolError(Rule.STEP_ALREADY_ACTIVE, f"step {event.step_name!r} is already active")
        names.add(event.step_name)

    def _step_finished(self, event: StepFinishedEvent) -> None:
        owner, name = event.subagent_run_id, event.step_name
        names = self._steps.get(owner, set())
        if name not in names:
            others = [other for other, open_names in self._steps.items() if other != owner and name in open_names]
            if others:
                raise ProtocolError(
                    Rule.STEP_NOT_STARTED,
                    f"step {name!r} is open under {others[0] or _PARENT}, not {owner or _PARENT}; "
                    "a step is finished by whoever started it",
                )
            raise ProtocolError(Rule.STEP_NOT_STARTED, f"step {name!r} was not started")
        names.discard(name)

    # Reasoning

    def _reasoning_open(self, event: ReasoningStartEvent | ReasoningMessageStartEvent) -> None:
        is_span = event.type is EventType.REASONING_START
        open_ids = self._open_spans if is_span else self._open_reasoning
        if event.message_id in open_ids:
            what = "span" if is_span else "message"
            raise ProtocolError(Rule.REASONING_ALREADY_OPEN, f"reasoning {what} {event.message_id!r} is already open")
        self._claim("reasoning", event.message_id, event)
        open_ids.add(event.message_id)

    def _reasoning_continue(self, event: ReasoningMessageContentEvent | ReasoningMessageEndEvent | ReasoningEndEvent) -> None:
        is_span = event.type is EventType.REASONING_END
        open_ids = self._open_spans if is_span else self._open_reasoning
        if event.message_id not in open_ids:
            what = "span" if is_span else "message"
            raise ProtocolError(Rule.REASONING_WITHOUT_START, f"no open reasoning {what} {event.message_id!r}")
        self._check_owner("reasoning", event.message_id, event)
        if event.type is not EventType.REASONING_MESSAGE_CONTENT:
            open_ids.discard(event.message_id)

    def _encrypted_value(self, event: ReasoningEncryptedValueEvent) -> None:
        entity = event.entity_id
        if event.subtype == "tool-call":
            self._check_owner("tool call", entity, event)
        elif entity in self._owners["message"]:
            self._check_owner("message", entity, event)
        else:
            self._check_owner("reasoning", entity, event)

    # Activities

    def _activity_snapshot(self, event: ActivitySnapshotEvent) -> None:
        activities = self._owners["activity"]
        if event.message_id not in activities or event.replace is not False:
            activities[event.message_id] = event.subagent_run_id

    def _activity_delta(self, event: ActivityDeltaEvent) -> None:
        self._check_owner("activity", event.message_id, event)

    # Subagents

    def _subagent_started(self, event: SubagentStartedEvent) -> None:
        run_id = event.subagent_run_id  # required by the schema on these three events
        if run_id in self._active_subagents:
            raise ProtocolError(Rule.SUBAGENT_DUPLICATE, f"subagent {run_id!r} is already active")
        if run_id in self._closed_subagents:
            raise ProtocolError(Rule.SUBAGENT_DUPLICATE, f"subagent {run_id!r} already ran in this run; ids are per invocation")
        parent = event.parent_subagent_run_id
        if parent is not None and parent not in self._active_subagents and parent not in self._closed_subagents:
            raise ProtocolError(Rule.SUBAGENT_UNKNOWN_PARENT, f"parentSubagentRunId {parent!r} was not started in this run")
        self._active_subagents.add(run_id)

    def _subagent_ended(self, event: SubagentFinishedEvent | SubagentErrorEvent) -> None:
        run_id = event.subagent_run_id
        if run_id not in self._active_subagents:
            rule = (
                Rule.SUBAGENT_FINISHED_WITHOUT_START
                if event.type is EventType.SUBAGENT_FINISHED
                else Rule.SUBAGENT_ERROR_WITHOUT_START
            )
            raise ProtocolError(rule, f"no active subagent {run_id!r}")
        self._active_subagents.discard(run_id)
        self._closed_subagents.add(run_id)

    # Ownership

    def _messages_snapshot(self, event: MessagesSnapshotEvent) -> None:
        self._seed_owners(event.messages, authoritative=True)

    def _seed_owners(self, messages: Sequence[Message], *, authoritative: bool) -> None:
        for message in messages:
            _refuse_null_attribution(message, f"message {message.id!r}")
            owner = getattr(message, "subagent_run_id", None)
            bucket = {"reasoning": "reasoning", "activity": "activity"}.get(message.role, "message")
            owners = self._owners[bucket]
            if authoritative or message.id not in owners:
                owners[message.id] = owner
            for call in getattr(message, "tool_calls", None) or ():
                if authoritative or call.id not in self._owners["tool call"]:
                    self._owners["tool call"][call.id] = owner

    def _claim(self, kind: str, entity_id: str, event: Attributed) -> None:
        owners = self._owners[kind]
        if entity_id in owners:
            self._check_owner(kind, entity_id, event)
        else:
            owners[entity_id] = event.subagent_run_id

    def _check_owner(self, kind: str, entity_id: str, event: Attributed) -> None:
        tag = event.subagent_run_id
        if tag is None:
            return
        owners = self._owners[kind]
        if entity_id in owners and owners[entity_id] != tag:
            raise ProtocolError(
                Rule.OWNER_MISMATCH,
                f"subagentRunId {tag!r} does not match the {kind} {entity_id!r} opened by {owners[entity_id] or _PARENT}",
            )


def _refuse_null_attribution(part: Message | Interrupt, what: str) -> None:
    """A message or interrupt inside an event says subagentRunId: null (the reference client refuses it there too)."""
    if getattr(part, "subagent_run_id", 0) is None and "subagent_run_id" in part.model_fields_set:
        raise ProtocolError(Rule.NULL_ATTRIBUTION, f"{what} has subagentRunId null; leave it out instead")

"""Sequence verification with the rules of the reference client (@ag-ui/client 1.0 verifyEvents).

The verifier sees every event after chunk expansion and raises ProtocolError at the first one that
breaks a rule. Several runs may follow one another in one stream; each RUN_STARTED after a
finished or failed run starts the tracking afresh. Owners (the subagent that opened a message,
tool call, reasoning block or activity) are kept per kind of entity for the whole run, so that an
event continuing an entity cannot come from another producer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ag_ui.core import BaseEvent, EventType

from ..errors import ProtocolError
from ._rules import Rule

_PARENT = "(the parent agent)"


class SequenceVerifier:
    """Checks the order of events; raises ProtocolError naming the broken rule."""

    def __init__(self) -> None:
        self._started = False  # a first event was seen
        self._run_active = False
        self._finished = False
        self._errored = False
        self._reset_run()
        self._check: dict[EventType, Callable[[Any], None]] = {
            EventType.TEXT_MESSAGE_START: self._text_start,
            EventType.TEXT_MESSAGE_CONTENT: self._text_continue,
            EventType.TEXT_MESSAGE_END: self._text_end,
            EventType.TOOL_CALL_START: self._tool_start,
            EventType.TOOL_CALL_ARGS: self._tool_continue,
            EventType.TOOL_CALL_END: self._tool_end,
            EventType.TOOL_CALL_RESULT: self._tool_result,
            EventType.STEP_STARTED: self._step_started,
            EventType.STEP_FINISHED: self._step_finished,
            EventType.REASONING_START: self._reasoning_open,
            EventType.REASONING_MESSAGE_START: self._reasoning_open,
            EventType.REASONING_MESSAGE_CONTENT: self._reasoning_continue,
            EventType.REASONING_MESSAGE_END: self._reasoning_continue,
            EventType.REASONING_END: self._reasoning_continue,
            EventType.REASONING_ENCRYPTED_VALUE: self._encrypted_value,
            EventType.ACTIVITY_SNAPSHOT: self._activity_snapshot,
            EventType.ACTIVITY_DELTA: self._activity_delta,
            EventType.SUBAGENT_STARTED: self._subagent_started,
            EventType.SUBAGENT_FINISHED: self._subagent_ended,
            EventType.SUBAGENT_ERROR: self._subagent_ended,
            EventType.MESSAGES_SNAPSHOT: self._messages_snapshot,
            EventType.RUN_STARTED: self._run_started,
            EventType.RUN_FINISHED: self._run_finished,
            EventType.RUN_ERROR: self._run_error,
        }

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
        check = self._check.get(kind)
        if check is not None:
            check(event)

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

    def _run_started(self, event: Any) -> None:
        if self._run_active:
            raise ProtocolError(Rule.RUN_ALREADY_ACTIVE, "RUN_STARTED while a run is still active")
        self._reset_run()
        self._run_active, self._finished, self._errored = True, False, False
        if event.input is not None:
            self._seed_owners(event.input.messages, authoritative=False)

    def _run_finished(self, event: Any) -> None:
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

    def _run_error(self, _event: Any) -> None:
        self._run_active, self._finished, self._errored = False, False, True

    # Text messages

    def _text_start(self, event: Any) -> None:
        message_id = event.message_id
        if message_id in self._open_text:
            raise ProtocolError(Rule.TEXT_ALREADY_OPEN, f"text message {message_id!r} is already open")
        self._claim("message", message_id, event)
        self._open_text.add(message_id)

    def _text_continue(self, event: Any) -> None:
        if event.message_id not in self._open_text:
            raise ProtocolError(Rule.TEXT_WITHOUT_START, f"no open text message {event.message_id!r}")
        self._check_owner("message", event.message_id, event)

    def _text_end(self, event: Any) -> None:
        if event.message_id not in self._open_text:
            raise ProtocolError(Rule.TEXT_END_WITHOUT_START, f"no open text message {event.message_id!r}")
        self._check_owner("message", event.message_id, event)
        self._open_text.discard(event.message_id)

    # Tool calls

    def _tool_start(self, event: Any) -> None:
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

    def _tool_continue(self, event: Any) -> None:
        if event.tool_call_id not in self._open_tools:
            raise ProtocolError(Rule.TOOL_ARGS_WITHOUT_START, f"no open tool call {event.tool_call_id!r}")
        self._check_owner("tool call", event.tool_call_id, event)

    def _tool_end(self, event: Any) -> None:
        if event.tool_call_id not in self._open_tools:
            raise ProtocolError(Rule.TOOL_END_WITHOUT_START, f"no open tool call {event.tool_call_id!r}")
        self._check_owner("tool call", event.tool_call_id, event)
        self._open_tools.discard(event.tool_call_id)

    def _tool_result(self, event: Any) -> None:
        self._owners["message"][event.message_id] = event.subagent_run_id

    # Steps

    def _step_started(self, event: Any) -> None:
        names = self._steps.setdefault(event.subagent_run_id, set())
        if event.step_name in names:
            raise ProtocolError(Rule.STEP_ALREADY_ACTIVE, f"step {event.step_name!r} is already active")
        names.add(event.step_name)

    def _step_finished(self, event: Any) -> None:
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

    def _reasoning_open(self, event: Any) -> None:
        is_span = event.type is EventType.REASONING_START
        open_ids = self._open_spans if is_span else self._open_reasoning
        if event.message_id in open_ids:
            what = "span" if is_span else "message"
            raise ProtocolError(Rule.REASONING_ALREADY_OPEN, f"reasoning {what} {event.message_id!r} is already open")
        self._claim("reasoning", event.message_id, event)
        open_ids.add(event.message_id)

    def _reasoning_continue(self, event: Any) -> None:
        is_span = event.type is EventType.REASONING_END
        open_ids = self._open_spans if is_span else self._open_reasoning
        if event.message_id not in open_ids:
            what = "span" if is_span else "message"
            raise ProtocolError(Rule.REASONING_WITHOUT_START, f"no open reasoning {what} {event.message_id!r}")
        self._check_owner("reasoning", event.message_id, event)
        if event.type is not EventType.REASONING_MESSAGE_CONTENT:
            open_ids.discard(event.message_id)

    def _encrypted_value(self, event: Any) -> None:
        entity = event.entity_id
        if event.subtype == "tool-call":
            self._check_owner("tool call", entity, event)
        elif entity in self._owners["message"]:
            self._check_owner("message", entity, event)
        else:
            self._check_owner("reasoning", entity, event)

    # Activities

    def _activity_snapshot(self, event: Any) -> None:
        activities = self._owners["activity"]
        if event.message_id not in activities or event.replace is not False:
            activities[event.message_id] = event.subagent_run_id

    def _activity_delta(self, event: Any) -> None:
        self._check_owner("activity", event.message_id, event)

    # Subagents

    def _subagent_started(self, event: Any) -> None:
        run_id = event.subagent_run_id
        if run_id is None:
            raise ProtocolError(Rule.SCHEMA, "SUBAGENT_STARTED needs a subagentRunId")
        if run_id in self._active_subagents:
            raise ProtocolError(Rule.SUBAGENT_DUPLICATE, f"subagent {run_id!r} is already active")
        if run_id in self._closed_subagents:
            raise ProtocolError(Rule.SUBAGENT_DUPLICATE, f"subagent {run_id!r} already ran in this run; ids are per invocation")
        parent = event.parent_subagent_run_id
        if parent is not None and parent not in self._active_subagents and parent not in self._closed_subagents:
            raise ProtocolError(Rule.SUBAGENT_UNKNOWN_PARENT, f"parentSubagentRunId {parent!r} was not started in this run")
        self._active_subagents.add(run_id)

    def _subagent_ended(self, event: Any) -> None:
        run_id = event.subagent_run_id
        if run_id is None:
            raise ProtocolError(Rule.SCHEMA, f"{event.type.value} needs a subagentRunId")
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

    def _messages_snapshot(self, event: Any) -> None:
        self._seed_owners(event.messages, authoritative=True)

    def _seed_owners(self, messages: list[Any], *, authoritative: bool) -> None:
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

    def _claim(self, kind: str, entity_id: str, event: Any) -> None:
        owners = self._owners[kind]
        if entity_id in owners:
            self._check_owner(kind, entity_id, event)
        else:
            owners[entity_id] = event.subagent_run_id

    def _check_owner(self, kind: str, entity_id: str, event: Any) -> None:
        tag = event.subagent_run_id
        if tag is None:
            return
        owners = self._owners[kind]
        if entity_id in owners and owners[entity_id] != tag:
            raise ProtocolError(
                Rule.OWNER_MISMATCH,
                f"subagentRunId {tag!r} does not match the {kind} {entity_id!r} opened by {owners[entity_id] or _PARENT}",
            )


def _refuse_null_attribution(part: Any, what: str) -> None:
    """A message or interrupt inside an event says subagentRunId: null (the reference client refuses it there too)."""
    if getattr(part, "subagent_run_id", 0) is None and "subagent_run_id" in part.model_fields_set:
        raise ProtocolError(Rule.NULL_ATTRIBUTION, f"{what} has subagentRunId null; leave it out instead")

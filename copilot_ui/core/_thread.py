"""The thread as the run loop keeps it: the AG-UI conversation plus the loop's own bookkeeping.

Everything the loop needs to decide its next step lives here, so that a thread saved while it
waits for a person (or when the server restarts) is resumed by a click, a reload or another
worker: what waits for a person and as what it was shown, the person's decisions, the messages
they queued during a run, and the book of the current turn. bookkeeping_json() and
restore_bookkeeping() carry all of it through a store.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ag_ui.core import ActivityMessage, AssistantMessage, Interrupt, Message, ReasoningMessage, ToolMessage, UserMessage

from .. import protocol
from ..protocol._json import JSON, JSONObject
from ._attachments import Attachment, user_content
from ._awaiting import Awaiting, digest_of_call, fits, interrupt_as_shown
from ._decisions import Decision, decision_from_json, decision_json

logger = logging.getLogger("copilot_ui.core")
INTERRUPTED = "interrupted"  # the failure of an agent run that the server's stopping cut off
NOT_RUN_WHEN_STOPPED = "the run was cancelled before this call ran"  # a call's result when the server stops first


@dataclass(frozen=True)
class QueuedMessage:
    """A message the person wrote while the loop was busy; it goes with the agent's next run."""

    id: str
    text: str
    attachments: tuple[Attachment, ...] = ()  # files the person attached to it


@dataclass
class TurnBook:
    """The book kept from a person's message until the agent is done, over every turn that takes (a decision resumes it)."""

    agent_runs: int = 0  # runs of the agent in this turn, the first included
    follow_up_due: bool = False  # every call of the last batch has its result and one wants a follow-up
    batch: dict[str, str] = field(
        default_factory=dict[str, str]
    )  # call id → what its result asks: follow_up, complete_run, quiet
    last_call_signature: str | None = None
    same_call_streak: int = 0  # replies in a row that made the same call
    last_call_run: int = 0  # the agent run (of this turn) that made the last call counted
    last_sent_message_id: str | None = None  # the last message of the thread when the agent last ran
    failed: str | None = None  # the error of the last agent run, when it failed (RunLoop.retry runs it again)
    failed_after: str | None = None  # the last message before the failed run added any (None: from the start)
    going_on: bool = False  # the failed run was cut off mid-reply: Retry asks the agent to go on from what it said


class Thread(protocol.AGUIThread):
    """An AG-UI thread with the run loop's bookkeeping."""

    def __init__(self, thread_id: str | None = None, messages: Iterable[Message] = (), state: JSON = None) -> None:
        # Set before the messages are indexed: a result among them uses up its call's decision.
        self.decisions: dict[str, Decision] = {}  # by the key of what waits (call id or interrupt key)
        self.awaiting: dict[str, Awaiting] = {}  # what waits for a person now, as it was shown
        self.queued: list[QueuedMessage] = []
        self.turn = TurnBook()
        super().__init__(thread_id, messages, state)

    # A person decides

    def decide(self, key: str, decision: Decision, digest: str) -> bool:
        """Record a person's decision on what waits under `key`; False (with a warning in the log) if it does not count.

        It counts only when something waits under that key now, `digest` is the digest it was shown
        with, the decision fits the kind of wait (Approve or Deny an approval; Answer or Deny a
        question), and nothing was decided on it yet.
        """
        refusal = self._refusal(key, decision, digest)
        if refusal is not None:
            logger.warning("a decision on %r in thread %r was refused: %s", key, self.id, refusal)
            return False
        self.decisions[key] = decision
        return True

    def forget_waiting(self, key: str) -> None:
        """Nothing waits under this key any more: its record and any decision on it are gone."""
        self.awaiting.pop(key, None)
        self.decisions.pop(key, None)

    def decide_for_person(self, key: str, decision: Decision) -> None:
        """The loop decides in the person's name (they wrote instead, or stopped): a later click finds it decided."""
        self.decisions[key] = decision

    def _refusal(self, key: str, decision: Decision, digest: str) -> str | None:
        shown = self.awaiting.get(key)
        if shown is None:
            return "nothing waits for a person under this key"
        if key in self.decisions:
            return "it was already decided"
        if digest != shown.digest:
            return "the decision was made on another version of the call than the one waiting"
        if not fits(shown.kind, decision):
            return f"{type(decision).__name__} does not answer a request for {shown.kind}"
        if not self._still_open(shown):
            del self.awaiting[key]
            return "it is no longer open"
        return None

    def interrupt_shown(self, interrupt: Interrupt) -> Awaiting:
        """An agent's interrupt as the person is shown it now (with its call, where it names one)."""
        return interrupt_as_shown(interrupt, self.tool_call(interrupt.tool_call_id) if interrupt.tool_call_id else None)

    def _still_open(self, shown: Awaiting) -> bool:
        if shown.interrupt_id is not None:
            interrupt = next((each for each in self.interrupts if each.id == shown.interrupt_id), None)
            return interrupt is not None and self.interrupt_shown(interrupt).digest == shown.digest
        call = self.tool_call(shown.key)
        return call is not None and self.result_of(shown.key) is None and digest_of_call(call) == shown.digest

    def last_message(self) -> Message | None:
        """The last message of the thread, if any (without copying the list)."""
        return self.message(self._messages[-1].id) if self._messages else None

    def last_message_id(self) -> str | None:
        """The id of the last message of the thread, if any."""
        return self._messages[-1].id if self._messages else None

    def add_user_message(
        self, content: str, message_id: str | None = None, attachments: Sequence[Attachment] = ()
    ) -> UserMessage:
        """Append what the person said, with the files they attached (referred to, not held: see _attachments)."""
        message = UserMessage(id=message_id or protocol.new_id("msg-"), content=user_content(content, attachments))
        self.add_message(message)
        return message

    # Turns

    def start_turn(self) -> None:
        """A person spoke: the book starts again."""
        self.turn = TurnBook()

    def clear(self) -> None:
        """Forget everything: messages, state, what waits, decisions, queued messages, the turn."""
        super().clear()
        self.decisions, self.awaiting, self.queued = {}, {}, []
        self.turn = TurnBook()

    def replace_messages(self, messages: Iterable[Message]) -> None:
        """Start again from these messages; what waited on a call that is gone waits no more."""
        super().replace_messages(messages)
        for key, shown in list(self.awaiting.items()):
            if shown.interrupt_id is None and self.tool_call(key) is None:
                self.forget_waiting(key)

    def _index(self, message: Message) -> None:
        super()._index(message)
        if isinstance(message, ToolMessage):  # a call with its result waits for no one: its decision is used up
            self.forget_waiting(message.tool_call_id)

    def interrupted_after(self, after: str | None) -> None:
        """The server stopped during the agent run that followed message `after` (None: the first message).

        What the run said stays: the person read it. What it left unfinished goes: its calls that never ran
        (without a result, or answered for the stop before they ran; their arguments may not all have come), and
        a reply left with nothing in it. Retry then goes on from what it said (`turn.going_on`), or runs it again
        if it said nothing: a call that never ran is the agent's to make again.
        """
        messages = self.messages
        start = 0 if after is None else next((i + 1 for i, m in enumerate(messages) if m.id == after), len(messages))
        kept, changed = messages[:start], False
        for message in messages[start:]:
            if isinstance(message, AssistantMessage) and message.tool_calls:
                ran = [call for call in message.tool_calls if not self._never_ran(call.id)]
                if len(ran) < len(message.tool_calls):
                    message, changed = message.model_copy(update={"tool_calls": ran or None}), True
            if isinstance(message, ToolMessage) and self._never_ran(message.tool_call_id):
                changed = True
                continue
            if _empty(message):
                changed = True
                continue
            kept.append(message)
        if changed:
            self.replace_messages(kept)
        said = [message for message in kept[start:] if not isinstance(message, ActivityMessage)]
        self.turn.failed = INTERRUPTED
        self.turn.failed_after = kept[-1].id if said else after
        self.turn.going_on = bool(said) and isinstance(said[-1], AssistantMessage | ReasoningMessage)

    def _never_ran(self, call_id: str) -> bool:
        """A call without a result, or one answered for the server's stopping before it ran."""
        result = self.result_of(call_id)
        return result is None or result.error == f"aborted: {NOT_RUN_WHEN_STOPPED}"

    # Stores

    def bookkeeping_json(self) -> JSONObject:
        """The loop's bookkeeping as JSON values: what a store keeps beside the messages to resume the thread."""
        return {
            "decisions": {key: decision_json(decision) for key, decision in self.decisions.items()},
            "awaiting": [dataclasses.asdict(shown) for shown in self.awaiting.values()],
            "turn": dataclasses.asdict(self.turn),
            "interrupts": [interrupt.model_dump(mode="json", by_alias=True) for interrupt in self.interrupts],
            "queued": [dataclasses.asdict(message) for message in self.queued],
        }

    def restore_bookkeeping(self, saved: dict[str, Any]) -> None:
        """Take back what bookkeeping_json() wrote (keys it does not know, or lacks, are skipped)."""
        self.decisions = {key: decision_from_json(value) for key, value in saved.get("decisions", {}).items()}
        self.awaiting = {value["key"]: Awaiting(**value) for value in saved.get("awaiting", [])}
        known = {item.name for item in dataclasses.fields(TurnBook)}
        self.turn = TurnBook(**{name: value for name, value in saved.get("turn", {}).items() if name in known})
        self.interrupts = [Interrupt.model_validate(value) for value in saved.get("interrupts", [])]
        self.queued = [_queued_from_json(value) for value in saved.get("queued", [])]


def _empty(message: Message) -> bool:
    """An agent's reply (or reasoning) with no words and no calls."""
    if not isinstance(message, AssistantMessage | ReasoningMessage) or getattr(message, "tool_calls", None):
        return False
    return not isinstance(message.content, str) or message.content.strip() == ""


def _queued_from_json(value: dict[str, Any]) -> QueuedMessage:
    attachments = tuple(Attachment(**each) for each in value.get("attachments") or ())
    return QueuedMessage(id=value["id"], text=value["text"], attachments=attachments)

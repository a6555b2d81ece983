"""Everything observable in a run leaves the loop as one of these events; a UI is a subscriber.

Text, reasoning and tool-call events mirror the AG-UI stream; the others say what the loop itself
does: a person's message added, tools starting, progressing and ending (in the order they end),
calls waiting for a person, errors, and the run starting and ending.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ag_ui.core import BaseEvent

from ..protocol._json import JSON, JSONObject
from ._thread import QueuedMessage


class LoopEvent:
    """Base of the events a run loop emits."""


@dataclass(frozen=True)
class TurnStarted(LoopEvent):
    """The loop started working on a thread."""

    thread_id: str


@dataclass(frozen=True)
class TurnEnded(LoopEvent):
    """The loop stopped working on a thread: done, waiting for a person, stopped, or failed.

    `returned`: messages the person wrote during a turn that was stopped; they were not sent, and
    go back into the message box.
    """

    thread_id: str
    status: str
    message: str = ""
    returned: tuple[QueuedMessage, ...] = ()


@dataclass(frozen=True)
class UserMessageAdded(LoopEvent):
    """A person's message joined the thread: at once (queued False), or one queued during a run, as it now goes."""

    message_id: str
    text: str
    queued: bool


@dataclass(frozen=True)
class AgentRunStarted(LoopEvent):
    """A request to the agent left (the first of a turn, or a follow-up)."""

    run_id: str
    follow_up: int  # 0 for the first run of a turn


@dataclass(frozen=True)
class AgentRunFinished(LoopEvent):
    """The agent's run ended."""

    run_id: str
    outcome: str


@dataclass(frozen=True)
class MessageStarted(LoopEvent):
    """The agent began a message."""

    message_id: str
    role: str


@dataclass(frozen=True)
class TextDelta(LoopEvent):
    """More text of a message."""

    message_id: str
    delta: str


@dataclass(frozen=True)
class MessageEnded(LoopEvent):
    """A message is complete."""

    message_id: str


@dataclass(frozen=True)
class ReasoningStarted(LoopEvent):
    """The agent began a reasoning message (shown collapsed above its reply)."""

    message_id: str


@dataclass(frozen=True)
class ReasoningDelta(LoopEvent):
    """More of a reasoning message."""

    message_id: str
    delta: str


@dataclass(frozen=True)
class ReasoningEnded(LoopEvent):
    """A reasoning message is complete."""

    message_id: str


@dataclass(frozen=True)
class ToolCallStarted(LoopEvent):
    """The agent began a tool call (its arguments follow)."""

    call_id: str
    tool_name: str
    parent_message_id: str | None


@dataclass(frozen=True)
class ToolCallArguments(LoopEvent):
    """More of a tool call's arguments; thread.partial_arguments(call_id) parses them so far."""

    call_id: str
    delta: str


@dataclass(frozen=True)
class ToolCallEnded(LoopEvent):
    """A tool call's arguments are complete."""

    call_id: str


@dataclass(frozen=True)
class ToolExecutionStarted(LoopEvent):
    """A tool handler started."""

    call_id: str
    tool_name: str
    arguments: JSONObject


@dataclass(frozen=True)
class ToolProgress(LoopEvent):
    """A running tool reported progress."""

    call_id: str
    fraction: float | None
    message: str


@dataclass(frozen=True)
class ToolExecutionEnded(LoopEvent):
    """A call got its result (emitted in the order calls end)."""

    call_id: str
    tool_name: str
    result: str
    is_error: bool
    # skipped: the person wrote a new message instead of deciding; dropped: its conversation was cleared meanwhile
    status: Literal["complete", "error", "denied", "skipped", "aborted", "dropped"] = "complete"


@dataclass(frozen=True)
class AwaitingPerson(LoopEvent):
    """A call waits for a person: approval before it runs, or their answer (human in the loop).

    A decision on it counts only with this `digest` (RunLoop.decide): it binds the decision to the
    call as shown here.
    """

    call_id: str
    tool_name: str
    arguments: JSONObject
    kind: Literal["approval", "input"]
    message: str = ""
    interrupt_id: str | None = None
    digest: str = ""


@dataclass(frozen=True)
class StateChanged(LoopEvent):
    """The agent changed the shared state (snapshot or delta applied)."""

    state: JSON


@dataclass(frozen=True)
class AgentEventReceived(LoopEvent):
    """Every AG-UI event, after it was applied (CUSTOM and RAW reach subscribers this way)."""

    event: BaseEvent


@dataclass(frozen=True)
class ErrorOccurred(LoopEvent):
    """Something failed; the message is meant for the person."""

    message: str
    code: str | None = None

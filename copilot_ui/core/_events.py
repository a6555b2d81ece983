"""Everything observable in a run leaves the loop as an event; a UI is a subscriber.

The agent's AG-UI events reach subscribers as they are, once applied to the thread (text, reasoning, tool calls,
results, state, activities, CUSTOM); the loop adds only what AG-UI has no word for: a person's message added, tools
starting, progressing and ending (in the order they end), calls waiting for a person, errors, and the turn and the
agent's run starting and ending (RUN_STARTED, RUN_FINISHED and RUN_ERROR are the loop's to say, with its own).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ag_ui.core import BaseEvent

from ..protocol._json import JSONObject
from ._thread import QueuedMessage


class LoopEvent:
    """Base of the events the run loop adds to the agent's."""


Event = BaseEvent | LoopEvent  # what a subscriber of the run loop receives


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
class ErrorOccurred(LoopEvent):
    """Something failed; the message is meant for the person."""

    message: str
    code: str | None = None

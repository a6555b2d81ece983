"""The exceptions copilot_ui raises, under one base (`except CopilotUIError` catches every one of them):

CopilotUIError
 ├── DeclarationError   a declaration the app made is wrong (an option, a name, a card for no tool)
 ├── ProtocolError      an AG-UI stream broke a rule of the protocol
 ├── FrameTooLarge      a server-sent event grew past the size limit
 ├── PatchError         a JSON Patch (STATE_DELTA) that cannot be applied
 ├── AgentError         an agent run failed: AgentAborted, AgentUnreachable, AgentHTTPError, WrongContentType,
 │                      MalformedFrame, StreamEnded, IdleTimeout, LimitExceeded
 ├── RunFailed          the built-in agent's run failed, in words its model's provider gave
 ├── ThreadBusy         another turn holds the thread
 ├── ArgumentsInvalid   a call's arguments do not fit the tool's schema
 ├── AnswerInvalid      a person's answer does not fit the question's type
 ├── ThreadNotFound     the owner has no thread with this id
 ├── ThreadExists       create() was given the id of a thread the owner already has
 ├── OverLimit          files refused because a limit would be passed
 └── BrowserToolError   a browser tool's script threw or went unanswered; NoBrowser: there is no browser

This module imports nothing of copilot_ui, so that every layer (protocol, agents, core: no Reflex) may raise them.
Those that were a builtin exception before are that one too, so that an `except LookupError` still catches them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .protocol import Rule
    from .protocol._json import JSON


class CopilotUIError(Exception):
    """Something copilot_ui cannot do as the app asked; the message says what to change."""


# Also a TypeError and a ValueError: what Python and the earlier checks raised for a wrong option, so an app's
# `except TypeError` / `except ValueError` still catches it.
class DeclarationError(CopilotUIError, TypeError, ValueError):
    """A declaration is wrong, found when the app is imported or its page is built: the message names the
    declaration, the option, the value given, what the option takes and the close matches there are."""

    def __init__(self, where: str, problem: str, *, takes: str = "", close: Iterable[str] = ()) -> None:
        self.where = where
        self.problem = problem
        self.takes = takes
        self.close = tuple(close)
        hint = " or ".join(self.close)
        message = f"{where}: {problem}" + (f"; {takes}" if takes else "") + (f". Did you mean {hint}?" if hint else ".")
        super().__init__(message)


# The wire (copilot_ui.protocol)


class ProtocolError(CopilotUIError):
    """An AG-UI stream broke a rule: names the rule, the event's index and its type."""

    def __init__(self, rule: Rule, detail: str, *, index: int | None = None, event_type: str | None = None) -> None:
        self.rule = rule
        self.detail = detail
        self.index = index
        self.event_type = event_type
        self.frame: str | None = None  # the offending event as JSON, once known
        super().__init__(self._describe())

    def at(self, index: int, event_type: str | None, frame: str | None = None) -> ProtocolError:
        """The same error, placed at an event of the stream."""
        self.index = index
        self.event_type = self.event_type or event_type
        self.frame = frame if frame is not None else self.frame
        self.args = (self._describe(),)
        return self

    def _describe(self) -> str:
        where = "" if self.index is None else f" at event {self.index}"
        what = f" ({self.event_type})" if self.event_type else ""
        return f"AG-UI rule {self.rule} broken{where}{what}: {self.detail}"


class FrameTooLarge(CopilotUIError):
    """A server-sent event grew past the size limit."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"an event frame grew past {limit:,} characters")
        self.limit = limit


class PatchError(CopilotUIError):
    """A patch that cannot be applied; the document is unchanged."""


# Agents (copilot_ui.agents)


class AgentError(CopilotUIError):
    """An agent run failed before it could finish."""


class AgentAborted(AgentError):
    """The run was stopped on purpose."""

    def __init__(self) -> None:
        super().__init__("the run was stopped")


class AgentUnreachable(AgentError):
    """The agent server could not be reached."""

    def __init__(self, host: str, reason: str) -> None:
        super().__init__(f"cannot reach the agent at {host}: {reason}. Is the server running, and is the URL right?")
        self.host = host


class AgentHTTPError(AgentError):
    """The agent server answered with an HTTP error status."""

    def __init__(self, host: str, status: int, body_start: str) -> None:
        detail = f": {body_start}" if body_start else ""
        super().__init__(f"the agent at {host} answered HTTP {status}{detail}")
        self.host = host
        self.status = status
        self.body_start = body_start


class WrongContentType(AgentError):
    """The agent server answered with something that is not an event stream."""

    def __init__(self, host: str, content_type: str, body_start: str) -> None:
        super().__init__(
            f"the agent at {host} answered with content type {content_type or '(none)'!r} instead of "
            f"text/event-stream; is this an AG-UI endpoint? The answer began: {body_start!r}"
        )
        self.host = host
        self.content_type = content_type


class MalformedFrame(AgentError):
    """A frame of the stream is not a valid AG-UI event."""


class StreamEnded(AgentError):
    """The stream ended while a run was still going (no RUN_FINISHED or RUN_ERROR)."""

    def __init__(self, host: str, events_received: int) -> None:
        super().__init__(
            f"the stream from the agent at {host} ended before RUN_FINISHED, after {events_received} events; "
            "the agent server may have crashed or the connection was cut"
        )
        self.host = host
        self.events_received = events_received


class IdleTimeout(AgentError):
    """Nothing arrived from the agent for too long."""

    def __init__(self, host: str, seconds: float) -> None:
        super().__init__(f"the agent at {host} sent nothing for {seconds:g} s; giving up on this run")
        self.host = host
        self.seconds = seconds


class LimitExceeded(AgentError):
    """The stream broke a size limit (a frame too large, too many events)."""


class RunFailed(CopilotUIError):
    """A run failed for a reason `explain_error` put in words (the original exception is its cause)."""


# The run loop (copilot_ui.core)


class ThreadBusy(CopilotUIError, RuntimeError):
    """Another turn holds this thread; send() queues a message for it and decide() reaches it."""

    def __init__(self, thread_id: str, detail: str = "") -> None:
        self.thread_id = thread_id
        super().__init__(
            detail
            or f"another turn is already running thread {thread_id!r}: send() queues a message for it, "
            "decide() reaches it, and a new turn can start once it ends"
        )


class ArgumentsInvalid(CopilotUIError):
    """The arguments of a call do not fit the tool's schema; lists every field that is wrong."""

    def __init__(self, tool_name: str, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"invalid arguments for {tool_name}: " + "; ".join(problems))


class AnswerInvalid(CopilotUIError, ValueError):
    """A person's response does not fit the type of a question's `answer` parameter; lists what is wrong."""

    def __init__(self, tool_name: str, problems: list[str], answer: JSON = None) -> None:
        self.problems = problems
        self.answer = answer  # what did not fit (a form's one field: its value)
        super().__init__(f"the answer to {tool_name} does not fit its type: " + "; ".join(problems))


# The store (copilot_ui.store)


class ThreadNotFound(CopilotUIError, LookupError):
    """The owner has no thread with this id (it never existed, was deleted, or is someone else's)."""

    def __init__(self, thread_id: str) -> None:
        super().__init__(f"no thread {thread_id!r} for this owner; create() it first")
        self.thread_id = thread_id


class ThreadExists(CopilotUIError, ValueError):
    """create() was given the id of a thread the owner already has."""

    def __init__(self, thread_id: str) -> None:
        super().__init__(f"thread {thread_id!r} already exists for this owner; save() to it instead")
        self.thread_id = thread_id


class OverLimit(CopilotUIError):
    """Files refused because a limit would be passed (nothing was written): `limit` names it, `held` is what is held
    already (the conversation's bytes for "conversation", the owner's files waiting to be sent for "unsent")."""

    def __init__(self, limit: Literal["conversation", "unsent"], held: int) -> None:
        super().__init__(f"over the {limit} limit ({held} held)")
        self.limit, self.held = limit, held


# Browser tools (copilot_ui.state)


class BrowserToolError(CopilotUIError):
    """The script threw, or the browser did not answer in time."""


class NoBrowser(BrowserToolError):
    """The tab has no browser to run the script in (a test of copilot_ui.testing)."""

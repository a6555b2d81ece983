"""What can go wrong talking to an agent, as a small hierarchy of typed errors.

Each message says what happened and, where it helps, what to check. Messages reach the person in
the chat, so they name the agent by its host only (never its full URL, which may hold
credentials), and whatever the server sent is quoted only after its secrets were scrubbed.
"""

from __future__ import annotations


class AgentError(Exception):
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

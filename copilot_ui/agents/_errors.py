"""What can go wrong talking to an agent, as a small hierarchy of typed errors.

Each message says what happened and, where it helps, what to check.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit


def redact_url(url: str) -> str:
    """The URL as errors show it: no user, password or query (they may hold credentials)."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "(an invalid URL)"
    host = parts.hostname or ""
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "…" if parts.query else "", "")) if parts.scheme else url.split("?")[0]


class AgentError(Exception):
    """An agent run failed before it could finish."""


class AgentAborted(AgentError):
    """The run was stopped on purpose."""

    def __init__(self) -> None:
        super().__init__("the run was stopped")


class AgentUnreachable(AgentError):
    """The agent server could not be reached."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(f"cannot reach the agent at {url}: {reason}. Is the server running, and is the URL right?")
        self.url = url


class AgentHTTPError(AgentError):
    """The agent server answered with an HTTP error status."""

    def __init__(self, url: str, status: int, body_start: str) -> None:
        detail = f": {body_start}" if body_start else ""
        super().__init__(f"the agent at {url} answered HTTP {status}{detail}")
        self.url = url
        self.status = status
        self.body_start = body_start


class WrongContentType(AgentError):
    """The agent server answered with something that is not an event stream."""

    def __init__(self, url: str, content_type: str, body_start: str) -> None:
        super().__init__(
            f"the agent at {url} answered with content type {content_type or '(none)'!r} instead of "
            f"text/event-stream; is this an AG-UI endpoint? The answer began: {body_start!r}"
        )
        self.url = url
        self.content_type = content_type


class MalformedFrame(AgentError):
    """A frame of the stream is not a valid AG-UI event."""


class StreamEnded(AgentError):
    """The stream ended while a run was still going (no RUN_FINISHED or RUN_ERROR)."""

    def __init__(self, url: str, events_received: int) -> None:
        super().__init__(
            f"the stream from {url} ended before RUN_FINISHED, after {events_received} events; "
            "the agent server may have crashed or the connection was cut"
        )
        self.url = url
        self.events_received = events_received


class IdleTimeout(AgentError):
    """Nothing arrived from the agent for too long."""

    def __init__(self, url: str, seconds: float) -> None:
        super().__init__(f"the agent at {url} sent nothing for {seconds:g} s; giving up on this run")
        self.url = url
        self.seconds = seconds


class LimitExceeded(AgentError):
    """The stream broke a size limit (a frame too large, too many events)."""

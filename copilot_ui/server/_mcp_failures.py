"""Why an MCP server's tools are missing, or why a call of one failed, in words a person reads: which server,
what happened, and what to check. The details (the exception, what the server printed) go to the server log.

An MCP client reports most failures as "Connection closed" or "Server returned an error response"; the
person needs more than that, so the exception is read for its cause (no such command, nothing listening,
a timeout), and a streamable HTTP server that answered with an error is asked once more, plainly, for its
HTTP status (401: its credentials; 404: its URL).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

import httpx

from ..agents._urls import logged_url

STATUS_PROBE_TIMEOUT = 3.0  # seconds for the plain request that asks an HTTP server for its status
_REASON_CHARS = 200


@dataclass(frozen=True)
class Reach:
    """How the copilot reaches an MCP server: the command it starts (stdio), or its URL (streamable HTTP)."""

    command: str | None = None
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def shown(self) -> str:
        """The server's place as a person may read it: the command's program, or the URL without credentials."""
        if self.command is not None:
            return os.path.basename(self.command)
        return logged_url(self.url or "")


async def why_unavailable(server: str, reach: Reach, error: BaseException, start_timeout: float) -> str:
    """The server did not start, or did not answer: what happened, and what to check."""
    status = await _http_status(reach) if reach.url is not None and not _unreachable(error) else None
    happened, check = _diagnosis(reach, error, start_timeout, status)
    return (
        f'The MCP server "{server}" is not available: {happened}. Check {check}. '
        "Until it is back, the copilot goes on without its tools."
    )


def why_stopped(server: str, tool: str, reach: Reach, error: BaseException) -> str:
    """The server stopped during a call of one of its tools."""
    if reach.command is not None:
        happened, after = "it exited", "it is started again with your next message"
    else:
        happened, after = f"{reach.shown} stopped answering", "it is tried again with your next message"
    return (
        f'The MCP server "{server}" stopped while running {tool} ({happened}: {_reason(error)}). '
        f"Check the server's log; {after}."
    )


def _diagnosis(reach: Reach, error: BaseException, timeout: float, status: int | None) -> tuple[str, str]:
    """What happened, and what to check."""
    errors = list(_causes(error))
    timed_out = any(isinstance(each, TimeoutError) or "Failed to initialize" in str(each) for each in errors)
    if reach.command is not None:
        program = reach.shown
        if any(isinstance(each, FileNotFoundError) for each in errors):
            return f'there is no command "{program}"', "its command"
        if any(isinstance(each, PermissionError) for each in errors):
            return f'the command "{program}" may not be run', "its command"
        if timed_out:
            return f"it did not answer within {timeout:g} s", "that its command starts an MCP server on stdio"
        if any("Connection closed" in str(each) for each in errors):
            return "it exited as it started", "its command, its arguments and its environment (the server log shows what it said)"
        return f"it did not start ({_reason(error)})", "its command and the server log"
    where = reach.shown
    if status in (401, 403):
        return f"{where} refused its credentials (HTTP {status})", "its headers"
    if status == 404:
        return f"there is no MCP endpoint at {where} (HTTP 404)", "its URL"
    if _unreachable(error):
        return f"nothing answers at {where}", "that the server runs and that its URL is right"
    if timed_out:
        return f"{where} did not answer within {timeout:g} s", "that the server runs and that its URL is an MCP endpoint"
    shown_status = f"HTTP {status}: " if status is not None and status >= 400 else ""
    return f"{where} answered with an error ({shown_status}{_reason(error)})", "its URL and the server's log"


def _unreachable(error: BaseException) -> bool:
    return any(
        isinstance(each, httpx.ConnectError | ConnectionError) or "All connection attempts failed" in str(each)
        for each in _causes(error)
    )


async def _http_status(reach: Reach) -> int | None:
    """The HTTP status the server gives a plain MCP request with the configured headers (None: no answer)."""
    request = {"jsonrpc": "2.0", "id": 0, "method": "ping"}
    headers = {"Accept": "application/json, text/event-stream", **reach.headers}
    try:
        async with httpx.AsyncClient(timeout=STATUS_PROBE_TIMEOUT) as client:
            response = await client.post(reach.url or "", json=request, headers=headers)
    except (httpx.HTTPError, ValueError):
        return None
    return response.status_code


def _causes(error: BaseException) -> Iterator[BaseException]:
    """The error, what it was raised from or during, and the members of exception groups, each once."""
    seen: set[int] = set()
    stack = [error]
    while stack:
        each = stack.pop()
        if id(each) in seen:
            continue
        seen.add(id(each))
        yield each
        if isinstance(each, BaseExceptionGroup):
            stack.extend(each.exceptions)
        stack.extend(cause for cause in (each.__cause__, each.__context__) if cause is not None)


def _reason(error: BaseException) -> str:
    """The error's message in a line: the first one its chain has (its type's name when none says anything)."""
    texts = (str(each).strip() for each in _causes(error) if not isinstance(each, BaseExceptionGroup))
    text = " ".join(next((text for text in texts if text), type(error).__name__).split())
    return text if len(text) <= _REASON_CHARS else text[: _REASON_CHARS - 1] + "…"

"""HttpAgent: any AG-UI server, over HTTP POST and server-sent events (httpx, httpx-sse).

The request is the RunAgentInput as camelCase JSON with `Accept: text/event-stream`. The answer
must be an event stream; every other answer, and every way a stream can break, ends the run with
a typed error that says what happened. Limits on the size of a frame and on the number of events
in a run end a misbehaving stream before it exhausts memory.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

import httpx
from ag_ui.core import BaseEvent, EventType, RunAgentInput

from ..protocol import DEFAULT_MAX_FRAME_CHARS, FrameTooLarge, ProtocolError, SSEFrames, parse_event
from ._base import Agent
from ._errors import (
    AgentError,
    AgentHTTPError,
    AgentUnreachable,
    IdleTimeout,
    LimitExceeded,
    MalformedFrame,
    StreamEnded,
    WrongContentType,
    redact_url,
)

_BODY_START = 500  # characters of an error answer quoted in the error


@dataclass(frozen=True, kw_only=True)
class HttpLimits:
    """Timeouts and size limits of an HttpAgent."""

    connect_timeout: float = 10.0  # seconds to open the connection
    idle_timeout: float = 120.0  # seconds without a byte from the server before the run fails
    max_frame_chars: int = DEFAULT_MAX_FRAME_CHARS
    max_events_per_run: int = 200_000


class HttpAgent(Agent):
    """An AG-UI agent reached over HTTP."""

    def __init__(
        self,
        url: str,
        *,
        agent_id: str = "default",
        description: str = "",
        headers: Mapping[str, str] | None = None,
        limits: HttpLimits | None = None,
        client: httpx.AsyncClient | None = None,
    ) -> None:
        super().__init__(agent_id, description)
        self.url = url
        self._shown_url = redact_url(url)  # errors reach the person: no credentials in them
        self.headers = dict(headers or {})
        self._secrets = _secrets_in(url, self.headers)
        self.limits = limits or HttpLimits()
        self._client = client

    def __repr__(self) -> str:  # headers may hold credentials: never shown
        return f"HttpAgent({self._shown_url!r}, agent_id={self.agent_id!r})"

    async def _events(self, run_input: RunAgentInput) -> AsyncIterator[BaseEvent]:
        try:
            async for event in self._request(run_input):
                yield event
        except AgentError as error:  # its message reaches the person: no credential may be in it
            error.args = tuple(self._scrub(part) if isinstance(part, str) else part for part in error.args)
            raise

    def _scrub(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, "…")
        return text

    async def _request(self, run_input: RunAgentInput) -> AsyncIterator[BaseEvent]:
        limits = self.limits
        timeout = httpx.Timeout(limits.idle_timeout, connect=limits.connect_timeout)
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream", **self.headers}
        body = run_input.model_dump_json(by_alias=True)
        client = self._client or httpx.AsyncClient(timeout=timeout)
        stream = _StreamReader(self._shown_url, limits)
        try:
            async with client.stream("POST", self.url, content=body, headers=headers, timeout=timeout) as response:
                await stream.check(response)
                async for event in stream.events(response):
                    yield event
        except httpx.ConnectTimeout:
            raise AgentUnreachable(self._shown_url, f"no connection within {limits.connect_timeout:g} s") from None
        except httpx.TimeoutException:
            raise IdleTimeout(self._shown_url, limits.idle_timeout) from None
        except (httpx.ConnectError, httpx.UnsupportedProtocol) as error:  # the latter: a URL without http(s)://
            raise AgentUnreachable(self._shown_url, _reason(error)) from None
        except (httpx.RemoteProtocolError, httpx.ReadError):
            raise StreamEnded(self._shown_url, stream.received) from None
        except httpx.HTTPError as error:  # anything else httpx can raise is still an AgentError
            raise AgentError(f"talking to the agent at {self._shown_url} failed: {_reason(error)}") from None
        finally:
            if self._client is None:
                await client.aclose()


class _StreamReader:
    """Reads the answer of one run: checks it, parses its frames, counts its events."""

    def __init__(self, url: str, limits: HttpLimits) -> None:
        self.url = url
        self.limits = limits
        self.received = 0

    async def check(self, response: httpx.Response) -> None:
        if response.status_code >= 300:
            raise AgentHTTPError(self.url, response.status_code, await _body_start(response))
        content_type = response.headers.get("content-type", "")
        if content_type.split(";")[0].strip().lower() != "text/event-stream":
            raise WrongContentType(self.url, content_type, await _body_start(response))

    async def events(self, response: httpx.Response) -> AsyncIterator[BaseEvent]:
        frames = SSEFrames(self.limits.max_frame_chars)
        run_open = False
        try:
            async for text in response.aiter_text():
                for data in frames.feed(text):
                    event = self._parse(data)
                    if event is not None:
                        run_open = _run_open_after(event, run_open)
                        yield event
            for data in frames.close():
                event = self._parse(data)
                if event is not None:
                    run_open = _run_open_after(event, run_open)
                    yield event
        except FrameTooLarge as error:
            raise LimitExceeded(
                f"the agent at {self.url} sent an event frame larger than {error.limit:,} characters; the run was stopped"
            ) from None
        if run_open or self.received == 0:
            raise StreamEnded(self.url, self.received)

    def _parse(self, data: str) -> BaseEvent | None:
        try:
            event = parse_event(data)
        except ProtocolError as error:
            raise MalformedFrame(
                f"the agent at {self.url} sent a malformed frame after {self.received} events: {error}"
            ) from None
        if event is not None:
            self.received += 1
            if self.received > self.limits.max_events_per_run:
                raise LimitExceeded(
                    f"the agent at {self.url} sent more than {self.limits.max_events_per_run:,} events in one run; "
                    "the run was stopped"
                )
        return event


def _run_open_after(event: BaseEvent, run_open: bool) -> bool:
    kind = event.type
    if kind is EventType.RUN_STARTED:
        return True
    if kind is EventType.RUN_FINISHED or kind is EventType.RUN_ERROR:
        return False
    return run_open


async def _body_start(response: httpx.Response) -> str:
    collected = ""
    try:
        async for text in response.aiter_text():
            collected += text
            if len(collected) >= _BODY_START:
                break
    except httpx.HTTPError:
        pass
    collected = " ".join(collected.split())
    return collected[:_BODY_START] + ("…" if len(collected) > _BODY_START else "")


def _reason(error: Exception) -> str:
    # httpx words a refusal "All connection attempts failed"; the ConnectionRefusedError is further down its causes.
    cause: BaseException | None = error
    while cause is not None:
        text = str(cause).lower()
        if isinstance(cause, ConnectionRefusedError) or "refused" in text or "errno 111" in text:
            return "connection refused"
        cause = cause.__cause__ or cause.__context__
    return str(error).rstrip(".") or type(error).__name__


def _secrets_in(url: str, headers: dict[str, str]) -> list[str]:
    """What must never appear in an error: the URL's password and query values, the headers' values."""
    parts = urlsplit(url)
    found = [parts.password or "", *(value for _, value in parse_qsl(parts.query))]
    for value in headers.values():
        found += [value, value.split()[-1] if value.split() else ""]  # "Bearer <token>": the token alone too
    return sorted({secret for secret in found if len(secret) >= 4}, key=len, reverse=True)

"""HttpAgent: any AG-UI server, over HTTP POST and server-sent events (httpx, httpx-sse).

The request is the RunAgentInput as camelCase JSON with `Accept: text/event-stream`. The answer
must be an event stream; every other answer, and every way a stream can break, ends the run with
a typed error that says what happened. Limits on the size of a frame and on the number of events
in a run end a misbehaving stream before it exhausts memory.

The agent's credentials (its URL's user, password and query values, its headers' values) are
scrubbed from every frame before it is parsed and from an error answer before it is shortened, so
a server that echoes them back (in a reply, a RUN_ERROR, an id, an error page, in base64) shows
them to no one. Errors name the agent's host only; the server log keeps the credential-free URL
(httpx's own request log included).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlsplit

import httpx
from ag_ui.core import BaseEvent, EventType, RunAgentInput

from .._checks import keywords_checked
from ..errors import (
    AgentError,
    AgentHTTPError,
    AgentUnreachable,
    IdleTimeout,
    LimitExceeded,
    MalformedFrame,
    StreamEnded,
    WrongContentType,
)
from ..protocol import DEFAULT_MAX_FRAME_CHARS, EventParser, FrameTooLarge, ProtocolError, SSEFrames
from ._base import Agent
from ._httpx_log import hide_in_httpx_log
from ._secrets import Scrubber
from ._tls import new_client
from ._urls import agent_host, logged_url

logger = logging.getLogger("copilot_ui.agents")

_BODY_START = 500  # characters of an error answer quoted in the error
_BODY_READ_LIMIT = 64_000  # characters of an error answer read at most, to find those


@dataclass(frozen=True, kw_only=True)
class HttpLimits:
    """Timeouts and size limits of an HttpAgent."""

    connect_timeout: float = 10.0
    """Seconds to open the connection."""
    idle_timeout: float = 120.0
    """Seconds without a byte from the server before the run fails (meanwhile the copilot shows "Waiting for the agent… N s")."""
    max_frame_chars: int = DEFAULT_MAX_FRAME_CHARS
    """The longest server-sent event, in characters; a longer one ends the run with an error."""
    max_events_per_run: int = 200_000
    """Events one run may send before it is ended with an error."""

    @property
    def timeout(self) -> httpx.Timeout:
        """The timeouts as httpx takes them: idle between bytes, and for the connection."""
        return httpx.Timeout(self.idle_timeout, connect=self.connect_timeout)


@keywords_checked("cui.HttpAgent")
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
        self.headers = dict(headers or {})
        self.limits = limits or HttpLimits()
        self._client = client

    @property
    def host(self) -> str:
        """The agent's host (and port), as errors name it."""
        return agent_host(self.url)

    def secrets(self) -> list[str]:
        """The URL's user, password and query values, every header value, and the credentials in them."""
        return request_secrets(self.url, self.headers)

    def __repr__(self) -> str:  # the URL without its credentials; headers never shown
        shown = Scrubber(self.secrets()).scrub(logged_url(self.url))
        return f"HttpAgent({shown!r}, agent_id={self.agent_id!r})"

    async def _events(self, run_input: RunAgentInput) -> AsyncIterator[BaseEvent]:
        scrubber = Scrubber(self.secrets())  # per run: the URL and headers may have changed since the last
        try:
            async with contextlib.aclosing(self._request(run_input, scrubber)) as events:  # (closed in this task)
                async for event in events:
                    yield event
        except AgentError as error:
            report(error, scrubber, f"agent {self.agent_id!r}: POST {logged_url(self.url)}")
            raise

    async def _request(self, run_input: RunAgentInput, scrubber: Scrubber) -> AsyncGenerator[BaseEvent, None]:
        limits, host = self.limits, self.host
        timeout = limits.timeout
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream", **self.headers}
        body = run_input.model_dump_json(by_alias=True)
        client = self._client or new_client(timeout)
        stream = _StreamReader(host, limits, scrubber)
        hide_in_httpx_log(self.url)
        try:
            async with client.stream("POST", self.url, content=body, headers=headers, timeout=timeout) as response:
                await stream.check(response)
                async with contextlib.aclosing(stream.events(response)) as events:
                    async for event in events:
                        yield event
        except httpx.ConnectTimeout:
            raise AgentUnreachable(host, f"no connection within {limits.connect_timeout:g} s") from None
        except httpx.TimeoutException:
            raise IdleTimeout(host, limits.idle_timeout) from None
        except (httpx.ConnectError, httpx.UnsupportedProtocol) as error:  # the latter: a URL without http(s)://
            raise AgentUnreachable(host, failure_reason(error)) from None
        except httpx.InvalidURL as error:  # not an httpx.HTTPError
            raise AgentUnreachable(host, f"the URL is not valid ({error})") from None
        except (httpx.RemoteProtocolError, httpx.ReadError):
            raise StreamEnded(host, stream.received) from None
        except httpx.HTTPError as error:  # anything else httpx can raise is still an AgentError
            raise AgentError(f"talking to the agent at {host} failed: {failure_reason(error)}") from None
        finally:
            if self._client is None:
                await client.aclose()


def request_secrets(url: str, headers: Mapping[str, str]) -> list[str]:
    """The credentials a request carries: the URL's user, password and query values, each header value, and the
    credentials of an `<scheme> <credentials>` value ("Bearer <token>"; a Basic one's password too)."""
    found: list[str] = []
    try:
        parts = urlsplit(url)
        found += [parts.username or "", parts.password or "", *(value for _, value in parse_qsl(parts.query))]
    except ValueError:  # an invalid URL: it fails before any request, and errors name only its host
        pass
    for value in headers.values():
        found += [value, *_credentials_in(value)]
    return list(dict.fromkeys(secret for secret in found if secret))


def report(error: AgentError, scrubber: Scrubber, request: str) -> None:
    """Log a failed request for the server's operator, scrubbing the error's message first.

    What the server sent was scrubbed as it came in, before any shortening; this is the backstop for the rest
    (an httpx message quoting a header, a URL's path).
    """
    error.args = tuple(scrubber.scrub(part) if isinstance(part, str) else part for part in error.args)
    logger.warning("%s failed: %s", scrubber.scrub(request), error)


def quoted_start(scrubbed: str, *, complete: bool = True) -> str:
    """The start of a scrubbed answer as an error quotes it: whitespace folded, cut at _BODY_START characters."""
    folded = " ".join(scrubbed.split())
    cut = len(folded) > _BODY_START or (not complete and folded)
    return folded[:_BODY_START] + ("…" if cut else "")


class _StreamReader:
    """Reads the answer of one run: checks it, parses its frames, counts its events."""

    def __init__(self, host: str, limits: HttpLimits, scrubber: Scrubber) -> None:
        self.host = host
        self.limits = limits
        self.scrubber = scrubber
        self.received = 0
        self.parser = EventParser()  # one per stream: an older server's THINKING_* events keep their ids

    async def check(self, response: httpx.Response) -> None:
        if response.status_code >= 300:
            raise AgentHTTPError(self.host, response.status_code, await _body_start(response, self.scrubber))
        content_type = self.scrubber.scrub(response.headers.get("content-type", ""))
        if content_type.split(";")[0].strip().lower() != "text/event-stream":
            raise WrongContentType(self.host, content_type, await _body_start(response, self.scrubber))

    async def events(self, response: httpx.Response) -> AsyncGenerator[BaseEvent, None]:
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
                f"the agent at {self.host} sent an event frame larger than {error.limit:,} characters; the run was stopped"
            ) from None
        if run_open or self.received == 0:
            raise StreamEnded(self.host, self.received)

    def _parse(self, data: str) -> BaseEvent | None:
        try:
            event = self.parser.parse(self.scrubber.scrub(data))  # the agent's credentials never reach the thread
        except ProtocolError as error:
            raise MalformedFrame(
                f"the agent at {self.host} sent a malformed frame after {self.received} events: {error}"
            ) from None
        if event is not None:
            self.received += 1
            if self.received > self.limits.max_events_per_run:
                raise LimitExceeded(
                    f"the agent at {self.host} sent more than {self.limits.max_events_per_run:,} events in one run; "
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


async def _body_start(response: httpx.Response, scrubber: Scrubber) -> str:
    """The start of an error answer: read in pieces and scrubbed as read, so no cut can split a secret."""
    stream = scrubber.stream()
    scrubbed, read, complete = "", 0, False
    try:
        async for text in response.aiter_text():
            scrubbed += stream.feed(text)
            read += len(text)
            if read >= _BODY_READ_LIMIT or len(" ".join(scrubbed.split())) > _BODY_START:
                break
        else:
            scrubbed += stream.end()  # a held tail that could begin a secret is shown only once the answer ended
            complete = True
    except httpx.HTTPError:
        pass
    return quoted_start(scrubbed, complete=complete)


def failure_reason(error: Exception) -> str:
    # httpx words a refusal "All connection attempts failed"; the ConnectionRefusedError is further down its causes.
    cause: BaseException | None = error
    while cause is not None:
        text = str(cause).lower()
        if isinstance(cause, ConnectionRefusedError) or "refused" in text or "errno 111" in text:
            return "connection refused"
        cause = cause.__cause__ or cause.__context__
    return str(error).rstrip(".") or type(error).__name__


def _credentials_in(value: str) -> list[str]:
    scheme, _, credentials = value.strip().partition(" ")
    credentials = credentials.strip()
    if not credentials:
        return []
    if scheme.lower() != "basic":
        return [credentials]
    try:
        _user, _, password = base64.b64decode(credentials, validate=True).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return [credentials]
    return [credentials, password]

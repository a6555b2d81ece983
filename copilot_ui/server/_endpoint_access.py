"""Who may run an agent over HTTP: a bearer token, a size limit, and the origins a browser may call from.

`guarded(app, access)` puts an ASGI app (an AG-UI endpoint) behind these checks, in this order,
each answered at once with a JSON `{"error": ...}` and nothing read that need not be:
- a browser's Origin not on the allowlist: 403 (a preflight OPTIONS from an allowed one: 204);
- a method other than POST: 405;
- no `Authorization: Bearer <token>`, or another token: 401 (compared in constant time, never echoed);
- a body over the limit: 413, from its Content-Length before a byte is read, or as soon as a
  streamed body passes it.
Requests without an Origin (servers, scripts, command-line clients) are not a browser's, so the
allowlist does not apply to them; the token always does.
"""

from __future__ import annotations

import hmac
import json
import os
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

from starlette.datastructures import Headers, MutableHeaders

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TOKEN_VARIABLE = "COPILOT_AGENT_ENDPOINT_TOKEN"
ORIGINS_VARIABLE = "COPILOT_AGENT_ENDPOINT_ORIGINS"
MAX_BYTES_VARIABLE = "COPILOT_AGENT_ENDPOINT_MAX_BYTES"
DEFAULT_MAX_BYTES = 1_000_000
ANY_ORIGIN = "*"

_ALLOWED_METHODS = "POST, OPTIONS"
_ALLOWED_HEADERS = "Authorization, Content-Type, Accept"
_PREFLIGHT_MAX_AGE = "600"  # seconds a browser may keep a preflight's answer


@dataclass(frozen=True)
class EndpointAccess:
    """What a request must bring: the token, a body of at most `max_body_bytes`, and (from a browser) an allowed origin."""

    token: str
    origins: frozenset[str] = frozenset()  # scheme://host[:port], or "*" for any
    max_body_bytes: int = DEFAULT_MAX_BYTES
    token_variable: str = TOKEN_VARIABLE  # named in the errors, so a client's developer knows what to ask for

    def __repr__(self) -> str:  # never the token
        return f"EndpointAccess(origins={sorted(self.origins)}, max_body_bytes={self.max_body_bytes})"

    @classmethod
    def from_environment(
        cls,
        environ: Mapping[str, str] = os.environ,
        *,
        token_variable: str = TOKEN_VARIABLE,
        origins: Iterable[str] | None = None,
        max_body_bytes: int | None = None,
    ) -> EndpointAccess | None:
        """The access the environment sets: None (the endpoint is off) when the token variable is unset or empty.

        `origins` and `max_body_bytes` given here win over COPILOT_AGENT_ENDPOINT_ORIGINS (comma-separated)
        and COPILOT_AGENT_ENDPOINT_MAX_BYTES; ValueError, in words, for a value that makes no sense.
        """
        token = environ.get(token_variable, "").strip()
        if not token:
            return None
        listed = origins if origins is not None else environ.get(ORIGINS_VARIABLE, "").split(",")
        limit = max_body_bytes if max_body_bytes is not None else _max_bytes(environ.get(MAX_BYTES_VARIABLE, ""))
        if limit <= 0:
            raise ValueError(f"the agent endpoint's size limit must be a positive number of bytes, not {limit}")
        return cls(token, frozenset(_origin(entry) for entry in listed if entry.strip()), limit, token_variable)

    def allows_origin(self, origin: str) -> bool:
        """Whether a browser page from this origin may call the endpoint."""
        return ANY_ORIGIN in self.origins or _normalized(origin) in self.origins

    def admits(self, authorization: str | None) -> bool:
        """Whether an Authorization header carries the token (compared in constant time)."""
        scheme, _, given = (authorization or "").strip().partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), self.token.encode())


def guarded(app: ASGIApp, access: EndpointAccess) -> ASGIApp:
    """The app behind the access checks: only a request that passes them all reaches it, its body already read."""
    return _Guard(app, access)


def refusal(status: int, message: str, headers: Mapping[str, str] | None = None) -> ASGIApp:
    """An ASGI app that answers every request with this status and `{"error": message}`."""
    body = json.dumps({"error": message}).encode()

    async def refuse(scope: Scope, receive: Receive, send: Send) -> None:
        await _send_json(send, status, body, headers or {})

    return refuse


class _Guard:
    def __init__(self, app: ASGIApp, access: EndpointAccess) -> None:
        self.app = app
        self.access = access

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        # An allowed page may read every answer, refusals included; a page from elsewhere reads none.
        allowed = origin is not None and self.access.allows_origin(origin)
        cors = {"Access-Control-Allow-Origin": origin, "Vary": "Origin"} if allowed else {}
        refused = self._refusal(scope["method"], headers, origin if origin is not None and not allowed else None)
        if refused is not None:
            status, message, extra = refused
            await _send_json(send, status, json.dumps({"error": message}).encode(), {**extra, **cors})
            return
        if scope["method"] == "OPTIONS":
            await _send_json(send, 204, b"", {**_preflight_headers(headers), **cors})
            return
        body = await read_body(receive, self.access.max_body_bytes)
        if body is None:
            await _send_json(send, 413, json.dumps({"error": self._too_large()}).encode(), {"Connection": "close", **cors})
            return
        await self.app(scope, _replaying(body, receive), _with_headers(send, cors))

    def _refusal(self, method: str, headers: Headers, foreign: str | None) -> tuple[int, str, dict[str, str]] | None:
        """Why a request is refused from its head alone (status, message, headers), or None; `foreign`: an origin
        not on the allowlist."""
        if foreign is not None:
            shown = foreign[:200]
            return 403, f"Pages from {shown} may not use this agent endpoint: its allowlist of origins does not name it.", {}
        if method == "OPTIONS":
            return None
        if method != "POST":
            return 405, "Run the agent with POST and an AG-UI RunAgentInput as JSON.", {"Allow": _ALLOWED_METHODS}
        asked = f"send Authorization: Bearer <the value of {self.access.token_variable}>"
        if headers.get("authorization") is None:
            return 401, f"This agent endpoint needs a token: {asked}.", {"WWW-Authenticate": "Bearer"}
        if not self.access.admits(headers.get("authorization")):
            return 401, f"The token is not this endpoint's: {asked}.", {"WWW-Authenticate": 'Bearer error="invalid_token"'}
        declared = headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.access.max_body_bytes:
            return 413, self._too_large(), {"Connection": "close"}
        return None

    def _too_large(self) -> str:
        return f"The request is larger than this agent endpoint accepts ({self.access.max_body_bytes:,} bytes at most)."


async def read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole body, or None as soon as it passes the limit (the rest is never read)."""
    pieces: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return b""  # the client left before its body arrived: nothing to run
        piece = message.get("body", b"")
        size += len(piece)
        if size > limit:
            return None
        pieces.append(piece)
        if not message.get("more_body", False):
            return b"".join(pieces)


def _replaying(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the app the body already read, then what the client does next (a disconnect)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _with_headers(send: Send, extra: Mapping[str, str]) -> Send:
    if not extra:
        return send

    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            for name, value in extra.items():
                headers[name] = value
        await send(message)

    return send_with_headers


def _preflight_headers(request: Headers) -> dict[str, str]:
    if request.get("access-control-request-method") is None:
        return {"Allow": _ALLOWED_METHODS}  # a plain OPTIONS: what the endpoint answers to
    return {
        "Access-Control-Allow-Methods": _ALLOWED_METHODS,
        "Access-Control-Allow-Headers": _ALLOWED_HEADERS,
        "Access-Control-Max-Age": _PREFLIGHT_MAX_AGE,
    }


async def _send_json(send: Send, status: int, body: bytes, headers: Mapping[str, str]) -> None:
    raw = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers.items()]
    if body:
        raw.append((b"content-type", b"application/json"))
    raw.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def _origin(entry: str) -> str:
    value = entry.strip()
    if value == ANY_ORIGIN:
        return value
    scheme, separator, rest = value.partition("://")
    if scheme.lower() not in ("http", "https") or not separator or not rest.rstrip("/") or "/" in rest.rstrip("/"):
        raise ValueError(
            f"{value!r} is not an origin: give scheme://host[:port], e.g. https://app.example.com, "
            f"comma-separated in {ORIGINS_VARIABLE} (or * for any)"
        )
    return _normalized(value)


def _normalized(origin: str) -> str:
    return origin.strip().rstrip("/").lower()


def _max_bytes(raw: str) -> int:
    if not raw.strip():
        return DEFAULT_MAX_BYTES
    try:
        return int(raw.strip().replace("_", ""))
    except ValueError:
        raise ValueError(f"{MAX_BYTES_VARIABLE} must be a whole number of bytes, e.g. 1000000, not {raw!r}") from None

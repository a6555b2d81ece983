"""A Content-Security-Policy for the served app: no script or frame that the app did not ship.

Agent text is rendered as data, never markup; this is the second wall. The policy allows scripts
from the app's own origin and the inline scripts of its own pages (each by its sha256 hash, taken
from the page as it is served), and nothing else: an inline `<script>`, an event-handler attribute
or a foreign script that somehow reached the page would not run, a frame would not load, and an
image from an unlisted host would not be fetched.

Reflex runs JavaScript that its backend sends (`rx.call_script`, which the copilot uses to stream
text) through `eval`, so the policy keeps 'unsafe-eval'; Reflex's styles are inline, so it keeps
'unsafe-inline' for styles (not for scripts).

    app = rx.App(api_transformer=cui.content_security_policy(image_hosts=["images.example.com"]))

It applies where the backend serves the pages: `reflex run --env prod` (one port). An app that
loads scripts, frames or images from other hosts lists them (`script_hosts`, `frame_hosts`,
`image_hosts`, `connect_hosts`).
"""

from __future__ import annotations

import asyncio
import base64
import gzip
import hashlib
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from pathlib import Path
from typing import Any

from ._checks import keywords_checked

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.DOTALL | re.IGNORECASE)


@keywords_checked("cui.content_security_policy")
def content_security_policy(
    *,
    image_hosts: Iterable[str] = (),
    script_hosts: Iterable[str] = (),
    frame_hosts: Iterable[str] = (),
    connect_hosts: Iterable[str] = (),
) -> Callable[[ASGIApp], ASGIApp]:
    """An `api_transformer` for `rx.App` that adds the policy to every page the backend serves."""
    policy = _Policy(list(image_hosts), list(script_hosts), list(frame_hosts), list(connect_hosts))
    return lambda app: _PolicyMiddleware(app, policy)


class _Policy:
    def __init__(self, images: list[str], scripts: list[str], frames: list[str], connect: list[str]) -> None:
        self.images, self.scripts, self.frames, self.connect = images, scripts, frames, connect
        self._by_page: dict[bytes, str] = {}

    def header(self, served: bytes, start: Message) -> str:
        """The policy for a page as served: its own inline scripts allowed by hash (a page is decoded once, not per request)."""
        key = hashlib.sha256(_encoding(start) + b"\x00" + served).digest()
        value = self._by_page.get(key)
        if value is None:
            page = _decoded(served, start)
            hashes = sorted({_hash(body) for body in _INLINE_SCRIPT.findall(page) if body.strip()})
            value = self._by_page[key] = "; ".join(
                [
                    "default-src 'self'",
                    " ".join(["script-src 'self' 'unsafe-eval'", *hashes, *self.scripts]),
                    "style-src 'self' 'unsafe-inline'",
                    " ".join(["img-src 'self' data: blob:", *_hosts(self.images)]),
                    " ".join(["connect-src 'self'", *_hosts(self.connect)]),
                    "font-src 'self' data:",
                    " ".join(["frame-src", *(_hosts(self.frames) or ["'none'"])]),
                    "object-src 'none'",
                    "base-uri 'self'",
                    "form-action 'self'",
                    "frame-ancestors 'self'",
                ]
            )
            if len(self._by_page) > 256:  # pages are few; bound the cache anyway
                self._by_page.clear()
        return value


class _PolicyMiddleware:
    """Buffers each HTML response to hash its inline scripts, then sends it with the policy header."""

    def __init__(self, app: ASGIApp, policy: _Policy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if _is_page_path(scope.get("path", "")):
            # A page is read to hash its scripts: in an encoding we can read (identity or gzip), as a body, not a path.
            headers = [(k, _readable(v) if k.lower() == b"accept-encoding" else v) for k, v in scope["headers"]]
            extensions = {k: v for k, v in scope.get("extensions", {}).items() if k != "http.response.pathsend"}
            scope = {**scope, "headers": headers, "extensions": extensions}
        start: Message | None = None
        body: list[bytes] = []

        async def send_with_policy(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                if _is_html(message):
                    start = message  # held until the body is known
                    return
                await send(message)
            elif message["type"] in ("http.response.body", "http.response.pathsend") and start is not None:
                if message["type"] == "http.response.pathsend":
                    body.append(await asyncio.to_thread(Path(message["path"]).read_bytes))
                else:
                    body.append(message.get("body", b""))
                    if message.get("more_body", False):
                        return
                page = b"".join(body)
                policy = self.policy.header(page, start)
                headers = [
                    (name, value)
                    for name, value in start.get("headers", [])
                    if name.lower() not in (b"content-length", b"content-security-policy")
                ]
                headers += [
                    (b"content-length", str(len(page)).encode()),
                    (b"content-security-policy", policy.encode()),
                ]
                await send({**start, "headers": headers})
                await send({"type": "http.response.body", "body": page, "more_body": False})
            else:
                await send(message)

        await self.app(scope, receive, send_with_policy)


def _is_page_path(path: str) -> bool:
    last = path.rsplit("/", 1)[-1]
    return "." not in last or last.endswith(".html")


def _is_html(start: Message) -> bool:
    for name, value in start.get("headers", []):
        if name.lower() == b"content-type":
            return value.split(b";")[0].strip().lower() == b"text/html"
    return False


def _readable(accepted: bytes) -> bytes:
    """Of the encodings a client accepts, one this middleware can read: gzip where it is among them."""
    return b"gzip" if b"gzip" in accepted.lower() else b"identity"


def _encoding(start: Message) -> bytes:
    return next((value.strip().lower() for name, value in start.get("headers", []) if name.lower() == b"content-encoding"), b"")


def _decoded(page: bytes, start: Message) -> bytes:
    """The page as the browser reads it (precompressed pages are served gzipped)."""
    if _encoding(start) != b"gzip":
        return page
    try:
        return gzip.decompress(page)
    except (OSError, EOFError):
        return b""


def _hash(script: bytes) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode() + "'"


def _hosts(hosts: list[str]) -> list[str]:
    return [host if "://" in host else f"https://{host} http://{host}" for host in hosts]

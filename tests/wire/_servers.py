"""Real servers on 127.0.0.1 for the wire tests: an ASGI app under uvicorn in a thread, and ports that do not answer."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from starlette.datastructures import Headers

from .._background_server import BackgroundServer


@contextlib.contextmanager
def serve_in_thread(app: Any) -> Iterator[str]:
    """Serve an ASGI app on a free port of 127.0.0.1 while the block runs; yields its base URL."""
    server = BackgroundServer(app)
    try:
        yield server.base_url
    finally:
        server.stop()


@dataclass
class RecordedRequest:
    """What reached the server: method, path, headers and body."""

    method: str
    path: str
    headers: Headers
    body: bytes = b""


@dataclass
class RecordingApp:
    """An ASGI app in front of another that records every HTTP request as it arrived on the wire."""

    app: Any
    requests: list[RecordedRequest] = field(default_factory=list)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        recorded = RecordedRequest(scope["method"], scope["path"], Headers(scope=scope))
        self.requests.append(recorded)

        async def receive_recorded() -> Any:
            message = await receive()
            if message["type"] == "http.request":
                recorded.body += message.get("body", b"")
            return message

        await self.app(scope, receive_recorded, send)


@contextlib.contextmanager
def closed_port() -> Iterator[int]:
    """A port of 127.0.0.1 with nothing listening: connecting is refused. It stays bound, so nothing else takes it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@contextlib.contextmanager
def unanswering_port() -> Iterator[int]:
    """A port whose listener never accepts and whose backlog is full: a new connection hangs until it times out."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(0)
    port = listener.getsockname()[1]
    fillers = []
    try:
        for _ in range(3):
            filler = socket.socket()
            filler.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                filler.connect(("127.0.0.1", port))
            fillers.append(filler)
        time.sleep(0.05)  # lets the handshakes of the fillers complete, so the backlog is full
        yield port
    finally:
        for filler in fillers:
            filler.close()
        listener.close()

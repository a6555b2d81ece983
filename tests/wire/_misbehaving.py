"""A hand-written AG-UI server that misbehaves, one way per path, on raw asyncio streams.

It writes HTTP/1.1 by hand so that it can break it: cut a chunked body, stall before or after
the headers, send what no AG-UI server should. It reads each request whole before answering, so
closing a connection is an orderly close and the client receives everything sent before it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from ag_ui.core import (
    BaseEvent,
    RunFinishedEvent,
    RunStartedEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
)
from ag_ui.encoder import EventEncoder

MESSAGE_ID = "msg-partial"
TEXT_BEFORE_FAILURE = "Hello wor"  # what each broken stream has said when it breaks


class MisbehavingServer:
    """Serves the misbehaviours on 127.0.0.1; `url(path)` is where each one answers."""

    def __init__(self) -> None:
        self.base_url = ""
        self.hung_up: defaultdict[str, asyncio.Event] = defaultdict(asyncio.Event)  # by runId: the client closed
        self.release: defaultdict[str, asyncio.Event] = defaultdict(asyncio.Event)  # by runId: a held run may finish
        self.huge_frame_chars = 0  # set by a test before it asks for /huge-frame
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._routes: dict[str, Callable[[_Exchange], Awaitable[None]]] = {
            "/dies-mid-stream": self._dies_mid_stream,
            "/ends-without-finishing": self._ends_without_finishing,
            "/garbage-frame": self._garbage_frame,
            "/server-error": self._server_error,
            "/json-answer": self._json_answer,
            "/silent-after-headers": self._silent_after_headers,
            "/silent-before-headers": self._silent_before_headers,
            "/huge-frame": self._huge_frame,
            "/event-flood": self._event_flood,
            "/held": self._held,
        }

    def url(self, path: str) -> str:
        return f"{self.base_url}{path}"

    @property
    def host(self) -> str:
        """Host and port, as errors name the server."""
        return self.base_url.removeprefix("http://")

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}"

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for connection in list(self._connections):
            connection.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)
        if self._server is not None:
            await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            path, run = await _read_request(reader)
            run_id = str(run.get("runId", ""))
            exchange = _Exchange(reader, writer, str(run.get("threadId", "")), run_id, self.hung_up[run_id])
            route = self._routes.get(path)
            if route is None:
                await exchange.answer(404, "text/plain", f"no route {path}")
            else:
                await route(exchange)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()
            self._connections.discard(task)

    # The misbehaviours

    async def _dies_mid_stream(self, exchange: _Exchange) -> None:
        await exchange.start_stream()
        await exchange.send(*_partial_reply(exchange))
        exchange.writer.transport.abort()  # no last chunk: the body is cut

    async def _ends_without_finishing(self, exchange: _Exchange) -> None:
        await exchange.start_stream()
        await exchange.send(*_partial_reply(exchange))
        await exchange.end_stream()

    async def _garbage_frame(self, exchange: _Exchange) -> None:
        await exchange.start_stream()
        await exchange.send(*_partial_reply(exchange))
        await exchange.send_text("data: not json\n\n")
        await exchange.send(TextMessageEndEvent(message_id=MESSAGE_ID), exchange.finished())
        await exchange.end_stream()

    async def _server_error(self, exchange: _Exchange) -> None:
        await exchange.answer(500, "text/plain", "Internal Server Error: KeyError 'model' in run_agent")

    async def _json_answer(self, exchange: _Exchange) -> None:
        await exchange.answer(200, "application/json", json.dumps({"detail": "this is a REST endpoint"}))

    async def _silent_after_headers(self, exchange: _Exchange) -> None:
        await exchange.start_stream()
        await exchange.until_hung_up()

    async def _silent_before_headers(self, exchange: _Exchange) -> None:
        await exchange.until_hung_up()

    async def _huge_frame(self, exchange: _Exchange) -> None:
        await exchange.start_stream()
        await exchange.send(exchange.started())
        await exchange.send_text("data: " + "x" * self.huge_frame_chars)  # and never a newline
        await exchange.until_hung_up()

    async def _event_flood(self, exchange: _Exchange) -> None:
        await exchange.start_stream()
        await exchange.send(exchange.started(), TextMessageStartEvent(message_id=MESSAGE_ID, role="assistant"))
        await exchange.send(*(TextMessageContentEvent(message_id=MESSAGE_ID, delta="a") for _ in range(100)))
        await exchange.until_hung_up()

    async def _held(self, exchange: _Exchange) -> None:
        """A run that says a little, then keeps the stream open and silent until released or hung up on."""
        await exchange.start_stream()
        await exchange.send(*_partial_reply(exchange))
        released = asyncio.ensure_future(self.release[exchange.run_id].wait())
        hung_up = asyncio.ensure_future(exchange.until_hung_up())
        try:
            await asyncio.wait({released, hung_up}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            released.cancel()
        if not hung_up.done():
            hung_up.cancel()
            await exchange.send(
                TextMessageContentEvent(message_id=MESSAGE_ID, delta="ld"),
                TextMessageEndEvent(message_id=MESSAGE_ID),
                exchange.finished(),
            )
            await exchange.end_stream()


@dataclass
class _Exchange:
    """One request being answered: writes the response by hand, a chunk per write."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    thread_id: str
    run_id: str
    hung_up: asyncio.Event

    def started(self) -> RunStartedEvent:
        return RunStartedEvent(thread_id=self.thread_id, run_id=self.run_id, protocol_version="1.0")

    def finished(self) -> RunFinishedEvent:
        return RunFinishedEvent(thread_id=self.thread_id, run_id=self.run_id)

    async def answer(self, status: int, content_type: str, body: str) -> None:
        data = body.encode()
        head = f"HTTP/1.1 {status} Whatever\r\nContent-Type: {content_type}\r\nContent-Length: {len(data)}\r\n"
        self.writer.write(f"{head}Connection: close\r\n\r\n".encode() + data)
        await self.writer.drain()

    async def start_stream(self) -> None:
        self.writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
            b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        )
        await self.writer.drain()

    async def send(self, *events: BaseEvent) -> None:
        encoder = EventEncoder()
        await self.send_text("".join(encoder.encode(event) for event in events))

    async def send_text(self, text: str) -> None:
        data = text.encode()
        self.writer.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        await self.writer.drain()

    async def end_stream(self) -> None:
        self.writer.write(b"0\r\n\r\n")
        await self.writer.drain()

    async def until_hung_up(self) -> None:
        """Send nothing more; return when the client closes the connection."""
        with contextlib.suppress(ConnectionError):
            await self.reader.read()
        self.hung_up.set()


async def _read_request(reader: asyncio.StreamReader) -> tuple[str, dict[str, Any]]:
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    request_line, *header_lines = head.split("\r\n")
    headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in header_lines if line)}
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return request_line.split(" ")[1], json.loads(body) if body else {}


def _partial_reply(exchange: _Exchange) -> list[BaseEvent]:
    return [
        exchange.started(),
        TextMessageStartEvent(message_id=MESSAGE_ID, role="assistant"),
        TextMessageContentEvent(message_id=MESSAGE_ID, delta="Hello "),
        TextMessageContentEvent(message_id=MESSAGE_ID, delta="wor"),
    ]

"""A tab whose connection to the server the test cuts, as a server that went away would: the page's attempts to
reconnect are refused (Socket.IO's CONNECT_ERROR, answered by Playwright in the server's place), so the copilot shows
that it is reconnecting."""

from __future__ import annotations

import re

from playwright.sync_api import Page, WebSocketRoute

_EVENT_SOCKET = re.compile(r".*/_event/.*")
# Engine.IO's handshake, then the namespace's refusal: what a server that cannot take the page answers.
_OPEN = '0{"sid":"refused","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}'
_REFUSED = '44/_event,{"message":"the server is away"}'


class ConnectionCut:
    """Routes the tab's websocket: through to the server until `cut()`, refused after it."""

    def __init__(self, page: Page) -> None:
        self._through = True
        self._open: list[tuple[WebSocketRoute, WebSocketRoute]] = []
        page.route_web_socket(_EVENT_SOCKET, self._route)

    def cut(self) -> None:
        """Drop the connection; every attempt to make a new one is refused."""
        self._through = False
        for page_side, server_side in self._open:
            server_side.close()
            page_side.close()
        self._open.clear()

    @staticmethod
    def expected(console_error: str) -> bool:
        """Whether a console error is what the page says of a cut connection (Reflex's refusal; a send on the socket
        that was just closed)."""
        return "the server is away" in console_error or "WebSocket is already in CLOSING or CLOSED state" in console_error

    def _route(self, socket: WebSocketRoute) -> None:
        if self._through:
            self._open.append((socket, socket.connect_to_server()))
            return
        socket.send(_OPEN)
        socket.on_message(lambda message: socket.send(_REFUSED) if str(message).startswith("40") else None)

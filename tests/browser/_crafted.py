"""Crafted Reflex events: what a script in the page, or a person with the browser's tools, could send.

The tab's own websocket is routed through Playwright (route_web_socket): every frame passes as it
would, and a test can add frames of its own to the server, on the tab's own session, as if the page
had sent them.
"""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, WebSocketRoute

COPILOT_STATE = "reflex___state____state.copilot_ui___state____copilot____copilot_state"


class CraftedEvents:
    """Send events the page never offered, through the page's own connection."""

    def __init__(self, page: Page) -> None:
        self._server: WebSocketRoute | None = None
        page.route_web_socket(re.compile(r".*/_event/.*"), self._route)

    def _route(self, route: WebSocketRoute) -> None:
        self._server = route.connect_to_server()  # everything else passes through as it would

    def send(self, handler: str, payload: dict[str, Any], state: str = COPILOT_STATE) -> None:
        """Emit `state.handler(**payload)` on the tab's connection."""
        assert self._server is not None, "the page has not connected yet"
        event = {"name": f"{state}.{handler}", "payload": payload, "router_data": {"pathname": "/", "asPath": "/"}}
        self._server.send("42/_event," + json.dumps(["event", event]))

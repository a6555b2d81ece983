"""A tab whose session Reflex renews while its conversation waits or runs: it goes on in the new session.

Reflex gives a tab a new session when it reconnects while its old connection is still on record (a network that
went away without the server seeing it, a duplicated browser tab). Here the page's end of the connection closes
while the server's stays open, unaware: the page reconnects and Reflex renews its session.
"""

from __future__ import annotations

import json
import re

from playwright.sync_api import Page, WebSocketRoute, expect

from ._person import ask, card, dialog, idle, replies
from .conftest import Tabs
from .test_streaming import ASCII, final_text


def renew_session(page: Page, sockets: list[tuple[WebSocketRoute, WebSocketRoute]]) -> None:
    """Close the page's end of its connection only; wait until the page is back under a new session."""
    token = page.evaluate("sessionStorage.getItem('token')")
    before = len(sockets)
    sockets[-1][0].close()
    for _ in range(100):
        if len(sockets) > before and page.evaluate("sessionStorage.getItem('token')") != token:
            return
        page.wait_for_timeout(100)
    raise AssertionError("the page did not come back under a new session")


def routed(page: Page) -> list[tuple[WebSocketRoute, WebSocketRoute]]:
    sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []

    def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()
        socket.on_close(lambda code, reason: None)  # the page's end closes; the server's stays open, unaware
        sockets.append((socket, server))

    page.route_web_socket(re.compile(r".*/_event/.*"), route)
    return sockets


def test_a_reply_streaming_when_the_session_is_renewed_shows_whole_in_the_new_one(hostile_page: Page, tabs: Tabs):
    tabs.allowed.append(lambda text: "WebSocket" in text)
    sockets = routed(hostile_page)
    hostile_page.goto("/")
    ask(hostile_page, f"!pieces 15 2 {ASCII}")
    expect(hostile_page.locator('[data-kind="live"]')).to_contain_text("The quick", timeout=20_000)

    renew_session(hostile_page, sockets)

    idle(hostile_page, timeout=60_000)
    expect(replies(hostile_page).last).to_have_text(ASCII, timeout=15_000)
    assert final_text(hostile_page) == ASCII


def test_an_approval_waiting_when_the_session_is_renewed_can_be_given_in_the_new_one(hostile_page: Page, tabs: Tabs):
    tabs.allowed.append(lambda text: "WebSocket" in text)
    sockets = routed(hostile_page)
    hostile_page.goto("/")
    ask(hostile_page, "!tool slow_approval " + json.dumps({"note": "renewed", "seconds": 0.1}))
    expect(dialog(hostile_page)).to_be_visible(timeout=20_000)

    renew_session(hostile_page, sockets)

    waiting = card(hostile_page, "slow_approval")
    expect(waiting).to_have_attribute("data-status", "awaiting_approval", timeout=20_000)
    if not dialog(hostile_page).is_visible():
        waiting.get_by_role("button", name="Review").click()
    dialog(hostile_page).get_by_role("button", name="Approve").click()
    expect(waiting.get_by_label("Result")).to_have_text("renewed ran 1 time(s)", timeout=20_000)
    idle(hostile_page, timeout=30_000)
    expect(replies(hostile_page).last).to_contain_text("renewed ran 1 time(s)", timeout=20_000)


def test_a_tool_running_when_the_session_is_renewed_ends_with_its_result_in_the_new_one(hostile_page: Page, tabs: Tabs):
    tabs.allowed.append(lambda text: "WebSocket" in text)
    sockets = routed(hostile_page)
    hostile_page.goto("/")
    ask(hostile_page, "!tool slow_state_tool " + json.dumps({"note": "renewed-tool", "seconds": 4}))
    running = card(hostile_page, "slow_state_tool")
    expect(running).to_have_attribute("data-status", "running", timeout=20_000)

    renew_session(hostile_page, sockets)

    expect(running.get_by_label("Result")).to_have_text("renewed-tool ran 1 time(s)", timeout=30_000)
    idle(hostile_page, timeout=30_000)
    expect(replies(hostile_page).last).to_contain_text("renewed-tool ran 1 time(s)", timeout=20_000)

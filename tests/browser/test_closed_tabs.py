"""A tab closed while the agent writes: the reply goes on and is kept whole, nothing is sent to the closed tab, and the
served app's log says a line about it at most.

Reflex logs each send to a tab with no connection ("Attempting to send delta to disconnected client"): dozens of
lines a tab, up to 25 a second while the reply streamed.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ._person import ask, idle
from .conftest import ServedApp, Tabs
from .test_conversations_list import conversations, listed_row
from .test_streaming import final_text

# About 3.5 s of pieces (2 characters every 20 ms): most of it comes after the tab closed.
REPLY = ("The agent goes on writing after the tab closed. " * 7).strip()
DROPPED = "Attempting to send delta to disconnected client"


def test_a_reply_goes_on_when_its_tab_closes_and_another_tab_opens_it_whole(hostile_app: ServedApp, tabs: Tabs):
    first = tabs.open(hostile_app.url)
    reply = closed_mid_reply(first, f"Closed: {REPLY}")

    reader = tabs.tab(first.context)  # the same browser: its conversations are the closed tab's
    reader.goto("/")
    opened_whole(reader, reply)  # opened while the reply is still being written, for the closed tab


def test_tabs_closed_mid_reply_leave_a_line_each_at_most_in_the_log(hostile_app: ServedApp, tabs: Tabs):
    logged_before = hostile_app.log.stat().st_size
    first = tabs.open(hostile_app.url)
    closed: dict[str, str] = {}  # the closed tabs' session tokens → the reply each asked for
    for number in (1, 2):
        closed_mid_reply(first if number == 1 else tabs.tab(first.context), f"Tab {number}: {REPLY}", token_of=closed)

    reader = tabs.tab(first.context)
    reader.goto("/")
    for reply in closed.values():
        opened_whole(reader, reply)  # (the replies are over: nothing more is sent for them)

    log = hostile_app.log.read_bytes()[logged_before:].decode(errors="replace").splitlines()
    for token in closed:
        naming = [line for line in log if token in line]
        assert len(naming) <= 1, f"{len(naming)} lines of the log name the closed tab {token}:\n" + "\n".join(naming[:6])
    dropped = [line for line in log if DROPPED in line]
    assert len(dropped) <= len(closed), f"{len(dropped)} sends to closed tabs logged:\n" + "\n".join(dropped[:6])


def closed_mid_reply(tab: Page, reply: str, token_of: dict[str, str] | None = None) -> str:
    """Ask for the reply in 2-character pieces, and close the tab once its first words show; the reply."""
    tab.goto("/")
    ask(tab, f"!pieces 20 2 {reply}")
    expect(tab.locator('[data-kind="live"]')).to_contain_text(reply.split(":")[0], timeout=20_000)
    if token_of is not None:
        token_of[tab.evaluate("sessionStorage.getItem('token')")] = reply
    tab.close()
    return reply


def opened_whole(page: Page, reply: str) -> None:
    """Open the conversation of this reply from the list (by its first words), and see the reply end whole."""
    listed_row(conversations(page), reply.split(":")[0] + ":").click()
    expect(page.get_by_role("list", name="Conversations")).to_be_hidden()
    idle(page, timeout=60_000)
    expect(page.locator('[data-kind="assistant"]').last).to_contain_text(reply.split(":")[0], timeout=20_000)
    assert final_text(page) == reply

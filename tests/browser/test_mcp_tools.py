"""MCP tools in the demo app, as a person sees them: the app served with COPILOT_MCP_SERVERS naming the tests' notes
server (tests/mcp_server.py) twice: "notes", started by the app over stdio (erase_notes needs approval), and "board",
a process of its own serving streamable HTTP on 127.0.0.1 behind a bearer token (its tools' names start "board_").
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from playwright.sync_api import Page, expect

from tests._leaks import leaks
from tests._processes import free_port
from tests.mcp_server import HttpNotes, NotesFolder, start_http_notes

from ._person import TURN_TIMEOUT, ask, card, copilot, dialog, idle, replies
from .conftest import ServedApp, Tabs, _served

TOKEN = "board-" + secrets.token_urlsafe(18)


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> NotesFolder:
    return NotesFolder(tmp_path_factory.mktemp("notes"))


class Board:
    """The streamable HTTP server, on a port the app was told; a test may kill it and serve it again."""

    def __init__(self, folder: NotesFolder) -> None:
        self.folder, self.port = folder, free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self._servings = ExitStack()
        self.server: HttpNotes | None = None

    def start(self) -> None:
        self.server = self._servings.enter_context(start_http_notes(self.folder, self.port, token=TOKEN))

    def kill(self) -> None:
        assert self.server is not None
        self.server.kill()

    def close(self) -> None:
        self._servings.close()


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Board]:
    served = Board(NotesFolder(tmp_path_factory.mktemp("board")))
    served.start()
    yield served
    served.close()


@pytest.fixture(scope="module")
def mcp_app(tmp_path_factory: pytest.TempPathFactory, notes: NotesFolder, board: Board) -> Iterator[ServedApp]:
    """The demo app whose built-in agent has the notes server (stdio) and the board server (streamable HTTP)."""
    servers = {
        "notes": {**notes.stdio(), "approval": ["erase_notes"]},
        "board": {"url": board.url, "headers": {"Authorization": f"Bearer {TOKEN}"}, "prefix": "board"},
    }
    env = {"COPILOT_MCP_SERVERS": json.dumps(servers), "COPILOT_DEV_CONSOLE": "1"}
    with _served(tmp_path_factory, "mcp-app", ".web-test-mcp", env, (TOKEN, f"Bearer {TOKEN}")) as served:
        yield served


@pytest.fixture
def mcp_page(tabs: Tabs, mcp_app: ServedApp) -> Page:
    page = tabs.open(mcp_app.url)
    page.goto("/")
    return page


def said(page: Page, text: str) -> None:
    ask(page, text)
    idle(page)


def dark(page: Page) -> None:
    """The page's own tool worked: the dashboard is dark."""
    expect(page.locator("#theme-label")).to_contain_text("dark", timeout=TURN_TIMEOUT)


# A call shows as a card with its result


def test_a_call_over_stdio_shows_as_a_card_with_its_result(mcp_page: Page, notes: NotesFolder):
    said(mcp_page, "add_note buy milk")

    added = card(mcp_page, "add_note").last
    expect(added).to_have_attribute("data-status", "complete")
    expect(added.get_by_label("Arguments")).to_contain_text('"text": "buy milk"')
    expect(added.get_by_label("Result")).to_have_text(f"Noted: buy milk ({len(notes.notes())} notes).")
    expect(replies(mcp_page).last).to_have_text(f"Done: Noted: buy milk ({len(notes.notes())} notes).")
    assert notes.notes()[-1] == "buy milk"


def test_a_call_over_streamable_http_shows_as_a_card_and_its_token_is_never_in_the_browser(
    tabs: Tabs, mcp_page: Page, mcp_app: ServedApp
):
    said(mcp_page, "board_whoami")  # the server echoes the Authorization header it was sent

    echoed = card(mcp_page, "board_whoami").last
    expect(echoed).to_have_attribute("data-status", "complete")
    expect(echoed.get_by_label("Result")).to_have_text("You sent: [redacted]")
    frames = tabs.frames.received
    assert frames
    for secret in mcp_app.secrets:
        for frame in frames:
            assert not leaks(frame, secret), f"a frame gave a secret away: {leaks(frame, secret)}"


# Approval: Approve runs it once, Deny refuses it


def test_an_mcp_tool_needing_approval_runs_once_when_approved(mcp_page: Page, notes: NotesFolder):
    said(mcp_page, "add_note keep until erased")
    erased_before = notes.calls().count("erase_notes")

    ask(mcp_page, "erase_notes")
    approval = dialog(mcp_page)
    expect(approval).to_be_visible(timeout=TURN_TIMEOUT)
    expect(approval).to_contain_text("erase_notes")
    expect(card(mcp_page, "erase_notes").last).to_have_attribute("data-status", "awaiting_approval")
    assert notes.calls().count("erase_notes") == erased_before  # nothing runs before the person decides
    approval.get_by_role("button", name="Approve").click()
    idle(mcp_page)

    erased = card(mcp_page, "erase_notes").last
    expect(erased.get_by_label("Result")).to_have_text(re.compile(r"^Erased \d+ notes\.$"))
    assert notes.calls().count("erase_notes") == erased_before + 1
    assert notes.notes() == []


def test_an_mcp_tool_the_person_denies_never_runs(mcp_page: Page, notes: NotesFolder):
    said(mcp_page, "add_note still here")
    erased_before = notes.calls().count("erase_notes")

    ask(mcp_page, "erase_notes")
    dialog(mcp_page).get_by_role("button", name="Deny").click()
    idle(mcp_page)

    expect(replies(mcp_page).last).to_contain_text("That did not happen")
    expect(dialog(mcp_page)).to_have_count(0)
    assert notes.calls().count("erase_notes") == erased_before
    assert notes.notes()[-1] == "still here"


# A server that fails to start, or dies: a clear message, and the page's own tools still work


def test_a_server_that_fails_to_start_is_named_and_the_pages_tools_still_work(mcp_page: Page, notes: NotesFolder):
    said(mcp_page, "add_note before")  # the notes server runs
    notes.refuse_to_start()
    try:
        notes.kill()  # it is started again at the next message, and refuses
        said(mcp_page, "switch to dark mode")

        expect(copilot(mcp_page)).to_contain_text(
            'The MCP server "notes" is not available: it exited as it started. Check its command, its arguments and '
            "its environment (the server log shows what it said). Until it is back, the copilot goes on without its tools."
        )
        dark(mcp_page)
        expect(replies(mcp_page).last).to_contain_text("Theme is now dark.")
    finally:
        notes.refuse_to_start(False)
    said(mcp_page, "add_note after")  # back with the next message
    expect(card(mcp_page, "add_note").last.get_by_label("Result")).to_contain_text("Noted: after")


def test_a_server_that_dies_during_a_call_says_so_on_the_card_and_the_pages_tools_still_work(mcp_page: Page):
    said(mcp_page, "crash")

    crashed = card(mcp_page, "crash").last
    expect(crashed.get_by_label("Result")).to_have_text(
        'The MCP server "notes" stopped while running crash (it exited: Connection closed). '
        "Check the server's log; it is started again with your next message."
    )
    said(mcp_page, "switch to dark mode")
    dark(mcp_page)
    said(mcp_page, "add_note after the crash")
    expect(card(mcp_page, "add_note").last.get_by_label("Result")).to_contain_text("Noted: after the crash")


def test_a_streamable_http_server_that_dies_mid_session_is_named_and_the_pages_tools_still_work(mcp_page: Page, board: Board):
    said(mcp_page, "board_read_notes")
    expect(card(mcp_page, "board_read_notes").last).to_have_attribute("data-status", "complete")

    board.kill()
    try:
        said(mcp_page, "switch to dark mode")

        expect(copilot(mcp_page)).to_contain_text(
            f'The MCP server "board" is not available: nothing answers at {board.url}. Check that the server runs '
            "and that its URL is right. Until it is back, the copilot goes on without its tools."
        )
        dark(mcp_page)
    finally:
        board.start()
    said(mcp_page, "board_read_notes")  # served again: its tools are back
    expect(card(mcp_page, "board_read_notes")).to_have_count(2)
    expect(card(mcp_page, "board_read_notes").last).to_have_attribute("data-status", "complete")

"""The demo app on a real provider's wire (OpenAI's Responses API, served by CopilotKit's mock LLM server), in Chromium.

The header names the model. When the provider fails, the person reads what happened in words that
name the provider and say what to do, with Retry; once the fault clears, Retry finishes the turn.
The API key never reaches the browser: not in the message, not in any websocket frame.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from tests._leaks import leaks
from tests.wire._aimock import Aimock, cut, error, text

from ._person import TURN_TIMEOUT, ask, copilot, idle, replies
from .conftest import ServedApp, Tabs, _served

KEY = "sk-test-" + secrets.token_urlsafe(24)
ANSWER = "Twelve orders shipped this week, three of them to Berlin."
LONG_ANSWER = "Here is the week, order by order. " + " ".join(f"Order #{1000 + n} shipped to Berlin." for n in range(40))


@pytest.fixture(scope="module")
def aimock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Aimock]:
    with Aimock(tmp_path_factory.mktemp("aimock")) as server:
        yield server


@pytest.fixture(scope="module")
def openai_app(tmp_path_factory: pytest.TempPathFactory, aimock: Aimock) -> Iterator[ServedApp]:
    """The demo app with COPILOT_MODEL=openai:gpt-4o, OpenAI's base URL pointing at aimock, and a key to keep secret."""
    environment = {
        "COPILOT_MODEL": "openai:gpt-4o",
        "OPENAI_BASE_URL": aimock.openai_url,
        "OPENAI_API_KEY": KEY,
        "COPILOT_MODEL_RETRIES": "0",  # the error shows at once
    }
    with _served(tmp_path_factory, "openai-app", ".web-test-openai", environment, (KEY,)) as served:
        yield served


@pytest.fixture
def openai_page(tabs: Tabs, openai_app: ServedApp) -> Page:
    page = tabs.open(openai_app.url)
    page.goto("/")
    return page


def errors(page: Page) -> Locator:
    return copilot(page).locator('[data-kind="error"]')


def no_frame_holds_the_key(tabs: Tabs) -> None:
    frames = tabs.frames.received
    assert len(frames) > 10
    for frame in frames:
        assert not leaks(frame, KEY), f"a frame gave the key away: {leaks(frame, KEY)}"


def test_the_header_names_the_model(openai_page: Page):
    header = openai_page.locator(".cui-title")
    expect(header.get_by_text("gpt-4o", exact=True)).to_be_visible()
    expect(header.get_by_text("Demo model")).to_have_count(0)

    openai_page.get_by_role("combobox", name="Agent").select_option("echo")  # the app's own agent: no model to name
    expect(header.get_by_text("gpt-4o", exact=True)).to_have_count(0)
    expect(header).not_to_contain_text("function")


def test_a_refused_key_says_which_key_to_check_and_retry_finishes_once_it_works(aimock: Aimock, tabs: Tabs, openai_page: Page):
    page = openai_page
    aimock.serve(error("orders shipped", 401, f"Incorrect API key provided: {KEY}"))  # as OpenAI quotes it

    ask(page, "how many orders shipped this week?")
    idle(page)

    expect(errors(page)).to_have_count(1)
    expect(errors(page)).to_contain_text("OpenAI refused the API key (HTTP 401): check OPENAI_API_KEY.")
    expect(replies(page)).to_have_count(0)

    aimock.serve(text("orders shipped", ANSWER))  # the key is fixed
    errors(page).get_by_role("button", name="Retry").click()
    idle(page)

    expect(replies(page)).to_have_count(1)
    expect(replies(page).last).to_have_text(ANSWER, timeout=TURN_TIMEOUT)
    expect(errors(page)).to_have_count(0)
    no_frame_holds_the_key(tabs)


def test_a_stream_cut_mid_reply_shows_the_part_received_and_retry_replaces_it(aimock: Aimock, tabs: Tabs, openai_page: Page):
    page = openai_page
    aimock.serve(cut("the week", LONG_ANSWER))

    ask(page, "go through the week for me")
    idle(page)

    expect(errors(page)).to_contain_text(
        "The connection to OpenAI broke mid-reply; the part received is kept. Retry to try again."
    )
    expect(replies(page)).to_have_count(1)
    part = replies(page).last.inner_text()
    assert 0 < len(part) < len(LONG_ANSWER) and LONG_ANSWER.startswith(part.strip()), part

    aimock.serve(text("the week", LONG_ANSWER))  # the connection holds again
    errors(page).get_by_role("button", name="Retry").click()
    idle(page)

    expect(replies(page)).to_have_count(1)  # the whole reply, in place of the part
    expect(replies(page).last).to_have_text(LONG_ANSWER, timeout=TURN_TIMEOUT)
    expect(errors(page)).to_have_count(0)
    no_frame_holds_the_key(tabs)

"""AG-UI's activities and predictive state updates, as a person sees them in Chromium.

The demo app is served with tests/browser/_agui_extras.py: a document shared with the agent (a Reflex
state bound with cui.agent_state) on the page /document, the dojo's confirm_changes question, and the
app's card for "progress" activities. Its agent is the hostile AG-UI server, which sends activities by
hand (!activity) and replays the AG-UI project's own example server for predictive state updates
(!replay, recorded in tests/recordings/server_starter).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.agui_recordings import RECORDINGS, recorded_frames
from tests.hostile_agent import HostileAgent

from ._person import ask, copilot, dialog, hydrated, idle, replies
from .conftest import ServedApp, Tabs, _served

EXTRAS = "tests.browser._agui_extras"
PROGRESS = (
    '!activity progress 600 {"label": "Fetching orders", "percent": 0}'
    ' [{"op": "replace", "path": "/percent", "value": 50}]'
    ' [{"op": "replace", "path": "/percent", "value": 100}, {"op": "replace", "path": "/label", "value": "Done"}]'
)
DOWNLOAD = (
    '!activity download 600 {"file": "orders.csv", "bytes": 0, "note": "<img src=x onerror=alert(1)><b>bold</b>"}'
    ' [{"op": "replace", "path": "/bytes", "value": 2048}]'
)
RECORDING = "server_starter/predictive_state_updates"
STORY = "".join(
    event["delta"]
    for event in (json.loads(data) for _, data in recorded_frames(RECORDINGS / f"{RECORDING}.sse"))
    if event["type"] == "TOOL_CALL_ARGS" and event["delta"] != "{}"
)
STORY = json.loads(STORY)["document"]
MY_DRAFT = "My own draft, about cats."

# Every text the document showed, in order, recorded in the page as it changes.
DOCUMENT_OBSERVER = """
window.__documents = [];
new MutationObserver(() => {
  const shown = document.getElementById('document');
  const text = shown ? shown.textContent : null;
  if (text !== null && window.__documents[window.__documents.length - 1] !== text) window.__documents.push(text);
}).observe(document.body, {subtree: true, childList: true, characterData: true});
"""


@pytest.fixture(scope="module")
def agui_app(tmp_path_factory: pytest.TempPathFactory, hostile: HostileAgent) -> Iterator[ServedApp]:
    """The demo app with the document page, its agent the hostile server."""
    env = {"COPILOT_AGENT_URL": hostile.url, "COPILOT_EXTRA_MODULES": EXTRAS}
    with _served(tmp_path_factory, "agui-app", ".web-test-agui", env) as served:
        yield served


@pytest.fixture
def document_page(tabs: Tabs, agui_app: ServedApp) -> Page:
    page = tabs.open(agui_app.url)
    page.goto("/document")
    expect(page.locator("#document")).to_have_text("A first draft.")
    hydrated(page)  # (a textarea filled before it would lose the person's words to the served text)
    return page


def test_activities_show_live_as_the_apps_card_or_as_text_and_come_back_as_they_were(document_page: Page):
    page = document_page
    ask(page, PROGRESS)
    progress = copilot(page).locator('[data-activity="progress"]')
    expect(progress.locator(".progress-label")).to_have_text("Fetching orders")
    expect(progress.locator(".progress-percent")).to_have_text("50%")
    expect(progress.locator(".progress-label")).to_have_text("Done")
    expect(progress.locator(".progress-percent")).to_have_text("100%")
    expect(replies(page).last).to_have_text("activity done")
    idle(page)

    ask(page, DOWNLOAD)
    download = copilot(page).get_by_role("region", name="Activity download")
    expect(download).to_contain_text('"bytes": 0')
    expect(download).to_contain_text('"bytes": 2048')
    expect(download).to_contain_text('"note": "<img src=x onerror=alert(1)><b>bold</b>"')
    expect(download.locator("img, b")).to_have_count(0)  # the agent's content is text, never markup
    idle(page)
    order = copilot(page).locator('[data-kind="user"], [data-kind="activity"], [data-kind="assistant"]')
    kinds = [order.nth(n).get_attribute("data-kind") for n in range(order.count())]
    assert kinds == ["user", "activity", "assistant"] * 2  # each activity where the agent put it, before its reply
    seen = copilot(page).locator('[data-kind="activity"]').all_text_contents()

    page.reload()
    expect(copilot(page).locator('[data-kind="activity"]')).to_have_text(seen)
    page.get_by_role("button", name="New conversation").first.click()
    expect(copilot(page).locator('[data-kind="activity"]')).to_have_count(0)
    page.get_by_role("button", name="Conversations").click()
    page.get_by_role("list", name="Conversations").locator(".cui-thread-open").filter(has_text="!activity progress").click()
    expect(copilot(page).locator('[data-kind="activity"]')).to_have_text(seen)
    assert "Done" in seen[0] and "100%" in seen[0]
    assert '"bytes": 2048' in seen[1]


def written_while_watched(page: Page, hostile: HostileAgent) -> list[str]:
    """Ask the dojo's server to write the story; the document's texts while it wrote, once it asks to confirm."""
    page.evaluate(DOCUMENT_OBSERVER)
    ask(page, f"!replay {RECORDING}")
    confirm = copilot(page).get_by_role("region", name="Confirm Changes")
    expect(confirm.get_by_role("button", name="Reject")).to_be_visible(timeout=20_000)
    expect(page.locator("#document")).to_have_text(STORY)
    return page.evaluate("window.__documents")


def test_the_document_grows_as_the_agent_writes_it_and_goes_back_when_the_person_rejects(
    document_page: Page, hostile: HostileAgent
):
    page = document_page
    page.get_by_role("textbox", name="Edit the document").fill(MY_DRAFT)
    expect(page.locator("#document")).to_have_text(MY_DRAFT)

    shown = written_while_watched(page, hostile)

    growing = [text for text in shown if text not in (MY_DRAFT, "")]
    assert all(STORY.startswith(text) for text in growing), shown
    assert [len(text) for text in growing] == sorted({len(text) for text in growing}), shown  # it only ever grew
    assert growing[-1] == STORY
    # In several steps as the server wrote it (16 words, 0.2 s apart); a busy machine sends several words in one
    # update (the sink's bounded pace), so the count of steps is a floor, not one per word.
    assert len(growing) >= 3, shown
    assert page.get_by_role("textbox", name="Edit the document").input_value() == STORY

    copilot(page).get_by_role("region", name="Confirm Changes").get_by_role("button", name="Reject").click()
    expect(page.locator("#document")).to_have_text(MY_DRAFT)
    expect(replies(page).last).to_have_text("Ok!")
    expect(copilot(page).get_by_role("region", name="Confirm Changes")).to_contain_text("✗ Rejected")
    idle(page)
    assert hostile.requests[-1].run_input.state["document"] == MY_DRAFT  # the agent is told the change was undone
    page.reload()
    expect(page.locator("#document")).to_have_text(MY_DRAFT)


def test_the_written_document_stays_when_the_person_confirms(document_page: Page, hostile: HostileAgent):
    page = document_page
    written_while_watched(page, hostile)

    copilot(page).get_by_role("region", name="Confirm Changes").get_by_role("button", name="Confirm").click()
    expect(replies(page).last).to_have_text("Ok!")
    expect(copilot(page).get_by_role("region", name="Confirm Changes")).to_contain_text("✓ Accepted")
    idle(page)
    expect(page.locator("#document")).to_have_text(STORY)
    assert hostile.requests[-1].run_input.state["document"] == STORY


def test_the_document_goes_back_when_the_person_denies_the_call_that_wrote_it(document_page: Page):
    page = document_page
    ask(page, "!predict 40 write_document The agent's own version of the story, written over the draft.")
    expect(dialog(page)).to_be_visible(timeout=20_000)
    expect(page.locator("#document")).to_have_text("The agent's own version of the story, written over the draft.")

    dialog(page).get_by_role("button", name="Deny").click()
    expect(page.locator("#document")).to_have_text("A first draft.")
    expect(replies(page).last).to_contain_text("results: ")
    idle(page)

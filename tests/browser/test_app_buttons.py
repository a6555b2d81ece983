"""The app's own buttons drive the copilot, in Chromium: "Explain the revenue" opens the copilot and sends
its message (the reply comes), "Summarize orders" runs an agent task whose result shows on the page, and a task whose
tool needs approval waits in the task panel for Approve, worded and editable as the chat's approval dialog. axe-core
finds no serious or critical violation on each.

Served: the demo app on the demo model, with a page of refund tasks (`_task_extras.py`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests._npm import npm_package
from tests.browser import test_accessibility as accessibility
from tests.browser._person import TURN_TIMEOUT, ask, copilot, dialog, hydrated, replies
from tests.browser.conftest import ServedApp, Tabs, _served

EXTRAS = "tests.browser._task_extras"


@pytest.fixture(scope="module")
def buttons_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedApp]:
    with _served(tmp_path_factory, "buttons-app", ".web-test-buttons", {"COPILOT_EXTRA_MODULES": EXTRAS}) as served:
        yield served


@pytest.fixture(scope="module")
def axe() -> str:
    return (npm_package("axe-core", accessibility.AXE_VERSION) / "axe.min.js").read_text(encoding="utf-8")


def opened(tabs: Tabs, app: ServedApp, path: str) -> Page:
    """The page, its state come from the server: a click before that does nothing (the HTML is served first)."""
    page = tabs.open(app.url)
    page.goto(path)
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    if path == "/tasks":  # (no copilot on it: the order it shows has come)
        expect(page.locator("#status-1042")).to_have_text("Shipped")
    else:
        hydrated(page)
    return page


def test_the_revenue_button_opens_the_copilot_and_its_message_gets_a_reply(tabs: Tabs, buttons_app: ServedApp, axe: str):
    page = opened(tabs, buttons_app, "/popup")
    expect(page.get_by_role("button", name="Open the copilot")).to_be_visible()
    expect(copilot(page)).to_be_hidden()  # the popup is closed

    page.get_by_role("button", name="Explain the revenue").click()

    expect(copilot(page)).to_be_visible()
    expect(page.locator('[data-kind="user"]')).to_have_text(["What is our revenue this month?"], timeout=TURN_TIMEOUT)
    expect(replies(page)).to_have_text(["Revenue this month is $48,210 (+12% vs last month)."], timeout=TURN_TIMEOUT)
    assert accessibility.violations(page, axe) == []


def test_the_summarize_button_shows_the_tasks_result_on_the_page_not_in_the_chat(tabs: Tabs, buttons_app: ServedApp, axe: str):
    page = opened(tabs, buttons_app, "/")
    page.get_by_role("button", name="Summarize orders").click()

    summary = page.locator("#orders-summary")
    expect(summary).to_contain_text("orders are still processing:", timeout=TURN_TIMEOUT)
    tasks = page.get_by_role("region", name="Agent tasks")
    expect(tasks.locator('[data-tool="orders_with_status"]')).to_have_attribute("data-status", "complete")
    expect(tasks.locator('[data-tool="orders_with_status"]')).to_contain_text("Done")
    expect(page.locator('[data-status="Processing"]').first).to_be_visible()  # its tool filtered the Orders table
    expect(page.locator('[data-kind="user"]')).to_have_count(0)  # nothing joined the conversation
    expect(replies(page)).to_have_count(0)
    assert accessibility.violations(page, axe) == []


def test_a_task_whose_tool_needs_approval_waits_for_approve(tabs: Tabs, buttons_app: ServedApp, axe: str):
    page = opened(tabs, buttons_app, "/tasks")
    status = page.locator("#status-1042")
    expect(status).to_have_text("Shipped")
    page.get_by_role("button", name="Refund order 1042 as a task").click()

    card = page.get_by_role("region", name="Agent tasks").locator('[data-tool="refund_order"]')
    expect(card).to_have_attribute("data-status", "awaiting_approval", timeout=TURN_TIMEOUT)
    expect(card).to_contain_text("#1042")
    assert accessibility.violations(page, axe) == []
    page.wait_for_timeout(1_000)
    expect(status).to_have_text("Shipped")  # it does not run without the person
    expect(page.locator("#task-outcome")).to_have_text("Working…")

    card.get_by_role("button", name="Approve").click()

    expect(status).to_have_text("Refunded", timeout=TURN_TIMEOUT)
    expect(card).to_have_attribute("data-status", "complete")
    expect(page.locator("#task-outcome")).to_contain_text(
        "(refund_order: complete, reason 'damaged in transit')", timeout=TURN_TIMEOUT
    )


def test_a_tasks_approval_card_says_what_the_chats_dialog_says_and_takes_the_persons_edit(tabs: Tabs, buttons_app: ServedApp):
    chat = opened(tabs, buttons_app, "/")
    ask(chat, "refund order 1042")
    expect(dialog(chat)).to_be_visible(timeout=TURN_TIMEOUT)
    said_in_chat = dialog(chat).locator(".cui-approval-sentence").inner_text()
    fields_in_chat = dialog(chat).locator(".cui-approval-name").all_inner_texts()

    page = opened(tabs, buttons_app, "/tasks")
    page.get_by_role("button", name="Refund order 1042 as a task").click()
    card = page.get_by_role("region", name="Agent tasks").locator('[data-tool="refund_order"]')
    expect(card).to_have_attribute("data-status", "awaiting_approval", timeout=TURN_TIMEOUT)

    assert said_in_chat == "Refund order #1042: the money goes back to the customer."
    expect(card.locator(".cui-approval-sentence")).to_have_text(said_in_chat)
    expect(card.locator(".cui-approval-name")).to_have_text(fields_in_chat)  # order_id, reason
    expect(card).not_to_contain_text('"order_id"')  # no raw JSON
    expect(card.get_by_role("textbox", name="order_id", exact=True)).to_have_count(0)  # shown, not editable
    reason = card.get_by_role("textbox", name="reason", exact=True)
    expect(reason).to_have_value("damaged in transit")

    reason.fill("arrived broken")
    card.get_by_role("button", name="Approve").click()

    expect(card).to_have_attribute("data-status", "complete", timeout=TURN_TIMEOUT)
    expect(page.locator("#task-outcome")).to_contain_text(
        "(refund_order: complete, reason 'arrived broken')", timeout=TURN_TIMEOUT
    )

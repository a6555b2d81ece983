"""A person with one conversation open in two tabs (or windows) goes on with it in one (approves what waited, writes):
the other, when they come back to it, shows the conversation as it went on, not the approval still waiting."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from ._person import ask, card, dialog, idle, replies
from .conftest import Tabs


def come_back_to(page: Page) -> None:
    """The person returns to the tab (the browser says it is visible again; headless, every tab is visible)."""
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")


def click_into(page: Page) -> None:
    """The person clicks into the window beside the other one (the window gets the focus)."""
    page.evaluate("window.dispatchEvent(new Event('focus'))")


def test_a_tab_the_person_comes_back_to_shows_what_they_approved_in_another(page: Page, tabs: Tabs):
    page.goto("/")
    ask(page, "refund order 1041")
    expect(dialog(page)).to_be_visible(timeout=20_000)
    expect(card(page, "refund_order")).to_have_attribute("data-status", "awaiting_approval")

    other = tabs.tab(page.context)  # the same browser: the same person's conversations
    other.goto("/")
    other.get_by_role("button", name="Conversations").click()
    other.get_by_role("list", name="Conversations").locator(".cui-thread-open").filter(has_text="refund order 1041").click()
    dialog(other).get_by_role("button", name="Approve").click()
    idle(other)
    expect(replies(other).last).to_contain_text("Done: Refunded order #1041")

    come_back_to(page)
    expect(card(page, "refund_order")).to_have_attribute("data-status", "complete", timeout=20_000)
    expect(dialog(page)).to_be_hidden()
    expect(replies(page).last).to_contain_text("Done: Refunded order #1041")
    idle(page)

    ask(page, "hello")  # and it goes on from there
    idle(page)
    expect(card(page, "refund_order")).to_have_count(1)
    expect(replies(page).last).to_contain_text("Hello")


def test_a_window_the_person_clicks_into_while_another_runs_its_conversation_shows_the_run(page: Page, tabs: Tabs):
    page.goto("/")
    ask(page, "what is our revenue this month?")
    idle(page)

    other = tabs.tab(page.context)
    other.goto("/")
    other.get_by_role("button", name="Conversations").click()
    other.get_by_role("list", name="Conversations").locator(".cui-thread-open").filter(has_text="revenue").click()
    expect(replies(other)).to_have_count(1)
    ask(other, "hello")
    expect(other.locator(".cui-composer").get_by_role("button", name="Stop")).to_be_visible()

    click_into(page)  # while the other tab's reply is being written
    expect(page.locator('[data-kind="user"]').last).to_have_text("hello", timeout=20_000)
    idle(other)
    expect(replies(page).last).to_have_text(replies(other).last.inner_text(), timeout=20_000)
    expect(replies(page)).to_have_count(2)
    idle(page)

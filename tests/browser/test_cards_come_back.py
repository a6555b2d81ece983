"""Conversations come back exactly as they were shown: every card of the demo, the app's own included.

One conversation holds a card of each kind the demo draws: the app's order card (found, and not
found), the plan the person chose steps of, an approval given with an edited reason, a question
answered in the message box, two calls in parallel, a slow tool that reported progress, the agent's
own report tool. What a person reads on each card is then compared, after reopening the conversation
from the list, after a reload, in the popup layout, and after a restart of the server.
"""

from __future__ import annotations

import signal

from playwright.sync_api import Locator, Page, expect

from ._person import ask, card, copilot, dialog, idle, order_status, replies
from .conftest import Tabs

CARDS = 9


def cards(page: Page) -> Locator:
    return copilot(page).locator("[data-tool]")


def a_card_of_every_kind(page: Page) -> list[str]:
    """Hold the conversation; the text of each card as the person read it live."""
    page.goto("/")
    ask(page, "show order 1042")
    expect(copilot(page).get_by_role("region", name="Order #1042")).to_contain_text("Ada Lovelace", timeout=20_000)
    idle(page)
    ask(page, "show order 1043")
    expect(copilot(page).get_by_role("region", name="Order #1043")).to_contain_text("Not found", timeout=20_000)
    idle(page)

    ask(page, "plan a product launch")
    plan = copilot(page).get_by_role("region", name="Proposed plan")
    plan.get_by_role("checkbox", name="Prepare the demo").uncheck(timeout=20_000)
    plan.get_by_role("button", name="Confirm").click()
    expect(replies(page).last).to_contain_text("Great: the plan has 4 steps", timeout=20_000)
    idle(page)

    ask(page, "refund order 1041")
    dialog(page).get_by_role("textbox", name="reason", exact=True).fill("damaged in transit")
    dialog(page).get_by_role("button", name="Approve").click()
    expect(replies(page).last).to_contain_text("Done: Refunded order #1041", timeout=20_000)
    idle(page)

    ask(page, "ask me something")
    expect(card(page, "ask_user")).to_have_attribute("data-status", "awaiting_input", timeout=20_000)
    box = page.get_by_role("textbox", name="Ask the copilot")
    box.fill("Berlin")  # the answer, written where people write
    box.press("Enter")
    expect(replies(page).last).to_have_text("Done: Berlin", timeout=20_000)
    idle(page)

    for phrase in ("compare Berlin and Paris", "look up the EUR exchange rate", "draft a weekly report"):
        ask(page, phrase)
        idle(page, timeout=30_000)
    expect(cards(page)).to_have_count(CARDS)
    return cards(page).all_text_contents()


def shown_as_before(page: Page, seen: list[str]) -> None:
    expect(cards(page)).to_have_text(seen, timeout=20_000)


def test_every_card_comes_back_the_same_from_the_list_a_reload_the_popup_and_a_restart(page: Page, tabs: Tabs, demo_server):
    seen = a_card_of_every_kind(page)
    assert "Customer" in seen[0] and "Ada Lovelace" in seen[0] and "Shipped" in seen[0]
    assert "Not found" in seen[1]
    assert "Pick a date" in seen[2] and "Prepare the demo" not in seen[2]
    assert "damaged in transit" in seen[3]
    assert "Berlin" in seen[4]

    page.get_by_role("button", name="New conversation").first.click()
    expect(cards(page)).to_have_count(0)
    page.get_by_role("button", name="Conversations").click()
    page.get_by_role("list", name="Conversations").locator(".cui-thread-open").filter(has_text="show order 1042").click()
    shown_as_before(page, seen)

    page.reload()
    shown_as_before(page, seen)

    page.goto("/popup")
    page.get_by_role("button", name="Open the copilot").click()
    shown_as_before(page, seen)

    tabs.allowed.append(lambda text: "ERR_CONNECTION_REFUSED" in text or "ERR_CONNECTION_RESET" in text)
    demo_server.restart(signal.SIGTERM)
    page.goto("/")
    shown_as_before(page, seen)
    expect(order_status(page, "#1041")).to_have_text("Refunded")  # the dashboard agrees with the conversation
    expect(page.locator('[data-kpi="Refunds"]')).to_have_text("24")

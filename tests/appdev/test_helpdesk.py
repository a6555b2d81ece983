"""An app of someone else's, written from the README alone: its tools, its cards, its typed question, its agents.

The app (helpdesk_app/helpdesk/helpdesk.py) uses only what the README documents. Each test does what
its developer would try in the browser, on the offline demo model, which calls a tool whose name
starts the message (`set_priority {"level": "high"}`).
"""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from tests.browser._person import ServerFrames, ask, card, copilot, idle, replies
from tests.browser.conftest import Tabs


def open_helpdesk(tabs: Tabs, url: str) -> Page:
    page = tabs.open(url)
    page.goto("/")
    expect(page.get_by_role("heading", name="Ticket #7")).to_be_visible()
    return page


def test_the_apps_own_tool_changes_its_page(tabs: Tabs, helpdesk_url: str):
    page = open_helpdesk(tabs, helpdesk_url)
    ask(page, 'set_priority {"level": "high"}')
    expect(page.locator("#priority")).to_have_text("Priority: high", timeout=20_000)
    expect(replies(page).last).to_have_text("Done: The ticket's priority is now high.", timeout=20_000)


def test_the_apps_card_draws_the_tools_json_result_and_keeps_it_after_a_reload(tabs: Tabs, helpdesk_url: str):
    page = open_helpdesk(tabs, helpdesk_url)
    ask(page, "lookup_customer ada@example.com")
    customer = copilot(page).get_by_role("region", name="Customer")
    expect(customer).to_have_text("Customer ada@example.comAda Lovelace, Pro plan since 2021", timeout=20_000)
    idle(page)
    page.reload()
    expect(copilot(page).get_by_role("region", name="Customer")).to_have_text(
        "Customer ada@example.comAda Lovelace, Pro plan since 2021", timeout=20_000
    )


def test_a_checklist_answer_reaches_the_question_typed_with_its_unticked_steps(tabs: Tabs, helpdesk_url: str):
    page = open_helpdesk(tabs, helpdesk_url)
    steps = [{"description": "Reply to Ada"}, {"description": "Refund the order"}, {"description": "Close the ticket"}]
    ask(page, "choose_steps " + json.dumps({"steps": steps}))
    question = copilot(page).get_by_role("region", name="Steps")
    expect(question.get_by_role("checkbox")).to_have_count(3, timeout=20_000)
    question.get_by_role("checkbox", name="Refund the order").uncheck()
    question.get_by_role("button", name="Confirm").click()

    # The app's function got typed steps (it reads step.description) and True/False for every box.
    expect(question).to_have_text("Reply to AdaClose the ticket", timeout=20_000)
    expect(replies(page).last).to_have_text('Done: ["Reply to Ada", "Close the ticket"]', timeout=20_000)
    expect(card(page, "choose_steps")).to_have_attribute("data-status", "complete")


def test_each_agent_shares_its_own_state_with_the_page(tabs: Tabs, helpdesk_url: str):
    page = tabs.open(helpdesk_url)
    server = ServerFrames(page)
    page.goto("/")
    expect(page.get_by_role("heading", name="Ticket #7")).to_be_visible()
    notes = page.get_by_role("textbox", name="Notes")

    ask(page, "set_status waiting")  # the default agent's own tool writes the ticket's state
    expect(page.locator("#status")).to_have_text("Status: waiting", timeout=20_000)
    expect(replies(page).last).to_contain_text("The ticket is waiting (its priority: normal)", timeout=20_000)
    idle(page)
    expect(notes).to_have_value("")  # not the default agent's

    page.get_by_role("combobox", name="Agent").select_option(label="notes")
    with server.carrying("call Bob"):  # the page's edit reached its state (it was debounced)
        notes.fill("call Bob")
    ask(page, "save_note buy milk")  # the notes agent reads the page's notes and adds a line
    expect(notes).to_have_value("call Bob\nbuy milk", timeout=20_000)
    idle(page)
    expect(page.locator("#status")).to_have_text("Status: waiting")  # the notes agent left the ticket alone


def test_the_conversations_a_guest_had_move_to_them_when_they_log_in(tabs: Tabs, helpdesk_url: str):
    page = open_helpdesk(tabs, helpdesk_url)
    ask(page, 'set_priority {"level": "low"}')  # as a guest
    idle(page)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out ada")).to_be_visible()

    page.get_by_role("button", name="Conversations").click()
    listed = page.get_by_role("list", name="Conversations").locator(".cui-thread-open")
    expect(listed.filter(has_text="set_priority")).to_have_count(1)  # theirs now
    page.keyboard.press("Escape")

    elsewhere = tabs.open(helpdesk_url)  # another device: only the account is the same
    elsewhere.goto("/")
    elsewhere.get_by_role("button", name="Log in").click()
    elsewhere.get_by_role("button", name="Conversations").click()
    expect(
        elsewhere.get_by_role("list", name="Conversations").locator(".cui-thread-open").filter(has_text="set_priority")
    ).to_have_count(1)

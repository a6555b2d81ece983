"""A card's texts made in Python (`display=`): the budget card of the tests' set_budget tool (tests/browser/_app_extras.py)
says "€4,200" as the page writes money, already while the agent writes the arguments, and again when the conversation
is opened from the list or the page reloaded (the texts come from the stored conversation)."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from ._person import ask, card, copilot, idle

# Records, in the page, each (status, amount) the budget card showed.
CARD_OBSERVER = """
window.__budget = [];
new MutationObserver(() => {
  const drawn = document.querySelector('[data-tool="set_budget"]');
  const amount = drawn && drawn.querySelector('.budget-amount');
  if (amount) window.__budget.push([drawn.dataset.status, amount.textContent]);
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""


def test_the_budget_card_shows_money_made_in_python_while_it_streams_and_after_reopening(page: Page):
    page.goto("/")
    page.evaluate(CARD_OBSERVER)
    arguments = {"trip": "Kyoto", "amount": 4200, "note": "Two weeks in spring, temples and gardens. " * 8}
    ask(page, "set_budget " + json.dumps(arguments))

    budget = card(page, "set_budget")
    expect(budget).to_have_attribute("data-status", "complete", timeout=20_000)
    expect(budget.locator(".budget-amount")).to_have_text("€4,200")
    expect(budget.locator(".budget-left")).to_have_text("€800 left")
    seen = page.evaluate("window.__budget")
    assert ["streaming", "€4,200"] in seen, seen  # formatted while the note was still arriving
    idle(page)

    page.get_by_role("button", name="New conversation").first.click()
    expect(card(page, "set_budget")).to_have_count(0)
    page.get_by_role("button", name="Conversations").click()
    page.get_by_role("list", name="Conversations").locator(".cui-thread-open").filter(has_text="set_budget").click()
    expect(copilot(page).locator('[data-tool="set_budget"] .budget-amount')).to_have_text("€4,200", timeout=20_000)
    expect(copilot(page).locator('[data-tool="set_budget"] .budget-left')).to_have_text("€800 left")

    page.reload()
    expect(copilot(page).locator('[data-tool="set_budget"] .budget-amount')).to_have_text("€4,200", timeout=20_000)

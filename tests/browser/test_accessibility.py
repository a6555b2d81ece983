"""axe-core (from npm) scans the demo page in Chromium: no serious or critical violation.

The scans cover what a person meets: the dashboard with the sidebar, a conversation holding tool cards
(the default card and the app's own), the approval dialog open over it, and the popup layout open. axe-core
is installed once with the venv's npm into the venv (pinned), like the frontend's own packages.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests._npm import npm_package

from ._person import ask, card, dialog, idle

AXE_VERSION = "4.10.3"
SERIOUS = {"serious", "critical"}


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe.min.js of the pinned axe-core, installed with npm into the venv on first use."""
    return (npm_package("axe-core", AXE_VERSION) / "axe.min.js").read_text(encoding="utf-8")


SETTLED = """async () => {
    const finite = document.getAnimations().filter(a => a.effect?.getComputedTiming().endTime !== Infinity);
    await Promise.all(finite.map(a => a.finished.catch(() => null)));
}"""


def violations(page: Page, axe_source: str) -> list[str]:
    """The serious and critical violations axe-core finds in the page as it is now, one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe_source)  # evaluated by the browser's debugger, so the page's CSP allows it
    # A dialog fading in or out has text of too little contrast for that moment: scan the settled page.
    page.evaluate(SETTLED)
    found = page.evaluate("async () => (await window.axe.run(document, {resultTypes: ['violations']})).violations")
    return [
        f"{item['impact']}: {item['id']} ({item['help']}) at {[node['target'] for node in item['nodes']][:3]}"
        for item in found
        if item["impact"] in SERIOUS
    ]


def test_the_dashboard_with_its_sidebar_has_no_serious_violation(page: Page, axe_source: str):
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_have_count(1)  # one h1 on the demo page
    expect(page.get_by_role("button", name="Send")).to_be_visible()
    expect(page.get_by_text("Demo model")).to_be_visible()  # the header as the session fills it
    assert violations(page, axe_source) == []


def test_tool_cards_and_the_approval_dialog_have_no_serious_violation(page: Page, axe_source: str):
    page.goto("/")
    ask(page, "switch to dark mode")  # the default card, in the dark theme
    idle(page)
    ask(page, "show order 1042")  # the app's own card
    idle(page)
    expect(page.get_by_role("region", name="Order #1042")).to_be_visible()
    ask(page, "refund order 1041")  # a card waiting for approval, and the dialog over the page
    expect(dialog(page)).to_be_visible(timeout=20_000)
    expect(card(page, "set_theme")).to_have_count(1)
    assert violations(page, axe_source) == []

    page.keyboard.press("Escape")  # the card with its Review button, the dialog closed
    expect(card(page, "refund_order").get_by_role("button", name="Review")).to_be_visible()
    expect(dialog(page)).to_have_count(0)  # gone, not fading out: half-faded text has too little contrast
    assert violations(page, axe_source) == []


def test_the_popup_open_has_no_serious_violation(page: Page, axe_source: str):
    page.goto("/popup")
    page.get_by_role("button", name="Open the copilot").click()
    expect(page.get_by_role("dialog", name="Copilot")).to_be_visible()
    ask(page, "hello")
    idle(page)
    assert violations(page, axe_source) == []


def test_a_reply_with_a_wide_code_block_and_a_table_has_no_serious_violation(hostile_page: Page, axe_source: str):
    page = hostile_page
    page.goto("/")
    wide = "total = " + " + ".join(str(number) for number in range(60))
    ask(page, f"!reply ```python\n{wide}\n```\n\n| City | Sales |\n| --- | --- |\n| Berlin | 18,420 |")
    idle(page)
    expect(page.locator('[data-kind="assistant"] pre')).to_have_count(1)
    assert violations(page, axe_source) == []

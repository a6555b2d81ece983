"""The list of conversations as a person uses it: a row opens wherever it is clicked, its buttons fit in it,
and search finds a conversation by what was said in it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from ._person import ask, idle, replies
from .conftest import Tabs

REVENUE = "what is our revenue this month?"
REVENUE_REPLY = "Revenue this month is $48,210 (+12% vs last month)."
DESKTOP = {"viewport": {"width": 1400, "height": 900}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_clicking_a_row_away_from_its_title_opens_that_conversation(page: Page):
    page.goto("/")
    two_conversations(page, "hello", "show orders from Berlin")
    row = listed_row(conversations(page), "hello")
    x, y = empty_spot(row)
    page.mouse.click(x, y)

    expect(page.get_by_role("list", name="Conversations")).to_be_hidden()  # the list closed
    expect(page.locator('[data-kind="user"]')).to_have_text(["hello"])
    row = listed_row(conversations(page), "show orders from Berlin")
    row.get_by_role("button").first.focus()
    page.keyboard.press("Enter")  # the keyboard opens a row as before
    expect(page.locator('[data-kind="user"]')).to_have_text(["show orders from Berlin"])


@pytest.mark.parametrize("screen", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_new_conversation_button_fits_in_the_list(tabs: Tabs, app_url: str, screen: dict):
    page = tabs.open(app_url, **screen)
    page.goto("/")
    if screen is PHONE:  # on a phone the copilot waits behind its button
        page.get_by_role("button", name="Copilot", exact=True).click()
    listed = conversations(page)
    popover = page.get_by_role("dialog").filter(has=listed)
    new = popover.get_by_role("button", name="New conversation")
    expect(new).to_be_visible()
    inside, button = popover.bounding_box(), new.bounding_box()
    assert button["x"] >= inside["x"] - 0.5, (button, inside)
    assert button["x"] + button["width"] <= inside["x"] + inside["width"] + 0.5, (button, inside)
    assert inside["x"] >= 0 and inside["x"] + inside["width"] <= screen["viewport"]["width"], inside


def test_search_finds_a_conversation_by_a_word_of_its_reply(page: Page):
    page.goto("/")
    two_conversations(page, REVENUE, "show orders from Berlin")
    listed = conversations(page)
    search(page, "48,210")  # only in the agent's reply, not in the title
    expect(listed.locator(".cui-thread-title")).to_have_text([REVENUE])


def test_a_search_that_finds_nothing_says_no_match(page: Page):
    page.goto("/")
    conversations(page)
    expect(page.get_by_text("No conversations yet.")).to_be_visible()
    page.keyboard.press("Escape")
    ask(page, "hello")
    idle(page)
    listed = conversations(page)
    search(page, "zebra crossing")
    expect(listed.locator(".cui-thread")).to_have_count(0)
    expect(page.get_by_text("No match", exact=True)).to_be_visible()
    expect(page.get_by_text("No conversations yet.")).to_have_count(0)


def test_the_keyboard_keeps_its_place_through_rename_and_delete(page: Page):
    page.goto("/")
    two_conversations(page, "hello", "show orders from Berlin")
    listed = conversations(page)
    row = listed.get_by_role("listitem").filter(has_text="hello")  # the row, whether it shows its entry or a form
    row.get_by_role("button", name="Delete hello").focus()
    page.keyboard.press("Enter")
    keep = row.get_by_role("button", name="Keep")
    expect(keep).to_be_focused()  # the safe answer first; Enter on it keeps the conversation
    page.keyboard.press("Enter")
    expect(row.get_by_role("button", name="Delete hello")).to_be_focused()  # back where the person was

    page.keyboard.press("Shift+Tab")
    expect(row.get_by_role("button", name="Rename hello")).to_be_focused()
    page.keyboard.press("Enter")
    title = listed.get_by_role("textbox", name="New title")
    expect(title).to_be_focused()
    title.fill("Greetings")
    page.keyboard.press("Enter")
    row = listed.get_by_role("listitem").filter(has_text="Greetings")
    expect(row.get_by_role("button", name="Rename Greetings")).to_be_focused()

    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    expect(row.get_by_role("button", name="Keep")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(row.get_by_role("button", name="Delete", exact=True)).to_be_focused()
    page.keyboard.press("Enter")
    expect(listed.locator(".cui-thread-title")).to_have_text(["show orders from Berlin"])
    expect(page.get_by_role("searchbox", name="Search conversations")).to_be_focused()  # not lost on the page


def two_conversations(page: Page, first: str, second: str) -> None:
    """The person asks one thing, starts a new conversation and asks another."""
    ask(page, first)
    idle(page)
    expect(replies(page)).to_have_count(1)
    page.get_by_role("button", name="New conversation").first.click()
    expect(page.locator('[data-kind="user"]')).to_have_count(0)
    ask(page, second)
    idle(page)


def conversations(page: Page) -> Locator:
    """Open the list of conversations; the list."""
    page.get_by_role("button", name="Conversations").click()
    expect(page.get_by_role("searchbox", name="Search conversations")).to_be_visible()
    return page.get_by_role("list", name="Conversations")


def listed_row(listed: Locator, title: str) -> Locator:
    """The row of a listed conversation."""
    row = listed.get_by_role("listitem").filter(has=listed.page.locator(".cui-thread-title", has_text=title))
    expect(row).to_have_count(1)
    return row


def empty_spot(row: Locator) -> tuple[float, float]:
    """The middle of the widest stretch of the row that is neither its title's text nor one of its buttons."""
    area, title = row.bounding_box(), row.locator(".cui-thread-title").bounding_box()
    taken = [(title["x"], title["x"] + title["width"])]
    for name in ("Rename", "Delete"):
        button = row.get_by_role("button", name=name).bounding_box()
        taken.append((button["x"], button["x"] + button["width"]))
    edges = [area["x"], *sorted(edge for span in taken for edge in span), area["x"] + area["width"]]
    gaps = [(edges[n], edges[n + 1]) for n in range(0, len(edges), 2)]
    left, right = max(gaps, key=lambda gap: gap[1] - gap[0])
    assert right - left > 20, f"no empty stretch in the row: {gaps}"
    return (left + right) / 2, area["y"] + area["height"] / 2


def search(page: Page, words: str) -> None:
    page.get_by_role("searchbox", name="Search conversations").fill(words)

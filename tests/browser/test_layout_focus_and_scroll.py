"""Every layout opens at the latest message of a long conversation; closing the approval dialog undecided
gives focus back to where the person can pick it up again.

The conversation is the tab's (its session storage): held on the docked sidebar at `/`, then opened
in the same tab at `/popup` and `/chat`. A conversation picked from the list opens at its end too.
"""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from ._person import ask, card, copilot, dialog, idle, replies

TURNS = (
    "show orders from Berlin",
    "compare Berlin and Paris",
    "show order 1042",
    "what is our revenue this month?",
    "hello",
    "show orders from Paris",
)
LAST_REPLY = "Done: the Orders table shows 2 orders from Paris."
SETTLES_WITHIN = 3.0  # seconds: the conversation and its texts arrive after the page shows

# Where the conversation stands and where its last reply is, as the person sees them.
MEASURE = """() => {
  const log = document.querySelector('[role="log"][aria-label="Conversation"]');
  const last = [...document.querySelectorAll('[data-kind="assistant"]')].at(-1);
  if (!log || !last) return {ready: false};
  const shown = log.getBoundingClientRect(), reply = last.getBoundingClientRect();
  return {
    ready: log.clientHeight > 0,
    scrollHeight: log.scrollHeight, clientHeight: log.clientHeight, scrollTop: log.scrollTop,
    fromEnd: log.scrollHeight - log.scrollTop - log.clientHeight,
    replyTop: reply.top - shown.top, replyBottom: reply.bottom - shown.top,
  };
}"""


def a_long_conversation(page: Page) -> None:
    """Several turns on the docked sidebar: more than a layout shows at once."""
    page.goto("/")
    for words in TURNS:
        ask(page, words)
        idle(page)
    expect(replies(page).last).to_have_text(LAST_REPLY)


def the_latest_reply_is_in_view(page: Page) -> None:
    """The conversation is scrolled to its end and the last reply lies within it (it settles after the page shows)."""
    deadline = time.monotonic() + SETTLES_WITHIN
    while True:
        seen = page.evaluate(MEASURE)
        in_view = (
            seen["ready"] and seen["fromEnd"] < 80 and seen["replyTop"] >= 0 and seen["replyBottom"] <= seen["clientHeight"] + 1
        )
        if in_view:
            assert seen["scrollHeight"] > seen["clientHeight"] + 100, f"the conversation is too short to scroll: {seen}"
            return
        assert time.monotonic() < deadline, f"the last reply is not in view: {seen}"
        page.wait_for_timeout(100)


def test_the_popup_opens_at_the_latest_message_and_again_when_reopened(page: Page):
    a_long_conversation(page)
    page.goto("/popup")
    opener = page.get_by_role("button", name="Open the copilot")
    opener.click()
    expect(replies(page).last).to_have_text(LAST_REPLY)
    the_latest_reply_is_in_view(page)

    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog", name="Copilot")).to_be_hidden()
    opener.click()
    the_latest_reply_is_in_view(page)


def test_a_reply_that_came_while_the_popup_was_closed_is_in_view_when_it_opens(page: Page):
    page.goto("/popup")
    opener = page.get_by_role("button", name="Open the copilot")
    opener.click()
    for words in TURNS:
        ask(page, words)
        idle(page)
    answered = replies(page).count()
    ask(page, 'slow_state_tool {"seconds": 2, "note": "while closed"}')
    page.keyboard.press("Escape")  # the person closes the popup; the copilot goes on
    expect(page.get_by_role("dialog", name="Copilot")).to_be_hidden()
    expect(card(page, "slow_state_tool")).to_have_attribute("data-status", "complete", timeout=20_000)
    expect(replies(page)).to_have_count(answered + 1, timeout=20_000)
    opener.click()
    the_latest_reply_is_in_view(page)


def test_the_inline_chat_opens_at_the_latest_message(page: Page):
    a_long_conversation(page)
    page.goto("/chat")
    expect(replies(page).last).to_have_text(LAST_REPLY)
    the_latest_reply_is_in_view(page)


def test_another_conversation_opens_at_its_latest_message(page: Page):
    page.goto("/chat")
    for words in TURNS:
        ask(page, words)
        idle(page)
    page.get_by_role("button", name="New conversation").first.click()
    expect(page.locator('[data-kind="user"]')).to_have_count(0)
    for words in reversed(TURNS):
        ask(page, words)
        idle(page)
    copilot(page).evaluate("element => element.scrollTo({top: 0})")  # the person reads from the start
    expect(page.get_by_role("button", name="Jump to latest")).to_be_visible()

    page.get_by_role("button", name="Conversations").click()
    listed = page.get_by_role("list", name="Conversations").locator(".cui-thread-open")
    listed.filter(has_text=TURNS[0]).click()
    expect(replies(page).last).to_have_text(LAST_REPLY)
    the_latest_reply_is_in_view(page)
    expect(page.get_by_role("button", name="Jump to latest")).to_have_count(0)


def test_escape_on_the_approval_dialog_gives_focus_to_the_cards_review_button(page: Page):
    page.goto("/")
    ask(page, "refund order 1042")
    expect(dialog(page)).to_be_visible(timeout=20_000)
    page.keyboard.press("Escape")
    expect(dialog(page)).to_have_count(0)
    expect(card(page, "refund_order").get_by_role("button", name="Review")).to_be_focused()
    assert page.evaluate("document.activeElement !== document.body")


def test_not_now_on_the_approval_dialog_gives_focus_to_the_cards_review_button(page: Page):
    page.goto("/")
    ask(page, "refund order 1042")
    dialog(page).get_by_role("button", name="Not now").click(timeout=20_000)
    expect(dialog(page)).to_have_count(0)
    expect(card(page, "refund_order").get_by_role("button", name="Review")).to_be_focused()
    assert page.evaluate("document.activeElement !== document.body")

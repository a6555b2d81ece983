"""A person at the demo dashboard, talking to its copilot."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ._person import ask, card, dialog, order_status, replies

DARK = re.compile(r"\bdark\b")

# Records, in the page itself, what the person would see and when: every length the reply being
# written had, when <html> became dark, and when the first words of the agent's follow-up appeared.
OBSERVER = """
window.__seen = {replyLengths: [], darkAt: null, followUpAt: null};
new MutationObserver(() => {
  const now = performance.now();
  const live = document.querySelector('[data-kind="live"]');
  if (live) window.__seen.replyLengths.push(live.textContent.length);
  if (window.__seen.darkAt === null && document.documentElement.classList.contains('dark')) window.__seen.darkAt = now;
  const sidebar = document.querySelector('aside[aria-label="Copilot"]');
  if (window.__seen.followUpAt === null && sidebar && sidebar.textContent.includes('Done:')) window.__seen.followUpAt = now;
}).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
"""


def test_the_sidebar_is_a_landmark_with_a_message_box(page: Page):
    page.goto("/")
    sidebar = page.get_by_role("complementary", name="Copilot")
    expect(sidebar).to_be_visible()
    expect(sidebar.get_by_role("textbox", name="Ask the copilot")).to_be_editable()


def test_hello_gets_a_reply_streamed_word_by_word(page: Page):
    page.add_init_script(OBSERVER)
    page.goto("/")
    ask(page, "hello")

    sidebar = page.get_by_role("complementary", name="Copilot")
    expect(sidebar.locator('[data-kind="user"]')).to_have_text("hello")
    expect(page.get_by_role("textbox", name="Ask the copilot")).to_have_value("")  # Enter sent and cleared it
    reply = sidebar.locator('[data-kind="assistant"]')
    expect(reply).to_contain_text("Hello! I'm the demo copilot", timeout=20_000)
    expect(reply).to_contain_text("Connect a real model or any AG-UI agent server", timeout=20_000)
    expect(sidebar.locator('[data-kind="live"]')).to_have_count(0)

    lengths = page.evaluate("window.__seen.replyLengths")
    growing = sorted(set(length for length in lengths if length > 0))
    assert len(growing) >= 4, f"the reply did not stream: lengths seen {growing}"


def test_shift_enter_starts_a_new_line_instead_of_sending(page: Page):
    page.goto("/")
    box = page.get_by_role("textbox", name="Ask the copilot")
    box.fill("first line")
    box.press("Shift+Enter")
    box.type("second line")
    expect(box).to_have_value("first line\nsecond line")
    expect(page.locator('[data-kind="user"]')).to_have_count(0)


def test_switching_to_dark_mode_changes_the_page_before_the_agent_answers(page: Page):
    page.add_init_script(OBSERVER)
    page.goto("/")
    expect(page.locator("html")).not_to_have_class(DARK)

    ask(page, "switch to dark mode")

    sidebar = page.get_by_role("complementary", name="Copilot")
    theme = card(page, "set_theme")
    expect(theme).to_have_attribute("data-status", "complete", timeout=20_000)
    expect(theme.get_by_label("Arguments")).to_contain_text('"mode": "dark"')
    expect(theme.get_by_label("Result")).to_have_text("Theme is now dark.")
    expect(page.locator("html")).to_have_class(DARK)
    expect(page.locator("#theme-label")).to_contain_text("dark")

    # The follow-up quotes the tool's result and what the context, read after the commit, said.
    answer = sidebar.locator('[data-kind="assistant"]').last
    expect(answer).to_have_text("Done: Theme is now dark. The dashboard now shows the dark theme.", timeout=20_000)
    seen = page.evaluate("window.__seen")
    assert seen["darkAt"] is not None and seen["followUpAt"] is not None
    assert seen["darkAt"] < seen["followUpAt"], "the page turned dark only after the follow-up began"


def test_switching_back_to_light_mode_restores_the_page(page: Page):
    page.goto("/")
    ask(page, "switch to dark mode")
    expect(page.locator("html")).to_have_class(DARK, timeout=20_000)
    expect(page.get_by_text("The dashboard now shows the dark theme.")).to_be_visible(timeout=20_000)

    ask(page, "now switch to light mode")
    expect(page.get_by_text("The dashboard now shows the light theme.")).to_be_visible(timeout=20_000)
    expect(page.locator("html")).not_to_have_class(DARK)
    expect(page.locator('[data-tool="set_theme"]')).to_have_count(2)


def test_a_refund_waits_for_approval_in_a_dialog_that_says_what_will_happen(page: Page):
    page.goto("/")
    ask(page, "please refund order 1041")

    approval = dialog(page)
    expect(approval).to_be_visible(timeout=20_000)
    expect(approval).to_contain_text("Refund order #1041: the money goes back to the customer.")
    expect(card(page, "refund_order")).to_have_attribute("data-status", "awaiting_approval")
    expect(card(page, "refund_order").get_by_label("Arguments")).to_contain_text('"order_id": "#1041"')
    expect(order_status(page, "#1041")).to_have_text("Processing")  # nothing happened yet

    approval.get_by_role("button", name="Approve").click()
    expect(order_status(page, "#1041")).to_have_text("Refunded", timeout=20_000)
    expect(page.locator('[data-kpi="Refunds"]')).to_have_text("24")
    expect(card(page, "refund_order")).to_have_attribute("data-status", "complete")
    expect(card(page, "refund_order").get_by_label("Result")).to_have_text("Refunded order #1041 ($89.50 to Alan Turing).")
    expect(replies(page).last).to_have_text(
        "Done: Refunded order #1041 ($89.50 to Alan Turing). The dashboard lists order #1041 as Refunded.", timeout=20_000
    )
    expect(page.get_by_role("textbox", name="Ask the copilot")).to_be_focused()  # back to the message box


def test_a_denied_refund_changes_nothing_and_the_agent_quotes_the_reason(page: Page):
    page.goto("/")
    ask(page, "refund order 1042")
    approval = dialog(page)
    expect(approval).to_be_visible(timeout=20_000)
    approval.get_by_role("textbox", name="Reason (optional)").fill("the customer kept it")
    approval.get_by_role("button", name="Deny").click()

    expect(card(page, "refund_order")).to_have_attribute("data-status", "denied", timeout=20_000)
    expect(replies(page).last).to_have_text("That did not happen: denied by the user: the customer kept it.", timeout=20_000)
    expect(order_status(page, "#1042")).to_have_text("Shipped")
    expect(approval).to_have_count(0)


def test_a_waiting_approval_survives_a_reload(page: Page):
    page.goto("/")
    ask(page, "refund order 1041")
    expect(dialog(page)).to_be_visible(timeout=20_000)

    page.reload()
    expect(card(page, "refund_order")).to_have_attribute("data-status", "awaiting_approval")
    expect(page.locator('[data-kind="user"]')).to_have_text("refund order 1041")
    expect(dialog(page)).to_be_visible()  # it opens again by itself
    dialog(page).get_by_role("button", name="Approve").click()
    expect(order_status(page, "#1041")).to_have_text("Refunded", timeout=20_000)


def test_stop_ends_the_reply_where_it_was(page: Page):
    page.goto("/")
    ask(page, "hello")
    live = page.locator('[data-kind="live"]')
    expect(live).to_contain_text("demo copilot", timeout=20_000)
    page.get_by_role("button", name="Stop").click()

    expect(page.locator('[data-kind="notice"]')).to_have_text("Stopped.")
    expect(page.get_by_role("button", name="Send")).to_be_visible()
    reply = page.locator('[data-kind="assistant"]')
    expect(reply).to_contain_text("demo copilot")
    expect(reply).not_to_contain_text("Connect a real model")  # the rest never came

    ask(page, "hello")  # a later turn, as long as the whole first reply: the first's rest would have come before its end
    expect(reply.nth(1)).to_contain_text("Connect a real model", timeout=20_000)
    expect(reply.first).to_contain_text("demo copilot")
    expect(reply.first).not_to_contain_text("Connect a real model")


def test_a_reload_while_the_reply_streams_loses_nothing(page: Page):
    page.goto("/")
    ask(page, "hello")
    expect(page.locator('[data-kind="live"]')).to_contain_text("demo copilot", timeout=20_000)
    page.reload()

    reply = page.locator('[data-kind="assistant"]')
    expect(reply).to_contain_text("Connect a real model or any AG-UI agent server", timeout=20_000)
    expect(reply).to_have_count(1)
    expect(reply).to_contain_text("Hello! I'm the demo copilot")
    expect(page.locator('[data-kind="user"]')).to_have_text("hello")


def test_the_conversation_follows_new_messages_to_its_end(page: Page):
    page.set_viewport_size({"width": 1200, "height": 480})
    page.goto("/")
    for turn in range(3):
        ask(page, f"hello {turn}")
        expect(page.locator('[data-kind="assistant"]')).to_have_count(turn + 1, timeout=20_000)
    conversation = page.get_by_role("log", name="Conversation")
    expect(page.locator('[data-kind="live"]')).to_have_count(0)
    scroll = conversation.evaluate("element => [element.scrollHeight, element.clientHeight, element.scrollTop]")
    height, visible, top = scroll
    assert height > visible, "the conversation should overflow at this size"
    assert height - visible - top < 5, f"not scrolled to the end: {scroll}"


def test_a_new_conversation_during_a_reply_leaves_the_old_reply_behind(page: Page):
    page.goto("/")
    ask(page, "hello")
    expect(page.locator('[data-kind="live"]')).to_contain_text("demo copilot", timeout=20_000)
    page.get_by_role("button", name="New conversation").click()

    conversation = page.get_by_role("log", name="Conversation")
    expect(conversation).to_contain_text("Ask about the page")
    expect(conversation.locator("[data-kind]")).to_have_count(0)

    ask(page, "hello")  # a turn as long as the whole old reply: the old reply's rest would have come before its end
    whole = replies(page).filter(has_text="Connect a real model")
    expect(whole).to_have_count(1, timeout=20_000)
    ask(page, "switch to dark mode")
    expect(page.get_by_text("The dashboard now shows the dark theme.")).to_be_visible(timeout=20_000)
    expect(page.locator('[data-kind="user"]')).to_have_text(["hello", "switch to dark mode"])
    expect(whole).to_have_count(1)  # the new conversation's own reply: nothing of the old one came after


def test_a_question_from_the_agent_takes_the_persons_answer_as_its_result(page: Page):
    page.goto("/")
    ask(page, "ask me something")
    question = card(page, "ask_user")
    expect(question).to_have_attribute("data-status", "awaiting_input", timeout=20_000)
    expect(question).to_contain_text("Which region should the dashboard focus on?")

    answer = question.get_by_role("textbox", name="Your answer")
    answer.fill("Europe")
    answer.press("Enter")
    expect(question).to_have_attribute("data-status", "complete", timeout=20_000)
    expect(question.get_by_label("Result")).to_have_text("Europe")
    expect(page.locator('[data-kind="assistant"]').last).to_have_text("Done: Europe", timeout=20_000)

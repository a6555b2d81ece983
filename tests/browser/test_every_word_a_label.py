"""Every text the copilot shows is one of its labels (cui.Labels), in Chromium: the app is served with each label
wrapped in ⟦…⟧ (a pseudo-locale), and each visible text, accessible name, tooltip and placeholder of the copilot's
parts must be a marked label or the agent's, the person's or the app's own words. A word the copilot writes without a
label would show unmarked, and an app in another language would show it in English.

Served: the demo app with the trip planner of tests/browser/_words_app.py, its page /words.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ._connection import ConnectionCut
from ._person import hydrated
from ._words_said import FAILURE, FOLLOW_UP, LONG_MODEL, LONG_REPLY, QUESTION, REPLY
from .conftest import ServedApp, Tabs
from .test_attachments import BIG_DROP, DROP, encoded

TURN_TIMEOUT = 20_000

# The copilot's parts on the page, the dialogs and menus it opens included.
ROOTS = ".cui-sidebar, .cui-dock-open, .cui-popup-launcher, .cui-popup-panel, .cui-chat, .cui-task-panel, "
ROOTS += "[role='alertdialog'], [data-radix-popper-content-wrapper]"
NAMING = ("aria-label", "title", "placeholder", "alt", "aria-description", "aria-roledescription", "aria-valuetext")
SHOWN = """([roots, naming]) => {
  const found = [];
  const where = (element) => element.closest("[class]")?.getAttribute("class")?.split(" ")[0] || element.tagName;
  const tops = [...document.querySelectorAll(roots)];
  for (const root of tops.filter((root) => !tops.some((other) => other !== root && other.contains(root)))) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!node.textContent.trim() || !parent || parent.closest("style, script")) continue;
      if (parent.checkVisibility()) found.push({ what: "text", text: node.textContent, where: where(parent) });
    }
    for (const element of [root, ...root.querySelectorAll("*")]) {
      if (!element.checkVisibility()) continue;
      if (element.tagName === "SELECT") {  // its options show when it opens
        for (const option of element.options) found.push({ what: "option", text: option.text, where: where(element) });
      }
      for (const name of naming) {
        const value = element.getAttribute(name);
        if (value && value.trim()) found.push({ what: name, text: value, where: where(element) });
      }
    }
  }
  return found;
}"""
_MARKED = re.compile(r"⟦[^⟦⟧]*⟧")
_LETTER = re.compile(r"[^\W\d_]")


def unlabelled(page: Page, content: list[str]) -> list[dict[str, Any]]:
    """What the copilot's parts show that is neither a label (⟦…⟧) nor one of these texts of the agent, the person or
    the app (compared without white space: the copilot lays texts out, JSON too)."""
    ours = [_compact(text) for text in content]
    found = page.evaluate(SHOWN, [ROOTS, list(NAMING)])
    left = []
    for shown in found:
        text = shown["text"]
        while _MARKED.search(text):  # labels hold the agent's words, and labels (a size in a refusal)
            text = _MARKED.sub("\n", text)
        pieces = [_compact(piece) for piece in text.split("\n")]
        if any(_LETTER.search(piece) and not any(piece in own for own in ours) for piece in pieces):
            left.append(shown)
    return left


def every_text_is_a_label(page: Page, content: list[str], where: str) -> None:
    left = unlabelled(page, content)
    assert not left, f"{where}: texts that are no label:\n" + "\n".join(json.dumps(x, ensure_ascii=False) for x in left)


def _compact(text: str) -> str:
    return re.sub(r"\s+", "", text)


# What the app and the agent say (tests/browser/_words_app.py), and what the person types.
APP = ["Trips", "Cancel in the background", "Plan Kyoto", "Trip planner"]
CARD = ["plan_trip", json.dumps({"destination": "Kyoto", "nights": 4}), "Planned 4 nights in Kyoto."]
CANCEL = ["cancel_trip", "Cancel a planned trip for good.", "Cancel a planned trip for good?", "trip_id", "The trip.", "t4"]
CANCELLED = ["Cancelled t4.", json.dumps({"trip_id": "t4"})]
TYPED = ["reply", "card", "cancel", "ask", "fail", "slow", "long", "4", "Why not"]
AGENT = [REPLY, FOLLOW_UP, LONG_REPLY, FAILURE, QUESTION, "ask_nights", json.dumps({"question": QUESTION}), LONG_MODEL]
FILES = ["orders.csv", "big.png"]
EVERYTHING = [*APP, *CARD, *CANCEL, *CANCELLED, *TYPED, *AGENT, *FILES]


@pytest.fixture
def words(tabs: Tabs, words_app: ServedApp) -> Page:
    page = tabs.open(words_app.url, permissions=["clipboard-read", "clipboard-write"])
    page.goto("/words")
    expect(composer(page)).to_be_visible()
    hydrated(page)  # (the walk adds a node to the page: before React took over the served HTML, that broke it)
    return page


def composer(page: Page):
    return page.get_by_role("textbox", name="⟦Ask the copilot⟧")


def ask(page: Page, text: str) -> None:
    sent = page.locator('[data-kind="user"]')
    before = sent.count()
    composer(page).fill(text)
    composer(page).press("Enter")
    expect(sent).to_have_count(before + 1, timeout=TURN_TIMEOUT)


def idle(page: Page) -> None:
    expect(page.locator(".cui-composer").get_by_role("button", name="⟦Send⟧")).to_be_visible(timeout=TURN_TIMEOUT)


def test_the_pseudo_locale_check_finds_a_word_that_is_no_label(words: Page):
    words.evaluate("""() => { const p = document.createElement("p"); p.textContent = "Uploading…";
                      document.querySelector(".cui-conversation").append(p); }""")
    assert [shown["text"] for shown in unlabelled(words, EVERYTHING)] == ["Uploading…"]


def test_an_empty_conversation_and_the_closed_sidebar_say_only_labels(words: Page):
    expect(words.get_by_role("button", name="Plan Kyoto")).to_be_visible()
    expect(words.locator(".cui-header").get_by_text(LONG_MODEL)).to_be_visible()  # the session has told the page
    every_text_is_a_label(words, [*APP, LONG_MODEL], "empty")
    words.get_by_role("combobox", name="⟦Agent⟧").select_option("default")  # the demo model
    expect(words.locator(".cui-header").get_by_text("⟦Demo model⟧")).to_be_visible()
    every_text_is_a_label(words, APP, "the demo model")
    words.get_by_role("button", name="⟦Close the copilot⟧").click()
    expect(words.locator(".cui-dock-open")).to_be_visible()
    every_text_is_a_label(words, [*APP, LONG_MODEL], "the sidebar closed")


def test_a_reply_a_tool_card_a_run_the_messages_actions_and_the_conversations_list_say_only_labels(words: Page):
    content = EVERYTHING
    ask(words, "slow")
    expect(words.locator(".cui-status")).to_have_text("⟦Thinking…⟧")
    every_text_is_a_label(words, content, "while the agent thinks")
    idle(words)
    ask(words, "card")
    expect(words.locator('[data-tool="plan_trip"]')).to_have_attribute("data-status", "complete", timeout=TURN_TIMEOUT)
    idle(words)
    ask(words, "long")
    expect(words.locator(".cui-cut")).to_be_visible(timeout=TURN_TIMEOUT)
    idle(words)

    reply = words.locator(".cui-turn").filter(has=words.locator('[data-kind="assistant"]')).last
    reply.hover()
    reply.get_by_role("button", name="⟦Bad response⟧").click()
    expect(words.get_by_role("textbox", name="⟦What was wrong? (optional)⟧")).to_be_visible()
    every_text_is_a_label(words, content, "replies, a card, a cut reply, a rating")
    words.get_by_role("textbox", name="⟦What was wrong? (optional)⟧").fill("Why not")
    words.get_by_role("button", name="⟦Send feedback⟧").click()
    expect(words.get_by_role("status").filter(has_text="⟦Thanks for your feedback⟧")).to_be_visible()
    mine = words.locator(".cui-turn-user").last
    mine.hover()
    mine.get_by_role("button", name="⟦Edit message⟧").click()
    expect(words.get_by_role("textbox", name="⟦Edit your message⟧")).to_be_visible()
    every_text_is_a_label(words, content, "editing a message")
    words.get_by_role("textbox", name="⟦Edit your message⟧").press("Escape")

    words.get_by_role("button", name="⟦Conversations⟧").click()
    listed = words.get_by_role("list", name="⟦Conversations⟧")
    expect(listed.get_by_role("listitem")).to_have_count(1)
    expect(listed).to_contain_text("⟦just now⟧")
    every_text_is_a_label(words, content, "the list of conversations")
    title = listed.locator(".cui-thread-title").inner_text()
    listed.get_by_role("button", name=f"⟦Rename {title}⟧").click()
    every_text_is_a_label(words, content, "renaming a conversation")
    listed.get_by_role("button", name="⟦Cancel⟧").click()
    listed.get_by_role("button", name=f"⟦Delete {title}⟧").click()
    expect(listed.get_by_role("alert")).to_contain_text(f"⟦Delete “{title}”?⟧")
    every_text_is_a_label(words, content, "deleting a conversation")


def test_an_approval_a_question_an_error_and_a_stop_say_only_labels(words: Page):
    ask(words, "cancel")
    dialog = words.get_by_role("alertdialog")
    expect(dialog).to_be_visible(timeout=TURN_TIMEOUT)
    expect(dialog).to_contain_text("Cancel a planned trip for good.")
    every_text_is_a_label(words, EVERYTHING, "the approval dialog")
    dialog.get_by_role("button", name="⟦Not now⟧").click()
    expect(words.locator('[data-tool="cancel_trip"]')).to_contain_text("⟦This call runs only once you approve it.⟧")
    every_text_is_a_label(words, EVERYTHING, "a card that waits for approval")
    words.get_by_role("button", name="⟦Review⟧").click()
    dialog.get_by_role("button", name="⟦Approve⟧").click()
    idle(words)

    ask(words, "ask")
    question = words.locator('[data-tool="ask_nights"]')
    expect(question).to_contain_text(QUESTION, timeout=TURN_TIMEOUT)
    every_text_is_a_label(words, EVERYTHING, "a question")
    question.get_by_role("textbox", name="⟦Your answer⟧").fill("4")
    question.get_by_role("button", name="⟦Answer⟧").click()
    idle(words)

    ask(words, "fail")
    expect(words.locator('[data-kind="error"]')).to_contain_text(FAILURE, timeout=TURN_TIMEOUT)
    expect(words.get_by_role("button", name="⟦Retry⟧")).to_be_visible()
    every_text_is_a_label(words, EVERYTHING, "an error")

    ask(words, "slow")
    words.get_by_role("button", name="⟦Stop⟧").click()
    expect(words.locator('[data-kind="notice"]').last).to_have_text("⟦Stopped.⟧", timeout=TURN_TIMEOUT)
    every_text_is_a_label(words, EVERYTHING, "a stopped run")


def test_files_and_their_refusals_say_only_labels(words: Page, tabs: Tabs):
    expect(words.get_by_role("button", name="⟦Attach files⟧")).to_be_enabled(timeout=TURN_TIMEOUT)
    words.evaluate(DROP, [".cui-panel", [encoded("orders.csv", "text/csv", b"order,city\n" + b"1041,Berlin\n" * 100)]])
    chip = words.locator(".cui-attach-file")
    expect(chip).to_have_attribute("data-uploading", "false", timeout=TURN_TIMEOUT)
    expect(chip).to_contain_text("⟦1 KB⟧")
    words.evaluate(BIG_DROP, ".cui-panel")
    refusal = words.locator(".cui-composer").get_by_role("alert")
    expect(refusal).to_have_text("⟦big.png is ⟦12.4 MB⟧; the limit is ⟦10 MB⟧⟧")
    every_text_is_a_label(words, EVERYTHING, "a file in the composer, another refused")
    ask(words, "reply")
    idle(words)
    expect(words.locator(".cui-sent-files")).to_contain_text("⟦1 KB⟧")
    every_text_is_a_label(words, EVERYTHING, "a message's files")


def test_the_task_panel_says_only_labels(words: Page):
    words.get_by_role("button", name="Cancel in the background").click()
    panel = words.get_by_role("region", name="⟦Agent tasks⟧")
    card = panel.locator('[data-tool="cancel_trip"]')
    expect(card).to_contain_text("⟦Waiting for you⟧", timeout=TURN_TIMEOUT)
    expect(panel).to_contain_text("⟦Working…⟧")
    every_text_is_a_label(words, EVERYTHING, "a task's call waiting for approval")
    card.get_by_role("button", name="⟦Approve⟧").click()
    expect(card).to_contain_text("⟦Done⟧", timeout=TURN_TIMEOUT)
    every_text_is_a_label(words, EVERYTHING, "a task's call done")


def test_the_reconnecting_notice_is_a_label(words: Page, tabs: Tabs):
    tabs.allowed.append(ConnectionCut.expected)
    cut = ConnectionCut(words)
    words.reload()
    hydrated(words)  # (connected: the cut then loses a live connection)
    cut.cut()
    expect(words.locator(".cui-header").get_by_role("status")).to_be_visible(timeout=TURN_TIMEOUT)
    every_text_is_a_label(words, EVERYTHING, "reconnecting")

"""A chat UI people prefer: three layouts, a phone, the comforts, several agents, accessibility, the dev console."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ._person import ask, copilot, hydrated, idle, replies
from .conftest import ServedApp, Tabs

# Whether the element is what a tap on its middle reaches, and else what it reaches.
UNCOVERED = """(element) => {
  const { left, top, width, height } = element.getBoundingClientRect();
  return element.contains(document.elementFromPoint(left + width / 2, top + height / 2));
}"""
COVERED_BY = """(element) => {
  const { left, top, width, height } = element.getBoundingClientRect();
  const above = document.elementFromPoint(left + width / 2, top + height / 2);
  return above ? above.outerHTML.slice(0, 120) : "nothing";
}"""


def sidebar(page: Page):
    return page.get_by_role("complementary", name="Copilot")


def test_the_sidebar_collapses_to_a_button_and_opens_again(page: Page):
    page.goto("/")
    expect(sidebar(page)).to_be_visible()
    page.get_by_role("button", name="Close the copilot").click()
    expect(sidebar(page)).to_be_hidden()
    opener = page.get_by_role("button", name="Copilot")
    expect(opener).to_be_focused()
    page.reload()  # remembered
    expect(sidebar(page)).to_be_hidden()
    page.get_by_role("button", name="Copilot").click()
    expect(sidebar(page)).to_be_visible()
    expect(page.get_by_role("textbox", name="Ask the copilot")).to_be_focused()


def test_the_sidebar_is_resized_by_its_edge_and_keeps_its_width(page: Page):
    page.goto("/")
    before = sidebar(page).bounding_box()["width"]
    edge = page.get_by_role("separator", name="Resize the copilot")
    box = edge.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 200)
    page.mouse.down()
    page.mouse.move(box["x"] - 120, box["y"] + 200, steps=5)
    page.mouse.up()
    wider = sidebar(page).bounding_box()["width"]
    assert wider > before + 100, (before, wider)
    edge.focus()
    page.keyboard.press("ArrowRight")  # narrower by keyboard
    assert sidebar(page).bounding_box()["width"] < wider
    kept = sidebar(page).bounding_box()["width"]
    page.reload()
    expect(sidebar(page)).to_be_visible()
    # (the remembered width applies once the page has hydrated: drawn ahead of time, it shows the default first)
    expect(edge).to_have_attribute("aria-valuenow", str(round(kept)))
    assert abs(sidebar(page).bounding_box()["width"] - kept) < 2


def test_the_popup_opens_sends_and_closes_with_escape(page: Page):
    page.goto("/popup")
    panel = page.get_by_role("dialog", name="Copilot")
    expect(panel).to_be_hidden()
    page.get_by_role("button", name="Open the copilot").click()
    expect(panel).to_be_visible()
    expect(page.get_by_role("textbox", name="Ask the copilot")).to_be_focused()
    ask(page, "what is our revenue this month?")
    expect(replies(page).last).to_have_text("Revenue this month is $48,210 (+12% vs last month).", timeout=20_000)
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    expect(page.get_by_role("button", name="Open the copilot")).to_be_focused()
    page.get_by_role("button", name="Open the copilot").click()
    expect(replies(page).last).to_contain_text("Revenue this month")  # the conversation is still there


def test_the_inline_chat_fills_its_container(page: Page):
    page.goto("/chat")
    chat = page.get_by_role("region", name="Copilot")
    box = page.locator(".demo-chat-box").bounding_box()
    area = chat.bounding_box()
    assert abs(area["height"] - box["height"]) < 2 and abs(area["width"] - box["width"]) < 2, (area, box)
    ask(page, "hello")
    expect(replies(page).last).to_contain_text("Hello!", timeout=20_000)


def test_on_a_phone_the_page_reflows_and_the_copilot_opens_full_screen(tabs: Tabs, app_url: str):
    phone = tabs.open(app_url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto("/")
    width = phone.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"
    assert phone.locator('[data-kpi="Revenue"]').evaluate("e => e.getClientRects().length") == 1  # not wrapped
    expect(sidebar(phone)).to_be_hidden()
    phone.get_by_role("button", name="Copilot").click()
    panel = sidebar(phone).bounding_box()
    assert panel["width"] >= 389 and panel["height"] >= 843, panel
    ask(phone, "hello")
    expect(replies(phone).last).to_contain_text("Hello!", timeout=20_000)
    phone.get_by_role("button", name="Close the copilot").click()
    expect(sidebar(phone)).to_be_hidden()


def test_on_a_phone_the_open_popup_leaves_every_button_to_the_thumb(tabs: Tabs, app_url: str):
    phone = tabs.open(app_url, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto("/popup")
    hydrated(phone)
    phone.get_by_role("button", name="Open the copilot").tap()
    panel = phone.get_by_role("dialog", name="Copilot")
    expect(panel).to_be_visible()
    for name in ("Send", "Attach files", "Close the copilot"):  # what is under each button's middle is the button
        button = panel.get_by_role("button", name=name)
        assert button.evaluate(UNCOVERED), f"{name} is covered: {button.evaluate(COVERED_BY)}"
    panel.get_by_role("textbox", name="Ask the copilot").fill("hello")
    panel.get_by_role("button", name="Send").tap()
    expect(replies(phone).last).to_contain_text("Hello!", timeout=20_000)
    panel.get_by_role("button", name="Close the copilot").tap()
    expect(panel).to_be_hidden()
    expect(phone.get_by_role("button", name="Open the copilot")).to_be_focused()


def test_a_suggestion_sends_itself(page: Page):
    page.goto("/")
    suggestions = copilot(page).get_by_role("group", name="Suggestions") if False else copilot(page).locator(".cui-chips")
    suggestions.get_by_role("button", name="show orders from Berlin").click()
    expect(page.locator('[data-kind="user"]')).to_have_text("show orders from Berlin")
    expect(replies(page).last).to_have_text("Done: the Orders table shows 3 orders from Berlin.", timeout=20_000)


def test_copy_puts_a_message_on_the_clipboard(page: Page):
    page.goto("/")
    ask(page, "what is our revenue this month?")
    idle(page)
    copilot(page).get_by_role("group", name="Copilot").last.get_by_role("button", name="Copy message").click()
    assert page.evaluate("navigator.clipboard.readText()") == "Revenue this month is $48,210 (+12% vs last month)."
    expect(copilot(page).get_by_role("button", name="Copy message").last).to_have_text("Copied")


def test_regenerate_replaces_the_last_reply(hostile_page: Page):
    hostile_page.goto("/")
    ask(hostile_page, "!flaky regen-1")
    expect(copilot(hostile_page).locator('[data-kind="error"]')).to_contain_text("flaky failure regen-1", timeout=20_000)
    ask(hostile_page, "!reply first answer")
    expect(replies(hostile_page).last).to_have_text("first answer", timeout=20_000)
    idle(hostile_page)
    copilot(hostile_page).get_by_role("button", name="Regenerate").click()
    idle(hostile_page)
    expect(replies(hostile_page)).to_have_count(1)
    expect(replies(hostile_page).last).to_have_text("first answer")
    expect(hostile_page.locator('[data-kind="user"]')).to_have_count(2)


def test_editing_a_message_replaces_what_followed(hostile_page: Page):
    hostile_page.goto("/")
    ask(hostile_page, "!reply one")
    idle(hostile_page)
    ask(hostile_page, "!reply two")
    idle(hostile_page)
    first = copilot(hostile_page).get_by_role("group", name="You").first
    first.get_by_role("button", name="Edit message").click()
    editor = copilot(hostile_page).get_by_role("textbox", name="Edit your message")
    expect(editor).to_have_value("!reply one")
    editor.fill("!reply one, edited")
    editor.press("Enter")
    expect(replies(hostile_page)).to_have_count(1, timeout=20_000)
    expect(replies(hostile_page).last).to_have_text("one, edited", timeout=20_000)
    expect(hostile_page.locator('[data-kind="user"]')).to_have_text(["!reply one, edited"])


def test_retry_after_an_agent_error_runs_the_failed_step_again(hostile_page: Page):
    hostile_page.goto("/")
    ask(hostile_page, "!flaky retry-1")
    error = copilot(hostile_page).locator('[data-kind="error"]')
    expect(error).to_contain_text("flaky failure retry-1", timeout=20_000)
    error.get_by_role("button", name="Retry").click()
    expect(replies(hostile_page).last).to_have_text("recovered retry-1", timeout=20_000)
    expect(error.get_by_role("button", name="Retry")).to_have_count(0)
    expect(hostile_page.locator('[data-kind="user"]')).to_have_count(1)


def test_sending_while_scrolled_up_brings_the_conversation_to_its_end(hostile_page: Page):
    hostile_page.set_viewport_size({"width": 1200, "height": 520})
    hostile_page.goto("/")
    ask(hostile_page, "!cards 12")
    idle(hostile_page)
    conversation = copilot(hostile_page)
    conversation.evaluate("element => element.scrollTo({top: 0})")
    expect(hostile_page.get_by_role("button", name="Jump to latest")).to_be_visible()
    ask(hostile_page, "!reply at the end")
    expect(replies(hostile_page).last).to_have_text("at the end", timeout=20_000)
    hostile_page.wait_for_function(  # (the scroll to the end may still be under way)
        "e => e.scrollHeight - e.clientHeight - e.scrollTop < 80", arg=conversation.element_handle()
    )
    expect(hostile_page.get_by_role("button", name="Jump to latest")).to_have_count(0)


def test_the_message_box_keeps_its_size_when_send_becomes_stop(hostile_page: Page):
    hostile_page.goto("/")
    box = hostile_page.get_by_role("textbox", name="Ask the copilot")
    before = box.bounding_box()
    ask(hostile_page, "!reply-slow 200 " + "slowly " * 10)
    expect(hostile_page.locator(".cui-composer").get_by_role("button", name="Stop")).to_be_visible()
    during = box.bounding_box()
    assert abs(during["width"] - before["width"]) < 1, (before, during)


def test_the_picker_switches_agents_and_the_other_agent_answers(page: Page):
    page.goto("/")
    picker = page.get_by_role("combobox", name="Agent")
    expect(picker).to_have_value("default")
    expect(page.get_by_text("Demo model")).to_be_visible()
    picker.select_option("echo")
    ask(page, "who are you?")
    expect(replies(page).last).to_have_text("Echo agent here: who are you?", timeout=20_000)
    expect(page.get_by_text("Demo model")).to_have_count(0)
    picker.select_option("default")  # a conversation keeps its agent: picking another starts a new one
    expect(page.locator('[data-kind="user"]')).to_have_count(0)
    ask(page, "hello")
    expect(replies(page).last).to_contain_text("I'm the demo copilot", timeout=20_000)


def test_the_dev_console_shows_the_events_of_a_run(tabs: Tabs, hostile_app: ServedApp):
    page = tabs.open(hostile_app.url)
    page.goto("/")
    ask(page, '!backend lookup {"q": "dev"} found it')
    idle(page)
    console = page.locator(".cui-dev")
    console.locator("summary").click()
    log = console.locator(".cui-dev-log")
    expect(log).to_contain_text("RunAgentInput")
    expect(log).to_contain_text("TOOL_CALL_START")
    expect(log).to_contain_text("TOOL_CALL_RESULT")
    expect(log).to_contain_text(re.compile(r"run finished \(success\) after \d+\.\d+ s"))
    assert "Bearer" not in log.inner_text()

"""Nothing runs twice, nothing the person writes is lost, and Stop always wins, in the browser.

The agent is the hostile server (tests/hostile_agent.py), for its commands; the slow tools come from
tests/browser/_app_extras.py.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.hostile_agent import HostileAgent

from ._person import ask, card, copilot, dialog, idle, replies

STOP_TIMING = """
window.__stop = {clickedAt: null, doneAt: null};
document.addEventListener('pointerdown', e => {
  if (e.target.closest('button')?.textContent.includes('Stop')) window.__stop.clickedAt = e.timeStamp;
}, true);
new MutationObserver(() => {
  const stopped = document.querySelector('[data-status="aborted"]');
  if (stopped && window.__stop.clickedAt !== null && window.__stop.doneAt === null) window.__stop.doneAt = performance.now();
}).observe(document, {subtree: true, childList: true, attributes: true});
"""


TOOL_SECONDS = 5  # the slow tool's own length: Stop must win well before it


def test_stop_wins_over_a_tool_that_holds_the_dashboard_state(hostile_page: Page):
    hostile_page.add_init_script(STOP_TIMING)
    hostile_page.goto("/")
    ask(hostile_page, f'!tool slow_state_tool {{"seconds": {TOOL_SECONDS}, "note": "stopped"}}')
    slow = card(hostile_page, "slow_state_tool")
    expect(slow).to_have_attribute("data-status", "running", timeout=20_000)
    hostile_page.get_by_role("button", name="Toggle theme").click()  # the page answers while the tool works
    expect(hostile_page.locator("html")).to_have_class("dark")

    hostile_page.get_by_role("button", name="Stop").click()
    expect(slow).to_have_attribute("data-status", "aborted", timeout=5_000)
    timing = hostile_page.evaluate("window.__stop")
    assert timing["doneAt"] - timing["clickedAt"] < 1000, timing  # well before the tool's 5 s
    expect(hostile_page.locator('[data-kind="notice"]')).to_have_text("Stopped.")
    # A scenario's time, not a wait for an event: a cancelled tool sends nothing that could be waited for.
    hostile_page.wait_for_timeout((TOOL_SECONDS + 0.5) * 1000)  # past the tool's own end: it changed nothing
    expect(hostile_page.locator(".demo-main")).not_to_contain_text("From Paris")
    expect(slow.get_by_label("Result")).to_contain_text("aborted")


def test_a_message_written_during_a_run_shows_queued_and_comes_back_after_stop(hostile_page: Page):
    hostile_page.goto("/")
    ask(hostile_page, "!reply-slow 200 " + "a slow reply that takes a while " * 4)
    expect(hostile_page.locator('[data-kind="live"]')).to_contain_text("a slow reply", timeout=20_000)
    ask(hostile_page, "my second thought")
    queued = hostile_page.locator('[data-kind="user"][data-queued="true"]')
    expect(queued).to_contain_text("my second thought")
    expect(queued).to_contain_text("Queued")

    hostile_page.get_by_role("button", name="Stop").click()
    expect(hostile_page.get_by_role("textbox", name="Ask the copilot")).to_have_value("my second thought")
    expect(queued).to_have_count(0)
    expect(hostile_page.locator('[data-kind="user"]')).to_have_count(1)


def test_a_message_written_during_a_run_that_fails_is_sent_and_answered(hostile_page: Page):
    hostile_page.goto("/")
    ask(hostile_page, "!fail-after 1500 the model is overloaded")
    expect(hostile_page.get_by_role("button", name="Stop")).to_be_visible()  # the run is under way
    ask(hostile_page, "!reply answered after the error")
    expect(copilot(hostile_page).locator('[data-kind="error"]')).to_contain_text("the model is overloaded", timeout=20_000)
    expect(replies(hostile_page).last).to_have_text("answered after the error", timeout=20_000)


def test_a_message_written_during_a_looping_run_goes_with_its_next_request_and_is_answered(hostile_page: Page):
    # (A message still queued when the turn limit stops a run is sent then: tests/core/test_loop_messages.py.)
    hostile_page.goto("/")
    ask(hostile_page, "!loop counted 60")
    expect(card(hostile_page, "counted").first).to_be_visible(timeout=20_000)
    ask(hostile_page, "!reply the loop did not eat this")
    expect(replies(hostile_page).last).to_have_text("the loop did not eat this", timeout=20_000)
    idle(hostile_page)
    expect(copilot(hostile_page).locator('[data-kind="user"]')).to_have_count(2)


def test_writing_while_an_approval_waits_keeps_the_card_in_place_and_answers_the_message(
    hostile_page: Page, hostile: HostileAgent
):
    hostile_page.goto("/")
    ask(hostile_page, '!tool slow_approval {"note": "set aside"}')
    expect(dialog(hostile_page)).to_be_visible(timeout=20_000)
    hostile_page.keyboard.press("Escape")  # closed without deciding
    expect(dialog(hostile_page)).to_have_count(0)
    waiting = card(hostile_page, "slow_approval")
    expect(waiting.get_by_role("button", name="Review")).to_be_visible()

    ask(hostile_page, "!reply something else then")
    expect(replies(hostile_page).last).to_have_text("something else then", timeout=20_000)
    expect(waiting).to_have_attribute("data-status", "skipped")
    expect(waiting).to_contain_text("Not run: you wrote a new message instead")
    kinds = hostile_page.locator("[data-kind], [data-tool]").evaluate_all("els => els.map(e => e.dataset.tool || e.dataset.kind)")
    assert kinds.index("slow_approval") < kinds.index("user", 1), f"the card moved: {kinds}"
    idle(hostile_page)
    assert "set aside ran" not in str(hostile.requests[-1].run_input.messages)

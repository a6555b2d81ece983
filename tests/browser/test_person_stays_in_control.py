"""Only what the person saw and approved runs, exactly once; secrets never reach the browser.

Decisions are sent as the page would send them, and also crafted (tests/browser/_crafted.py): early,
twice, late, for a call whose arguments changed, and of the wrong kind.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from playwright.sync_api import Page, expect

from copilot_ui.core import call_digest
from tests._leaks import leaks
from tests.hostile_agent import HostileAgent

from ._crafted import CraftedEvents
from ._person import ask, card, copilot, dialog, idle
from .conftest import ServedApp, Tabs


def results_of(hostile: HostileAgent, note: str) -> list[str]:
    """The tool results the agent was sent for calls with this note (the page runs each call once, or never)."""
    last = hostile.requests[-1].run_input
    return [m.content for m in last.messages if m.role == "tool" and note in str(m.content)] if last else []


def test_a_double_click_on_approve_runs_the_tool_once(hostile_page: Page, hostile: HostileAgent):
    hostile_page.goto("/")
    ask(hostile_page, '!tool slow_approval {"note": "double"}')
    approve = dialog(hostile_page).get_by_role("button", name="Approve")
    expect(approve).to_be_visible(timeout=20_000)
    approve.dblclick()
    idle(hostile_page)
    expect(card(hostile_page, "slow_approval").get_by_label("Result")).to_have_text("double ran 1 time(s)")
    assert results_of(hostile, "double") == ["double ran 1 time(s)"]


REFUSED = "was refused:"  # what the server logs for a decision that does not count (Thread.decide)


def refusals_after(app: ServedApp, logged_before: int, count: int, timeout: float = 15) -> list[str]:
    """Until the server has logged `count` refused decisions since `logged_before` (its log's size then): the event
    that says it has taken the decisions sent and turned them down."""
    deadline = time.monotonic() + timeout
    while True:
        log = app.log.read_bytes()[logged_before:].decode(errors="replace").splitlines()
        refused = [line for line in log if REFUSED in line]
        if len(refused) >= count or time.monotonic() > deadline:
            assert len(refused) == count, f"{len(refused)} refusals logged, not {count}:\n" + "\n".join(refused)
            return refused
        time.sleep(LOG_POLL_SECONDS)


LOG_POLL_SECONDS = 0.05  # how often the log is read while a line is awaited


def test_crafted_decisions_run_nothing_that_was_not_approved_as_shown(
    hostile_page: Page, hostile: HostileAgent, hostile_app: ServedApp
):
    crafted = CraftedEvents(hostile_page)
    hostile_page.goto("/")
    ask(hostile_page, "!reply warming up")
    idle(hostile_page)
    first = hostile_page.locator('[data-kind="user"] [data-tid]').first.get_attribute("data-tid")
    assert first.endswith("u1")
    next_card = first[:-2] + "t4"  # item ids count up within a conversation: u1, a2, then u3 and this call's card
    arguments = {"note": "crafted"}
    digest = call_digest("slow_approval", arguments)
    crafted.send("approve", {"item_id": next_card, "digest": digest})  # before the call exists

    ask(hostile_page, "!tool slow_approval " + json.dumps(arguments))
    waiting = card(hostile_page, "slow_approval")
    expect(waiting).to_have_attribute("data-status", "awaiting_approval", timeout=20_000)
    item = waiting.get_attribute("data-item")
    assert item == next_card, "the crafted early approval named this card's id"
    logged_before = hostile_app.log.stat().st_size
    crafted.send("approve", {"item_id": item, "digest": "0" * 16})  # another version of the call
    crafted.send("respond", {"item_id": item, "digest": digest, "value": "yes"})  # an answer is not an approval
    refused = refusals_after(hostile_app, logged_before, 2)
    assert any("another version" in line for line in refused), refused
    assert any("does not answer a request for approval" in line for line in refused), refused
    expect(waiting).to_have_attribute("data-status", "awaiting_approval")

    dialog(hostile_page).get_by_role("button", name="Approve").click()  # what the person saw
    expect(waiting.get_by_label("Result")).to_have_text("crafted ran 1 time(s)", timeout=20_000)
    idle(hostile_page)
    logged_before = hostile_app.log.stat().st_size
    crafted.send("approve", {"item_id": item, "digest": digest})  # a finished call, approved again
    refusals_after(hostile_app, logged_before, 1)
    expect(waiting.get_by_label("Result")).to_have_text("crafted ran 1 time(s)")
    assert results_of(hostile, "crafted") == ["crafted ran 1 time(s)"]


def test_a_call_resent_with_other_arguments_asks_again(hostile_page: Page, hostile: HostileAgent):
    hostile_page.goto("/")
    first, second = {"note": "swap-a"}, {"note": "swap-b"}
    ask(hostile_page, f"!snapshot-swap slow_approval {json.dumps(first)} {json.dumps(second)}")
    expect(dialog(hostile_page)).to_contain_text("swap-a", timeout=20_000)
    dialog(hostile_page).get_by_role("button", name="Approve").click()

    # The agent sends the same call id back with other arguments and no result: the person is asked again.
    expect(dialog(hostile_page)).to_contain_text("swap-b", timeout=20_000)
    expect(card(hostile_page, "slow_approval").last).to_have_attribute("data-status", "awaiting_approval")
    dialog(hostile_page).get_by_role("button", name="Deny").click()
    idle(hostile_page)
    expect(copilot(hostile_page)).not_to_contain_text("swap-b ran")


def test_no_secret_reaches_the_browser_whatever_the_agent_echoes(tabs: Tabs, hostile_app: ServedApp):
    page = tabs.open(hostile_app.url)
    page.goto("/")
    echoes = [
        "!http 401 {auth}",
        "!http 500 {pad:520}{auth}",
        "!http 500 {auth_b64}",
        "!error the header was {auth}",
        "!ids",
        "!badframe {auth}",
        "!reply your token is {token} and the header {auth}",
        '!backend lookup {"q": "{token}"} {auth_b64}',
    ]
    for echo in echoes:
        ask(page, echo)
        idle(page)
    errors = copilot(page).locator('[data-kind="error"]')
    expect(errors).to_have_count(5)  # each failure shows once
    expect(errors.first).to_contain_text("127.0.0.1")  # the agent's host, never its URL
    assert "http://" not in " ".join(errors.all_inner_texts())

    frames = tabs.frames.received
    assert len(frames) > 20
    for secret in hostile_app.secrets:
        for frame in frames:
            assert not leaks(frame, secret), f"a frame gave a secret away: {leaks(frame, secret)}"
    assets = [path for path in Path(hostile_app.web_dir, "build", "client").rglob("*") if path.is_file()]
    assert len(assets) > 10
    for path in assets:
        content = path.read_bytes().decode("utf-8", "replace")
        for secret in hostile_app.secrets:
            assert secret not in content, f"{path} holds a secret"
    print(f"scanned {len(frames)} frames and {len(assets)} built assets")


def test_the_dialog_shows_the_arguments_as_the_app_prepared_them_and_those_run(hostile_page: Page):
    page = hostile_page
    page.goto("/")
    ask(page, '!tool announce {"label": "quiet please"}')  # the app's prepare_arguments writes labels in capitals
    approval = dialog(page)
    expect(approval).to_be_visible(timeout=20_000)
    expect(approval.get_by_role("textbox", name="label", exact=True)).to_have_value("QUIET PLEASE")
    expect(card(page, "announce").get_by_label("Arguments")).to_contain_text('"label": "QUIET PLEASE"')
    approval.get_by_role("button", name="Approve").click()
    idle(page)
    expect(card(page, "announce").get_by_label("Result")).to_have_text("announced QUIET PLEASE")

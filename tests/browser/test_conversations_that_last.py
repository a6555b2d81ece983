"""Conversations that last: listed and resumed, kept through reloads and restarts, and owned.

The store is on by default (a SQLite file here); each browser context is an owner of its own
(a signed cookie). A restart of the server empties Reflex's state; the conversation comes back
from the store.
"""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

from playwright.sync_api import Page, expect

from .._sqlite_lock import write_lock_held
from ._crafted import COPILOT_STATE, CraftedEvents
from ._kept import thread_id, until, until_kept
from ._person import ask, card, copilot, dialog, hydrated, idle, order_status, replies
from .conftest import Tabs, _served

THREADS_STATE = "reflex___state____state.copilot_ui___state____threads____threads_state"
STORED_WITHIN = 10  # seconds: a conversation the page shows is in the store


def conversations(page: Page):
    """Open the list of conversations; the list."""
    page.get_by_role("button", name="Conversations").click()
    return page.get_by_role("list", name="Conversations")


def entry(listed, title: str):
    """The button that opens a listed conversation (its title, then when it changed)."""
    return listed.locator(".cui-thread-open").filter(has_text=title)


def test_the_list_keeps_old_conversations_and_switches_between_them(page: Page):
    page.goto("/")
    ask(page, "what is our revenue this month?")
    idle(page)
    page.get_by_role("button", name="New conversation").first.click()
    expect(page.locator('[data-kind="user"]')).to_have_count(0)
    ask(page, "show orders from Paris")
    idle(page)

    listed = conversations(page)
    expect(listed.locator(".cui-thread-open")).to_contain_text(["show orders from Paris", "what is our revenue this month?"])
    entry(listed, "what is our revenue this month?").click()
    expect(replies(page).last).to_have_text("Revenue this month is $48,210 (+12% vs last month).")
    page.reload()  # the open conversation comes back
    expect(replies(page).last).to_have_text("Revenue this month is $48,210 (+12% vs last month).")


def test_a_conversation_is_renamed_found_and_deleted_after_confirmation(page: Page):
    page.goto("/")
    ask(page, "hello")
    idle(page)
    listed = conversations(page)
    listed.get_by_role("button", name="Rename hello").click()
    title = listed.get_by_role("textbox", name="New title")
    title.fill("Greetings")
    title.press("Enter")
    expect(entry(listed, "Greetings")).to_be_visible()

    page.get_by_role("searchbox", name="Search conversations").fill("greet")
    expect(entry(listed, "Greetings")).to_be_visible()
    page.get_by_role("searchbox", name="Search conversations").fill("nothing like it")
    expect(entry(listed, "Greetings")).to_have_count(0)
    page.get_by_role("searchbox", name="Search conversations").fill("")

    listed.get_by_role("button", name="Delete Greetings").click()
    confirm = listed.get_by_role("alert")
    expect(confirm).to_contain_text("Delete “Greetings”?")
    confirm.get_by_role("button", name="Delete").click()
    expect(entry(listed, "Greetings")).to_have_count(0)
    expect(copilot(page).locator('[data-kind="user"]')).to_have_count(0)  # the tab moved to a new conversation


def server_is_down(tabs: Tabs) -> None:
    """While the server restarts, the page's attempts to reconnect fail, as they should."""
    tabs.allowed.append(lambda text: "ERR_CONNECTION_REFUSED" in text or "ERR_CONNECTION_RESET" in text)


def test_a_waiting_approval_comes_back_after_a_graceful_restart_and_continues(page: Page, tabs: Tabs, demo_server):
    server_is_down(tabs)
    _waiting_approval_survives(page, demo_server, signal.SIGTERM, "#1041")


def test_a_waiting_approval_comes_back_after_the_server_is_killed_and_continues(page: Page, tabs: Tabs, demo_server):
    server_is_down(tabs)
    _waiting_approval_survives(page, demo_server, signal.SIGKILL, "#1040")


def _waiting_approval_survives(page: Page, demo_server, stop: signal.Signals, order: str) -> None:
    page.goto("/")
    ask(page, f"refund order {order.lstrip('#')}")
    expect(dialog(page)).to_be_visible(timeout=20_000)
    until_kept(demo_server.env["COPILOT_STORE_URL"], thread_id(page), "refund_order")  # (the store writes after the page shows)
    demo_server.restart(stop)

    page.reload()
    refund = card(page, "refund_order")
    expect(refund).to_have_attribute("data-status", "awaiting_approval", timeout=20_000)
    expect(page.locator('[data-kind="user"]')).to_have_text(f"refund order {order.lstrip('#')}")
    dialog(page).get_by_role("button", name="Approve").click()
    expect(order_status(page, order)).to_have_text("Refunded", timeout=20_000)
    expect(replies(page).last).to_contain_text(f"Done: Refunded order {order}", timeout=20_000)


def test_a_reply_cut_off_by_a_crash_shows_as_interrupted_and_retry_finishes_it(page: Page, tabs: Tabs, demo_server):
    server_is_down(tabs)
    page.goto("/")
    ask(page, "hello")
    expect(page.locator('[data-kind="live"]')).to_contain_text("demo copilot", timeout=20_000)
    demo_server.restart(signal.SIGKILL)

    page.reload()
    interrupted = copilot(page).locator('[data-kind="error"]')
    expect(interrupted).to_contain_text("Interrupted", timeout=20_000)
    interrupted.get_by_role("button", name="Retry").click()
    expect(replies(page).last).to_contain_text("Connect a real model or any AG-UI agent server", timeout=30_000)
    expect(page.locator('[data-kind="user"]')).to_have_text("hello")
    expect(interrupted).to_have_count(0)  # answered by the retry: it does not stay above the reply


def test_another_owner_cannot_list_open_change_or_delete_a_conversation(tabs: Tabs, app_url: str):
    alice = tabs.open(app_url)
    alice.goto("/")
    ask(alice, "what is our revenue this month?")
    idle(alice)
    secret_thread = thread_id(alice)
    assert secret_thread

    mallory = tabs.open(app_url)  # another browser: another owner
    crafted = CraftedEvents(mallory)
    mallory.goto("/")
    hydrated(mallory)  # connected: the crafted events go on the tab's connection
    expect(entry(conversations(mallory), "what is our revenue this month?")).to_have_count(0)
    mallory.keyboard.press("Escape")
    crafted.send("select", {"thread_id": secret_thread}, state=THREADS_STATE)
    crafted.send("rename", {"form": {"thread": secret_thread, "title": "mine now"}}, state=THREADS_STATE)
    crafted.send("delete", {"thread_id": secret_thread}, state=THREADS_STATE)
    crafted.send("setvar", {"var_name": "thread_id", "value": secret_thread}, state=COPILOT_STATE)
    crafted.send("open", {"page_agent": "default"}, state=COPILOT_STATE)
    ask(mallory, "switch to dark mode")  # a later turn on the same connection and store: the crafted events came before
    expect(replies(mallory).last).to_contain_text("The dashboard now shows the dark theme.", timeout=20_000)
    idle(mallory)
    expect(copilot(mallory)).not_to_contain_text("revenue")
    expect(mallory.locator('[data-kind="user"]')).to_have_text(["switch to dark mode"])
    mallory.keyboard.press("Escape")
    expect(conversations(mallory).locator(".cui-thread-open")).to_have_count(1)  # its own conversation, no other

    alice.reload()
    expect(replies(alice).last).to_have_text("Revenue this month is $48,210 (+12% vs last month).")
    expect(entry(conversations(alice), "what is our revenue this month?")).to_be_visible()


def test_a_busy_database_does_not_hold_up_the_reply_and_the_conversation_is_kept_once_it_is_free(
    page: Page, demo_server: _served
):
    database = Path(demo_server.env["COPILOT_STORE_URL"])
    page.goto("/")
    page.get_by_role("button", name="Conversations").click()
    expect(page.get_by_text("No conversations yet.")).to_be_visible()
    page.keyboard.press("Escape")
    _until_store_opened(database)  # (the list says so before the store answered, too)
    with write_lock_held(database):  # another process holds the write lock (a backup, a migration): 30 s at most
        ask(page, "what is our revenue this month?")
        expect(replies(page).last).to_have_text("Revenue this month is $48,210 (+12% vs last month).", timeout=10_000)
        idle(page, timeout=10_000)
        page.get_by_role("button", name="Conversations").click()
        expect(page.get_by_text("No conversations yet.")).to_be_visible()  # not written yet: the database is busy
        page.keyboard.press("Escape")
    _until_stored(database, thread_id(page))
    listed = conversations(page)
    entry(listed, "what is our revenue this month?").click()
    expect(replies(page).last).to_have_text("Revenue this month is $48,210 (+12% vs last month).")


def test_a_conversation_deleted_while_its_last_reply_waits_for_the_database_stays_deleted(page: Page, demo_server: _served):
    database = Path(demo_server.env["COPILOT_STORE_URL"])
    page.goto("/")
    ask(page, "hello")
    idle(page)
    deleted = thread_id(page)
    _until_stored(database, deleted)
    with write_lock_held(database):  # another process holds the write lock: the next reply's writes wait for it
        ask(page, "what is our revenue this month?")
        expect(replies(page).last).to_have_text("Revenue this month is $48,210 (+12% vs last month).", timeout=10_000)
        idle(page, timeout=10_000)
        listed = conversations(page)
        listed.get_by_role("button", name="Delete hello").click()
        listed.get_by_role("alert").get_by_role("button", name="Delete").click()
        # The server took the deletion (it closes the question first), which now waits behind the reply's writes
        expect(listed.get_by_role("alert")).to_have_count(0)
    expect(entry(listed, "hello")).to_have_count(0, timeout=10_000)
    expect(copilot(page).locator('[data-kind="user"]')).to_have_count(0)  # the tab moved to a new conversation
    page.keyboard.press("Escape")
    ask(page, "show orders from Paris")  # a later conversation's writes: one of the deleted's would have come before
    idle(page)
    _until_stored(database, thread_id(page))
    assert not _is_stored(database, deleted)
    page.reload()
    listed = conversations(page)
    expect(listed.locator(".cui-thread-open")).to_have_count(1)
    expect(entry(listed, "show orders from Paris")).to_be_visible()  # the later one only: "hello" stays deleted


def test_while_the_store_waits_for_a_locked_database_a_message_sent_does_not_freeze_the_other_tabs(
    tabs: Tabs, app_url: str, demo_server: _served
):
    database = Path(demo_server.env["COPILOT_STORE_URL"])
    first = tabs.open(app_url)
    first.goto("/")  # the store made its tables (run first, the test would lock a database without them)
    _until_store_opened(database)
    first.close()  # (before the restart, which it would see as a connection refused)
    with write_lock_held(database):  # held as the server starts: its store cannot open (30 s at most)
        demo_server.restart()
        writer, bystander = tabs.open(app_url), tabs.open(app_url)
        writer.goto("/")
        bystander.goto("/")
        expect(bystander.locator("#theme-label")).to_have_text("Theme: light")
        box = writer.get_by_role("textbox", name="Ask the copilot")
        box.fill("what is our revenue this month?")
        box.press("Enter")
        expect(writer.locator('[data-kind="user"]')).to_have_count(1)  # the message reached the server (it waits for the store)
        # Before: the message waited for the store on the event loop, and every tab of the worker with it
        bystander.get_by_role("button", name="Toggle theme").click()
        expect(bystander.locator("#theme-label")).to_have_text("Theme: dark", timeout=3_000)
    expect(replies(writer).last).to_have_text("Revenue this month is $48,210 (+12% vs last month).", timeout=20_000)
    idle(writer)
    listed = conversations(writer)
    expect(entry(listed, "what is our revenue this month?")).to_be_visible()


def test_the_list_opened_while_the_conversations_first_save_waits_for_the_database_lists_it(page: Page, demo_server: _served):
    database = Path(demo_server.env["COPILOT_STORE_URL"])
    page.goto("/")
    _until_store_opened(database)
    with write_lock_held(database):  # the new conversation's saves wait for the database
        ask(page, "how many refunds this month?")
        idle(page)
        listed = conversations(page)  # opened before its first save landed
        page.wait_for_timeout(500)  # (the list reads the store while the save still waits)
    expect(entry(listed, "how many refunds this month?")).to_be_visible(timeout=20_000)


def _until_store_opened(database: Path) -> None:
    """Until the copilot's store has made its tables in the database."""
    until(
        lambda: _answers(database, "SELECT 1 FROM sqlite_master WHERE name = 'copilot_threads'"),
        "the store's tables",
        STORED_WITHIN,
    )


def _is_stored(database: Path, thread: str) -> bool:
    return _answers(database, "SELECT 1 FROM copilot_threads WHERE id = ?", thread)


def _until_stored(database: Path, thread: str) -> None:
    until(lambda: _is_stored(database, thread), f"conversation {thread} in the store", STORED_WITHIN)


def _answers(database: Path, query: str, *values: str) -> bool:
    with sqlite3.connect(database) as reader:
        return reader.execute(query, values).fetchone() is not None

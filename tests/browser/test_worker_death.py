"""A worker killed mid-run: the conversations it drove are taken up by the other worker, with Retry.

Two backend workers share Redis and PostgreSQL, their server respawning a worker that dies (see
`_respawning`). A run goes on one worker; that worker's process is killed (SIGKILL: nothing of it
runs after). Once its claim on the conversation lapses (`LEASE_MS`), the tab shows the run as
interrupted, with Retry, wherever its connection is now; Retry finishes the turn on a live worker.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from playwright.sync_api import Page, expect

from copilot_ui.state.turns._cluster import LEASE_MS

from ._person import TURN_TIMEOUT, ask, card, idle, replies
from .conftest import ServedApp, Tabs, _served
from .test_several_workers import Reconnecting

# The tools wait until the test says (a file comes) or this long: the setup before the kill (a second tab, moves
# between workers: each drop waits for Reflex to let the connection go) once outlasted 25 s and 45 s on a busy machine.
TOOL_SECONDS = 300
SHOWN_WITHIN = LEASE_MS / 1000 + 10  # the claim lapses within the lease; the tab learns of it at most a few s later


@pytest.fixture(scope="module")
def respawning_cluster(tmp_path_factory: pytest.TempPathFactory, hostile, redis_url: str, postgres_server) -> Iterator[ServedApp]:
    """The demo app on two backend workers sharing Redis and PostgreSQL, a dead worker respawned."""
    env = {
        "COPILOT_AGENT_URL": hostile.url,
        "REDIS_URL": redis_url,
        "GRANIAN_WORKERS": "2",
        "COPILOT_STORE_URL": postgres_server.url(postgres_server.create_database()),
    }
    server = _served(tmp_path_factory, "respawning-cluster", ".web-test-respawning", env)
    server.server_module = "tests.browser._respawning"
    with server as served:
        yield served


def test_a_worker_killed_mid_run_leaves_its_conversations_to_the_other_with_retry(
    tabs: Tabs, respawning_cluster: ServedApp, redis_url: str, tmp_path: Path
):
    tabs.allowed.append(lambda text: "WebSocket" in text)  # the connections dropped, and those the kill cuts
    store = redis.Redis.from_url(redis_url)
    run = secrets.token_hex(3)
    release = tmp_path / "release"  # (its coming ends the tools' wait: the retried call need not take 300 s)
    moved = Reconnecting(tabs.open(respawning_cluster.url), redis_url)
    moved.page.goto("/")
    ask(moved.page, "!tool slow_state_tool " + slow_call(f"moved-{run}", release))
    expect(card(moved.page, "slow_state_tool")).to_have_attribute("data-status", "running", timeout=TURN_TIMEOUT)
    driver = driving(store, moved.page)
    stayed = Reconnecting(tabs.open(respawning_cluster.url), redis_url)
    stayed.page.goto("/")
    connected(store, stayed.page)
    if stayed.worker() != moved.worker():  # its run goes on the same worker as the first
        stayed.move_to_the_other_worker()
    ask(stayed.page, "!tool slow_state_tool " + slow_call(f"stayed-{run}", release))
    expect(card(stayed.page, "slow_state_tool")).to_have_attribute("data-status", "running", timeout=TURN_TIMEOUT)
    assert driving(store, stayed.page) == driver
    moved.move_to_the_other_worker()  # this tab is on the worker that lives; the other loses its connection
    os.kill(int(driver.split("-")[0]), signal.SIGKILL)  # the worker's id begins with its process id
    killed = time.monotonic()
    box = moved.page.get_by_role("textbox", name="Ask the copilot")
    box.fill(f"!reply written after the kill {run}")  # no worker takes it now: it waits for the lapse, not lost
    box.press("Enter")
    for session in (moved, stayed):
        interrupted = session.page.locator('[data-kind="error"]')
        expect(interrupted).to_contain_text("Interrupted", timeout=SHOWN_WITHIN * 1000)
    assert time.monotonic() - killed < SHOWN_WITHIN

    idle(stayed.page)  # Send is back
    release.touch()  # the call Retry runs again ends at once
    stayed.page.locator('[data-kind="error"]').get_by_role("button", name="Retry").click()
    slow = card(stayed.page, "slow_state_tool")
    expect(slow.get_by_label("Result")).to_have_text(f"stayed-{run} ran 1 time(s)", timeout=TURN_TIMEOUT)
    expect(replies(stayed.page).last).to_contain_text(f"stayed-{run} ran 1 time(s)", timeout=TURN_TIMEOUT)
    idle(stayed.page)
    expect(stayed.page.locator('[data-kind="error"]')).to_have_count(0)  # Retry answered the interruption

    expect(replies(moved.page).last).to_have_text(f"written after the kill {run}", timeout=TURN_TIMEOUT)
    idle(moved.page)


def slow_call(note: str, release: Path) -> str:
    """The arguments of a call that waits until the file `release` comes (or TOOL_SECONDS)."""
    return json.dumps({"seconds": TOOL_SECONDS, "note": note, "until": str(release)})


def driving(store: redis.Redis, page: Page) -> str:
    """The worker driving the tab's conversation now, from its note in Redis."""
    thread = page.evaluate("sessionStorage.getItem('cui_thread')")
    assert thread, "the tab has no conversation"
    value = store.get(f"copilot_ui:drive:{thread}")
    assert value is not None, "no worker drives the conversation"
    return value.decode()


def connected(store: redis.Redis, page: Page) -> None:
    """Wait until Reflex has recorded the tab's connection (the page connects once loaded)."""
    for _ in range(100):
        token = page.evaluate("sessionStorage.getItem('token')")
        if token and store.exists(f"token_manager_socket_record_{token}"):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the tab did not connect")

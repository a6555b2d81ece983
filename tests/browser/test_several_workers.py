"""Several workers on Redis: a click handled by either worker reaches the run wherever it lives.

The app runs two backend workers sharing Reflex's Redis state manager, its conversations in
PostgreSQL (both started by the tests). Each tab drops its connection between steps, so that its
next click lands on whichever worker takes the new connection; the controls that reach a drive on
the other worker go through Redis, and Redis counts them.
"""

from __future__ import annotations

import json
import pickle
import re
import secrets
from pathlib import Path

import redis
from playwright.sync_api import Page, WebSocketRoute, expect

from tests.hostile_agent import HostileAgent

from ._person import TURN_TIMEOUT, ask, card, dialog, hydrated, idle, replies
from .conftest import ServedApp, Tabs

SESSIONS = 10
# Long enough for most sessions to drop their connection and write (about 1.5 s each) while their tool still runs:
# only such a write can go to the other worker (about one time in two); 6 s left about four chances, too few.
TOOL_SECONDS = 12
QUICK_TOOL_SECONDS = 6  # long enough to drop the connection and write while it runs (about 1.5 s)


class Reconnecting:
    """A tab whose connection the test can drop: the page reconnects, maybe to the other worker."""

    def __init__(self, page: Page, redis_url: str) -> None:
        self.page = page
        self.redis = redis.Redis.from_url(redis_url)
        self.sockets: list[tuple[WebSocketRoute, WebSocketRoute]] = []
        self._dropping = False
        page.route_web_socket(re.compile(r".*/_event/.*"), self._route)

    def _route(self, socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def closed_by_server(code: int | None, reason: str | None) -> None:
            # Passed on to the page (a worker that dies), but not while the test drops the connection: the page
            # would reconnect at once, before the worker has let the old connection go (a duplicate tab, for Reflex).
            if not self._dropping:
                socket.close(code=code, reason=reason)

        server.on_close(closed_by_server)
        self.sockets.append((socket, server))

    def drop(self) -> None:
        """Drop the connection and wait for the page to make a new one (with the same tab token).

        The server's end goes first: a worker that has not yet seen the old connection close takes
        the new one for a duplicate tab and gives it a new token (Reflex's rule, not the copilot's).
        """
        before = len(self.sockets)
        page_side, server_side = self.sockets[-1]
        token = self.page.evaluate("sessionStorage.getItem('token')")
        self._dropping = True
        server_side.close()
        # (until the worker has let the old connection go, it would take the new one for a duplicate tab: wait for
        # its record in Redis to go, however busy the machine is, and a little more for its memory of it)
        key = f"token_manager_socket_record_{token}"
        gone = False
        for _ in range(600):  # (up to 30 s: a busy worker may take long to see the close)
            if not self.redis.exists(key):
                self.page.wait_for_timeout(300)
                if not self.redis.exists(key):  # and it stayed gone
                    gone = True
                    break
            self.page.wait_for_timeout(50)
        self._dropping = False
        assert gone, "the worker did not let the old connection go"
        page_side.close()
        for _ in range(100):
            if len(self.sockets) > before:
                break
            self.page.wait_for_timeout(100)
        assert len(self.sockets) > before, "the page did not reconnect"
        self.page.wait_for_timeout(300)  # its state hydrated again
        assert self.page.evaluate("sessionStorage.getItem('token')") == token, "the tab came back as another session"

    def worker(self) -> str:
        """The worker serving the tab's connection now, as Reflex's token manager records it in Redis."""
        token = self.page.evaluate("sessionStorage.getItem('token')")
        record = self.redis.get(f"token_manager_socket_record_{token}")
        assert record is not None, "Reflex recorded no connection for the tab"
        return pickle.loads(record).instance_id  # Reflex's own record (a SocketRecord), from the test's Redis

    def move_to_the_other_worker(self) -> None:
        """Drop the connection until the page reconnects to the other worker (each time: either one)."""
        before = self.worker()
        for _ in range(12):
            self.drop()
            if self.worker() != before:
                return
        raise AssertionError("the page reconnected to the same worker twelve times")


def crossed(redis_url: str) -> dict[str, int]:
    """Controls handed from one worker to the other, by kind."""
    counts = redis.Redis.from_url(redis_url).hgetall("copilot_ui:crossed")
    return {kind.decode(): int(count) for kind, count in counts.items()}


def test_ten_sessions_approving_dropping_and_writing_in_turn_leave_no_tab_stale(
    tabs: Tabs, cluster_app: ServedApp, redis_url: str
):
    """The pattern that left the first tab stale: ten people, one after the other, approve a slow tool, drop their
    connection and write while it runs. Every tab ends showing its own conversation, done: the card with its result,
    the texts, the reply, Send back; and still so once every run is over (nothing of another's run reached it).

    First in this module, on purpose: the tab that was left stale was the one whose event came first to a worker.
    """
    tabs.allowed.append(lambda text: "WebSocket" in text)
    run = secrets.token_hex(3)
    sessions = []
    for number in range(SESSIONS):
        page = tabs.open(cluster_app.url)
        sessions.append((f"t{number}-{run}", Reconnecting(page, redis_url)))
        page.goto("/")
    for note, session in sessions:
        page = session.page
        ask(page, "!tool slow_approval " + json.dumps({"note": note, "seconds": QUICK_TOOL_SECONDS}))
        expect(dialog(page)).to_contain_text(note, timeout=TURN_TIMEOUT)
        dialog(page).get_by_role("button", name="Approve").click()
        session.drop()  # the message may land on the other worker, while the approved tool runs on this one
        ask(page, f"!reply after {note}")
    for note, session in sessions:
        shows_its_own_end(session.page, note, [other for other, _ in sessions if other != note], timeout=60_000)
    for note, session in sessions:
        shows_its_own_end(session.page, note, [other for other, _ in sessions if other != note], timeout=5_000)


def shows_its_own_end(page: Page, note: str, others: list[str], timeout: float) -> None:
    """The tab shows its conversation done: the approved card complete with its result, the reply, Send back."""
    slow = card(page, "slow_approval")
    expect(slow).to_have_attribute("data-status", "complete", timeout=timeout)
    expect(slow.get_by_label("Result")).to_have_text(f"{note} ran 1 time(s)", timeout=timeout)
    expect(replies(page).last).to_have_text(f"after {note}", timeout=timeout)
    expect(page.locator('[data-kind="user"]').first).to_contain_text(f'"note": "{note}"', timeout=timeout)
    idle(page, timeout=timeout)
    shown = page.get_by_role("log", name="Conversation").inner_text()
    assert not [other for other in others if other in shown], f"{note}'s tab shows another conversation"


def test_ten_sessions_approve_and_write_during_runs_with_clicks_on_either_worker(
    tabs: Tabs, cluster_app: ServedApp, redis_url: str, hostile: HostileAgent, tmp_path: Path
):
    tabs.allowed.append(lambda text: "WebSocket" in text)  # the connections the test drops
    run = secrets.token_hex(3)
    sessions = []
    for number in range(SESSIONS):
        page = tabs.open(cluster_app.url)
        sessions.append((f"s{number}-{run}", Reconnecting(page, redis_url)))
        page.goto("/")
    for note, session in sessions:
        ask(session.page, "!tool slow_approval " + json.dumps({"note": note, "seconds": TOOL_SECONDS}))
    for note, session in sessions:
        expect(dialog(session.page)).to_contain_text(note, timeout=TURN_TIMEOUT)
        session.drop()  # the approval's click may land on the other worker

    for _, session in sessions:
        expect(dialog(session.page)).to_be_visible(timeout=TURN_TIMEOUT)
        dialog(session.page).get_by_role("button", name="Approve").click()
    before = crossed(redis_url).get("queue", 0)
    for note, session in sessions:  # while the approved tool runs, the person writes from a new connection
        session.drop()
        ask(session.page, f"!reply after {note}")

    for note, session in sessions:
        page = session.page
        expect(card(page, "slow_approval").get_by_label("Result")).to_have_text(f"{note} ran 1 time(s)", timeout=60_000)
        expect(replies(page).last).to_have_text(f"after {note}", timeout=30_000)
        idle(page)
        shown = page.get_by_role("log", name="Conversation").inner_text()
        others = [other for other, _ in sessions if other != note and other in shown]
        assert not others, f"{note}'s conversation shows {others}"
    for attempt in range(8):  # none of the writes landed on the other worker: more, one at a time, until one does
        if crossed(redis_url).get("queue", 0) > before:
            break
        write_during_a_run(tabs, cluster_app, redis_url, f"more{attempt}-{run}", tmp_path)
    assert crossed(redis_url).get("queue", 0) > before, "no message went to a run on the other worker"


def write_during_a_run(tabs: Tabs, app: ServedApp, redis_url: str, note: str, release_dir: Path) -> None:
    """A new session approves a slow tool, moves to the other worker and writes while the tool runs: both arrive."""
    page = tabs.open(app.url)
    session = Reconnecting(page, redis_url)
    page.goto("/")
    release = release_dir / note  # its coming ends the tool: once the write is in, however long the moves took
    ask(page, "!tool slow_approval " + json.dumps({"note": note, "seconds": 120, "until": str(release)}))
    dialog(page).get_by_role("button", name="Approve").click()
    expect(card(page, "slow_approval")).to_have_attribute("data-status", "running", timeout=TURN_TIMEOUT)
    session.move_to_the_other_worker()  # the run is on the worker that took the message and the approval
    ask(page, f"!reply after {note}")
    release.touch()
    expect(card(page, "slow_approval").get_by_label("Result")).to_have_text(f"{note} ran 1 time(s)", timeout=60_000)
    expect(replies(page).last).to_have_text(f"after {note}", timeout=30_000)


def test_stop_reaches_a_run_on_the_other_worker(tabs: Tabs, cluster_app: ServedApp, redis_url: str):
    tabs.allowed.append(lambda text: "WebSocket" in text)
    before = crossed(redis_url).get("stop", 0)
    page = tabs.open(cluster_app.url)
    session = Reconnecting(page, redis_url)
    page.goto("/")
    # (long: moving takes as many drops as the coin flips need, and Stop aborts the tool anyway)
    ask(page, '!tool slow_state_tool {"seconds": 300, "note": "stop"}')
    slow = card(page, "slow_state_tool")
    expect(slow).to_have_attribute("data-status", "running", timeout=TURN_TIMEOUT)
    session.move_to_the_other_worker()  # the run is on the worker that took the message
    page.locator(".cui-composer").get_by_role("button", name="Stop").click()
    expect(slow).to_have_attribute("data-status", "aborted", timeout=5_000)
    assert crossed(redis_url).get("stop", 0) > before, "the Stop was not handed to the other worker"


def test_a_message_written_on_the_other_worker_shows_queued_while_the_tool_runs(
    tabs: Tabs, cluster_app: ServedApp, redis_url: str, tmp_path: Path
):
    tabs.allowed.append(lambda text: "WebSocket" in text)
    run = secrets.token_hex(3)
    someone_on_both_workers(tabs, cluster_app, redis_url, f"before-{run}")
    page = tabs.open(cluster_app.url)
    session = Reconnecting(page, redis_url)
    page.goto("/")
    release = tmp_path / "release"  # the tool runs until the test has seen the message queued
    ask(page, "!tool slow_state_tool " + json.dumps({"seconds": 300, "note": f"long-{run}", "until": str(release)}))
    slow = card(page, "slow_state_tool")
    expect(slow).to_have_attribute("data-status", "running", timeout=TURN_TIMEOUT)
    session.move_to_the_other_worker()  # the run is on the worker that took the message
    box = page.get_by_role("textbox", name="Ask the copilot")
    box.fill(f"!reply after long-{run}")
    box.press("Enter")
    queued = page.locator('[data-kind="user"][data-queued="true"]')
    expect(queued).to_contain_text(f"after long-{run}", timeout=8_000)  # at once, not when the tool is over
    expect(queued).to_contain_text("Queued")
    expect(slow).to_have_attribute("data-status", "running")
    release.touch()
    expect(replies(page).last).to_have_text(f"after long-{run}", timeout=60_000)


def someone_on_both_workers(tabs: Tabs, app: ServedApp, redis_url: str, note: str) -> None:
    """Another person talks to the copilot on each worker first (so that neither worker starts fresh with our tab)."""
    page = tabs.open(app.url)
    session = Reconnecting(page, redis_url)
    page.goto("/")
    ask(page, f"!reply {note} one")
    expect(replies(page).last).to_have_text(f"{note} one", timeout=TURN_TIMEOUT)
    idle(page)
    session.move_to_the_other_worker()
    ask(page, f"!reply {note} two")
    expect(replies(page).last).to_have_text(f"{note} two", timeout=TURN_TIMEOUT)
    idle(page)


def test_a_tab_on_one_worker_shows_what_the_person_approved_in_a_tab_on_the_other(
    tabs: Tabs, cluster_app: ServedApp, redis_url: str
):
    tabs.allowed.append(lambda text: "WebSocket" in text)
    note = f"two-tabs-{secrets.token_hex(3)}"
    first = tabs.open(cluster_app.url)
    on_first = Reconnecting(first, redis_url)
    first.goto("/")
    ask(first, "!tool slow_approval " + json.dumps({"note": note, "seconds": 1}))
    expect(dialog(first)).to_contain_text(note, timeout=TURN_TIMEOUT)

    second = tabs.tab(first.context)  # the same browser: the same person's conversations
    on_second = Reconnecting(second, redis_url)
    second.goto("/")
    hydrated(second)
    for _ in range(12):
        if on_second.worker() != on_first.worker():
            break
        on_second.drop()
    assert on_second.worker() != on_first.worker(), "the second tab reconnected to the first one's worker twelve times"
    second.get_by_role("button", name="Conversations").click()
    second.get_by_role("list", name="Conversations").locator(".cui-thread-open").filter(has_text=note).click()
    dialog(second).get_by_role("button", name="Approve").click()
    expect(card(second, "slow_approval").get_by_label("Result")).to_have_text(f"{note} ran 1 time(s)", timeout=TURN_TIMEOUT)
    idle(second)

    first.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the person comes back to the first tab
    expect(card(first, "slow_approval")).to_have_attribute("data-status", "complete", timeout=TURN_TIMEOUT)
    expect(card(first, "slow_approval").get_by_label("Result")).to_have_text(f"{note} ran 1 time(s)")
    expect(dialog(first)).to_be_hidden()

"""`reflex run` in dev mode, run after run in one checkout, and an edit while a reply streams.

A copy of this checkout (its tracked and new files, not its build folders or run-time files) is
served by `reflex run` with the demo's defaults: the copilot keeps its store and secret where it
chooses. The tests run in order, as a person's day does: a first run with a conversation and an
approval; Ctrl-C; a second run in the same folder, where a new turn completes and the first
conversation is still there; then a Python file of the app edited while a reply streams.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests._processes import kept_port, stop_group
from tests.browser._person import ask, card, copilot, dialog, hydrated, idle, kinds, replies, text_of
from tests.browser.conftest import Tabs, _tail

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 600  # seconds: the first run installs the frontend's npm packages
SERVED_AT = re.compile(r"App running at: http://[^/\s]+:(\d+)")  # what `reflex run` prints once it serves
DEV_TURN = 45_000  # ms: dev mode's frontend compiles pages on first use; a two-core machine is busy
RELOAD_TIMEOUT = 60_000  # ms for the backend to come back after an edit


@dataclass
class DevServer:
    """`reflex run` in dev mode in one folder, started and stopped as a person does."""

    folder: Path
    log: Path
    frontend_port: int
    backend_port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.frontend_port}"

    def start(self) -> None:
        self.stop()  # (a run a failed test left serving)
        bin_dir = Path(sys.executable).parent
        env = {
            **{key: value for key, value in os.environ.items() if not key.startswith(("COPILOT_", "REFLEX_", "DEMO_"))},
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "PYTHONUNBUFFERED": "1",
            "REFLEX_USE_NPM": "1",
            "REFLEX_TELEMETRY_ENABLED": "false",
            "REDIS_URL": "",
        }
        command = [shutil.which("reflex", path=str(bin_dir)) or "reflex", "run"]
        command += ["--frontend-port", str(self.frontend_port), "--backend-port", str(self.backend_port)]
        with self.log.open("a") as log:
            log.write(f"\n--- reflex run at {time.strftime('%X')}\n")
            log.flush()
            self.process = subprocess.Popen(
                command, cwd=self.folder, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        self._wait_until_served()

    def stop(self) -> None:
        """Ctrl-C, as a person stops it (harder only if that does not do)."""
        if self.process is not None:
            stop_group(self.process, signal.SIGINT)
            self.process = None

    def _wait_until_served(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        backend, frontend = f"http://127.0.0.1:{self.backend_port}/ping", self.url
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                pytest.fail(f"reflex run exited (code {self.process.returncode}):\n{_tail(self.log)}")
            served = SERVED_AT.findall(self.log.read_text(errors="replace").rsplit("--- reflex run at", 1)[-1])
            if served and int(served[-1]) != self.frontend_port:  # (another test's server took the port)
                pytest.fail(f"reflex run served on port {served[-1]}, not {self.frontend_port}:\n{_tail(self.log)}")
            try:
                with urllib.request.urlopen(backend, timeout=2), urllib.request.urlopen(frontend, timeout=10):
                    if served:
                        return
            except OSError:
                pass
            time.sleep(1)
        pytest.fail(f"reflex run did not serve within {START_TIMEOUT} s:\n{_tail(self.log)}")


@pytest.fixture(scope="module")
def dev(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DevServer]:
    """A copy of the checkout, to be served in dev mode (not started yet)."""
    folder = tmp_path_factory.mktemp("dev-mode") / "checkout"
    listed = (
        subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, folder / name)
    frontend = kept_port()
    server = DevServer(folder, folder.parent / "reflex.log", frontend, kept_port(frontend))  # (the same in every run)
    yield server
    server.stop()


@pytest.fixture(scope="module")
def person(browser: Browser, dev: DevServer) -> Iterator[BrowserContext]:
    """One person's browser, day after day: the same cookies (their conversations) across the runs."""
    context = browser.new_context(viewport={"width": 1400, "height": 900}, base_url=dev.url)
    yield context
    context.close()


@pytest.fixture
def tabs(browser: Browser, person: BrowserContext) -> Iterator[Tabs]:
    """Tabs of that person's browser for one test; it fails on any console error or page error they report."""
    opened = Tabs(browser)
    opened.contexts.append(person)
    yield opened
    assert not opened.problems, "the browser reported errors:\n" + "\n".join(opened.problems)


def open_copilot(tabs: Tabs, dev: DevServer) -> Page:
    page = tabs.tab(tabs.contexts[0])
    page.goto("/")
    expect(page.get_by_role("textbox", name="Ask the copilot")).to_be_editable(timeout=DEV_TURN)
    hydrated(page, timeout=DEV_TURN)
    return page


def test_the_first_run_serves_a_conversation_and_an_approval(dev: DevServer, tabs: Tabs):
    dev.start()
    page = open_copilot(tabs, dev)
    ask(page, "show order 1042")
    expect(copilot(page).get_by_role("region", name="Order #1042")).to_contain_text("Ada Lovelace", timeout=DEV_TURN)
    idle(page, DEV_TURN)
    ask(page, "refund order 1042")
    dialog(page).get_by_role("button", name="Approve").click(timeout=DEV_TURN)
    expect(page.locator('[data-kpi="Refunds"]')).to_have_text("24", timeout=DEV_TURN)
    expect(replies(page).last).to_contain_text("Done: Refunded order #1042", timeout=DEV_TURN)
    idle(page, DEV_TURN)
    page.close()  # before Ctrl-C: a tab left open reports the server gone
    dev.stop()
    kept = sorted(path.name for path in (dev.folder / ".copilot").iterdir())
    assert "threads.db" in kept, kept
    assert not list(dev.folder.glob("copilot_threads.db*")), "the store wrote next to the app, where dev mode's reload watches"


def test_the_second_run_in_the_same_folder_answers_and_keeps_the_first_conversation(dev: DevServer, tabs: Tabs):
    dev.start()  # the store's files exist now, as from every second `make run` on
    page = open_copilot(tabs, dev)
    ask(page, "hello")
    expect(replies(page).last).to_contain_text("COPILOT_AGENT_URL to the address of your AG-UI server.", timeout=DEV_TURN)
    idle(page, DEV_TURN)

    page.get_by_role("button", name="Conversations").click()
    page.get_by_role("list", name="Conversations").locator(".cui-thread-open").filter(has_text="show order 1042").click()
    order = copilot(page).get_by_role("region", name="Order #1042")
    expect(order).to_contain_text("Ada Lovelace", timeout=DEV_TURN)  # the app's card, drawn from the store
    expect(card(page, "refund_order")).to_have_attribute("data-status", "complete")
    expect(page.locator('[data-kpi="Refunds"]')).to_have_text("24")  # the dashboard agrees with the conversation


def test_an_edit_while_a_reply_streams_reloads_keeps_its_words_and_retry_goes_on_from_them(dev: DevServer, tabs: Tabs):
    if dev.process is None:
        dev.start()
    page = open_copilot(tabs, dev)
    ask(page, "show orders from Berlin")
    expect(replies(page).last).to_have_text("Done: the Orders table shows 3 orders from Berlin.", timeout=DEV_TURN)
    idle(page, DEV_TURN)

    ask(page, "hello")
    live = page.locator('[data-kind="live"]')
    expect(live).to_contain_text("Hello!", timeout=DEV_TURN)
    tabs.allowed.append(lambda text: "ERR_CONNECTION_REFUSED" in text)  # the backend restarts: the tab reconnects
    shown = text_of(live)
    app_module = dev.folder / "copilot_ui" / "copilot_ui.py"
    app_module.write_text(app_module.read_text() + "\n# edited while a reply streams\n")

    interrupted = copilot(page).get_by_role("alert").filter(has_text="Interrupted")
    expect(interrupted).to_be_visible(timeout=RELOAD_TIMEOUT)
    expect(replies(page).first).to_have_text("Done: the Orders table shows 3 orders from Berlin.")  # still there
    expect(replies(page)).to_have_count(2)
    assert kinds(page)[-3:] == ["user", "assistant", "error"], copilot(page).inner_text()  # the words, then the notice
    kept = text_of(replies(page).last)
    assert kept.startswith(shown), f"words the person read were lost: {kept!r}, they had read {shown!r}"
    interrupted.get_by_role("button", name="Retry").click()
    expect(replies(page).last).to_contain_text("COPILOT_AGENT_URL to the address of your AG-UI server.", timeout=DEV_TURN)
    idle(page, DEV_TURN)
    expect(interrupted).to_have_count(0)  # answered by the retry
    expect(replies(page)).to_have_count(3)
    assert text_of(replies(page).nth(1)) == kept  # the person keeps the words they read
    told = kept + text_of(replies(page).last)  # and the model went on from them

    page.get_by_role("button", name="New conversation").first.click()
    expect(page.locator('[data-kind="user"]')).to_have_count(0)  # (before `ask` counts the messages shown)
    ask(page, "hello")
    idle(page, DEV_TURN)
    assert text_of(replies(page).last) == told  # the whole reply, each word once

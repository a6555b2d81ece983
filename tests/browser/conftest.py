"""The third ring: the app built and served in production mode, driven in Chromium by Playwright.

The app is built and served once per test session (`reflex run --env prod`, one port) in a build
folder of its own (.web-test), so a `make run` in the same checkout does not get in the way. Each
test gets a fresh browser context (a new tab token, so a new session) and fails on any console
error or page error.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT = 900  # seconds: the first build installs the frontend's npm packages
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The demo app, served in production mode on a free port for the whole session."""
    port = _free_port()
    states = tmp_path_factory.mktemp("states")
    log_path = tmp_path_factory.mktemp("app") / "reflex.log"
    bin_dir = Path(sys.executable).parent
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "REFLEX_USE_NPM": "1",
        "REFLEX_WEB_WORKDIR": ".web-test",
        "REFLEX_STATES_WORKDIR": str(states),
        "PYTHONUNBUFFERED": "1",
    }
    for variable in ("COPILOT_AGENT_URL", "COPILOT_AGENT_HEADERS", "COPILOT_MODEL"):
        env.pop(variable, None)  # the tests use the built-in demo model
    reflex = shutil.which("reflex", path=str(bin_dir)) or "reflex"
    command = [reflex, "run", "--env", "prod", "--frontend-port", str(port), "--backend-port", str(port)]
    with log_path.open("w") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_served(url, server, log_path)
        yield url
    finally:
        _stop(server)


def _wait_until_served(url: str, server: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + BUILD_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"the app exited while building (code {server.returncode}):\n{_tail(log_path)}")
        try:
            with urllib.request.urlopen(f"{url}/ping", timeout=2) as ping, urllib.request.urlopen(url, timeout=5) as page:
                if ping.status == 200 and page.status == 200:
                    return
        except OSError:
            pass
        time.sleep(1)
    pytest.fail(f"the app did not answer within {BUILD_TIMEOUT} s:\n{_tail(log_path)}")


def _stop(server: subprocess.Popen[bytes]) -> None:
    for sig, wait in ((signal.SIGINT, 15), (signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        if server.poll() is not None:
            break
        try:
            os.killpg(server.pid, sig)  # the whole group: reflex and its server worker
        except ProcessLookupError:
            break
        try:
            server.wait(wait)
        except subprocess.TimeoutExpired:
            continue
    try:
        os.killpg(server.pid, signal.SIGKILL)  # a worker left behind must not keep the port
    except ProcessLookupError:
        pass


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _tail(path: Path, lines: int = 60) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


# Module scope: Playwright's sync API holds an event loop while it is open, which the async tests of
# the other rings must not find running.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Headless Chromium: the system's where present, Playwright's own otherwise."""
    system = Path("/usr/bin/chromium")
    launched = playwright.chromium.launch(
        executable_path=str(system) if system.exists() else None, headless=True, args=CHROMIUM_ARGS
    )
    yield launched
    launched.close()


@pytest.fixture
def page(browser: Browser, app_url: str) -> Iterator[Page]:
    """A fresh tab on the app; the test fails on any console error or page error."""
    context = browser.new_context(viewport={"width": 1400, "height": 900}, base_url=app_url)
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(f"console error: {message.text} ({message.location.get('url', '')})")

    tab = context.new_page()
    tab.on("console", on_console)
    tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    tab.set_default_timeout(15_000)
    yield tab
    context.close()
    assert not problems, "the browser reported errors:\n" + "\n".join(problems)

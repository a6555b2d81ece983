"""The third ring: the app built and served in production mode, driven in Chromium by Playwright.

Two servings of the demo app, each served once per test session as `reflex run --env prod` serves it (one port,
see `_prod_server.py`) from a build folder of its own, so that a `make run` in the same checkout does not get in the
way. A new build folder starts as a copy of one set up before it, so that npm installs the frontend's packages once
per run (`_seeding`); servings whose pages compile the same share one build (`_shared_builds.py`); a restart serves
the pages already built:
- `app_url`: on the built-in demo model, as a newcomer runs it;
- `hostile_app`: talking to the hostile AG-UI server of tests/hostile_agent.py over HTTP, with a
  secret Authorization header and an API key in its environment that must never reach a browser.
Both add the tests' slow tools (tests/browser/_app_extras.py). Other servings (`words_app`, `cluster_app`)
serve the tests that ask for them, each built in a folder of its own. Each test gets a fresh browser
context (a new tab token, so a new session) and fails on any console error or page error.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright, WebSocket, sync_playwright

from tests._processes import CHROMIUM_ARGS, free_port, stop_group
from tests.browser._person import TURN_TIMEOUT
from tests.browser._shared_builds import SHARED
from tests.hostile_agent import HostileAgent, start_hostile_agent

ROOT = Path(__file__).resolve().parents[2]
BUILD_TIMEOUT = 900  # seconds: the first build installs the frontend's npm packages
EXTRAS = "tests.browser._app_extras"
SYSTEM_CHROMIUMS = (Path("/usr/bin/chromium-headless-shell"), Path("/usr/bin/chromium"))  # Debian's packages
_BUILT: list[Path] = []  # the build folders served so far in this session, with the frontend's packages installed


@dataclass(frozen=True)
class ServedApp:
    """The app as one test session serves it."""

    url: str
    web_dir: Path  # its build folder (the built assets are under build/client)
    log: Path
    secrets: tuple[str, ...] = ()  # values that must never reach a browser


@pytest.fixture(scope="session")
def demo_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_served]:
    """The demo app on the built-in demo model, served in production mode on a free port (a test may restart it)."""
    server = _served(tmp_path_factory, "app", ".web-test", {})
    with server:
        yield server


@pytest.fixture(scope="session")
def app_url(demo_server: _served) -> str:
    """Where the demo app on the demo model is served."""
    return demo_server.served.url


@pytest.fixture(scope="session")
def hostile() -> Iterator[HostileAgent]:
    """The hostile AG-UI server: it does what the last message says (see tests/hostile_agent.py)."""
    server = start_hostile_agent()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def hostile_app(tmp_path_factory: pytest.TempPathFactory, hostile: HostileAgent) -> Iterator[ServedApp]:
    """The demo app whose agent is the hostile server, with a secret header and an API key in its environment."""
    token, api_key = secrets.token_urlsafe(24), "sk-test-" + secrets.token_urlsafe(24)
    env = {
        "COPILOT_AGENT_URL": hostile.url,
        "COPILOT_AGENT_HEADERS": json.dumps({"Authorization": f"Bearer {token}"}),
        "OPENAI_API_KEY": api_key,
        "COPILOT_DEV_CONSOLE": "1",
    }
    with _served(tmp_path_factory, "hostile-app", ".web-test-hostile", env, (f"Bearer {token}", token, api_key)) as served:
        yield served


@pytest.fixture(scope="session")
def words_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedApp]:
    """The demo app with the trip planner of tests/browser/_words_app.py: every label wrapped in ⟦…⟧, a scripted agent
    whose model has a long name, a page for each layout."""
    env = {"COPILOT_EXTRA_MODULES": "tests.browser._words_app"}
    with _served(tmp_path_factory, "words-app", ".web-test-words", env) as served:
        yield served


@pytest.fixture(scope="session")
def cluster_app(
    tmp_path_factory: pytest.TempPathFactory, hostile: HostileAgent, redis_url: str, postgres_server: object
) -> Iterator[ServedApp]:
    """The demo app on two backend workers sharing Redis (state, and the copilot's controls), its conversations in
    PostgreSQL, its agent the hostile server."""
    database = postgres_server.create_database()  # type: ignore[attr-defined]
    env = {
        "COPILOT_AGENT_URL": hostile.url,
        "REDIS_URL": redis_url,
        "GRANIAN_WORKERS": "2",
        "COPILOT_STORE_URL": postgres_server.url(database),  # type: ignore[attr-defined]
    }
    with _served(tmp_path_factory, "cluster-app", ".web-test-cluster", env) as served:
        yield served


class _served:
    """Build and serve the app (a context manager): its URL, build folder and log."""

    def __init__(
        self,
        factory: pytest.TempPathFactory,
        name: str,
        web_dir: str,
        env: dict[str, str],
        secret_values: tuple[str, ...] = (),
    ) -> None:
        worker = os.environ.get("PYTEST_XDIST_WORKER")  # (tests/parallel.py: each browser process builds its own)
        web_dir += f"-{worker}" if worker else ""
        self.port = free_port()
        self.log = factory.mktemp(name) / "reflex.log"
        self.served = ServedApp(f"http://127.0.0.1:{self.port}", ROOT / web_dir, self.log, secret_values)
        bin_dir = Path(sys.executable).parent
        self.env = {
            **{key: value for key, value in os.environ.items() if not key.startswith("COPILOT_")},
            "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
            "REFLEX_USE_NPM": "1",
            "REFLEX_WEB_WORKDIR": web_dir,
            "REFLEX_STATES_WORKDIR": str(factory.mktemp(f"{name}-states")),
            "PYTHONUNBUFFERED": "1",
            "COPILOT_EXTRA_MODULES": EXTRAS,
            "COPILOT_STORE_URL": str(factory.mktemp(f"{name}-store") / "threads.db"),
            # (the app's run-time files and the demo's orders: none left in the checkout by a test)
            "COPILOT_HOME": str(factory.mktemp(f"{name}-home")),
            "DEMO_DATABASE_URL": f"sqlite:///{factory.mktemp(f'{name}-demo') / 'demo.db'}",
            "COPILOT_SECRET": secrets.token_urlsafe(24),
            "REDIS_URL": "",
            "PYTHONHASHSEED": "0",  # (the same pages compile to the same files, and share a build)
            **env,
        }
        self.server_module = "tests.browser._prod_server"  # what serves it (`python -m <it> PORT [--as-built]`)

    def __enter__(self) -> ServedApp:
        with _seeding(self.served.web_dir) as seed:
            if seed is not None:
                _copy_seed(seed, self.served.web_dir)
            self._start()
        if self.served.web_dir not in _BUILT:
            _BUILT.append(self.served.web_dir)
        return self.served

    def _start(self, *options: str) -> None:
        with self.log.open("a") as log:
            self.server = subprocess.Popen(
                [sys.executable, "-m", self.server_module, str(self.port), *options],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        try:
            _wait_until_served(self.served.url, self.server, self.log)
        except BaseException:
            stop_group(self.server)
            raise

    def __exit__(self, *exc_info: object) -> None:
        stop_group(self.server)

    def restart(self, first: signal.Signals = signal.SIGTERM, *, killed_after: float | None = None) -> None:
        """Stop the server (gracefully with SIGTERM, abruptly with SIGKILL; killed `killed_after` seconds after it was
        asked, as dev mode kills a worker slow to exit) and serve the app again on the same port, its pages as built."""
        if killed_after is not None:
            os.killpg(self.server.pid, first)
            time.sleep(killed_after)
            first = signal.SIGKILL
        stop_group(self.server, first)
        self._start("--as-built")


@contextlib.contextmanager
def _seeding(web_dir: Path) -> Iterator[Path | None]:
    """The build folder a new one starts as a copy of, so that npm installs the frontend's packages once per run: the
    last this process built, else the first another process (`tests/parallel.py`) built, which it waits for while
    that builds; None when `web_dir` exists or none was built yet (then this build is the first, and others wait)."""
    if web_dir.exists():
        yield None
    elif _BUILT:
        yield _BUILT[-1]
    else:
        SHARED.mkdir(exist_ok=True)
        with (SHARED / "lock").open("w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            first = SHARED / "first"
            seed = Path(first.read_text()) if first.exists() else None
            seed = seed if seed is not None and seed.exists() else None
            yield seed
            if seed is None and web_dir.exists():
                first.write_text(str(web_dir))


def _copy_seed(seed: Path, web_dir: Path) -> None:
    """`seed` copied to `web_dir` but for its build (the copy's own pages get built), its installed packages linked
    rather than copied: 160 MB and 14,000 files a copy, which no tool writes into once they are installed."""
    modules = seed / "node_modules"

    def copy(source: str, target: str) -> object:
        if Path(source).is_relative_to(modules):
            try:
                os.link(source, target)
                return target
            except OSError:  # (another file system)
                pass
        return shutil.copy2(source, target)

    skipped = lambda folder, _names: ["build"] if folder == str(seed) else []  # noqa: E731
    shutil.copytree(seed, web_dir, symlinks=True, ignore=skipped, copy_function=copy)


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


def _tail(path: Path, lines: int = 60) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def _per_module_or_run(fixture_name: str, config: pytest.Config) -> str:
    """Playwright's sync API holds an event loop while it is open, which the async tests of the other rings must not
    find running: one browser per module, or one for the whole run where it runs browser tests only (`make test`'s
    browser lane), which saves starting Playwright and Chromium again for each module."""
    ring = Path(__file__).resolve().parent
    places = [(config.invocation_params.dir / arg.split("::")[0]).resolve() for arg in config.args]
    return "session" if places and all(place.is_relative_to(ring) for place in places) else "module"


@pytest.fixture(scope=_per_module_or_run)
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope=_per_module_or_run)
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Headless Chromium: the system's where present (its headless shell first: the same browser for a fifth less
    CPU), Playwright's own otherwise."""
    system = next((path for path in SYSTEM_CHROMIUMS if path.exists()), None)
    launched = playwright.chromium.launch(executable_path=system, headless=True, args=CHROMIUM_ARGS)
    yield launched
    launched.close()


@dataclass
class Frames:
    """Every websocket frame the browser received, as text."""

    received: list[str] = field(default_factory=list)

    def watch(self, websocket: WebSocket) -> None:
        websocket.on("framereceived", lambda frame: self.received.append(frame if isinstance(frame, str) else frame.decode()))

    def until_carried(self, page: Page, text: str, timeout: float = TURN_TIMEOUT) -> None:
        """Wait until a frame has carried `text` (since the tab opened); `page` lets the browser's events come in."""
        waited = 0
        while not any(text in frame for frame in self.received):
            assert waited < timeout, f"no frame from the server carried {text!r} within {timeout / 1000:g} s"
            page.wait_for_timeout(50)
            waited += 50


class Tabs:
    """Opens tabs (each a context of its own: a new session) that fail the test on any browser error."""

    def __init__(self, browser: Browser) -> None:
        self._browser = browser
        self.contexts: list[BrowserContext] = []
        self.problems: list[str] = []
        self.frames = Frames()
        self.allowed: list[Callable[[str], bool]] = []  # errors a test expects (e.g. a blocked request)

    def open(self, base_url: str, **options: object) -> Page:
        context = self._browser.new_context(**{"viewport": {"width": 1400, "height": 900}, **options}, base_url=base_url)
        self.contexts.append(context)
        return self.tab(context)

    def tab(self, context: BrowserContext) -> Page:
        """Another tab of a context (the same browser session's storage, its own tab token)."""
        tab = context.new_page()
        tab.on("console", self._console)
        tab.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        tab.on("websocket", self.frames.watch)
        tab.set_default_timeout(15_000)
        return tab

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error" and not any(allowed(message.text) for allowed in self.allowed):
            self.problems.append(f"console error: {message.text} ({message.location.get('url', '')})")

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def tabs(browser: Browser) -> Iterator[Tabs]:
    """Tabs for one test; it fails on any console error or page error they report."""
    opened = Tabs(browser)
    yield opened
    opened.close()
    assert not opened.problems, "the browser reported errors:\n" + "\n".join(opened.problems)


@pytest.fixture
def page(tabs: Tabs, app_url: str) -> Page:
    """A fresh tab on the demo app (demo model)."""
    return tabs.open(app_url, permissions=["clipboard-read", "clipboard-write"])


@pytest.fixture
def hostile_page(tabs: Tabs, hostile_app: ServedApp) -> Page:
    """A fresh tab on the app whose agent is the hostile server."""
    return tabs.open(hostile_app.url)

"""The README's quick start, followed word for word: a brand-new Reflex app gets a working copilot.

In a temporary folder the test makes an app with `reflex init --template blank`, installs copilot_ui from
this working tree as README.md's section "Add a copilot to your own Reflex app" says, writes that
section's app module over the blank one, serves it, and in Chromium does what the section says to try
offline: the tool changes the page, and the copilot says so.

Where it departs from the README, and why:
- pip gets `--no-deps --target <folder>`: copilot_ui goes into a folder of its own, first on the app's
  PYTHONPATH, so the test's virtualenv stays as it is (its packages are the dependencies);
- `reflex run` gets `--env prod` and one free port, as the browser ring serves the demo;
- `reflex init` gets `--no-agents`: its AGENTS.md is fetched from outside the package registries.
The app's folder, build folder included, is the temporary one: the checkout's own `.web*` are not touched.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests._processes import free_port, stop_group
from tests.browser.conftest import Tabs, _tail, _wait_until_served

ROOT = Path(__file__).resolve().parents[2]
SECTION = "## Add a copilot to your own Reflex app"
CHECKOUT = "path/to/copilot_ui"  # in the README's install command: where the checkout is
APP = "quickapp"
STEP_TIMEOUT = 300  # seconds for `reflex init` and for pip
TURN_TIMEOUT = 20_000  # ms: a turn of the demo model on a busy two-core machine
VIEWPORT_WIDTH = 1400  # the browser ring's tabs
ON_TOP = """button => {
  const box = button.getBoundingClientRect();
  return button.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
}"""  # whether a click at the element's middle reaches it


@dataclass(frozen=True)
class QuickStart:
    """What the README's section says to do."""

    install: str  # the command of its first bash block
    module: str  # its python block: the whole app module
    run: str  # the command of its last bash block
    try_offline: str  # what it says to write in the copilot


@dataclass(frozen=True)
class QuickApp:
    """The new app, served."""

    url: str
    folder: Path  # the app's own folder (rxconfig.py, quickapp/quickapp.py, assets/, .web/)
    site: Path  # where copilot_ui was installed
    log: Path


@pytest.fixture(scope="module")
def quick_start() -> QuickStart:
    """The quick start, as README.md says it."""
    return read_quick_start((ROOT / "README.md").read_text())


@pytest.fixture(scope="module")
def quick_app(tmp_path_factory: pytest.TempPathFactory, quick_start: QuickStart) -> Iterator[QuickApp]:
    """A blank Reflex app with the README's module and copilot_ui installed from this working tree, served."""
    root = tmp_path_factory.mktemp("quick-start")
    folder, site, log = root / APP, root / "site", root / "reflex.log"
    folder.mkdir()
    env = _app_environment(site)

    _step([_venv_command("reflex"), "init", "--name", APP, "--template", "blank", "--no-agents"], folder, env)
    _step(_pip_install(quick_start.install, site), folder, env)
    (folder / APP / f"{APP}.py").write_text(quick_start.module)

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with log.open("w") as output:
        server = subprocess.Popen(
            _served(quick_start.run, port), cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=output,
            stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        _wait_until_served(url, server, log)
        yield QuickApp(url, folder, site, log)
    finally:
        stop_group(server)


def test_the_readme_says_install_write_these_few_lines_run(quick_start: QuickStart):
    assert quick_start.install == f"pip install {CHECKOUT}"
    assert quick_start.run == "reflex run"
    code = [line for line in quick_start.module.splitlines() if line.strip()]
    assert len(code) <= 15, f"the quick start's app module grew to {len(code)} lines: a copilot in ten lines is the promise"
    compile(quick_start.module, "README.md", "exec")


def test_the_app_runs_the_installed_copilot_ui_not_the_checkout(quick_app: QuickApp):
    # Its components link their .jsx files (rx.asset(shared=True)) from where the app's process found
    # copilot_ui: the links say which copy it imported.
    linked = [path for path in (quick_app.folder / "assets" / "external" / "copilot_ui").rglob("*") if path.is_symlink()]
    assert linked, f"the app linked none of copilot_ui's assets:\n{_tail(quick_app.log)}"
    for path in linked:
        assert path.resolve().is_relative_to(quick_app.site.resolve()), f"{path} links to {path.resolve()}"


def test_what_the_readme_says_to_try_changes_the_page_and_the_copilot_says_so(
    quick_app: QuickApp, quick_start: QuickStart, tabs: Tabs
):
    page = tabs.open(quick_app.url)
    page.goto("/")
    expect(page.get_by_role("heading", name="Hello", exact=True)).to_be_visible()
    _tool, _, text = quick_start.try_offline.partition(" ")

    box = page.get_by_role("textbox", name="Ask the copilot")
    box.fill(quick_start.try_offline)
    box.press("Enter")

    expect(page.get_by_role("heading", name=text, exact=True)).to_be_visible(timeout=TURN_TIMEOUT)
    copilot = page.get_by_role("complementary", name="Copilot")
    expect(copilot).to_contain_text(re.compile(rf"Done: .*{re.escape(text)}"), timeout=TURN_TIMEOUT)


def test_the_copilot_docks_at_the_right_of_the_page_with_send_in_reach(quick_app: QuickApp, tabs: Tabs):
    page = tabs.open(quick_app.url)
    page.goto("/")
    heading = page.get_by_role("heading", name="Hello", exact=True)
    expect(heading).to_be_visible()

    content, copilot = heading.bounding_box(), page.get_by_role("complementary", name="Copilot").bounding_box()
    assert content is not None and copilot is not None
    assert content["x"] + content["width"] <= copilot["x"] + 1  # the page's content at its left
    assert copilot["x"] + copilot["width"] >= VIEWPORT_WIDTH - 1  # docked at the right edge
    send = page.get_by_role("button", name="Send")
    assert send.evaluate(ON_TOP), "something covers the Send button"


# Reading the README


def read_quick_start(readme: str) -> QuickStart:
    """The section's install command, app module, run command and what to write in the copilot; fails if it is not there."""
    lines = readme.splitlines()
    if SECTION not in lines:
        pytest.fail(f"README.md has no section {SECTION!r}: the quick start for an existing app is gone")
    start = lines.index(SECTION) + 1
    end = next((index for index in range(start, len(lines)) if lines[index].startswith("## ")), len(lines))
    section = "\n".join(lines[start:end]) + "\n"
    blocks = re.findall(r"^```(\w*)\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    commands = [code.strip() for language, code in blocks if language == "bash"]
    modules = [code for language, code in blocks if language == "python"]
    tried = re.search(r"write `([^`]+)` in the copilot", section)
    if len(commands) != 2 or len(modules) != 1 or tried is None:
        pytest.fail(
            f"README.md's section {SECTION!r} should hold a bash block that installs copilot_ui, one python block "
            f"(the whole app module), a bash block that runs it, and 'write `...` in the copilot'; it has "
            f"{len(commands)} bash block(s), {len(modules)} python block(s) and {'a' if tried else 'no'} message to try"
        )
    return QuickStart(install=commands[0], module=modules[0], run=commands[1], try_offline=tried[1])


# Doing what it says


def _pip_install(install: str, site: Path) -> list[str]:
    """The README's install command with this working tree for the checkout, into a folder of its own."""
    words = shlex.split(install.replace(CHECKOUT, str(ROOT)))
    assert words[:2] == ["pip", "install"], f"the README installs with {install!r}"
    python = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    return [*python, "install", "--quiet", "--no-deps", "--target", str(site), *words[2:]]


def _served(run: str, port: int) -> list[str]:
    """The README's run command, in production mode on one port."""
    words = shlex.split(run)
    assert words[0] == "reflex", f"the README runs the app with {run!r}"
    return [_venv_command("reflex"), *words[1:], "--env", "prod", "--frontend-port", str(port), "--backend-port", str(port)]


def _app_environment(site: Path) -> dict[str, str]:
    """The app's environment: this virtualenv first on PATH, copilot_ui from `site`, no settings of ours."""
    inherited = {key: value for key, value in os.environ.items() if not key.startswith(("COPILOT_", "REFLEX_"))}
    return {
        **inherited,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH", "")])),
        "PYTHONUNBUFFERED": "1",
        "REFLEX_USE_NPM": "1",  # bun cannot be downloaded everywhere
        "REFLEX_TELEMETRY_ENABLED": "false",
    }


def _step(command: list[str], folder: Path, env: dict[str, str]) -> None:
    done = subprocess.run(
        command, cwd=folder, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=STEP_TIMEOUT
    )
    if done.returncode != 0:
        pytest.fail(f"`{shlex.join(command)}` failed ({done.returncode}):\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}")


def _venv_command(name: str) -> str:
    return shutil.which(name, path=str(Path(sys.executable).parent)) or name

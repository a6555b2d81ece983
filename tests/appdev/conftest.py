"""The app-developer ring: a second app, written from the README's public API alone, served and driven in Chromium.

`helpdesk_app/` is that app (its own rxconfig.py and module). A test session copies it to a temporary
folder, serves it in production mode with this checkout's copilot_ui on its PYTHONPATH, and drives it
with the browser ring's Chromium and tabs (a fresh context per test, failing on any console or page error).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests._processes import free_port, stop_group
from tests.browser.conftest import _wait_until_served, browser, playwright, tabs  # noqa: F401 - the browser ring's fixtures

ROOT = Path(__file__).resolve().parents[2]
APP = Path(__file__).parent / "helpdesk_app"


@pytest.fixture(scope="session")
def helpdesk_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The helpdesk app, served in production mode on a free port from a copy of its folder."""
    folder = tmp_path_factory.mktemp("appdev") / "helpdesk_app"
    shutil.copytree(APP, folder, ignore=shutil.ignore_patterns("__pycache__", ".web", ".states", ".copilot"))
    port, log = free_port(), folder.parent / "reflex.log"
    bin_dir = Path(sys.executable).parent
    env = {
        **{key: value for key, value in os.environ.items() if not key.startswith(("COPILOT_", "REFLEX_"))},
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])),
        "PYTHONUNBUFFERED": "1",
        "REFLEX_USE_NPM": "1",
        "REFLEX_TELEMETRY_ENABLED": "false",
        "REDIS_URL": "",
    }
    command = [shutil.which("reflex", path=str(bin_dir)) or "reflex", "run", "--env", "prod"]
    command += ["--frontend-port", str(port), "--backend-port", str(port)]
    with log.open("w") as output:
        server = subprocess.Popen(
            command, cwd=folder, env=env, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        _wait_until_served(f"http://127.0.0.1:{port}", server, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_group(server)

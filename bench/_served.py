"""Servers for the browser benchmarks: the app in production mode, the hostile agent, both stopped whatever happens.

The app is served as the browser tests serve it (tests/browser/conftest.py): `reflex run --env prod`
on one port, in a build folder of its own under bench/.work (the first build installs the npm
packages; later ones reuse them). Each server runs in a process group of its own, so that stopping
it stops its workers too. Use them as context managers.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

from tests._processes import free_port, stop_group

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "bench" / ".work"
WEB_DIR = WORK / "web"  # one build folder: the servings run one after another, never at once
BUILD_TIMEOUT = 900  # seconds: the first build installs the frontend's npm packages
AGENT_TIMEOUT = 20  # seconds for an agent server to answer


class ServedApp:
    """The demo app in production mode on a free port: on the demo model, on the agent at `agent_url`, or as
    `environment` configures it (e.g. COPILOT_MODEL and a provider's base URL). Another app: its `folder` (where its
    rxconfig.py is) and a build folder of its own (`web_dir`)."""

    def __init__(
        self,
        agent_url: str | None = None,
        environment: dict[str, str] | None = None,
        *,
        folder: Path = ROOT,
        web_dir: Path = WEB_DIR,
    ) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = WORK / f"reflex-{self.port}.log"
        self._agent_url = agent_url
        self._environment = environment or {}
        self._folder, self._web_dir = folder, web_dir
        self._states: str | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> ServedApp:
        WORK.mkdir(parents=True, exist_ok=True)
        try:
            self._states = tempfile.mkdtemp(prefix="cui-bench-states-")
            bin_dir = Path(sys.executable).parent
            env = {
                **{key: value for key, value in os.environ.items() if not key.startswith("COPILOT_")},
                "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
                "REFLEX_USE_NPM": "1",
                "REFLEX_WEB_WORKDIR": os.path.relpath(self._web_dir, self._folder),
                "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])),
                "REFLEX_STATES_WORKDIR": self._states,
                "PYTHONUNBUFFERED": "1",
                **({"COPILOT_AGENT_URL": self._agent_url} if self._agent_url else {}),
                **self._environment,
            }
            command = [
                shutil.which("reflex", path=str(bin_dir)) or "reflex",
                *("run", "--env", "prod", "--frontend-port", str(self.port), "--backend-port", str(self.port)),
            ]
            with self.log.open("w") as log:
                self._process = subprocess.Popen(
                    command, cwd=self._folder, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
                )
            self._wait_until_served()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.stop()

    @property
    def states_folder(self) -> str | None:
        """Where this serving's Reflex keeps the session states on disk (None once stopped)."""
        return self._states

    @property
    def group(self) -> int | None:
        """The process group of the app and its workers (None once stopped)."""
        return self._process.pid if self._process is not None else None

    def stop(self) -> None:
        """Stop the app and its workers, and remove its session states."""
        if self._process is not None:
            stop_group(self._process)
            self._process = None
        if self._states is not None:
            shutil.rmtree(self._states, ignore_errors=True)
            self._states = None

    def _wait_until_served(self) -> None:
        assert self._process is not None
        deadline = time.monotonic() + BUILD_TIMEOUT
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError(f"the app exited while building (code {self._process.returncode}); see {self.log}")
            if answers(f"{self.url}/ping") and answers(self.url):
                return
            time.sleep(0.5)
        raise RuntimeError(f"the app did not answer within {BUILD_TIMEOUT} s; see {self.log}")


class AgentProcess:
    """An AG-UI agent server (`python -m <module> --port N`) in a process of its own, so that its work does not share
    this process's GIL: tests/hostile_agent.py by default, bench/_demo_agent.py for the demo's own agent."""

    def __init__(self, module: str = "tests.hostile_agent", environment: dict[str, str] | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        self._module = module
        self._environment = environment
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def group(self) -> int | None:
        """The server's process group (None once stopped)."""
        return self._process.pid if self._process is not None else None

    def __enter__(self) -> AgentProcess:
        self._process = subprocess.Popen(
            [sys.executable, "-m", self._module, "--port", str(self.port)],
            cwd=ROOT,
            env=self._environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + AGENT_TIMEOUT
        while not port_open(self.port):
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.__exit__(None, None, None)
                raise RuntimeError(f"the agent server {self._module} did not start")
            time.sleep(0.1)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        if self._process is not None:
            stop_group(self._process)
            self._process = None


def port_open(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status == 200
    except OSError:
        return False


@contextlib.contextmanager
def stopped_on_sigterm() -> Iterator[None]:
    """A SIGTERM unwinds like Ctrl-C, so that the servers are stopped."""
    previous = signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)

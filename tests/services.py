"""Real services for tests: a throwaway PostgreSQL and a throwaway Redis, started by the tests themselves.

Each runs from a temporary folder on a free port of 127.0.0.1, keeps nothing on disk that outlives
it, and is stopped when the test session ends. Where its programs are missing the tests that need
it are skipped, saying why (`make test` installs them from Debian's packages when run as root).

Fixtures (imported by tests/conftest.py):
- `postgres_server` (session): a running PostgreSQL, as a PostgresServer.
- `postgres_url` (per test): the SQLAlchemy URL (`postgresql+psycopg://...`) of a new, empty database.
- `redis_url` (session): `redis://127.0.0.1:PORT/0` of a running redis-server without persistence.

The context managers `running_postgres()` and `running_redis()` do the same outside pytest.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests._processes import free_port

INSTALL_HINT = "`make test` installs it when run as root"
START_TIMEOUT = 30.0


class ServiceUnavailable(RuntimeError):
    """A service's programs are not on this machine."""


@dataclass
class PostgresServer:
    """A PostgreSQL server of the tests: superuser `copilot`, no password, on 127.0.0.1."""

    port: int
    _databases: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of one of the server's databases."""
        return f"postgresql+psycopg://copilot@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A new, empty database; its name."""
        name = f"test_{next(self._databases)}"
        self._sql(f"CREATE DATABASE {name}")
        return name

    def drop_database(self, name: str) -> None:
        """Remove a database, closing its connections."""
        self._sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

    def _sql(self, statement: str) -> None:
        import psycopg  # the store's driver

        with psycopg.connect(host="127.0.0.1", port=self.port, user="copilot", dbname="postgres", autocommit=True) as connection:
            connection.execute(statement)


@contextlib.contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server in a temporary folder (initdb, pg_ctl start), stopped and removed after."""
    bin_dir = _postgres_bin_dir()
    run_as, user = _unprivileged()
    work = Path(tempfile.mkdtemp(prefix="copilot-postgres-"))
    data, log = work / "data", work / "server.log"
    try:
        if user is not None:
            shutil.chown(work, user=user)
        initdb = [str(bin_dir / "initdb"), "-D", str(data), "-U", "copilot", "--auth=trust", "-E", "UTF8", "--no-sync"]
        _run([*run_as, *initdb], cwd=work)
        pg_ctl = str(bin_dir / "pg_ctl")
        port = _start_postgres([*run_as, pg_ctl, "-D", str(data), "-l", str(log)], work)
        try:
            yield PostgresServer(port=port)
        finally:
            stop = [*run_as, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"]
            subprocess.run(stop, capture_output=True, check=False, cwd=work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


@contextlib.contextmanager
def running_redis() -> Iterator[str]:
    """A redis-server on a free port, without persistence; its URL. Stopped and removed after."""
    program = shutil.which("redis-server") or ("/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None)
    if program is None:
        raise ServiceUnavailable(f"redis-server not found; {INSTALL_HINT}")
    work = Path(tempfile.mkdtemp(prefix="copilot-redis-"))
    port = free_port()
    options = ["--port", str(port), "--bind", "127.0.0.1", "--dir", str(work), "--save", "", "--appendonly", "no"]
    with open(work / "server.log", "wb") as log:
        server = subprocess.Popen([program, *options, "--logfile", ""], stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_for_redis(port, server, work / "server.log")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)


# Fixtures


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the whole session (skips where PostgreSQL is not installed)."""
    try:
        with running_postgres() as server:
            yield server
    except ServiceUnavailable as missing:
        pytest.skip(str(missing))


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped after the test."""
    name = postgres_server.create_database()
    yield postgres_server.url(name)
    postgres_server.drop_database(name)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of a redis-server for the whole session (skips where Redis is not installed)."""
    try:
        with running_redis() as url:
            yield url
    except ServiceUnavailable as missing:
        pytest.skip(str(missing))


# Helpers


def _postgres_bin_dir() -> Path:
    """Where initdb and pg_ctl are: on PATH, else Debian's /usr/lib/postgresql/VERSION/bin (the newest)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda path: _version(path.parent.parent.name))
    if versions:
        return versions[-1].parent
    raise ServiceUnavailable(f"PostgreSQL not found (initdb, pg_ctl); {INSTALL_HINT}")


def _unprivileged() -> tuple[list[str], str | None]:
    """How to run PostgreSQL, which refuses to run as root: as `postgres` (or `nobody`) when we are root."""
    if os.geteuid() != 0:
        return [], None
    for user in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(user)
            runuser = shutil.which("runuser")
            if runuser is None:
                raise ServiceUnavailable("running as root without `runuser` to start PostgreSQL as another user")
            return [runuser, "-u", user, "--"], user
    raise ServiceUnavailable("running as root, and no `postgres` or `nobody` user to start PostgreSQL as")


def _start_postgres(pg_ctl: list[str], work: Path) -> int:
    """Start the server on a free port (another, if that one was taken meanwhile); the port."""
    for _attempt in range(3):
        port = free_port()
        options = (
            f"-p {port} -k {work} -c listen_addresses=127.0.0.1"
            " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"  # throwaway data: speed over durability
        )
        start = [*pg_ctl, "-o", options, "-w", "-t", f"{START_TIMEOUT:.0f}", "start"]
        started = subprocess.run(start, capture_output=True, text=True, check=False, cwd=work)
        if started.returncode == 0:
            return port
    raise RuntimeError(f"PostgreSQL did not start: {started.stderr.strip()}\n{_tail(work / 'server.log')}")


def _run(command: list[str], cwd: Path | None = None) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120, cwd=cwd)
    if done.returncode != 0:
        raise RuntimeError(f"{Path(command[0]).name} failed: {' '.join(command)}\n{done.stdout}{done.stderr}")


def _wait_for_redis(port: int, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"redis-server exited with {server.returncode}\n{_tail(log)}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            if connection.recv(16).startswith(b"+PONG"):
                return
        time.sleep(0.05)
    raise RuntimeError(f"redis-server did not answer on port {port} within {START_TIMEOUT:.0f} s\n{_tail(log)}")


def _tail(log: Path, lines: int = 20) -> str:
    with contextlib.suppress(OSError):
        return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
    return ""


def _version(name: str) -> tuple[int, ...]:
    return tuple(int(part) for part in name.split(".") if part.isdigit())

"""A small MCP server for tests, built with the `mcp` package (its FastMCP, named MCPServer in mcp 2): a notebook
that keeps its notes in a folder, and a log of every call it ran, so that a test sees what ran and how often.

Every ring starts it as a real process, as an app would:

    folder = NotesFolder(tmp_path)                      # notes.txt, calls.log, pid, refuse
    cui.mcp_server("notes", **folder.stdio())           # started by the copilot, on stdio
    with start_http_notes(folder, token="…") as served: # or served on 127.0.0.1, streamable HTTP at served.url
        cui.mcp_server("notes", url=served.url, headers={"Authorization": "Bearer …"})

Or from a shell: `python tests/mcp_server.py <folder>` (stdio) or `python tests/mcp_server.py <folder> --http <port>`.

Its tools:
    add_note(text)      adds a line to the notes: "Noted: <text> (<n> notes)."
    read_notes()        the notes, one a line, or "No notes yet."
    erase_notes()       erases them all: "Erased <n> notes." (the tests make it need approval)
    crash()             the server exits at once, in the middle of the call
    whoami()            the Authorization header it was sent (over HTTP), as a hostile server would echo it

At start it writes its process id to `pid`; while a file `refuse` is in its folder it refuses to start (it says
why on stderr and exits 2). Over HTTP with a token, a request without "Authorization: Bearer <token>" gets 401.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import Context, MCPServer

SCRIPT = Path(__file__).resolve()
START_TIMEOUT = 20.0  # seconds for the HTTP server to answer


@dataclass(frozen=True)
class NotesFolder:
    """The folder of one notes server: its notes, its log of calls, its process id, its refusal to start."""

    path: Path

    def stdio(self) -> dict[str, Any]:
        """The keywords of `cui.mcp_server` (or an entry of COPILOT_MCP_SERVERS) that start it on stdio."""
        return {"command": sys.executable, "args": [str(SCRIPT), str(self.path)]}

    def notes(self) -> list[str]:
        file = self.path / "notes.txt"
        return file.read_text().splitlines() if file.exists() else []

    def calls(self) -> list[str]:
        """The tools it ran, in order (a call that crashed the server is logged before it did)."""
        file = self.path / "calls.log"
        return file.read_text().splitlines() if file.exists() else []

    def pid(self) -> int | None:
        file = self.path / "pid"
        return int(file.read_text()) if file.exists() else None

    def kill(self) -> None:
        """The server dies, as if it crashed (SIGKILL to the process that wrote `pid`)."""
        pid = self.pid()
        assert pid is not None, "the notes server never started"
        os.kill(pid, signal.SIGKILL)

    def refuse_to_start(self, refuse: bool = True) -> None:
        """While set, the server refuses to start (as one with a missing setting would)."""
        (self.path / "refuse").touch() if refuse else (self.path / "refuse").unlink(missing_ok=True)


@dataclass
class HttpNotes:
    """The notes server serving streamable HTTP on 127.0.0.1 (a process of its own)."""

    url: str
    process: subprocess.Popen[bytes]

    def kill(self) -> None:
        """It dies, as a server that crashed would."""
        self.process.kill()
        self.process.wait(10)


@contextmanager
def start_http_notes(folder: NotesFolder, port: int, token: str = "") -> Iterator[HttpNotes]:
    """Serve the notes of `folder` over streamable HTTP at http://127.0.0.1:<port>/mcp until the block ends."""
    environ = {**os.environ, "NOTES_TOKEN": token}
    process = subprocess.Popen([sys.executable, str(SCRIPT), str(folder.path), "--http", str(port)], env=environ)
    served = HttpNotes(f"http://127.0.0.1:{port}/mcp", process)
    try:
        _wait_until_answering(port, process)
        yield served
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


def _wait_until_answering(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the notes server exited at start (code {process.returncode})")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the notes server did not answer on 127.0.0.1:{port} within {START_TIMEOUT} s")


# The server itself (run as a script)


def serve(folder: Path, http_port: int | None) -> None:
    if (folder / "refuse").exists():
        print(f"notes server: refusing to start while {folder / 'refuse'} exists", file=sys.stderr, flush=True)
        sys.exit(2)
    (folder / "pid").write_text(str(os.getpid()))
    notes_file, calls_file = folder / "notes.txt", folder / "calls.log"
    server = MCPServer("notes", log_level="WARNING")

    def logged(tool: str) -> None:
        with calls_file.open("a") as calls:
            calls.write(tool + "\n")

    def notes() -> list[str]:
        return notes_file.read_text().splitlines() if notes_file.exists() else []

    @server.tool()
    def add_note(text: str) -> str:
        """Add a line to the notes."""
        logged("add_note")
        with notes_file.open("a") as file:
            file.write(text.replace("\n", " ") + "\n")
        return f"Noted: {text} ({len(notes())} notes)."

    @server.tool()
    def read_notes() -> str:
        """The notes, one a line."""
        logged("read_notes")
        return "\n".join(notes()) or "No notes yet."

    @server.tool()
    def erase_notes() -> str:
        """Erase every note."""
        logged("erase_notes")
        count = len(notes())
        notes_file.write_text("")
        return f"Erased {count} notes."

    @server.tool()
    def crash() -> str:
        """Stop the server at once."""
        logged("crash")
        os._exit(3)

    @server.tool()
    def whoami(ctx: Context) -> str:
        """Who the server thinks is calling."""
        logged("whoami")
        headers = ctx.headers or {}
        return f"You sent: {headers.get('authorization', 'nothing')}"

    if http_port is None:
        server.run()
        return
    import uvicorn

    app = _guarded(server.streamable_http_app(), os.environ.get("NOTES_TOKEN", ""))
    uvicorn.run(app, host="127.0.0.1", port=http_port, log_level="warning")


def _guarded(app: Any, token: str) -> Any:
    """The app behind a bearer token (when one is set), with GET /health for whoever waits for it to start."""

    async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            if scope["path"] == "/health":
                return await _respond(send, 200, "ok")
            sent = dict(scope["headers"]).get(b"authorization", b"").decode()
            if token and sent != f"Bearer {token}":
                return await _respond(send, 401, json.dumps({"error": "unauthorized"}))
        await app(scope, receive, send)

    return guarded


async def _respond(send: Any, status: int, body: str) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body.encode()})


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="A notes MCP server for tests.")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--http", type=int, default=None, metavar="PORT")
    options = parser.parse_args()
    serve(options.folder, options.http)

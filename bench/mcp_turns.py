"""What MCP servers cost a turn: the tests' notes server (tests/mcp_server.py, a real process) with the built-in agent
on the demo model (no pauses), driven through the run loop. A turn that calls an MCP tool is two runs of the agent
(the call, then the reply to its result).

- the first turn over stdio, which starts the server;
- a turn over stdio once it runs (kept running between runs), and over streamable HTTP;
- what a configured server adds to a turn that does not use it (entering its session, listing its tools).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import copilot_ui as cui
from copilot_ui.core import RunLoop, Thread, Toolbox
from copilot_ui.server import builtin_agent, demo_model
from tests._processes import free_port
from tests.mcp_server import NotesFolder, start_http_notes

TURNS = 20
QUESTION = "what is our revenue this month?"  # answered in words, the same whatever tools are offered


async def turn_seconds(loop: RunLoop, text: str) -> float:
    started = time.perf_counter()
    outcome = await loop.send(Thread(), text)
    assert outcome.status == "done", outcome
    return time.perf_counter() - started


def loop_with(*servers: cui.McpServer) -> RunLoop:
    return RunLoop(builtin_agent(demo_model(0), toolsets=servers), Toolbox())


async def stdio_turns(folder: NotesFolder) -> tuple[float, list[float], list[float]]:
    """The first turn (the server starts), then turns calling its tool, then turns that do not."""
    loop = loop_with(cui.mcp_server("notes", **folder.stdio()))
    first = await turn_seconds(loop, "add_note first")
    calls = [await turn_seconds(loop, f"add_note note {n}") for n in range(TURNS)]
    unused = [await turn_seconds(loop, QUESTION) for _ in range(TURNS)]
    return first, calls, unused


async def http_turns(url: str) -> list[float]:
    loop = loop_with(cui.mcp_server("notes", url=url, headers={"Authorization": "Bearer bench-token-0000"}))
    await turn_seconds(loop, "add_note warm up")
    return [await turn_seconds(loop, f"add_note note {n}") for n in range(TURNS)]


async def plain_turns() -> list[float]:
    loop = loop_with()
    await turn_seconds(loop, QUESTION)
    return [await turn_seconds(loop, QUESTION) for _ in range(TURNS)]


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        stdio, http = NotesFolder(Path(scratch, "stdio")), NotesFolder(Path(scratch, "http"))
        stdio.path.mkdir()
        http.path.mkdir()
        first, calls, unused = asyncio.run(stdio_turns(stdio))
        with start_http_notes(http, free_port(), token="bench-token-0000") as served:
            over_http = asyncio.run(http_turns(served.url))
        plain = asyncio.run(plain_turns())
    print(f"mcp_stdio_first_turn_with_server_start: {first * 1e3:.0f} ms")
    print(f"mcp_stdio_turn_median: {statistics.median(calls) * 1e3:.1f} ms")
    print(f"mcp_http_turn_median: {statistics.median(over_http) * 1e3:.1f} ms")
    print(f"turn_without_mcp_median: {statistics.median(plain) * 1e3:.1f} ms")
    print(f"turn_with_an_unused_stdio_server_median: {statistics.median(unused) * 1e3:.1f} ms")


if __name__ == "__main__":
    main()

"""CopilotKit's mock LLM server, `@copilotkit/aimock` from npm, on a free port of 127.0.0.1: real providers' wire, no network.

One port answers as OpenAI (Responses at /v1/responses, Chat Completions at /v1/chat/completions) and
Anthropic (/v1/messages), streaming what the fixtures say: text, tool calls, reasoning, an error with
its status, a malformed answer, a stream cut after a while, a delay. A fixture matches the last
message of the person (`userMessage`, a substring) and, with `hasToolResult`, whether a tool's result
came after it: the follow-up request after the page ran a tool repeats the person's message, so the
fixture that answers it (`after_tools`) must come first, or the same call is made again and again.

The test writes its fixtures; `serve` puts them in a JSON file and has aimock load that file in place
of the last ones (its control API), so a fault can clear while the same server keeps running.
"""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import IO, Any

from tests._npm import node, npm_package
from tests._processes import free_port, stop_group

PACKAGE = ("@copilotkit/aimock", "1.43.0")
START_TIMEOUT = 20  # seconds

Fixture = dict[str, Any]


class Aimock:
    """One aimock server (a context manager), its fixtures in `folder`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._served = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def openai_url(self) -> str:
        """The base URL of its OpenAI API (and of any OpenAI-compatible server's)."""
        return f"{self.url}/v1"

    def __enter__(self) -> Aimock:
        self.folder.mkdir(parents=True, exist_ok=True)
        first = self._write([text("are you there", "I am here.")])
        cli = npm_package(*PACKAGE) / "dist" / "cli.js"
        command = [node(), str(cli), "--port", str(self.port), "--host", "127.0.0.1", "--fixtures", str(first)]
        self._log = (self.folder / "aimock.log").open("wb")
        self._process = subprocess.Popen(
            [*command, "--log-level", "warn"], stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not self._answers():
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.__exit__()
                raise RuntimeError(f"aimock did not start: {(self.folder / 'aimock.log').read_text()[-800:]}")
            time.sleep(0.1)
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._process is not None:
            stop_group(self._process)
            self._process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def serve(self, *fixtures: Fixture) -> Path:
        """Answer from these fixtures from now on, first match first (the last ones go); returns their JSON file."""
        path = self._write(list(fixtures))
        self._control("DELETE", "/fixtures")
        self._control("POST", "/fixtures", path.read_bytes())
        self._control("POST", "/reset/journal")
        return path

    def requests(self) -> list[dict[str, Any]]:
        """The requests aimock received since the last `serve`, oldest first, as its journal holds them."""
        return json.loads(self._control("GET", "/journal"))

    def _write(self, fixtures: list[Fixture]) -> Path:
        self._served += 1
        path = self.folder / f"fixtures-{self._served}.json"
        path.write_text(json.dumps({"fixtures": fixtures}, indent=1))
        return path

    def _control(self, method: str, path: str, body: bytes | None = None) -> bytes:
        request = urllib.request.Request(f"{self.url}/__aimock{path}", data=body, method=method)
        request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.read()

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/health", timeout=1) as answer:
                return answer.status == 200
        except OSError:
            return False


# Fixtures, by what the model does when the person says `said`.


def text(said: str, reply: str, *, reasoning: str | None = None, **options: Any) -> Fixture:
    """The model answers with this text (after this reasoning); `options` are aimock's (latency, disconnectAfterMs…)."""
    response: dict[str, Any] = {"content": reply}
    if reasoning is not None:
        response["reasoning"] = reasoning
    return {"match": {"userMessage": said, "hasToolResult": False}, "response": response, **options}


def tool_calls(said: str, *calls: tuple[str, dict[str, Any]], **options: Any) -> Fixture:
    """The model calls these tools, (name, arguments) each, in one reply."""
    response = {"toolCalls": [{"name": name, "arguments": arguments} for name, arguments in calls]}
    return {"match": {"userMessage": said, "hasToolResult": False}, "response": response, **options}


def after_tools(said: str, reply: str) -> Fixture:
    """Once the tools answered (the follow-up request), the model says this."""
    return {"match": {"userMessage": said, "hasToolResult": True}, "response": {"content": reply}}


def error(said: str, status: int, message: str, *, kind: str = "api_error", **extra: Any) -> Fixture:
    """The provider answers with an HTTP error: this status, its error body saying `message`; `extra` e.g. retryAfter."""
    return {"match": {"userMessage": said}, "response": {"error": {"message": message, "type": kind}, "status": status, **extra}}


def malformed(said: str) -> Fixture:
    """The provider answers 200 with a body that is not JSON (aimock's chaos: malformed)."""
    return {"match": {"userMessage": said}, "response": {"content": "never sent"}, "chaos": {"malformedRate": 1}}


def cut(said: str, reply: str) -> Fixture:
    """The provider streams `reply` a piece every 20 ms and drops the connection after 300 ms, mid-reply."""
    return text(said, reply, latency=20, disconnectAfterMs=300)


def delayed(said: str, reply: str, seconds: float) -> Fixture:
    """The provider answers only after this long (aimock's chaos: latency)."""
    return text(said, reply, chaos={"latencyMs": round(seconds * 1000)})

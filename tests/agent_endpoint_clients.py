"""Clients of the agent endpoint (`cui.agent_endpoint`), as its users run them, for the tests of two rings.

- ag-ui-validate's conformance run: its CLI on the default input, and its Python API on the runs a
  front end makes (a client-side tool, its follow-up, a backend tool writing the shared state);
- the reference TypeScript client, @ag-ui/client's HttpAgent, run by the virtualenv's Node
  (tests/agui_client_run.mjs): a client-side tool called, answered, and the agent's reply;
- plain HTTP for what must be refused.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
from ag_ui_validate import ValidatorOptions
from ag_ui_validate.transport import TransportOptions, validate_endpoint

from tests._npm import node, npm_package

AGUI_CLIENT = ("@ag-ui/client", "1.0.0")
CLIENT_SCRIPT = Path(__file__).with_name("agui_client_run.mjs")
RUN_TIMEOUT = 60  # seconds for one client's runs, on a slow machine

CHANGE_BACKGROUND = {
    "name": "change_background",
    "description": "Change the background color of the page.",
    "parameters": {"type": "object", "properties": {"color": {"type": "string"}}, "required": ["color"]},
}
ASK_FOR_BLUE = 'change_background {"color": "blue"}'  # the demo model calls a tool whose name starts the message


@dataclass(frozen=True)
class Conformance:
    """What ag-ui-validate found in one run: its findings at error and warning level, and how many events it read."""

    problems: list[str]
    events: int


def conformance_cli(url: str, token: str) -> subprocess.CompletedProcess[str]:
    """`ag-ui-validate <url> --header "Authorization: Bearer …"`, as a person runs it (its default input)."""
    command = [str(Path(sys.executable).parent / "ag-ui-validate"), url, "--header", f"Authorization: Bearer {token}"]
    return subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False)


def conformance_runs(url: str, token: str) -> dict[str, Conformance]:
    """ag-ui-validate's findings for each run a front end makes, by the run's name."""
    return {name: _validated(url, token, body, features) for name, (body, features) in _front_end_runs().items()}


def reference_client_run(url: str, token: str, message: str = ASK_FOR_BLUE) -> dict[str, Any]:
    """What @ag-ui/client's HttpAgent ended with: the client-side tool's effect (background), the calls it ran,
    the runs' outcomes, errors, the messages' roles and the agent's last reply."""
    client = npm_package(*AGUI_CLIENT) / "dist" / "index.mjs"
    env = {**os.environ, "AGUI_CLIENT_URL": client.as_uri(), "AGUI_TOKEN": token}
    done = subprocess.run(
        [node(), str(CLIENT_SCRIPT), url, message], capture_output=True, text=True, env=env, timeout=RUN_TIMEOUT, check=False
    )
    assert done.returncode == 0, f"the reference client failed:\n{done.stderr[-2000:]}"
    return json.loads(done.stdout)


def post_run(url: str, headers: dict[str, str] | None = None, body: bytes | Iterable[bytes] | None = None) -> httpx.Response:
    """POST a run (a short hello unless `body` is given, whole or in pieces) with these headers, the response read whole."""
    content = body if body is not None else json.dumps(run_body("hello")).encode()
    with httpx.Client(timeout=RUN_TIMEOUT) as client:
        return client.post(url, content=content, headers={"Content-Type": "application/json", **(headers or {})})


@dataclass(frozen=True)
class Answer:
    """An HTTP response read off a socket: its status and its body, as text."""

    status: int
    text: str


def post_declaring(url: str, headers: dict[str, str], length: int) -> Answer:
    """POST a run whose Content-Length says `length` bytes and send none of them (as a client does that waits for the
    server before the body): the server must answer from the headers alone. A client that sent the body would race the
    server's close, and could lose the answer to the connection's reset."""
    address = urlsplit(url)
    assert address.hostname is not None and address.port is not None
    lines = [
        f"POST {address.path or '/'} HTTP/1.1",
        f"Host: {address.netloc}",
        "Content-Type: application/json",
        f"Content-Length: {length}",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    with socket.create_connection((address.hostname, address.port), timeout=RUN_TIMEOUT) as connection:
        connection.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        response = http.client.HTTPResponse(connection)
        response.begin()
        return Answer(response.status, response.read().decode())


def run_body(text: str, **fields: Any) -> dict[str, Any]:
    """A RunAgentInput in which the person says `text`."""
    return {
        "threadId": "thread-endpoint",
        "runId": "run-1",
        "messages": [{"id": "user-1", "role": "user", "content": text}],
        "state": {},
        "tools": [],
        "context": [],
        "forwardedProps": {},
        "protocolVersion": "1.0",
        **fields,
    }


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _front_end_runs() -> dict[str, tuple[dict[str, Any], list[str] | None]]:
    call = {"id": "call-1", "type": "function", "function": {"name": "change_background", "arguments": '{"color": "blue"}'}}
    answered = [
        {"id": "user-1", "role": "user", "content": ASK_FOR_BLUE},
        {"id": "assistant-1", "role": "assistant", "content": "", "toolCalls": [call]},
        {"id": "tool-1", "role": "tool", "toolCallId": "call-1", "content": "The background is blue now."},
    ]
    return {
        "a client-side tool": (run_body(ASK_FOR_BLUE, tools=[CHANGE_BACKGROUND]), None),
        "its follow-up": (run_body("", messages=answered, runId="run-2", tools=[CHANGE_BACKGROUND]), None),
        # Not declared as the "shared-state" feature: its AGUI305 warns when an agent only patches the state the
        # client sent (STATE_DELTA, no STATE_SNAPSHOT), which is what the demo's backend tool does, by design.
        "a backend tool writing the shared state": (run_body("draft a weekly report", state={"report": ""}), None),
    }


def _validated(url: str, token: str, body: dict[str, Any], features: list[str] | None) -> Conformance:
    options = TransportOptions(
        input=body, headers=bearer(token), timeout_ms=RUN_TIMEOUT * 1000, validator=ValidatorOptions(features=features)
    )
    with ThreadPoolExecutor(1) as own_thread:  # (the browser ring's Playwright holds this thread's event loop)
        result = own_thread.submit(asyncio.run, validate_endpoint(url, options)).result()
    problems = [f"{d.rule} ({d.severity}): {d.message}" for d in result.report.diagnostics if d.severity in ("error", "warning")]
    problems += [f"internal error: {error}" for error in result.report.internal_errors]
    if result.transport_error:
        problems.append(f"transport: {result.transport_error}")
    return Conformance(problems, result.event_count)

"""The built-in agent as an AG-UI endpoint (`cui.agent_endpoint`), served by uvicorn on 127.0.0.1 in front of an app.

The agent is the demo app's: the demo model, the report-writing backend tool and the shared report
state. The same endpoint, turned on in the demo app served by Reflex, is tested in
tests/browser/test_agent_endpoint_served.py.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import httpx
import pytest
from pydantic_ai.models.function import FunctionModel
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route

import copilot_ui as cui
from copilot_ui.agents import HttpAgent, LocalAgent
from copilot_ui.demo.report import AgentReport, demo_backend_tools
from copilot_ui.demo.script import DASHBOARD
from copilot_ui.server import EndpointAccess, builtin_agent, builtin_pydantic_agent, demo_model

from ..agent_endpoint_clients import (
    ASK_FOR_BLUE,
    bearer,
    conformance_cli,
    conformance_runs,
    post_declaring,
    post_run,
    reference_client_run,
    run_body,
)
from ._servers import RecordedRequest, RecordingApp, serve_in_thread

ALLOWED_ORIGIN = "https://dashboard.example.com"
TEN_MB = 10 * 1024 * 1024


@dataclass(frozen=True)
class Served:
    base: str  # the app's own URL
    url: str  # the endpoint's
    token: str
    requests: list[RecordedRequest]  # as the endpoint read them


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    """The endpoint turned on (a token and one allowed origin in the environment) in front of a small app."""
    token = secrets.token_urlsafe(24)
    monkeypatch.setenv("COPILOT_AGENT_ENDPOINT_TOKEN", token)
    monkeypatch.setenv("COPILOT_AGENT_ENDPOINT_ORIGINS", ALLOWED_ORIGIN)
    agent = builtin_agent(demo_model(0, script=DASHBOARD), tools=demo_backend_tools(pace=0), state_type=AgentReport)
    app = RecordingApp(cui.agent_endpoint(agent=agent)(_the_app()))
    with serve_in_thread(app) as base:
        yield Served(base, f"{base}/copilot/agui", token, app.requests)


def _the_app() -> Starlette:
    return Starlette(routes=[Route("/", lambda request: PlainTextResponse("the app's own page"))])


# What clients get


def test_ag_ui_validate_finds_no_conformance_problem(served: Served):
    done = conformance_cli(served.url, served.token)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "no conformance violations" in done.stdout


def test_ag_ui_validate_finds_no_problem_in_a_front_end_s_runs(served: Served):
    found = conformance_runs(served.url, served.token)

    assert {name: result.problems for name, result in found.items()} == {name: [] for name in found}
    assert all(result.events > 5 for result in found.values())


def test_the_reference_client_runs_its_own_tool_and_gets_the_agent_s_reply(served: Served):
    client = reference_client_run(served.url, served.token, ASK_FOR_BLUE)

    assert client["calls"] == [{"name": "change_background", "arguments": {"color": "blue"}}]
    assert client["background"] == "blue"
    assert client["roles"] == ["user", "assistant", "tool", "assistant"]
    assert client["reply"] == "Done: The background is blue now."
    assert client["errors"] == []


def test_the_backend_tool_writes_the_shared_state_a_client_sends(served: Served):
    response = post_run(served.url, bearer(served.token), json.dumps(run_body("draft a weekly report")).encode())

    assert response.status_code == 200
    deltas = [event["delta"] for event in _events(response.text) if event["type"] == "STATE_DELTA"]
    assert deltas
    assert deltas[-1][0]["path"] == "/report"
    assert deltas[-1][0]["value"].startswith("Weekly report")


def test_the_rest_of_the_app_is_served_as_before(served: Served):
    assert post_run(served.base, bearer(served.token)).status_code == 405  # the app's route, which is GET only
    assert _get(served.base) == "the app's own page"


# What is refused


def test_a_run_without_the_token_is_refused_with_401(served: Served):
    response = post_run(served.url)

    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"
    assert "COPILOT_AGENT_ENDPOINT_TOKEN" in response.json()["error"]


def test_a_run_with_a_wrong_token_is_refused_with_401_that_never_shows_the_token(served: Served):
    almost = served.token[:-1] + ("x" if served.token[-1] != "x" else "y")

    response = post_run(served.url, bearer(almost))

    assert response.status_code == 401
    assert "not this endpoint's" in response.json()["error"]
    assert served.token not in response.text + str(response.headers)
    assert almost not in response.text + str(response.headers)


def test_a_10_mb_run_is_refused_with_413_without_being_read(served: Served):
    response = post_declaring(served.url, bearer(served.token), TEN_MB)

    assert response.status == 413
    assert "1,000,000 bytes" in json.loads(response.text)["error"]
    assert served.requests[-1].body == b""  # refused from its Content-Length


def test_a_10_mb_run_sent_in_pieces_is_refused_once_it_passes_the_limit(served: Served):
    huge = json.dumps(run_body("x" * TEN_MB)).encode()
    pieces = (huge[start : start + 65536] for start in range(0, len(huge), 65536))

    response = post_run(served.url, bearer(served.token), pieces)

    assert response.status_code == 413
    assert len(served.requests[-1].body) < 2_000_000  # the limit, and the piece that passed it


def test_a_page_from_another_origin_is_refused_with_403(served: Served):
    response = post_run(served.url, {**bearer(served.token), "Origin": "https://elsewhere.example"})

    assert response.status_code == 403
    assert "https://elsewhere.example" in response.json()["error"]
    assert "access-control-allow-origin" not in response.headers


def test_a_preflight_from_another_origin_is_refused_and_one_from_the_allowed_origin_answered(served: Served):
    asked = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type"}

    refused = _options(served.url, {"Origin": "https://elsewhere.example", **asked})
    answered = _options(served.url, {"Origin": ALLOWED_ORIGIN, **asked})

    assert refused.status_code == 403
    assert answered.status_code == 204
    assert answered.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert "authorization" in answered.headers["access-control-allow-headers"].lower()


def test_a_page_from_the_allowed_origin_reads_the_events(served: Served):
    response = post_run(served.url, {**bearer(served.token), "Origin": ALLOWED_ORIGIN})

    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert [event["type"] for event in _events(response.text)][-1] == "RUN_FINISHED"


def test_a_run_that_is_not_posted_as_json_gets_405_or_415_saying_so(served: Served):
    got = httpx.get(served.url, headers=bearer(served.token))
    form = post_run(served.url, {**bearer(served.token), "Content-Type": "text/plain"})

    assert (got.status_code, got.headers["allow"]) == (405, "POST, OPTIONS")
    assert form.status_code == 415
    assert form.json()["error"] == "Send the RunAgentInput as JSON (Content-Type: application/json), not text/plain."


def test_a_body_that_is_not_a_run_gets_422_saying_so(served: Served):
    response = post_run(served.url, bearer(served.token), b'{"messages": "hello"}')

    assert response.status_code == 422
    assert response.json()["error"] == "The body is not an AG-UI RunAgentInput."


# Errors during a run


def test_a_model_error_ends_the_stream_with_run_error_that_never_shows_the_key(monkeypatch: pytest.MonkeyPatch):
    key = "sk-test-" + secrets.token_urlsafe(24)
    monkeypatch.setenv("OPENAI_API_KEY", key)

    async def failing(messages: object, info: object) -> AsyncIterator[str]:
        raise RuntimeError(f"Incorrect API key provided: {key}")
        yield ""

    response = _run_on(builtin_agent(FunctionModel(stream_function=failing)), monkeypatch)

    last = _events(response.text)[-1]
    assert last["type"] == "RUN_ERROR"
    assert last["message"] == "Incorrect API key provided: [redacted]"
    assert key not in response.text


def test_a_run_that_breaks_off_before_it_starts_still_ends_with_run_error(monkeypatch: pytest.MonkeyPatch):
    def no_deps(run_input: object) -> object:
        raise LookupError("the report store is unavailable")

    agent = LocalAgent(builtin_pydantic_agent(demo_model(0)), deps=no_deps)

    response = _run_on(agent, monkeypatch)

    assert [(event["type"], event.get("message")) for event in _events(response.text)] == [
        ("RUN_ERROR", "the report store is unavailable")
    ]


def _run_on(agent: LocalAgent, monkeypatch: pytest.MonkeyPatch) -> httpx.Response:
    monkeypatch.setenv("COPILOT_AGENT_ENDPOINT_TOKEN", "a-token-for-this-test")
    with serve_in_thread(cui.agent_endpoint(agent=agent)(_the_app())) as base:
        response = post_run(f"{base}/copilot/agui", bearer("a-token-for-this-test"))
    assert response.status_code == 200
    return response


# Off by default


def test_without_a_token_the_endpoint_is_off_and_says_how_to_turn_it_on(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("COPILOT_AGENT_ENDPOINT_TOKEN", raising=False)
    agent = builtin_agent(demo_model(0))
    with serve_in_thread(cui.agent_endpoint(agent=agent)(_the_app())) as base:
        response = post_run(f"{base}/copilot/agui")

    assert response.status_code == 404
    assert response.json()["error"] == "The agent endpoint is off: set COPILOT_AGENT_ENDPOINT_TOKEN on the server to turn it on."


def test_an_agent_that_is_a_remote_server_is_not_served_and_its_path_says_why(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("COPILOT_AGENT_ENDPOINT_TOKEN", "a-token-for-this-test")
    remote = HttpAgent("http://127.0.0.1:9/agent", agent_id="research")
    with serve_in_thread(cui.agent_endpoint(agent=remote)(_the_app())) as base:
        anonymous = post_run(f"{base}/copilot/agui")
        response = post_run(f"{base}/copilot/agui", bearer("a-token-for-this-test"))

    assert anonymous.status_code == 401
    assert response.status_code == 501
    assert response.json()["error"] == "Agent 'research' is not a built-in agent here; it is an AG-UI server of its own."


# Settings in words


def test_an_origin_with_a_path_is_refused_in_words():
    with pytest.raises(ValueError, match=r"'https://app.example.com/chat' is not an origin: give scheme://host\[:port\]"):
        EndpointAccess.from_environment({"COPILOT_AGENT_ENDPOINT_TOKEN": "t" * 20}, origins=["https://app.example.com/chat"])


def test_a_size_limit_that_is_not_a_number_is_refused_in_words():
    environ = {"COPILOT_AGENT_ENDPOINT_TOKEN": "t" * 20, "COPILOT_AGENT_ENDPOINT_MAX_BYTES": "1 MB"}

    with pytest.raises(ValueError, match="COPILOT_AGENT_ENDPOINT_MAX_BYTES must be a whole number of bytes"):
        EndpointAccess.from_environment(environ)


def test_the_access_never_shows_its_token():
    access = EndpointAccess.from_environment({"COPILOT_AGENT_ENDPOINT_TOKEN": "a-very-secret-token"})

    assert access is not None
    assert "a-very-secret-token" not in repr(access)


def _events(stream: str) -> list[dict[str, object]]:
    return [json.loads(line[len("data: ") :]) for line in stream.splitlines() if line.startswith("data: ")]


def _get(url: str) -> str:
    return httpx.get(url).text


def _options(url: str, headers: dict[str, str]) -> httpx.Response:
    return httpx.options(url, headers=headers)

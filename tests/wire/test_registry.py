"""Finding agents: AgentRegistry.discover against a CopilotKit-style runtime, and the agent chosen by the environment."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from pydantic_ai.models.function import FunctionModel
from pydantic_ai.ui import StateDeps
from pydantic_ai.ui.ag_ui import AGUIAdapter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from copilot_ui.agents import AgentError, AgentHTTPError, AgentRegistry, AgentUnreachable, HttpAgent, LocalAgent
from copilot_ui.server import agent_from_environment

from .._leaks import leaks
from ._peer import Counter, Peer, ScriptedModel, peer_agent
from ._runs import apply_run, run_input, thread_saying
from ._servers import RecordedRequest, RecordingApp, closed_port, serve_in_thread

LISTED = {
    "default": {"name": "default", "description": "Answers questions about the dashboard"},
    "research": {"name": "research", "description": "Digs through the papers"},
}


@dataclass
class Runtime:
    """A CopilotKit-style runtime at `url`; `base(name)` is one of its variants (see runtime_app)."""

    url: str
    requests: list[RecordedRequest]

    def base(self, name: str) -> str:
        return f"{self.url}/{name}"


def runtime_app() -> Starlette:
    """/good: its agents at /info and their runs; /html: an /info that is a web page; /bare: one listing no agents;
    /echoing: an /info refusing the request with a page that quotes its Authorization header (past character 490).

    Any other base answers 404.
    """
    agent = peer_agent(ScriptedModel())

    async def info(request: Request) -> Response:
        return JSONResponse({"version": "1.50.0", "agents": LISTED})

    async def run(request: Request) -> Response:
        return await AGUIAdapter.dispatch_request(request, agent=agent, deps=StateDeps(Counter()))

    async def html_info(request: Request) -> Response:
        return HTMLResponse("<html><body>Welcome to our website</body></html>")

    async def bare_info(request: Request) -> Response:
        return JSONResponse({"version": "1.50.0"})

    async def echoing_info(request: Request) -> Response:
        return PlainTextResponse("x" * 490 + f"{request.headers.get('authorization')} is not welcome here", 401)

    return Starlette(
        routes=[
            Route("/good/info", info),
            Route("/good/agent/{agent_id}/run", run, methods=["POST"]),
            Route("/html/info", html_info),
            Route("/bare/info", bare_info),
            Route("/echoing/info", echoing_info),
        ]
    )


@pytest.fixture
def runtime() -> Iterator[Runtime]:
    app = RecordingApp(runtime_app())
    with serve_in_thread(app) as url:
        yield Runtime(url, app.requests)


async def test_discover_registers_an_http_agent_for_every_listed_agent(runtime: Runtime):
    registry = AgentRegistry()

    found = await registry.discover(runtime.base("good"))

    assert found == ["default", "research"]
    assert registry.ids == ["default", "research"]
    research = registry.get("research")
    assert isinstance(research, HttpAgent)
    assert research.url == f"{runtime.base('good')}/agent/research/run"
    assert research.description == "Digs through the papers"
    assert registry.get("default").description == "Answers questions about the dashboard"


async def test_run_through_a_discovered_agent_goes_to_its_route_on_the_runtime(runtime: Runtime):
    registry = AgentRegistry()
    await registry.discover(f"{runtime.base('good')}/", headers={"Authorization": "Bearer runtime-token"})
    thread = thread_saying("hello research")

    await apply_run(registry.get("research"), run_input(thread), thread)

    assert thread.messages[-1].content == "Echo: hello research"
    assert [(request.method, request.path) for request in runtime.requests] == [
        ("GET", "/good/info"),
        ("POST", "/good/agent/research/run"),
    ]
    assert all(request.headers["authorization"] == "Bearer runtime-token" for request in runtime.requests)


async def test_info_answering_404_is_an_http_error_naming_the_host(runtime: Runtime):
    registry = AgentRegistry()

    with pytest.raises(AgentHTTPError, match="answered HTTP 404") as failure:
        await registry.discover(runtime.base("nowhere"))

    assert failure.value.status == 404
    assert failure.value.host == runtime.url.removeprefix("http://")
    assert registry.ids == []


async def test_info_that_is_not_json_is_an_agent_error_saying_so(runtime: Runtime):
    registry = AgentRegistry()

    not_json = r"the runtime at 127\.0\.0\.1:\d+ did not answer /info with JSON; is it a CopilotKit runtime\?"
    with pytest.raises(AgentError, match=not_json):
        await registry.discover(runtime.base("html"))

    assert registry.ids == []


async def test_info_listing_no_agents_is_an_agent_error_saying_so(runtime: Runtime):
    registry = AgentRegistry()

    with pytest.raises(AgentError, match='has no "agents" object'):
        await registry.discover(runtime.base("bare"))

    assert registry.ids == []


async def test_an_info_page_quoting_the_header_gives_none_of_it_away(runtime: Runtime, caplog: pytest.LogCaptureFixture):
    token = secrets.token_urlsafe(24)
    registry = AgentRegistry()

    with pytest.raises(AgentHTTPError) as failure:
        await registry.discover(runtime.base("echoing"), headers={"Authorization": f"Bearer {token}"})

    assert str(failure.value).startswith(f"the agent at {runtime.url.removeprefix('http://')} answered HTTP 401: xxx")
    for shown in (str(failure.value), caplog.text):
        assert not leaks(shown, token)
    assert f"GET {runtime.base('echoing')}/info failed" in caplog.text


async def test_runtime_not_listening_is_unreachable():
    registry = AgentRegistry()

    with closed_port() as port, pytest.raises(AgentUnreachable, match="connection refused") as failure:
        await registry.discover(f"http://127.0.0.1:{port}")

    assert failure.value.host == f"127.0.0.1:{port}"


async def test_agent_url_and_headers_from_the_environment_reach_the_server(peer: Peer, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("COPILOT_AGENT_URL", peer.url)
    monkeypatch.setenv("COPILOT_AGENT_HEADERS", '{"Authorization": "Bearer from-env", "X-Team": "wire"}')
    thread = thread_saying("hello")

    agent = agent_from_environment()
    await apply_run(agent, run_input(thread), thread)

    assert isinstance(agent, HttpAgent)
    assert agent.url == peer.url
    [request] = peer.requests
    assert request.headers["authorization"] == "Bearer from-env"
    assert request.headers["x-team"] == "wire"
    assert thread.messages[-1].content == "Echo: hello"


@pytest.mark.parametrize("raw", ["Bearer abc", '["Authorization", "Bearer abc"]', '{"X-Retries": 3}'])
def test_invalid_agent_headers_in_the_environment_say_to_give_a_json_object(raw: str, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("COPILOT_AGENT_URL", "http://127.0.0.1:9/")
    monkeypatch.setenv("COPILOT_AGENT_HEADERS", raw)

    with pytest.raises(ValueError, match=r"COPILOT_AGENT_HEADERS .*JSON object"):
        agent_from_environment()


def test_without_an_agent_url_the_builtin_agent_is_chosen(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("COPILOT_AGENT_URL", raising=False)
    monkeypatch.setenv("COPILOT_AGENT_HEADERS", '{"Authorization": "Bearer unused"}')
    monkeypatch.delenv("COPILOT_MODEL", raising=False)

    agent = agent_from_environment("helper")

    assert isinstance(agent, LocalAgent)
    assert agent.agent_id == "helper"
    assert isinstance(agent.agent.model, FunctionModel)
    assert agent.agent.model.model_name == "copilot-demo"

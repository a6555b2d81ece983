"""An agent server that echoes the app's credentials back: the person sees none of them, nor does the server log.

The real HttpAgent talks to the hostile server over HTTP on 127.0.0.1; each test makes it quote
the Authorization header it received (as is, in base64, past the quoted start of an error page, in
a broken frame, in a RUN_ERROR, in ids) and checks what the person would read: the error message,
the thread, and what was logged.
"""

from __future__ import annotations

import base64
import logging
import secrets

import pytest

from copilot_ui.agents import (
    AgentError,
    AgentHTTPError,
    AgentRegistry,
    AgentUnreachable,
    HttpAgent,
    HttpLimits,
    MalformedFrame,
    ScriptedAgent,
)

from .._leaks import leaks
from ..hostile_agent import HostileAgent
from ._runs import apply_run, outcome, run_input, thread_saying
from ._servers import closed_port

TOKEN = secrets.token_urlsafe(24)  # 32 random characters
AUTHORIZATION = f"Bearer {TOKEN}"
PASSWORD = secrets.token_urlsafe(12)
QUERY_TOKEN = secrets.token_urlsafe(18)
LIMITS = HttpLimits(connect_timeout=5, idle_timeout=5)


def agent_for(hostile: HostileAgent, path: str = "agents/helper/run") -> HttpAgent:
    return HttpAgent(f"{hostile.url}{path}", headers={"Authorization": AUTHORIZATION}, limits=LIMITS)


def assert_gives_nothing_away(text: str, *secret_values: str) -> None:
    for secret in secret_values or (AUTHORIZATION, TOKEN):
        assert not leaks(text, secret), f"{leaks(text, secret)} in {text!r}"
        for encode in (base64.b64encode, base64.urlsafe_b64encode):
            assert encode(secret.encode()).decode().rstrip("=") not in text


async def failure_of(agent: HttpAgent, said: str) -> AgentError:
    thread = thread_saying(said)
    with pytest.raises(AgentError) as failure:
        await apply_run(agent, run_input(thread), thread)
    return failure.value


@pytest.fixture
def log(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.DEBUG)
    return caplog


def logged(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(f"{record.getMessage()} {record.exc_text or ''}" for record in caplog.records)


@pytest.mark.parametrize(
    "said",
    [
        "!http 401 {auth}",
        "!http 401 Unauthorized: the token {token} has expired",
        "!http 500 {pad:520}{auth}",
        "!http 500 {auth_b64}",
        "!http 403 {pad:300}\n\n  {auth}   {auth_b64}",
        "!badframe {auth}",
        "!badframe {pad:60}{auth_b64}",
    ],
)
async def test_an_error_quoting_the_header_gives_none_of_it_away(hostile: HostileAgent, log, said: str):
    error = await failure_of(agent_for(hostile), said)

    assert_gives_nothing_away(str(error))
    assert_gives_nothing_away(logged(log))
    assert isinstance(error, AgentHTTPError | MalformedFrame)


@pytest.mark.parametrize("pad", [470, 480, 485, 490, 495, 499, 500, 501])
async def test_a_header_across_the_cut_of_an_error_page_leaves_no_piece_of_it(hostile: HostileAgent, log, pad: int):
    error = await failure_of(agent_for(hostile), f"!http 401 {{pad:{pad}}}{{auth}} and more after it")

    assert isinstance(error, AgentHTTPError)
    assert_gives_nothing_away(str(error))
    assert_gives_nothing_away(error.body_start)
    assert_gives_nothing_away(logged(log))
    assert error.body_start.startswith("x" * min(pad, 500))


async def test_an_error_names_the_host_not_the_path_or_query(hostile: HostileAgent, log):
    agent = HttpAgent(f"{hostile.url}agents/helper/run?api_key={QUERY_TOKEN}", headers={"Authorization": AUTHORIZATION})

    error = await failure_of(agent, "!http 401 no entry")

    assert str(error) == f"the agent at {hostile.host} answered HTTP 401: no entry"


async def test_the_log_keeps_the_credential_free_url_status_and_body_start(hostile: HostileAgent, log):
    agent = HttpAgent(
        f"{hostile.url}agents/helper/run?api_key={QUERY_TOKEN}&team=wire",
        headers={"Authorization": AUTHORIZATION},
    )

    await failure_of(agent, "!http 401 denied for {auth} at {url}")

    [record] = [record for record in log.records if record.name == "copilot_ui.agents"]
    assert record.levelno == logging.WARNING
    message = record.getMessage()
    assert f"POST http://{hostile.host}/agents/helper/run?api_key=[redacted]&team=[redacted] failed" in message
    assert "answered HTTP 401: denied for [redacted]" in message
    assert_gives_nothing_away(logged(log), AUTHORIZATION, TOKEN, QUERY_TOKEN)


async def test_credentials_in_the_url_never_show(hostile: HostileAgent, log):
    # httpx sends the URL's user and password as Basic authorization, which the server echoes, in base64.
    agent = HttpAgent(f"http://ada:{PASSWORD}@{hostile.host}/run?api_key={QUERY_TOKEN}", limits=LIMITS)

    error = await failure_of(agent, "!http 401 {auth} {auth_b64} at {url}")

    assert hostile.requests[0].headers["authorization"].startswith("Basic ")
    assert f"HTTP Request: POST http://{hostile.host}/run?api_key=[redacted]" in logged(log)  # httpx's own line
    assert_gives_nothing_away(str(error), PASSWORD, QUERY_TOKEN)
    assert_gives_nothing_away(logged(log), PASSWORD, QUERY_TOKEN)
    assert f"the agent at {hostile.host} answered" in str(error)


async def test_an_unreachable_agent_is_named_by_its_host_alone(log):
    with closed_port() as port:
        agent = HttpAgent(f"http://ada:{PASSWORD}@127.0.0.1:{port}/agents/run?api_key={QUERY_TOKEN}", limits=LIMITS)
        error = await failure_of(agent, "hi")

    assert isinstance(error, AgentUnreachable)
    assert str(error) == (
        f"cannot reach the agent at 127.0.0.1:{port}: connection refused. Is the server running, and is the URL right?"
    )
    assert f"POST http://127.0.0.1:{port}/agents/run?api_key=[redacted] failed" in logged(log)
    assert_gives_nothing_away(logged(log), PASSWORD, QUERY_TOKEN)


async def test_a_run_error_quoting_the_header_gives_none_of_it_away(hostile: HostileAgent, log):
    thread = thread_saying("!error the upstream refused {auth} (sent as {auth_b64})")

    await apply_run(agent_for(hostile), run_input(thread), thread)

    assert outcome(thread).kind == "error"
    assert outcome(thread).message.startswith("the upstream refused [redacted] (sent as ")
    assert_gives_nothing_away(outcome(thread).message)


async def test_ids_holding_the_header_reach_the_thread_scrubbed(hostile: HostileAgent):
    thread = thread_saying("!ids")

    await apply_run(agent_for(hostile), run_input(thread), thread)

    assert_gives_nothing_away(thread.to_json().__repr__())
    assert thread.messages[1].id == "msg-[redacted]"


async def test_a_reply_or_a_tool_result_in_one_piece_reaches_the_thread_scrubbed(hostile: HostileAgent):
    thread = thread_saying('!backend lookup {"q": 1} the key is {token}')

    await apply_run(agent_for(hostile), run_input(thread), thread)

    assert thread.messages[2].content == "the key is [redacted]"


def test_repr_of_an_agent_shows_no_credentials():
    agent = HttpAgent(
        f"https://ada:{PASSWORD}@agent.example.com/run?api_key={QUERY_TOKEN}", headers={"Authorization": AUTHORIZATION}
    )

    shown = repr(agent)

    assert shown == "HttpAgent('https://agent.example.com/run?api_key=[redacted]', agent_id='default')"
    assert agent.host == "agent.example.com"


def test_an_http_agent_names_its_credentials():
    basic = base64.b64encode(f"ada:{PASSWORD}".encode()).decode()
    agent = HttpAgent(
        f"https://deploy-bot:{PASSWORD}@agent.example.com/run?api_key={QUERY_TOKEN}&team=wire",
        headers={"Authorization": AUTHORIZATION, "X-Upstream-Auth": f"Basic {basic}"},
    )

    assert set(agent.secrets()) == {
        "deploy-bot",
        PASSWORD,
        QUERY_TOKEN,
        "wire",
        AUTHORIZATION,
        TOKEN,
        f"Basic {basic}",
        basic,
    }


def test_agents_without_credentials_name_none_and_the_registry_gathers_all():
    first = HttpAgent("https://one.example.com/run", agent_id="one", headers={"Authorization": AUTHORIZATION})
    second = HttpAgent(f"https://two.example.com/run?key={QUERY_TOKEN}", agent_id="two")
    scripted = ScriptedAgent(agent_id="scripted")

    registry = AgentRegistry(first, second, scripted)

    assert scripted.secrets() == []
    assert registry.secrets() == [AUTHORIZATION, TOKEN, QUERY_TOKEN]

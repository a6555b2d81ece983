"""The demo app's agent over AG-UI, as a person turns it on: `reflex run --env prod` with COPILOT_AGENT_ENDPOINT_TOKEN set.

No browser drives these: the clients are ag-ui-validate, @ag-ui/client's HttpAgent (on the
virtualenv's Node) and plain HTTP, against the endpoint the Reflex app's own backend serves at
/copilot/agui, next to its pages. The same checks in detail, under uvicorn: tests/wire/test_agent_endpoint.py.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from tests.agent_endpoint_clients import (
    ASK_FOR_BLUE,
    bearer,
    conformance_cli,
    conformance_runs,
    post_run,
    reference_client_run,
    run_body,
)

from .conftest import _served

ALLOWED_ORIGIN = "https://dashboard.example.com"
PATH = "/copilot/agui"


@dataclass(frozen=True)
class Endpoint:
    app: str  # the demo app's URL
    url: str  # its agent endpoint's
    token: str


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Endpoint]:
    """The demo app, on the demo model, with the endpoint turned on: a token and one allowed origin."""
    token = secrets.token_urlsafe(24)
    env = {"COPILOT_AGENT_ENDPOINT_TOKEN": token, "COPILOT_AGENT_ENDPOINT_ORIGINS": ALLOWED_ORIGIN}
    with _served(tmp_path_factory, "endpoint-app", ".web-test-endpoint", env, (token,)) as served:
        yield Endpoint(served.url, served.url + PATH, token)


def test_ag_ui_validate_finds_no_conformance_problem(endpoint: Endpoint):
    done = conformance_cli(endpoint.url, endpoint.token)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "no conformance violations" in done.stdout


def test_ag_ui_validate_finds_no_problem_in_a_front_end_s_runs(endpoint: Endpoint):
    found = conformance_runs(endpoint.url, endpoint.token)

    assert {name: result.problems for name, result in found.items()} == {name: [] for name in found}


def test_the_reference_client_runs_its_own_tool_and_gets_the_agent_s_reply(endpoint: Endpoint):
    client = reference_client_run(endpoint.url, endpoint.token, ASK_FOR_BLUE)

    assert client["calls"] == [{"name": "change_background", "arguments": {"color": "blue"}}]
    assert client["background"] == "blue"
    assert client["roles"] == ["user", "assistant", "tool", "assistant"]
    assert client["reply"] == "Done: The background is blue now."
    assert client["errors"] == []


def test_runs_without_the_token_or_with_a_wrong_one_are_refused_with_401(endpoint: Endpoint):
    without = post_run(endpoint.url)
    wrong = post_run(endpoint.url, bearer(secrets.token_urlsafe(24)))

    assert (without.status_code, wrong.status_code) == (401, 401)
    assert endpoint.token not in without.text + wrong.text + str(without.headers) + str(wrong.headers)


def test_a_10_mb_run_is_refused_with_413(endpoint: Endpoint):
    huge = json.dumps(run_body("x" * 10 * 1024 * 1024)).encode()

    response = post_run(endpoint.url, bearer(endpoint.token), huge)

    assert response.status_code == 413
    assert "1,000,000 bytes" in response.json()["error"]


def test_a_page_from_another_origin_is_refused_and_one_from_the_allowed_origin_is_answered(endpoint: Endpoint):
    refused = post_run(endpoint.url, {**bearer(endpoint.token), "Origin": "https://elsewhere.example"})
    answered = post_run(endpoint.url, {**bearer(endpoint.token), "Origin": ALLOWED_ORIGIN})
    preflight = httpx.options(
        endpoint.url,
        headers={
            "Origin": ALLOWED_ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type",
        },
    )

    assert refused.status_code == 403
    assert answered.status_code == 200
    assert answered.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert preflight.is_success
    assert preflight.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert "authorization" in preflight.headers["access-control-allow-headers"].lower()


def test_the_app_s_pages_are_served_as_before(endpoint: Endpoint):
    page = httpx.get(endpoint.app)

    assert page.status_code == 200
    assert "content-security-policy" in page.headers


def test_the_demo_app_serves_no_agent_endpoint_until_a_token_is_set(app_url: str):
    response = post_run(app_url + PATH)

    assert response.status_code == 404
    assert "COPILOT_AGENT_ENDPOINT_TOKEN" in response.json()["error"]

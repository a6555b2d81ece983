"""The model's settings, as a person sets them (in the environment, or in Python), reach the provider: the system
prompt, the temperature, the longest reply, the retries and the timeout; a value that is not one is a clear error."""

from __future__ import annotations

import re

import pytest
from pydantic_ai.settings import ModelSettings

from copilot_ui.server import DEFAULT_TIMEOUT, builtin_agent, builtin_pydantic_agent, demo_model, settings_from_environment

from ._aimock import Aimock, text
from ._providers import Provider, Session
from ._runs import apply_run, run_input, thread_saying

SYSTEM_PROMPT = "You are the copilot of Ada's bookshop. Answer in one sentence."


async def test_the_settings_in_the_environment_reach_the_provider(
    aimock: Aimock, provider: Provider, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("COPILOT_SYSTEM_PROMPT", SYSTEM_PROMPT)
    monkeypatch.setenv("COPILOT_TEMPERATURE", "0.3")
    monkeypatch.setenv("COPILOT_MAX_TOKENS", "321")
    aimock.serve(text("hello", "Hello from the bookshop."))

    await Session().say("hello")

    [request] = aimock.requests()
    body = request["body"]
    assert body["temperature"] == 0.3
    assert body.get("max_tokens", body.get("max_completion_tokens")) == 321
    assert SYSTEM_PROMPT in " ".join(str(m["content"]) for m in body["messages"] if m["role"] == "system")
    assert float(request["headers"]["x-stainless-read-timeout"]) == 5  # the ring's COPILOT_MODEL_TIMEOUT


async def test_the_settings_given_in_python_reach_the_provider(aimock: Aimock, provider: Provider):
    aimock.serve(text("hello", "Hello from the bookshop."))
    agent = builtin_agent(settings=ModelSettings(temperature=0.7, max_tokens=55, timeout=9), instructions=SYSTEM_PROMPT)
    thread = thread_saying("hello")

    await apply_run(agent, run_input(thread), thread)

    [request] = aimock.requests()
    body = request["body"]
    assert (body["temperature"], body.get("max_tokens", body.get("max_completion_tokens"))) == (0.7, 55)
    assert SYSTEM_PROMPT in " ".join(str(m["content"]) for m in body["messages"] if m["role"] == "system")
    assert float(request["headers"]["x-stainless-read-timeout"]) == 9


@pytest.mark.parametrize(("retries", "outcome", "requests"), [("1", "done", 2), ("0", "error", 1)])
async def test_a_failed_request_is_sent_again_as_many_times_as_the_retries_say(
    aimock: Aimock, provider: Provider, monkeypatch: pytest.MonkeyPatch, retries: str, outcome: str, requests: int
):
    monkeypatch.setenv("COPILOT_MODEL_RETRIES", retries)
    failing = {"error": {"message": "The server had an error", "type": "server_error"}, "status": 500}
    aimock.serve(  # the first request fails, the next one is answered
        {"match": {"userMessage": "hello", "sequenceIndex": 0}, "response": failing},
        {"match": {"userMessage": "hello", "sequenceIndex": 1}, "response": {"content": "Hello again."}},
    )
    session = Session()

    turn = await session.say("hello")

    assert turn.status == outcome
    assert len(aimock.requests()) == requests
    assert session.replies() == (["Hello again."] if outcome == "done" else [])


def test_every_model_gets_a_timeout_unless_told_otherwise():
    settings = builtin_pydantic_agent(demo_model(0)).model_settings
    assert settings is not None
    assert (settings.get("timeout"), settings.get("first_event_timeout")) == (DEFAULT_TIMEOUT, DEFAULT_TIMEOUT)
    told = builtin_pydantic_agent(demo_model(0), settings=ModelSettings(timeout=300)).model_settings
    assert told is not None and (told.get("timeout"), told.get("first_event_timeout")) == (300, 300)


def test_the_environment_gives_each_setting_its_type():
    environment = {
        "COPILOT_TEMPERATURE": "0.2",
        "COPILOT_MAX_TOKENS": "800",
        "COPILOT_MODEL_TIMEOUT": "90",
        "COPILOT_MODEL_RETRIES": "0",
    }
    assert settings_from_environment(environment) == {"temperature": 0.2, "max_tokens": 800, "timeout": 90.0, "max_retries": 0}
    assert settings_from_environment({}) is None


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("COPILOT_TEMPERATURE", "warm", "COPILOT_TEMPERATURE must be a number, e.g. 0.2; it is 'warm'"),
        ("COPILOT_MAX_TOKENS", "0", "COPILOT_MAX_TOKENS must be a whole number of tokens, e.g. 1000; it is '0'"),
        ("COPILOT_MODEL_TIMEOUT", "-5", "COPILOT_MODEL_TIMEOUT must be a number of seconds above 0, e.g. 60; it is '-5'"),
        ("COPILOT_MODEL_RETRIES", "two", "COPILOT_MODEL_RETRIES must be a whole number, 0 or more, e.g. 2; it is 'two'"),
    ],
)
def test_a_setting_that_is_not_one_is_a_clear_error(variable: str, value: str, says: str):
    with pytest.raises(ValueError, match=f"^{re.escape(says)}$"):
        settings_from_environment({variable: value})

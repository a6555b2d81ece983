"""When the provider fails, the person reads what happened in words that name it and say what to do, never its key;
Retry is offered, and once the fault clears, Retry finishes the turn.

Each provider of the ring in turn (see test_providers.py), served by CopilotKit's mock LLM server: a
refused key (401), a rate limit with Retry-After (429), a server error (500), a malformed answer,
the stream cut mid-reply, a provider that does not answer in time, and the rest of the statuses a
provider sends (403, 404, 400, 503), and a server nobody listens on.
"""

from __future__ import annotations

import time

import pytest

from copilot_ui.core import TurnOutcome
from copilot_ui.server import agent_from_environment
from tests._processes import free_port

from ._aimock import Aimock, cut, delayed, error, malformed, text
from ._providers import Provider, Session, configure

QUESTION = "how many orders shipped this week?"
ANSWER = "Twelve orders shipped this week, three of them to Berlin."
LONG_ANSWER = "Here is the week, order by order. " + " ".join(f"Order #{1000 + n} shipped to Berlin." for n in range(40))


async def failed_turn(session: Session, aimock: Aimock, *fault: dict) -> TurnOutcome:
    """The person asks while the provider has this fault; the turn's outcome (an error, shown once)."""
    aimock.serve(*fault)
    outcome = await session.say(QUESTION)
    assert outcome.status == "error"
    assert session.errors() == [outcome.message]
    return outcome


async def retried_once_cleared(session: Session, aimock: Aimock, answer: str = ANSWER) -> None:
    """The fault clears, the person presses Retry: the turn finishes with the whole answer, and nothing of the failure."""
    aimock.serve(text("orders shipped", answer))
    outcome = await session.retry()
    assert outcome.status == "done"
    assert session.replies() == [answer]


def shows_no_key(session: Session, provider: Provider) -> None:
    """The key appears nowhere the person could see it: no message, no event."""
    seen = " ".join([*session.errors(), *map(repr, session.events), *(str(m.content) for m in session.thread.messages)])
    assert provider.key and provider.key not in seen


async def test_a_refused_key_says_which_key_to_check(aimock: Aimock, provider: Provider):
    session = Session()
    # The provider quotes the key it refused, as OpenAI does.
    outcome = await failed_turn(session, aimock, error("orders shipped", 401, f"Incorrect API key provided: {provider.key}"))

    assert outcome.message == f"{provider.called} refused the API key (HTTP 401): check {provider.key_variable}."
    shows_no_key(session, provider)
    await retried_once_cleared(session, aimock)


async def test_a_rate_limit_says_when_to_try_again(aimock: Aimock, provider: Provider):
    session = Session()
    outcome = await failed_turn(session, aimock, error("orders shipped", 429, "Rate limit reached for gpt-4o", retryAfter=20))

    assert outcome.message == f"{provider.called} is rate limiting: try again in 20 s."
    await retried_once_cleared(session, aimock)


async def test_a_server_error_says_to_try_again(aimock: Aimock, provider: Provider):
    session = Session()
    outcome = await failed_turn(session, aimock, error("orders shipped", 500, "The server had an error while processing"))

    assert outcome.message == f"{provider.called} had an internal error (HTTP 500): try again in a moment."
    await retried_once_cleared(session, aimock)


async def test_a_malformed_answer_says_it_could_not_be_read(aimock: Aimock, provider: Provider):
    session = Session()
    outcome = await failed_turn(session, aimock, malformed("orders shipped"))

    assert outcome.message == f"{provider.called} sent a reply that could not be read. Retry to try again."
    await retried_once_cleared(session, aimock)


async def test_a_stream_cut_mid_reply_keeps_the_part_received_until_retry_replaces_it(aimock: Aimock, provider: Provider):
    session = Session()
    outcome = await failed_turn(session, aimock, cut("orders shipped", LONG_ANSWER))

    assert outcome.message == f"The connection to {provider.name} broke mid-reply; the part received is kept. Retry to try again."
    [part] = session.replies()
    assert 0 < len(part) < len(LONG_ANSWER) and LONG_ANSWER.startswith(part)  # shown, as far as it came
    await retried_once_cleared(session, aimock, LONG_ANSWER)  # the part goes, the whole reply takes its place


async def test_a_provider_that_does_not_answer_in_time_ends_in_a_clear_error(
    aimock: Aimock, provider: Provider, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("COPILOT_MODEL_TIMEOUT", "1")
    monkeypatch.setenv("COPILOT_MODEL_RETRIES", "2")  # the provider's SDK retries: the timeout still holds for them all
    session = Session()
    started = time.monotonic()
    outcome = await failed_turn(session, aimock, delayed("orders shipped", ANSWER, seconds=10))

    assert time.monotonic() - started < 5  # not after the provider's ten seconds, nor after three attempts of one
    assert outcome.message == (
        f"{provider.called} did not answer within 1 s. Retry to try again; a slow model may need a longer COPILOT_MODEL_TIMEOUT."
    )
    await retried_once_cleared(session, aimock)


@pytest.mark.parametrize(
    ("status", "said", "shown"),
    [
        (
            403,
            "You are not allowed to sample from this model",
            "{p} does not let this API key use {m} (HTTP 403): check {k} and what it may use.",
        ),
        (404, "The model does not exist", "{p} does not know the model '{m}' (HTTP 404): check COPILOT_MODEL{and_url}."),
        (
            400,
            "Invalid value for 'temperature': must be at most 2.",
            "{p} rejected the request (HTTP 400): “Invalid value for 'temperature': must be at most 2.”",
        ),
        (503, "The service is temporarily unavailable", "{p} is unavailable right now (HTTP 503): try again in a moment."),
    ],
)
async def test_other_refusals_name_the_provider_and_what_to_check(
    aimock: Aimock, provider: Provider, status: int, said: str, shown: str
):
    session = Session()
    outcome = await failed_turn(session, aimock, error("orders shipped", status, said))

    and_url = " and COPILOT_BASE_URL" if provider.id == "compatible" else ""
    assert outcome.message == shown.format(p=provider.called, m=provider.model_name, k=provider.key_variable, and_url=and_url)
    await retried_once_cleared(session, aimock)


@pytest.mark.parametrize(
    ("environment", "shown"),
    [
        (
            {"COPILOT_MODEL": "openai:gpt-4o", "OPENAI_BASE_URL": "http://127.0.0.1:{port}/v1", "OPENAI_API_KEY": "sk-test-1"},
            "Cannot reach OpenAI at 127.0.0.1:{port}: check the network connection and OPENAI_BASE_URL, then retry.",
        ),
        (
            {"COPILOT_MODEL": "llama3.1", "COPILOT_BASE_URL": "http://127.0.0.1:{port}/v1"},
            "Cannot reach the model server at 127.0.0.1:{port}: is it running, and is COPILOT_BASE_URL right?",
        ),
    ],
    ids=["openai", "compatible"],
)
async def test_a_provider_nobody_listens_at_says_where_it_looked(
    monkeypatch: pytest.MonkeyPatch, environment: dict[str, str], shown: str
):
    port = free_port()
    configure(monkeypatch, {name: value.format(port=port) for name, value in environment.items()})
    session = Session()

    outcome = await session.say(QUESTION)

    assert outcome.message == shown.format(port=port)


def test_a_base_url_without_a_model_name_is_a_clear_error(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("COPILOT_MODEL", raising=False)
    monkeypatch.setenv("COPILOT_BASE_URL", "http://127.0.0.1:11434/v1")

    with pytest.raises(ValueError, match=r"set COPILOT_MODEL to the name of a model it serves, e\.g\. llama3\.1"):
        agent_from_environment()

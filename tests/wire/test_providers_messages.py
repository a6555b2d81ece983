"""The words for the failures CopilotKit's mock LLM server does not produce: a malformed piece in the middle of a
stream, a quota used up, an overloaded provider, a content filter, a reply cut at its maximum length, a conversation
too long for the model, a provider that stops mid-reply; and an error that is not the provider's keeps its own words."""

from __future__ import annotations

import pytest
from pydantic_ai import exceptions as e

from copilot_ui.server import ModelErrors, ModelProvider

OPENAI = ModelErrors(ModelProvider(name="OpenAI", key_variable="OPENAI_API_KEY"), "gpt-4o", timeout=60)


@pytest.mark.parametrize(
    ("error", "received", "shown"),
    [
        (
            e.ModelAPIError("gpt-4o", "Failed to decode response as JSON: Unterminated string starting at: line 1 column 48"),
            True,
            "OpenAI sent a piece of its reply that could not be read; the part received is kept. Retry to try again.",
        ),
        (
            e.ModelQuotaExceededError("gpt-4o", "insufficient_quota"),
            False,
            "OpenAI says the account has no quota or credit left: check its billing, then retry.",
        ),
        (e.ModelOverloadedError("gpt-4o", "overloaded_error"), False, "OpenAI is overloaded right now: try again in a moment."),
        (
            e.ContentFilterError("Content filter triggered"),
            True,
            "OpenAI declined to answer: its content filter stopped the reply; the part received is kept. Rephrase the request.",
        ),
        (
            e.OutputTokenLimitExceeded("Output token limit exceeded"),
            True,
            "OpenAI stopped at the maximum reply length; the part received is kept: ask for less, "
            "or allow more (COPILOT_MAX_TOKENS).",
        ),
        (
            e.ModelContextWindowExceededError("gpt-4o", "context_length_exceeded"),
            False,
            "The conversation is too long for gpt-4o: start a new conversation.",
        ),
        (
            e.ModelTimeoutError("gpt-4o", "Request timed out.", phase="read"),
            True,
            "OpenAI stopped sending mid-reply (nothing for 60 s); the part received is kept. Retry to try again.",
        ),
        (
            e.ModelRateLimitError("gpt-4o", "rate_limit_exceeded"),
            False,
            "OpenAI is rate limiting: wait a moment, then retry.",
        ),
    ],
    ids=["malformed-piece", "quota", "overloaded", "content-filter", "max-length", "context-window", "silent", "no-retry-after"],
)
def test_each_failure_is_put_in_words_that_name_the_provider(error: Exception, received: bool, shown: str):
    assert OPENAI(error, received) == shown


def test_an_error_that_is_not_the_providers_keeps_its_own_words():
    assert OPENAI(KeyError("no tool named 'x'"), False) is None


def test_a_provider_quoted_in_a_message_never_shows_a_key(monkeypatch: pytest.MonkeyPatch):
    key = "sk-test-never-shown-0123456789"
    monkeypatch.setenv("OPENAI_API_KEY", key)
    rejected = e.ModelHTTPError(400, "gpt-4o", body={"message": f"Invalid request: the key {key} may not set logprobs"})

    shown = ModelErrors(ModelProvider(name="OpenAI"), "gpt-4o")(rejected, False)

    assert shown == (
        "OpenAI answered with an error (HTTP 400): “Invalid request: the key [redacted] may not set logprobs”. "
        "Retry to try again."
    )

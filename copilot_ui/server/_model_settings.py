"""The built-in agent's model settings: its system prompt, temperature, maximum tokens, timeout and retries.

From Python they are pydantic-ai's `ModelSettings` (`builtin_agent(settings=ModelSettings(temperature=0.2))`)
and the `instructions` argument; from the environment, these variables:

    COPILOT_SYSTEM_PROMPT   the system prompt (the built-in one otherwise)
    COPILOT_TEMPERATURE     a number, e.g. 0.2 (the provider's default otherwise)
    COPILOT_MAX_TOKENS      the longest reply, in tokens (the provider's default otherwise)
    COPILOT_MODEL_TIMEOUT   seconds the provider may stay silent: before its reply begins, or between two pieces of it
                            (default 60); then the person reads that it did not answer, and may retry
    COPILOT_MODEL_RETRIES   how many times a failed request (a 429, a 5xx, a broken connection) is sent again before
                            the person sees the error (the provider SDK's default otherwise: 2)

Every model gets the timeout unless told otherwise: a provider that hangs ends in a clear error, not forever.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from typing import Any

from pydantic_ai.settings import ModelSettings

INSTRUCTIONS = (
    "You are the copilot of a web dashboard. Use the tools the page offers to change what the person sees, "
    "and the page's context to know what they see. Answer briefly."
)
DEFAULT_TIMEOUT = 60.0  # seconds: longer than a reasoning model's usual pause, shorter than a person's patience


def settings_from_environment(environ: Mapping[str, str] = os.environ) -> ModelSettings | None:
    """The model's settings the environment gives (None when it gives none); a clear error for a value that is not one."""
    settings: dict[str, Any] = {}
    for variable, (key, parse, example) in _VARIABLES.items():
        raw = environ.get(variable, "").strip()
        if not raw:
            continue
        try:
            settings[key] = parse(raw)
        except ValueError:
            raise ValueError(f"{variable} must be {example}; it is {raw!r}") from None
    return ModelSettings(**settings) if settings else None


def instructions_from_environment(environ: Mapping[str, str] = os.environ) -> str:
    """The system prompt: COPILOT_SYSTEM_PROMPT, else the built-in one."""
    return environ.get("COPILOT_SYSTEM_PROMPT", "").strip() or INSTRUCTIONS


def with_timeout(settings: ModelSettings | None) -> ModelSettings:
    """The settings with their timeout: `timeout` (DEFAULT_TIMEOUT unless given) bounds the wait for each piece of a
    reply, and, as `first_event_timeout`, the wait for the first one, whatever retries the provider's SDK makes."""
    timed = ModelSettings(**(settings or {}))
    timeout = timed.setdefault("timeout", DEFAULT_TIMEOUT)
    if isinstance(timeout, int | float):
        timed.setdefault("first_event_timeout", float(timeout))
    return timed


def timeout_of(settings: ModelSettings) -> float | None:
    """The seconds a provider may stay silent under these settings (None when they give no number)."""
    timeout = settings.get("first_event_timeout", settings.get("timeout"))
    return float(timeout) if isinstance(timeout, int | float) else None


def _number(raw: str) -> float:
    value = float(raw)
    if not math.isfinite(value):
        raise ValueError(raw)
    return value


def _positive_count(raw: str) -> int:
    value = int(raw)
    if value < 1:
        raise ValueError(raw)
    return value


def _count(raw: str) -> int:
    value = int(raw)
    if value < 0:
        raise ValueError(raw)
    return value


def _seconds(raw: str) -> float:
    value = _number(raw)
    if value <= 0:
        raise ValueError(raw)
    return value


_VARIABLES: dict[str, tuple[str, Callable[[str], float], str]] = {
    "COPILOT_TEMPERATURE": ("temperature", _number, "a number, e.g. 0.2"),
    "COPILOT_MAX_TOKENS": ("max_tokens", _positive_count, "a whole number of tokens, e.g. 1000"),
    "COPILOT_MODEL_TIMEOUT": ("timeout", _seconds, "a number of seconds above 0, e.g. 60"),
    "COPILOT_MODEL_RETRIES": ("max_retries", _count, "a whole number, 0 or more, e.g. 2"),
}

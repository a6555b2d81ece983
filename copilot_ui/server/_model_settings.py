"""The built-in agent's model settings and system prompt from the environment (see `builtin_agent`)."""

from __future__ import annotations

import os

from pydantic_ai.settings import ModelSettings

from ._agent import INSTRUCTIONS


def settings_from_environment() -> ModelSettings | None:
    """The model's settings the environment gives (none yet: the provider's defaults)."""
    return None


def instructions_from_environment() -> str:
    """The system prompt: COPILOT_SYSTEM_PROMPT, else the built-in one."""
    return os.environ.get("COPILOT_SYSTEM_PROMPT", "").strip() or INSTRUCTIONS

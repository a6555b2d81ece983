"""The built-in agent: a pydantic-ai Agent, on the demo model unless COPILOT_MODEL names a real one."""

from __future__ import annotations

import os

from pydantic_ai import Agent as PydanticAgent
from pydantic_ai.models import Model

from ..agents import LocalAgent
from ._demo import demo_model

INSTRUCTIONS = (
    "You are the copilot of a web dashboard. Use the tools the page offers to change what the person sees, "
    "and the page's context to know what they see. Answer briefly."
)


def builtin_model() -> Model | str:
    """The model of the built-in agent: COPILOT_MODEL (a pydantic-ai model name such as
    "openai:gpt-4o-mini", with that provider's key in its usual variable), or the offline demo model."""
    name = os.environ.get("COPILOT_MODEL", "").strip()
    return demo_model() if name in ("", "demo") else name


def builtin_pydantic_agent(model: Model | str | None = None) -> PydanticAgent[None, str]:
    """The pydantic-ai agent behind the built-in copilot."""
    return PydanticAgent(model if model is not None else builtin_model(), instructions=INSTRUCTIONS, name="copilot")


def builtin_agent(model: Model | str | None = None, agent_id: str = "default") -> LocalAgent:
    """The built-in copilot, run in this process."""
    return LocalAgent(builtin_pydantic_agent(model), agent_id=agent_id, description="The built-in copilot")

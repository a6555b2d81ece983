"""Which agent the app talks to: a remote AG-UI server when COPILOT_AGENT_URL is set, the built-in one otherwise."""

from __future__ import annotations

import json
import logging
import os
from typing import TYPE_CHECKING

from .._settings import warn_of_misspelt_settings
from ..agents import Agent, HttpAgent

logger = logging.getLogger("copilot_ui.server")

# Variables for the built-in agent only: a remote AG-UI server brings its own model and tools.
BUILTIN_ONLY = ("COPILOT_MODEL", "COPILOT_MCP_SERVERS", "COPILOT_SYSTEM_PROMPT", "COPILOT_BASE_URL")

if TYPE_CHECKING:
    from pydantic import BaseModel

    from ._agent import BackendTools
    from ._demo_script import DemoScript


def agent_from_environment(
    agent_id: str = "default",
    *,
    tools: BackendTools = (),
    state_type: type[BaseModel] | None = None,
    demo_script: DemoScript | None = None,
) -> Agent:
    """HttpAgent to COPILOT_AGENT_URL (headers from COPILOT_AGENT_HEADERS, a JSON object), else the built-in agent
    with these backend tools and shared-state type, its demo model scripted by `demo_script` (see `builtin_agent`)."""
    warn_of_misspelt_settings()
    url = os.environ.get("COPILOT_AGENT_URL", "").strip()
    if url:
        unused = [name for name in BUILTIN_ONLY if os.environ.get(name, "").strip()]
        if unused:  # a person who set both expects both to count: say which one does
            not_used = ", ".join(unused)
            logger.warning(
                "COPILOT_AGENT_URL is set, so the agent is that server: %s (for the built-in agent) not used", not_used
            )
        return HttpAgent(url, agent_id=agent_id, headers=agent_headers(os.environ.get("COPILOT_AGENT_HEADERS")))
    from ._agent import builtin_agent
    from ._mcp import mcp_servers_from_environment
    from ._model_settings import instructions_from_environment, settings_from_environment

    return builtin_agent(
        agent_id=agent_id,
        tools=tools,
        state_type=state_type,
        settings=settings_from_environment(),
        toolsets=mcp_servers_from_environment(),
        instructions=instructions_from_environment(),
        demo_script=demo_script,
    )


def agent_headers(raw: str | None) -> dict[str, str]:
    """Headers from a JSON object of strings; a clear error for anything else."""
    if not raw or not raw.strip():
        return {}
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as error:
        raise ValueError(f"COPILOT_AGENT_HEADERS is not valid JSON ({error.msg}); give a JSON object") from None
    if not isinstance(value, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise ValueError('COPILOT_AGENT_HEADERS must be a JSON object of strings, e.g. {"Authorization": "Bearer …"}')
    return value

"""MCP servers whose tools the built-in agent offers the model (see `builtin_agent(toolsets=...)`)."""

from __future__ import annotations

from typing import Any

from pydantic_ai.toolsets import AbstractToolset


def mcp_servers_from_environment() -> list[AbstractToolset[Any]]:
    """The MCP servers the environment names (none yet)."""
    return []

"""The MCP servers the environment names, for the built-in agent: COPILOT_MCP_SERVERS.

Its value is a JSON object (or the path of a JSON file holding one) of servers by name, each one started
with a command (stdio) or reached at a URL (streamable HTTP):

    {"notes":  {"command": "python", "args": ["notes_server.py"], "env": {"NOTES_TOKEN": "${NOTES_TOKEN}"},
                "approval": ["erase_notes"]},
     "search": {"url": "https://mcp.example.com/mcp", "headers": {"Authorization": "Bearer ${SEARCH_TOKEN}"},
                "approval": "always"}}

The `{"mcpServers": {...}}` file other MCP clients use (Claude Desktop, Cursor) works as it is. `${NAME}` in
any text is the environment variable NAME, so that the variable itself holds no secret. A key that is
misspelt is an error, not ignored: a misspelt "approval" would let calls run unasked. A wrong variable
leaves every server out, and the copilot says why in each turn.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_ai import RunContext
from pydantic_ai.exceptions import ToolFailed
from pydantic_ai.toolsets import AbstractToolset, ToolsetTool

from ..protocol._json import JSON, JSONObject
from ._mcp_server import START_TIMEOUT, McpServer, mcp_server
from ._run_notice import say_once_a_turn

logger = logging.getLogger("copilot_ui.mcp")

VARIABLE = "COPILOT_MCP_SERVERS"


class McpServerEntry(BaseModel):
    """One server of COPILOT_MCP_SERVERS: the keywords of `mcp_server()`."""

    model_config = ConfigDict(extra="forbid")

    command: str | None = None
    args: list[str] = []
    env: dict[str, str] = {}
    cwd: str | None = None
    url: str | None = None
    headers: dict[str, str] = {}
    approval: Literal["always", "never"] | list[str] = "never"
    prefix: str | None = None
    timeout: float = Field(START_TIMEOUT, gt=0)
    type: Literal["stdio", "http", "streamable-http", "streamableHttp"] | None = None  # as other clients write it
    disabled: bool = False


def mcp_servers_from_environment(environ: Mapping[str, str] = os.environ) -> list[AbstractToolset[Any]]:
    """The MCP servers COPILOT_MCP_SERVERS names (none when it is not set). A wrong variable leaves every one of them
    out (a misspelt approval must not let calls run unasked): the log says why, and the copilot says so each turn."""
    try:
        return list(read_mcp_servers(environ))
    except ValueError as error:
        logger.error("%s", error)
        return [Misconfigured(str(error))]


def read_mcp_servers(environ: Mapping[str, str] = os.environ) -> list[McpServer]:
    """The MCP servers COPILOT_MCP_SERVERS names; a ValueError that says what is wrong with it."""
    raw = environ.get(VARIABLE, "").strip()
    if not raw:
        return []
    servers = _servers_object(_json_of(raw))
    found = []
    for name, entry in servers.items():
        try:
            checked = McpServerEntry.model_validate(_expanded(entry, environ, name))
        except ValidationError as error:
            raise ValueError(f'{VARIABLE}: server "{name}": {_first_problem(error)}') from None
        if checked.disabled:
            continue
        options = checked.model_dump(exclude={"type", "disabled"}, exclude_defaults=True)
        try:
            found.append(mcp_server(name, **options))
        except ValueError as error:
            raise ValueError(f"{VARIABLE}: {error}") from None
    return found


class Misconfigured(AbstractToolset[Any]):
    """In place of the servers of a wrong COPILOT_MCP_SERVERS: no tools, and each turn the person reads why."""

    def __init__(self, problem: str) -> None:
        self.problem = problem
        self._said: set[str] = set()

    @property
    def id(self) -> str | None:
        return VARIABLE

    async def for_run(self, ctx: RunContext[Any]) -> Misconfigured:
        return Misconfigured(self.problem)  # what a run said is its own

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        told = f"The MCP servers are left out: {self.problem}. Until it is fixed, the copilot goes on without them."
        await say_once_a_turn(ctx, told, self._said)
        return {}

    async def call_tool(self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]) -> Any:
        raise ToolFailed(f"no tool {name!r}")  # never offered


def _json_of(raw: str) -> JSON:
    """The variable's JSON: written in it, or in the file it names."""
    if raw.startswith("{"):
        text, where = raw, "is not valid JSON"
    else:
        try:
            text = Path(raw).expanduser().read_text()
        except OSError as error:
            raise ValueError(
                f"{VARIABLE} is neither a JSON object nor a file that can be read ({error.strerror}: {raw})"
            ) from None
        where = f"names {raw}, which is not valid JSON"
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{VARIABLE} {where} ({error.msg}, line {error.lineno} column {error.colno})") from None


def _servers_object(value: JSON) -> JSONObject:
    if isinstance(value, dict) and isinstance(value.get("mcpServers"), dict):
        value = value["mcpServers"]
    if not isinstance(value, dict) or not all(isinstance(entry, dict) for entry in value.values()):
        raise ValueError(
            f'{VARIABLE} must be a JSON object of servers by name, e.g. {{"notes": {{"command": "python", "args": '
            '["notes_server.py"]}}, "search": {"url": "https://…/mcp"}}'
        )
    return value


_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


def _expanded(value: JSON, environ: Mapping[str, str], server: str) -> JSON:
    """The entry with each `${NAME}` in its texts replaced by that environment variable."""
    if isinstance(value, str):

        def variable(match: re.Match[str]) -> str:
            if match[1] not in environ:
                raise ValueError(f'{VARIABLE}: server "{server}" uses ${{{match[1]}}}, which is not set')
            return environ[match[1]]

        return _REFERENCE.sub(variable, value)
    if isinstance(value, dict):
        return {key: _expanded(item, environ, server) for key, item in value.items()}
    if isinstance(value, list):
        return [_expanded(item, environ, server) for item in value]
    return value


def _first_problem(error: ValidationError) -> str:
    problem = error.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in problem["loc"])
    if problem["type"] == "extra_forbidden":
        known = ", ".join(McpServerEntry.model_fields)
        return f'"{where}" is not a setting of an MCP server (they are: {known})'
    return f'"{where}": {problem["msg"]}' if where else problem["msg"]

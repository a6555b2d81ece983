"""An MCP server whose tools the built-in agent offers the model, next to the page's tools.

pydantic-ai's MCPToolset speaks MCP, over stdio or streamable HTTP; McpServer wraps one for a copilot:

- its tools are the agent's own (backend tools): they run in the agent, and their calls reach the page as
  cards with their results (AG-UI TOOL_CALL_RESULT);
- a call the approval policy names waits for a person: pydantic-ai defers it, its AG-UI adapter ends the
  run with an interrupt (reason "tool_call"), and the run that resumes it runs the call once (approved) or
  tells the model it was refused (denied);
- a server that does not start or does not answer costs only its own tools: the run goes on without
  them, and the conversation says once a turn which server, what happened and what to check;
- a server that dies during a call gives that call an error naming the server; the next run starts it
  again (a stdio server is kept running between runs, and started anew when it has exited);
- a tool named as one the page offers is left out (the page's is used; two tools of one name would fail
  every run), and the conversation says to give the server a prefix;
- its headers, its environment and its URL's credentials are secrets: `secrets()` names them, and its
  results, its errors and what is said about it are scrubbed of them.
"""

from __future__ import annotations

import asyncio
import copy
import logging
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic_ai import RunContext
from pydantic_ai.exceptions import ApprovalRequired, ModelRetry, ToolFailed
from pydantic_ai.toolsets import AbstractToolset, ToolsetTool

from .._checks import TOOL_NAME, close_matches, keywords_checked, mcp_approval, tool_options
from ..agents import Scrubber
from ..agents._http import request_secrets
from ..agents._tls import tls_context
from ..errors import DeclarationError
from ..protocol._json import JSONObject
from ._mcp_failures import Reach, why_stopped, why_unavailable
from ._run_notice import say_once_a_turn
from ._scrub_tool_results import scrubbed

if TYPE_CHECKING:
    from pydantic_ai.mcp import MCPToolset

logger = logging.getLogger("copilot_ui.mcp")

Approval = Literal["always", "never"] | Collection[str] | Callable[[str, JSONObject], bool]
"""Which calls wait for a person: "always", "never", the names of the tools that do (as the server names
them), or a function of the tool's name and the call's arguments. Where it cannot say, the call asks: a
function that fails or answers anything but True or False, and every call of a server whose list names a
tool it does not have (a misspelt name must not let the tool it meant run unasked)."""

PAGE_TOOLS: ContextVar[frozenset[str]] = ContextVar("copilot_ui_page_tools", default=frozenset())
"""The names of the tools the page offers in this run (the built-in agent sets it): they win a clash of names."""

START_TIMEOUT = 10.0  # seconds a server has to start and answer before the run goes on without it
PROBE_TIMEOUT = 2.0  # seconds a server has to list its tools when a call failed (did it die?)


@keywords_checked("cui.mcp_server")
def mcp_server(
    name: str,
    *,
    command: str | None = None,
    args: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    url: str | None = None,
    headers: Mapping[str, str] | None = None,
    approval: Approval = "never",
    prefix: str | None = None,
    timeout: float = START_TIMEOUT,
) -> McpServer:
    """An MCP server for `builtin_agent(toolsets=[...])`: one the copilot starts with `command` and `args` (stdio;
    it gets `env` and PATH, HOME and the like, not the app's environment), or one at `url` (streamable HTTP,
    sent `headers`). `approval` names the calls that wait for a person; `prefix` goes before its tools' names
    (`prefix_toolname`), where they would clash with other tools; `timeout` is how long it has to start."""
    if not isinstance(name, str) or not name.strip():
        raise DeclarationError(
            "cui.mcp_server", f"name={name!r} is not valid", takes="the copilot names the server when it is not available"
        )
    where = f'MCP server "{name}"'
    if (command is None) == (url is None):
        raise DeclarationError(where, "give either command= (a server on stdio) or url= (streamable HTTP)")
    mcp_approval(where, approval)
    _check_prefix_and_timeout(where, prefix, timeout)
    # (MCP's client takes about a second to import: only an app that names a server pays for it)
    from fastmcp.client.transports import StdioTransport
    from pydantic_ai.mcp import MCPToolset

    if command is not None:
        if headers:
            raise DeclarationError(where, "headers= are for a server at a url=; give a command env= instead")
        transport = StdioTransport(command=command, args=list(args), env=dict(env) if env else None, cwd=cwd)
        toolset = MCPToolset(transport, id=name, init_timeout=timeout, tool_error_behavior="failed")
        secrets = list((env or {}).values())
    else:
        if args or env or cwd:
            raise DeclarationError(where, "args=, env= and cwd= are for a command=; a server at a url= gets headers=")
        assert url is not None
        # The shared TLS settings: pydantic-ai connects anew at every run, and a client's own would read the CA bundle
        toolset = MCPToolset(
            url, id=name, headers=dict(headers or {}), verify=tls_context(), init_timeout=timeout, tool_error_behavior="failed"
        )
        secrets = request_secrets(url, headers or {})
    return McpServer(name, toolset, approval=approval, prefix=prefix, timeout=timeout, secrets=secrets)


@keywords_checked("cui.McpServer")
class McpServer(AbstractToolset[Any]):
    """An MCP server's tools for the built-in agent (see the module's docstring); `mcp_server()` makes one, or wrap
    an MCPToolset of your own (OAuth, a custom client) with its `secrets`."""

    def __init__(
        self,
        name: str,
        toolset: MCPToolset[Any],
        *,
        approval: Approval = "never",
        prefix: str | None = None,
        timeout: float = START_TIMEOUT,
        secrets: Sequence[str] = (),
    ) -> None:
        where = f'MCP server "{name}"'
        mcp_approval(where, approval)
        _check_prefix_and_timeout(where, prefix, timeout)
        self.name = name
        self.toolset = toolset
        self.approval = _ApprovalPolicy(name, approval)
        self.prefix = prefix
        self.timeout = timeout
        self._secrets = tuple(secrets)
        self._scrubber = Scrubber(secrets)
        self._tools: AbstractToolset[Any] = toolset.prefixed(prefix) if prefix else toolset
        self._reach = _reach_of(toolset)
        self._run = _RunState()

    @property
    def id(self) -> str | None:
        return self.name

    @property
    def label(self) -> str:
        return f'MCP server "{self.name}"'

    @property
    def tool_name_conflict_hint(self) -> str:
        return f'Give the MCP server "{self.name}" (or the other) a prefix, e.g. prefix="{self.name}".'

    def secrets(self) -> list[str]:
        """The values no person may see: its headers' and environment's, and its URL's credentials."""
        return list(self._secrets)

    def __repr__(self) -> str:  # never the secrets
        return f"McpServer({self.name!r}, {self._reach.shown!r})"

    # One run of the agent: the server is connected, or it is not and the run goes on without it

    async def for_run(self, ctx: RunContext[Any]) -> McpServer:
        run = copy.copy(self)
        run._run = _RunState()
        return run

    async def __aenter__(self) -> McpServer:
        try:
            await self.toolset.__aenter__()
        except Exception as error:
            await self._unavailable(error)
        else:
            self._run.entered = True
        return self

    async def __aexit__(self, *exc_info: object) -> bool | None:
        if self._run.entered:
            self._run.entered = False
            try:
                await self.toolset.__aexit__(*exc_info)
            except Exception as error:  # closing a session with a server that died: nothing left to close
                logger.debug("closing the MCP server %r: %s", self.name, self._scrubber.scrub(str(error)))
        return None

    async def get_tools(self, ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        if self._run.unavailable is None:
            try:
                tools = await self._tools.get_tools(ctx)
            except Exception as error:
                await self._unavailable(error)
            else:
                self.approval.names_checked(self._own_name(tool) for tool in tools)
                return await self._without_the_pages(tools, ctx)
        await say_once_a_turn(ctx, self._run.unavailable or "", self._run.said)
        return {}

    async def call_tool(self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]) -> Any:
        if not ctx.tool_call_approved and self.approval(self._own_name(name), tool_args):
            # The interrupt's metadata: whose tool it is and what it does, for a client to show with the question
            raise ApprovalRequired(metadata={"mcp_server": self.name, "description": tool.tool_def.description or ""})
        if self._run.stopped is not None:
            raise ToolFailed(self._run.stopped)
        try:
            result = await self._tools.call_tool(name, tool_args, ctx, tool)
        except Exception as error:
            if not await self._answers():
                self._run.stopped = self._scrubber.scrub(why_stopped(self.name, name, self._reach, error))
                logger.warning("%s", self._run.stopped)
                raise ToolFailed(self._run.stopped) from None
            if isinstance(error, ToolFailed | ModelRetry):  # the tool failed, the server is fine: the model reads why
                raise type(error)(self._scrubber.scrub(error.message)) from None
            raise
        return scrubbed(result, self._scrubber)  # (a server may echo its secrets: neither thread nor model keeps them)

    # Helpers

    async def _unavailable(self, error: Exception) -> None:
        told = await why_unavailable(self.name, self._reach, error, self.timeout)
        self._run.unavailable = self._scrubber.scrub(told)
        logger.warning("%s (%s)", self._run.unavailable, self._scrubber.scrub(repr(error)))

    async def _without_the_pages(self, tools: dict[str, ToolsetTool[Any]], ctx: RunContext[Any]) -> dict[str, ToolsetTool[Any]]:
        """Its tools but those named as one the page offers: the page's wins (two tools of one name fail every run)."""
        clashing = sorted(set(tools) & PAGE_TOOLS.get())
        if not clashing:
            return tools
        names = ", ".join(clashing)
        told = (
            f"The MCP server \"{self.name}\" has tools named as the page's ({names}): the page's are used. "
            f'Give the server a prefix (prefix="{self.name}") to offer both.'
        )
        await say_once_a_turn(ctx, told, self._run.said)
        return {name: tool for name, tool in tools.items() if name not in clashing}

    async def _answers(self) -> bool:
        """Whether the server still answers (a failed call may be the tool's failure, or the server's death)."""
        try:
            async with asyncio.timeout(PROBE_TIMEOUT):
                await self.toolset.client.list_tools()
        except Exception:
            return False
        return True

    def _own_name(self, name: str) -> str:
        """The tool's name as the server gives it (the model's has the prefix)."""
        return name.removeprefix(f"{self.prefix}_") if self.prefix else name


@dataclass
class _RunState:
    """What one run knows of the server."""

    entered: bool = False
    unavailable: str | None = None  # why its tools are missing from this run
    stopped: str | None = None  # why its calls fail from now on in this run
    said: set[str] = field(default_factory=set)


class _ApprovalPolicy:
    """Whether a call of the server's waits for a person (see Approval): asks where the policy cannot say."""

    def __init__(self, server: str, approval: Approval) -> None:
        self.server = server
        self.approval = approval
        self.names = frozenset(approval) if not isinstance(approval, str) and not callable(approval) else None
        self.unknown: frozenset[str] = frozenset()  # names in the list that are none of the server's tools

    def __call__(self, tool: str, arguments: JSONObject) -> bool:
        if self.approval in ("always", "never"):
            return self.approval == "always"
        if self.names is not None:
            return bool(self.unknown) or tool in self.names
        try:
            verdict = self.approval(tool, arguments)  # type: ignore[operator]
        except Exception:
            logger.exception("the approval policy of the MCP server %r failed on %s; the call asks", self.server, tool)
            return True
        if not isinstance(verdict, bool):
            logger.warning(
                "the approval policy of the MCP server %r answered %r on %s, not True or False; the call asks",
                self.server,
                verdict,
                tool,
            )
            return True
        return verdict

    def names_checked(self, tools: Iterable[str]) -> None:
        """The server listed its tools: a name of the approval list that is none of them makes every call ask."""
        if self.names is None:
            return
        offered = list(tools)
        unknown = frozenset(self.names - set(offered))
        if unknown and unknown != self.unknown:
            hints = "; ".join(
                f'"{name}"' + (f' (did you mean "{close[0]}"?)' if (close := close_matches(name, offered)) else "")
                for name in sorted(unknown)
            )
            logger.error(
                "MCP server %r: approval= names %s, which it has no tool of; until that is fixed every call of the "
                "server waits for a person's approval. Its tools are: %s",
                self.server,
                hints,
                ", ".join(sorted(offered)),
            )
        self.unknown = unknown


def _check_prefix_and_timeout(where: str, prefix: str | None, timeout: float) -> None:
    if prefix is not None and (not isinstance(prefix, str) or not TOOL_NAME.match(prefix)):
        raise DeclarationError(where, f"prefix={prefix!r} is not valid", takes="it takes letters, digits, _ and -")
    tool_options(where, {"timeout": timeout})
    if timeout is None:
        raise DeclarationError(where, "timeout=None is not valid", takes="it takes the seconds it has to start")


def _reach_of(toolset: MCPToolset[Any]) -> Reach:
    from fastmcp.client.transports import StdioTransport

    transport = toolset.client.transport
    if isinstance(transport, StdioTransport):
        return Reach(command=transport.command)
    url = getattr(transport, "url", None)
    return Reach(url=str(url) if url is not None else None, headers=dict(getattr(transport, "headers", None) or {}))

"""The toolbox: the tools an app registered, and which of them a run offers and may call.

A tool scoped to an agent is offered to that agent only; a tool not available in the session
(its page, its flags) is not offered. When the agent calls a name, a tool scoped to the running
agent wins over a global one; a wildcard tool "*" takes calls no tool claims.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from ag_ui.core import Tool as AGUITool

from ._context import Session
from ._tools import Tool

logger = logging.getLogger("copilot_ui.core")

WILDCARD = "*"


class Toolbox:
    """Tools by (name, agent)."""

    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[tuple[str, str | None], Tool] = {}
        for tool in tools:
            self.add(tool)

    def add(self, tool: Tool) -> Tool:
        """Register a tool; one with the same name and agent is replaced (the latest wins)."""
        key = (tool.name, tool.agent)
        earlier = self._tools.get(key)
        if earlier is not None and earlier is not tool:
            if _where(earlier.handler) == _where(tool.handler):  # (its module imported again)
                logger.info("tool %r%s registered again; the latest registration wins", tool.name, _for(tool.agent))
            else:  # two functions under one name: the first (its approval, its state) is gone
                logger.warning(
                    "tool %r%s is declared by %s and again by %s; the latest wins. Give one of them another name=.",
                    tool.name,
                    _for(tool.agent),
                    _where(earlier.handler),
                    _where(tool.handler),
                )
        self._tools[key] = tool
        return tool

    def remove(self, name: str, agent: str | None = None) -> None:
        """Unregister a tool (the global one unless an agent is named)."""
        self._tools.pop((name, agent), None)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(list(self._tools.values()))

    def __len__(self) -> int:
        return len(self._tools)

    def offered(self, agent_id: str, session: Session) -> list[Tool]:
        """The tools a run of this agent offers: available, global or scoped to it, a scoped one over a global one."""
        chosen: dict[str, Tool] = {}
        for (name, agent), tool in self._tools.items():
            if name == WILDCARD or agent not in (None, agent_id) or not tool.is_available(session):
                continue
            if name not in chosen or agent == agent_id:
                chosen[name] = tool
        return list(chosen.values())

    def ag_ui_tools(self, agent_id: str, session: Session) -> list[AGUITool]:
        """RunAgentInput.tools for a run of this agent."""
        return [tool.ag_ui() for tool in self.offered(agent_id, session)]

    def find(self, name: str, agent_id: str) -> Tool | None:
        """The tool that takes a call to this name from this agent: scoped, then global, then the wildcard."""
        for key in ((name, agent_id), (name, None), (WILDCARD, agent_id), (WILDCARD, None)):
            tool = self._tools.get(key)
            if tool is not None:
                return tool
        return None

    def names(self, agent_id: str, session: Session) -> list[str]:
        """Names of the tools offered to this agent, for messages that list them."""
        return sorted(tool.name for tool in self.offered(agent_id, session))


def _where(handler: object) -> str:
    """A handler as `module.qualified_name` (how a log names the function that declared a tool)."""
    return f"{getattr(handler, '__module__', '?')}.{getattr(handler, '__qualname__', repr(handler))}"


def _for(agent: str | None) -> str:
    return f" for agent {agent!r}" if agent else ""

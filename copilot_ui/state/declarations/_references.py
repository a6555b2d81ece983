"""What declarations refer to (a card's tool, a tool's agent, a shared state's agent), checked when a layout is built:
the app may declare a card before its tool (`check_references`). A card for a tool that no agent known then has (a
remote agent's, an MCP server's) cannot be checked before a call comes: the log says so, and says again loudly when
a call comes whose name is close to it and that no card draws (`check_call`).
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

from ..._checks import close_matches, invalid_option, quoted_matches
from ...errors import DeclarationError

if TYPE_CHECKING:
    from ...agents import Agent
    from ._copilot import Copilot

logger = logging.getLogger("copilot_ui")


def check_references(copilot: Copilot) -> None:
    """Each card draws a tool some agent has, a tool's `display=` feeds a card of the app's, each agent named by a tool
    or a shared state is registered: a DeclarationError otherwise. A card for a tool that cannot be known yet (a remote
    agent's, an MCP server's) is logged once, and checked again when calls come (`check_call`)."""
    copilot.references_checked = True
    agents = copilot.agent_ids()
    for tool in copilot.toolbox:
        if tool.agent is not None and tool.agent not in agents:
            raise invalid_option(
                f"tool {tool.name}",
                "agent",
                tool.agent,
                takes=f"the agents are {', '.join(agents)}",
                close=quoted_matches(tool.agent, agents),
            )
    for state_type, bound in copilot.agent_states.items():
        for agent_id in bound or ():
            if agent_id not in agents:
                raise invalid_option(
                    f"agent_state {state_type.__name__}",
                    "agent",
                    agent_id,
                    takes=f"the agents are {', '.join(agents)}",
                    close=quoted_matches(agent_id, agents),
                )
    for name in copilot.displays:
        if name not in copilot.renderers and "*" not in copilot.renderers:
            raise DeclarationError(
                f"tool {name}",
                "display= gives the texts a card of the app's shows, and no card of the app's draws its calls",
                takes=f'give it one: render= on the tool, or @cui.render_tool("{name}")',
            )
    known, unknowable = tools_known(copilot)
    unmatched = sorted(name for name in copilot.renderers if name != "*" and name not in known)
    if unmatched and not unknowable:
        name = unmatched[0]
        raise DeclarationError(
            f'render_tool("{name}")',
            f'no agent has a tool "{name}"',
            takes=f"the tools are {', '.join(sorted(known)) or 'none'}",
            close=[f'"{match}"' for match in close_matches(name, known)],
        )
    for name in unmatched:
        if name not in copilot.cards_unchecked:
            copilot.cards_unchecked.add(name)
            logger.warning(
                'render_tool("%s"): no tool of that name is declared here; %s can only be known when a call comes '
                "(the log says so if one close to it comes and no card draws it)",
                name,
                " and ".join(unknowable),
            )


def check_call(copilot: Copilot, name: str) -> None:
    """An agent called `name`: a card waiting for its tool is matched; a call no card draws, close to the name of a card
    that matches no tool, is logged loudly (the card's name is likely misspelt)."""
    if not copilot.references_checked:  # a worker that did not build the page (Reflex compiled it elsewhere)
        try:
            check_references(copilot)
        except DeclarationError as error:
            logger.error("%s", error)
    unchecked = copilot.cards_unchecked
    if not unchecked or name in copilot.renderers:
        unchecked.discard(name)
        return
    close = close_matches(name, unchecked)
    if close and name not in copilot.calls_told:
        copilot.calls_told.add(name)
        logger.error(
            'the agent called "%s", which no card of the app\'s draws, and render_tool("%s") draws no tool that has '
            "been called: is its name misspelt?",
            name,
            close[0],
        )


def tools_known(copilot: Copilot) -> tuple[set[str], list[str]]:
    """The names of the tools the agents may call, as far as they can be known now, and what cannot be known before
    the calls come: the tools of a remote agent, of an MCP server, of a scripted agent; the names a wildcard takes."""
    known = {tool.name for tool in copilot.toolbox}
    unknowable = ["the names the app's wildcard tool takes"] if "*" in known else []
    for agent_id in copilot.agent_ids():
        if agent_id in copilot.agents:
            names = _backend_tools(copilot.agents.get(agent_id))
        else:
            names = _backend_tools_of_the_environments_agent()
        if names is None:
            unknowable.append(f"the tools of agent {agent_id!r}")
        else:
            known |= names
    return known, unknowable


def _backend_tools(agent: Agent) -> set[str] | None:
    """The tools a built-in agent runs itself (None: they cannot be listed now)."""
    from ...agents import LocalAgent

    if not isinstance(agent, LocalAgent):
        return None
    from pydantic_ai.toolsets import FunctionToolset

    names: set[str] = set()
    for toolset in agent.agent.toolsets:
        if not isinstance(toolset, FunctionToolset):
            return None
        names |= set(toolset.tools)
    return names


def _backend_tools_of_the_environments_agent() -> set[str] | None:
    """The default agent before it is made: a remote one (COPILOT_AGENT_URL), or the built-in one with the MCP servers
    of COPILOT_MCP_SERVERS, bring tools unknown now; the built-in one without brings none."""
    if os.environ.get("COPILOT_AGENT_URL", "").strip() or os.environ.get("COPILOT_MCP_SERVERS", "").strip():
        return None
    return set()

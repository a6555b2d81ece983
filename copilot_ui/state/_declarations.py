"""What an app declares about its copilot: the agents, the tools, the context it shows, the hooks.

The module-level decorators (frontend_tool, human_in_the_loop, context) register into one default
Copilot, which the sidebar's state reads when a run starts.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..agents import Agent, AgentRegistry, Scrubber
from ..core import Hooks, LoopLimits, Tool, Toolbox, tool_from_function
from ..store import ThreadStore

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class ContextProvider:
    """A function of a page state whose value the agent sees with every run."""

    state: type | None
    description: str
    function: Callable[..., Any]

    def value(self, state: Any) -> str:
        """The value as AG-UI context carries it: a string (JSON for anything else)."""
        value = self.function(state) if self.state is not None else self.function()
        return value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)


class Copilot:
    """The agents, tools, context providers and hooks of an app."""

    def __init__(self) -> None:
        self.toolbox = Toolbox()
        self.agents = AgentRegistry()
        self.contexts: list[ContextProvider] = []
        self.hooks = Hooks()
        self.limits = LoopLimits()
        self.store: ThreadStore | None = None  # where threads are saved at the end of each turn, if anywhere
        self.image_hosts: list[str] = []  # hosts whose images a reply may show (others become links)
        self.text_limit = 20_000  # characters of a text shown before "Show all"
        self.renderers: dict[str, Callable[..., Any]] = {}  # tool name (or "*") -> the app's card for its calls

    def agent_ids(self) -> list[str]:
        """The agents a conversation may use: the registered ones, and "default" (chosen from the environment)."""
        return sorted({"default", *self.agents.ids})

    def scrubber(self) -> Scrubber:
        """What keeps secrets out of what people see: the agents' configured secrets and API keys in the environment."""
        secrets = getattr(self.agents, "secrets", None)
        return Scrubber.from_environment().with_secrets(secrets() if secrets is not None else [])

    def rendered_tools(self) -> frozenset[str]:
        """Names of the tools whose calls the app draws itself (their cards get the call's data)."""
        return frozenset(self.renderers)

    def agent(self, agent_id: str = "default") -> Agent:
        """The agent with this id; the default one is chosen from the environment on first use."""
        if agent_id not in self.agents and agent_id == "default":
            from ..server import agent_from_environment

            self.agents.register(agent_from_environment(agent_id))
        return self.agents.get(agent_id)

    def frontend_tool(self, function: F | None = None, /, **options: Any) -> Any:
        """Declare a tool the agent may call; its handler runs in the person's session.

        With state=SomeState the handler receives that session state first and may change it: the
        page shows the change before the agent runs again. Options: name, description, mode
        ("parallel"/"sequential"), approval ("never"/"always"/a predicate on the arguments),
        follow_up, completes_run, timeout, available (a predicate on the Session), agent,
        prepare_arguments, render.
        """

        def register(handler: F) -> F:
            self.toolbox.add(tool_from_function(handler, **options))
            return handler

        return register(function) if function is not None else register

    def human_in_the_loop(self, function: F | None = None, /, **options: Any) -> Any:
        """Declare a tool whose result is a person's answer (its signature describes the arguments)."""

        def register(handler: F) -> F:
            self.toolbox.add(tool_from_function(handler, kind="human", **options))
            return handler

        return register(function) if function is not None else register

    def add_tool(self, tool: Tool) -> Tool:
        """Register a tool made by hand."""
        return self.toolbox.add(tool)

    def context(self, state: type | None = None, *, description: str) -> Callable[[F], F]:
        """Declare what the agent sees: the function's value (of the given page state) is sent with every run."""

        def register(function: F) -> F:
            self.contexts.append(ContextProvider(state, description, function))
            return function

        return register


copilot = Copilot()

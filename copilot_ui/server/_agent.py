"""The built-in agent: a pydantic-ai Agent, on the demo model unless COPILOT_MODEL names a real one.

COPILOT_MODEL is a pydantic-ai model name ("openai:gpt-4o" speaks OpenAI's Responses API,
"openai-chat:gpt-4o" its Chat Completions, "anthropic:claude-sonnet-4-5" Anthropic's Messages), with
that provider's key in its usual variable. With COPILOT_BASE_URL, COPILOT_MODEL is instead the name
a server with OpenAI's Chat Completions API knows (Ollama, vLLM, LM Studio…), reached at that URL
with COPILOT_API_KEY, if it needs one (an OpenAI key is never sent there).

An app may give it backend tools of its own (they run in the agent, and their results go to the page
as TOOL_CALL_RESULT events) and a shared-state type: the page's RunAgentInput.state then reaches the
tools as `ctx.deps.state` (pydantic-ai's StateDeps), the model sees it in its instructions, and the
tools' state events stream to the page.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ag_ui.core import RunAgentInput
from pydantic import BaseModel
from pydantic_ai import Agent as PydanticAgent
from pydantic_ai import DeferredToolRequests, RunContext, Tool
from pydantic_ai.capabilities import ProcessHistory
from pydantic_ai.models import Model
from pydantic_ai.settings import ModelSettings
from pydantic_ai.tools import ToolFuncEither
from pydantic_ai.toolsets import AbstractToolset
from pydantic_ai.ui import StateDeps

from .._checks import keywords_checked
from ..agents import LocalAgent
from ._demo import demo_model
from ._demo_script import DemoScript
from ._mcp_server import PAGE_TOOLS, McpServer
from ._model_errors import ModelErrors, ModelProvider, host_of, provider_of
from ._model_settings import INSTRUCTIONS, timeout_of, with_timeout
from ._named_model import named_model
from ._scrub_tool_results import ScrubToolResults
from ._shared_state import shared_state_instructions
from ._text_files import text_files_as_text

COMPATIBLE = "openai-compatible"  # the provider name of a model reached by base URL (compatible_model)

BackendTools = Sequence[Tool[Any] | ToolFuncEither[Any, ...]]
Toolsets = Sequence[AbstractToolset[Any]]


def builtin_model(demo_script: DemoScript | None = None) -> Model | str:
    """The model of the built-in agent: COPILOT_MODEL (a pydantic-ai model name such as
    "openai:gpt-4o-mini", with that provider's key in its usual variable), the model of that name at
    COPILOT_BASE_URL when it is set (see `compatible_model`), or the offline demo model (scripted by
    `demo_script`, when the app gives one)."""
    name = os.environ.get("COPILOT_MODEL", "").strip()
    base_url = os.environ.get("COPILOT_BASE_URL", "").strip()
    if base_url:
        if name in ("", "demo"):
            raise ValueError("COPILOT_BASE_URL is set: set COPILOT_MODEL to the name of a model it serves, e.g. llama3.1")
        return compatible_model(name, base_url, api_key=os.environ.get("COPILOT_API_KEY", "").strip() or None)
    return demo_model(script=demo_script) if name in ("", "demo") else named_model(name, "COPILOT_MODEL")


@keywords_checked("cui.compatible_model")
def compatible_model(name: str, base_url: str, *, api_key: str | None = None) -> Model:
    """A model on a server with OpenAI's Chat Completions API (Ollama, vLLM, LM Studio…): its name there, the server's
    base URL (e.g. "http://localhost:11434/v1"), and its API key if it needs one."""
    from pydantic_ai.models.openai import OpenAIChatModel  # (OpenAI's client: imported by the apps that use it)
    from pydantic_ai.providers.openai_compatible import OpenAICompatibleProvider

    name = name.removeprefix("openai-chat:")
    return OpenAIChatModel(name, provider=OpenAICompatibleProvider(COMPATIBLE, base_url=base_url, api_key=api_key))


def builtin_pydantic_agent(
    model: Model | str | None = None,
    *,
    tools: BackendTools = (),
    state_type: type[BaseModel] | None = None,
    settings: ModelSettings | None = None,
    toolsets: Toolsets = (),
    instructions: str = INSTRUCTIONS,
) -> PydanticAgent[Any, str | DeferredToolRequests]:
    """The pydantic-ai agent behind the built-in copilot, with the app's backend tools and toolsets (MCP servers).

    With a `state_type`, its deps are `StateDeps[state_type]` (run it with such deps, e.g.
    `agui_app(agent, deps=lambda: StateDeps(state_type()))`) and the model sees the shared state.
    `settings` are the model's (temperature, max_tokens, timeout, max_retries…; a `timeout` of DEFAULT_TIMEOUT
    seconds unless they give one); `instructions` its system prompt.
    """
    agent = PydanticAgent(
        named_model(model if model is not None else builtin_model(), "cui.builtin_agent"),  # (the banner names what runs)
        instructions=instructions,
        # A call that needs a person's approval (an MCP server's, a backend tool's) ends the run with an interrupt,
        # also on a page that offers no tools of its own (pydantic-ai's AG-UI adapter adds this only for those)
        output_type=[str, DeferredToolRequests],
        name="copilot",
        tools=tools,
        toolsets=toolsets,
        model_settings=with_timeout(settings),
        deps_type=StateDeps[state_type] if state_type is not None else object,
        capabilities=[
            ProcessHistory(text_files_as_text),  # a CSV a person attached reaches any model, as text
            ScrubToolResults(),  # a backend tool may quote a key it holds
        ],
    )
    if state_type is not None:

        @agent.instructions
        async def shared_state(ctx: RunContext[Any]) -> str:  # (pydantic-ai runs a sync one in a thread)
            deps: StateDeps[BaseModel] = ctx.deps  # the agent's deps_type, chosen above
            return shared_state_instructions(deps.state)

    return agent


@keywords_checked("cui.builtin_agent")
def builtin_agent(
    model: Model | str | None = None,
    agent_id: str = "default",
    *,
    tools: BackendTools = (),
    state_type: type[BaseModel] | None = None,
    description: str = "",
    settings: ModelSettings | None = None,
    toolsets: Toolsets = (),
    instructions: str = INSTRUCTIONS,
    demo_script: DemoScript | None = None,
) -> LocalAgent:
    """The built-in copilot, run in this process; the state the page sends reaches `tools` when `state_type` is given.
    `description` is its label in the copilot's agent picker (its id when empty; "Copilot" for the default one);
    `settings`, `toolsets` and `instructions` as for `builtin_pydantic_agent`; `demo_script` scripts the demo model,
    when that is the model (no `model`, no COPILOT_MODEL). When the model's provider fails, the person reads what
    happened in words that name the provider and say what to do (see ModelErrors)."""
    made_with = _Options(tools, state_type, description, settings, instructions)
    agent = builtin_pydantic_agent(
        model if model is not None else builtin_model(demo_script),
        tools=tools,
        state_type=state_type,
        settings=settings,
        toolsets=toolsets,
        instructions=instructions,
    )
    return _BuiltinAgent(
        agent,
        made_with,
        agent_id=agent_id,
        description=description,
        deps=_state_deps(state_type) if state_type is not None else None,
        explain_error=model_errors(agent.model, with_timeout(settings)),
    )


def model_errors(model: Model | str | None, settings: ModelSettings) -> ModelErrors:
    """What the person reads when this model's provider fails."""
    provider = provider_of(model)
    if getattr(model, "system", None) == COMPATIBLE:
        provider = ModelProvider(
            name=f"the model server at {host_of(getattr(model, 'base_url', ''))}",
            key_variable="COPILOT_API_KEY",
            address_variable="COPILOT_BASE_URL",
            model_check="check COPILOT_MODEL and COPILOT_BASE_URL",
        )
    return ModelErrors(provider, str(getattr(model, "model_name", "") or model or ""), timeout_of(settings))


@dataclass(frozen=True)
class _Options:
    """What a built-in agent was made with, besides its model and its toolsets."""

    tools: BackendTools
    state_type: type[BaseModel] | None
    description: str
    settings: ModelSettings | None
    instructions: str


class _BuiltinAgent(LocalAgent):
    """The built-in agent, in process; the credentials of its MCP servers are its secrets (no person sees them), and
    an MCP server leaves out a tool named as one the page offers."""

    def __init__(self, agent: PydanticAgent[Any, Any], made_with: _Options, **options: Any) -> None:
        super().__init__(agent, **options)
        self._made_with = made_with

    def on_model(self, model: Model | str, *, toolsets: Toolsets = ()) -> LocalAgent:
        """The same agent (its backend tools, shared state, settings, instructions) on another model, with these
        toolsets in place of its own (its MCP servers): the testing kit runs it on a scripted model."""
        made_with = self._made_with
        return builtin_agent(
            model,
            self.agent_id,
            tools=made_with.tools,
            state_type=made_with.state_type,
            description=made_with.description,
            settings=made_with.settings,
            toolsets=toolsets,
            instructions=made_with.instructions,
        )

    def _run_starts(self, run_input: RunAgentInput) -> None:
        # Set in the task that runs this one run (no reset: the task's context ends with it)
        PAGE_TOOLS.set(frozenset(tool.name for tool in run_input.tools or ()))

    def secrets(self) -> list[str]:
        servers: list[McpServer] = []
        for toolset in self.agent.toolsets:
            toolset.apply(lambda leaf: servers.append(leaf) if isinstance(leaf, McpServer) else None)
        return list(dict.fromkeys([*super().secrets(), *(secret for server in servers for secret in server.secrets())]))


def _state_deps(state_type: type[BaseModel]) -> Callable[[RunAgentInput], StateDeps[BaseModel]]:
    def deps(run_input: RunAgentInput) -> StateDeps[BaseModel]:
        # a placeholder: pydantic-ai's adapter validates RunAgentInput.state into it before the run
        return StateDeps(state_type.model_construct())

    return deps

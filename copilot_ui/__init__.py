"""copilot_ui: the agent ↔ web-page bridge for Reflex apps.

    import copilot_ui as cui

    @cui.frontend_tool(state=DashboardState)
    async def set_theme(state: DashboardState, mode: Literal["light", "dark"]) -> str:
        \"\"\"Switch the dashboard between light and dark theme.\"\"\"
        state.theme = mode
        return f"Theme is now {mode}."

    @cui.context(DashboardState, description="What the user sees on the dashboard")
    def dashboard(state: DashboardState) -> dict: ...

    def index() -> rx.Component:
        return rx.hstack(dashboard(), cui.sidebar())

This top level holds what an app uses. The parts an integrator or a test reaches for (the run loop, the
thread, the toolbox, the Agent interface, the AG-UI pipeline, the store) stay in their subpackages:
copilot_ui.core, copilot_ui.agents, copilot_ui.protocol, copilot_ui.server, copilot_ui.store.

Names are loaded on first use, so that copilot_ui.protocol, copilot_ui.agents and copilot_ui.core
work (and are tested) without importing Reflex.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

_PUBLIC = {
    # declaring what the agent may do and see (Reflex layer)
    "copilot": "copilot_ui.state",
    "CopilotState": "copilot_ui.state",
    "Labels": "copilot_ui.state",
    "Feedback": "copilot_ui.state",
    # the app's own buttons drive the copilot
    "send_message": "copilot_ui.components",
    "run_task": "copilot_ui.state",
    "TaskResult": "copilot_ui.state",
    "task_panel": "copilot_ui.components",
    # components
    "sidebar": "copilot_ui.components",
    "popup": "copilot_ui.components",
    "chat": "copilot_ui.components",
    "tool_card": "copilot_ui.components",
    "ToolCallView": "copilot_ui.components",
    "MessageView": "copilot_ui.components",
    "ActivityView": "copilot_ui.components",
    "text": "copilot_ui.components",
    "content_security_policy": "copilot_ui._csp",
    "agent_endpoint": "copilot_ui._agent_endpoint",
    "attachment_endpoint": "copilot_ui._attachment_endpoint",
    "AttachmentRules": "copilot_ui.core",
    "color_mode_from": "copilot_ui.components",
    # building the page (in rxconfig.py)
    "use_bundled_node": "copilot_ui._node",
    # what a tool and a hook use (the loop itself, its thread and its toolbox are in copilot_ui.core)
    "ToolContext": "copilot_ui.core",
    "LoopLimits": "copilot_ui.core",
    "Block": "copilot_ui.core",
    "Rewrite": "copilot_ui.core",
    "Replace": "copilot_ui.core",
    "Stop": "copilot_ui.core",
    # agents (the Agent interface, LocalAgent, ScriptedAgent and the registry are in copilot_ui.agents)
    "HttpAgent": "copilot_ui.agents",
    "builtin_agent": "copilot_ui.server",
    "compatible_model": "copilot_ui.server",
    "mcp_server": "copilot_ui.server",
    "McpServer": "copilot_ui.server",
    # what a mistaken declaration raises (the rest of copilot_ui's exceptions are in copilot_ui.errors)
    "DeclarationError": "copilot_ui.errors",
}
# The decorators of the default Copilot, as module functions.
_DECLARATIONS = {
    "frontend_tool",
    "human_in_the_loop",
    "browser_tool",
    "render_tool",
    "render_activity",
    "context",
    "agent_state",
}

__all__ = [
    "ActivityView",
    "AttachmentRules",
    "Block",
    "CopilotState",
    "DeclarationError",
    "Feedback",
    "HttpAgent",
    "Labels",
    "LoopLimits",
    "McpServer",
    "MessageView",
    "Replace",
    "Rewrite",
    "Stop",
    "TaskResult",
    "ToolCallView",
    "ToolContext",
    "agent_endpoint",
    "agent_state",
    "attachment_endpoint",
    "browser_tool",
    "builtin_agent",
    "chat",
    "color_mode_from",
    "compatible_model",
    "content_security_policy",
    "context",
    "copilot",
    "frontend_tool",
    "human_in_the_loop",
    "mcp_server",
    "popup",
    "render_activity",
    "render_tool",
    "run_task",
    "send_message",
    "sidebar",
    "task_panel",
    "text",
    "tool_card",
    "use_bundled_node",
]

if TYPE_CHECKING:  # what IDEs and type checkers see; at run time __getattr__ imports each name on first use
    from ._agent_endpoint import agent_endpoint
    from ._attachment_endpoint import attachment_endpoint
    from ._csp import content_security_policy
    from ._node import use_bundled_node
    from .agents import HttpAgent
    from .components import (
        ActivityView,
        MessageView,
        ToolCallView,
        chat,
        color_mode_from,
        popup,
        send_message,
        sidebar,
        task_panel,
        text,
        tool_card,
    )
    from .core import AttachmentRules, Block, LoopLimits, Replace, Rewrite, Stop, ToolContext
    from .errors import DeclarationError
    from .server import McpServer, builtin_agent, compatible_model, mcp_server
    from .state import CopilotState, Feedback, Labels, TaskResult, copilot, run_task

    agent_state = copilot.agent_state
    browser_tool = copilot.browser_tool
    context = copilot.context
    frontend_tool = copilot.frontend_tool
    human_in_the_loop = copilot.human_in_the_loop
    render_activity = copilot.render_activity
    render_tool = copilot.render_tool


def __getattr__(name: str) -> object:
    if name in _DECLARATIONS:
        value = getattr(importlib.import_module("copilot_ui.state").copilot, name)
    elif name in _PUBLIC:
        value = getattr(importlib.import_module(_PUBLIC[name]), name)
    else:
        raise AttributeError(f"module 'copilot_ui' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__

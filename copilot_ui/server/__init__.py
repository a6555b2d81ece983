"""The built-in agent: a pydantic-ai Agent with a deterministic demo model (an app may script it: DemoScript) and the
tools of MCP servers, how the app picks its agent, and how it is served over AG-UI (agui_app, behind EndpointAccess)."""

from ._agent import INSTRUCTIONS, builtin_agent, builtin_model, builtin_pydantic_agent, compatible_model
from ._app import agui_app
from ._choice import agent_from_environment, agent_headers
from ._demo import demo_model
from ._demo_script import Call, CallResult, DemoScript, ModelTurn, Move, said_about
from ._endpoint_access import EndpointAccess, guarded, refusal
from ._mcp import mcp_servers_from_environment, read_mcp_servers
from ._mcp_server import McpServer, mcp_server
from ._model_errors import ModelErrors, ModelProvider
from ._model_settings import DEFAULT_TIMEOUT, settings_from_environment
from ._shared_state import emit_state_delta

# The demo script's former names (the loop has a Turn, and hooks a ToolResult, of their own): kept for apps importing them.
Turn = ModelTurn
ToolResult = CallResult

__all__ = [
    "DEFAULT_TIMEOUT",
    "INSTRUCTIONS",
    "Call",
    "CallResult",
    "DemoScript",
    "EndpointAccess",
    "McpServer",
    "ModelErrors",
    "ModelProvider",
    "ModelTurn",
    "Move",
    "agent_from_environment",
    "agent_headers",
    "agui_app",
    "builtin_agent",
    "builtin_model",
    "builtin_pydantic_agent",
    "compatible_model",
    "demo_model",
    "emit_state_delta",
    "guarded",
    "mcp_server",
    "mcp_servers_from_environment",
    "read_mcp_servers",
    "refusal",
    "said_about",
    "settings_from_environment",
]

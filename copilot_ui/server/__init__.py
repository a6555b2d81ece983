"""The built-in agent: a pydantic-ai Agent with a deterministic demo model and the tools of MCP servers, and how the
app picks its agent."""

from ._agent import INSTRUCTIONS, builtin_agent, builtin_model, builtin_pydantic_agent
from ._app import agui_app
from ._choice import agent_from_environment, agent_headers
from ._demo import demo_model
from ._demo_report import ReportState, demo_backend_tools
from ._demo_script import PHRASES as DEMO_PHRASES
from ._mcp import mcp_servers_from_environment, read_mcp_servers
from ._mcp_server import McpServer, mcp_server
from ._shared_state import emit_state_delta

__all__ = [
    "DEMO_PHRASES",
    "INSTRUCTIONS",
    "McpServer",
    "ReportState",
    "agent_from_environment",
    "agent_headers",
    "agui_app",
    "builtin_agent",
    "builtin_model",
    "builtin_pydantic_agent",
    "demo_backend_tools",
    "demo_model",
    "emit_state_delta",
    "mcp_server",
    "mcp_servers_from_environment",
    "read_mcp_servers",
]

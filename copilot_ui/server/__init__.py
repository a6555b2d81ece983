"""The built-in agent: a pydantic-ai Agent with a deterministic demo model, how the app picks its agent, and how
it is served over AG-UI (agui_app, behind EndpointAccess)."""

from ._agent import INSTRUCTIONS, builtin_agent, builtin_model, builtin_pydantic_agent
from ._app import agui_app
from ._choice import agent_from_environment, agent_headers
from ._demo import demo_model
from ._demo_report import ReportState, demo_backend_tools
from ._demo_script import PHRASES as DEMO_PHRASES
from ._endpoint_access import EndpointAccess, guarded, refusal
from ._shared_state import emit_state_delta

__all__ = [
    "DEMO_PHRASES",
    "INSTRUCTIONS",
    "EndpointAccess",
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
    "guarded",
    "refusal",
]

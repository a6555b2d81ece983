"""Agents: the Agent interface, HttpAgent (any AG-UI server), LocalAgent (pydantic-ai in process),
ScriptedAgent (for tests), the registry, and the Scrubber that keeps their secrets from people and logs.
No Reflex here."""

from ..errors import (
    AgentAborted,
    AgentError,
    AgentHTTPError,
    AgentUnreachable,
    IdleTimeout,
    LimitExceeded,
    MalformedFrame,
    StreamEnded,
    WrongContentType,
)
from ._base import Agent, AgentRun
from ._http import HttpAgent, HttpLimits
from ._local import LocalAgent
from ._registry import AgentRegistry
from ._scripted import Pause, ScriptedAgent
from ._secrets import Scrubber, StreamScrubber, environment_secrets, scrubber_for

__all__ = [
    "Agent",
    "AgentAborted",
    "AgentError",
    "AgentHTTPError",
    "AgentRegistry",
    "AgentRun",
    "AgentUnreachable",
    "HttpAgent",
    "HttpLimits",
    "IdleTimeout",
    "LimitExceeded",
    "LocalAgent",
    "MalformedFrame",
    "Pause",
    "ScriptedAgent",
    "Scrubber",
    "StreamEnded",
    "StreamScrubber",
    "WrongContentType",
    "environment_secrets",
    "scrubber_for",
]

"""Serving a pydantic-ai agent as an AG-UI endpoint (POST /, server-sent events), for other clients and tests."""

from __future__ import annotations

from typing import Any

from pydantic_ai import Agent as PydanticAgent
from pydantic_ai.ui.ag_ui import AGUIAdapter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route


def agui_app(agent: PydanticAgent[Any, Any], *, path: str = "/", deps: Any = None) -> Starlette:
    """A Starlette app that runs the agent for every POSTed RunAgentInput.

    `deps` is the agent's dependencies: an object shared by every request, or a function called for
    each request (needed for StateDeps, whose state the adapter sets from the request).
    """

    async def run(request: Request) -> Response:
        run_deps = deps() if callable(deps) else deps
        return await AGUIAdapter.dispatch_request(request, agent=agent, deps=run_deps)

    return Starlette(routes=[Route(path, run, methods=["POST"])])

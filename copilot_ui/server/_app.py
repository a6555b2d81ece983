"""Serving a pydantic-ai agent as an AG-UI endpoint (POST /, server-sent events), for other clients and tests."""

from __future__ import annotations

from typing import Any

from ag_ui.core import RunAgentInput
from pydantic import ValidationError
from pydantic_ai import Agent as PydanticAgent
from pydantic_ai.ui.ag_ui import AGUIAdapter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..agents._local import context_instructions


def agui_app(agent: PydanticAgent[Any, Any], *, path: str = "/", deps: Any = None) -> Starlette:
    """A Starlette app that runs the agent for every POSTed RunAgentInput, the page's context as instructions.

    `deps` is the agent's dependencies: an object shared by every request, or a function called for
    each request (needed for StateDeps, whose state the adapter sets from the request).
    """

    async def run(request: Request) -> Response:
        run_deps = deps() if callable(deps) else deps
        try:  # the page's context, which pydantic-ai's adapter does not pass to the model by itself
            instructions = context_instructions(RunAgentInput.model_validate_json(await request.body()))
        except ValidationError:
            instructions = None  # the adapter answers the invalid request itself
        return await AGUIAdapter.dispatch_request(request, agent=agent, deps=run_deps, instructions=instructions)

    return Starlette(routes=[Route(path, run, methods=["POST"])])

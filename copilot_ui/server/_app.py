"""Serving an agent as an AG-UI endpoint (POST a RunAgentInput, read server-sent events), for other clients and tests.

The agent runs exactly as the copilot runs it in process (a LocalAgent: the page's context as
instructions, its shared state as deps); this module only adds HTTP around it. Who may call the
endpoint (a token, a size limit, origins) is `_endpoint_access.py`'s concern.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from ag_ui.core import EventType, RunAgentInput, RunErrorEvent
from ag_ui.encoder import EventEncoder
from pydantic import ValidationError
from pydantic_ai import Agent as PydanticAgent
from pydantic_ai.ui.ag_ui import AGUIAdapter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..agents import LocalAgent, Scrubber

# Proxies (nginx and kin) pass server-sent events on as they come, not buffered.
_STREAM_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
_TERMINAL = (EventType.RUN_FINISHED, EventType.RUN_ERROR)


def agui_app(agent: PydanticAgent[Any, Any] | LocalAgent, *, path: str = "/", deps: object = None) -> Starlette:
    """A Starlette app that runs the agent for every POSTed RunAgentInput and streams its events.

    `agent` is a built-in agent (a LocalAgent, with its own deps) or a pydantic-ai Agent; for the
    latter, `deps` is its dependencies: an object shared by every request, or a function called for
    each request (needed for StateDeps, whose state the adapter sets from the request).
    A body that is not JSON gets 415, one that is not a RunAgentInput 422; an error during the run
    ends the stream with RUN_ERROR, its text scrubbed of the environment's secrets.
    """
    local = agent if isinstance(agent, LocalAgent) else LocalAgent(agent, deps=_deps_for_each_run(deps))

    async def run(request: Request) -> Response:
        media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if media_type != "application/json":
            return JSONResponse(
                {"error": f"Send the RunAgentInput as JSON (Content-Type: application/json), not {media_type or 'no type'}."},
                status_code=415,
            )
        try:
            run_input = AGUIAdapter.build_run_input(await request.body())
        except ValidationError as invalid:
            return _invalid_input(invalid)
        encoder = EventEncoder(accept=request.headers.get("accept", ""))
        return StreamingResponse(
            _encoded(local, run_input, encoder), media_type=encoder.get_content_type(), headers=_STREAM_HEADERS
        )

    return Starlette(routes=[Route(path, run, methods=["POST"])])


async def _encoded(agent: LocalAgent, run_input: RunAgentInput, encoder: EventEncoder) -> AsyncIterator[str]:
    """The run's events as the client reads them; a run that breaks off ends with RUN_ERROR, never mid-air."""
    scrubber = Scrubber.from_environment().with_secrets(agent.secrets())
    run = agent.run(run_input)
    ended = False
    try:
        async for event in run:
            if isinstance(event, RunErrorEvent):
                event = event.model_copy(update={"message": scrubber.scrub(event.message)})
            ended = ended or event.type in _TERMINAL
            yield encoder.encode(event)
    except Exception as error:  # the agent's own errors (AgentError) and any other
        if not ended:
            yield encoder.encode(RunErrorEvent(message=scrubber.scrub(str(error) or type(error).__name__)))
    finally:
        await run.aclose()


def _deps_for_each_run(deps: object) -> Callable[[RunAgentInput], object] | None:
    if deps is None:
        return None
    return lambda _run_input: deps() if callable(deps) else deps


def _invalid_input(invalid: ValidationError) -> Response:
    errors = json.loads(invalid.json(include_input=False, include_url=False))
    return JSONResponse({"error": "The body is not an AG-UI RunAgentInput.", "detail": errors}, status_code=422)

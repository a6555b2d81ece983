"""The app's built-in agent served over AG-UI by the app's own backend, for a CopilotKit front end or any AG-UI client.

    app = rx.App(api_transformer=[cui.content_security_policy(), cui.agent_endpoint()])

It is off until COPILOT_AGENT_ENDPOINT_TOKEN is set (read when the backend starts). Then
`POST /copilot/agui` runs the copilot's "default" agent, with its backend tools and shared state,
for whoever sends `Authorization: Bearer <token>`: one RunAgentInput as JSON in, server-sent events
out. What a request must bring (token, size, origin) is copilot_ui.server's EndpointAccess.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable

from ._checks import keywords_checked
from .agents import Agent, LocalAgent
from .server import EndpointAccess, agui_app, guarded, refusal
from .server._endpoint_access import TOKEN_VARIABLE, ASGIApp, Receive, Scope, Send

DEFAULT_PATH = "/copilot/agui"

logger = logging.getLogger("copilot_ui")


@keywords_checked("cui.agent_endpoint")
def agent_endpoint(
    path: str = DEFAULT_PATH,
    agent: str | LocalAgent = "default",
    *,
    token_variable: str = TOKEN_VARIABLE,
    origins: Iterable[str] | None = None,
    max_body_bytes: int | None = None,
) -> Callable[[ASGIApp], ASGIApp]:
    """An `api_transformer` for `rx.App` that serves a built-in agent over AG-UI at `path`, once a token is set.

    `agent` is the id of one of the copilot's agents ("default": the one the app talks to) or a
    LocalAgent. The token is the value of `token_variable`; with none, the path answers 404 saying
    the endpoint is off. `origins` (else COPILOT_AGENT_ENDPOINT_ORIGINS, comma-separated) lists the
    pages a browser may call it from; `max_body_bytes` (else COPILOT_AGENT_ENDPOINT_MAX_BYTES, else
    1,000,000) bounds a request. List one per agent to serve several.
    """
    if not path.startswith("/") or (path.endswith("/") and path != "/"):
        raise ValueError(f"the agent endpoint's path must start with / and not end with one, e.g. {DEFAULT_PATH!r}")

    def serve_agent(app: ASGIApp) -> ASGIApp:
        access = EndpointAccess.from_environment(token_variable=token_variable, origins=origins, max_body_bytes=max_body_bytes)
        return _AtPath(path, _endpoint(path, agent, access, token_variable), app)

    return serve_agent


def _endpoint(path: str, agent: str | LocalAgent, access: EndpointAccess | None, token_variable: str) -> ASGIApp:
    if access is None:
        return refusal(404, f"The agent endpoint is off: set {token_variable} on the server to turn it on.")
    served = _agent(agent)
    name = served.agent_id
    if not isinstance(served, LocalAgent):
        # e.g. COPILOT_AGENT_URL names a remote server: that one is an AG-UI endpoint already.
        logger.warning("The agent endpoint at %s is not served: agent %r is not a built-in agent", path, name)
        message = f"Agent {name!r} is not a built-in agent here; it is an AG-UI server of its own."
        return guarded(refusal(501, message), access)
    origins = ", ".join(sorted(access.origins)) or "none (servers and scripts only)"
    logger.info(
        "Serving agent %r over AG-UI at %s: a token from %s, browsers from %s, requests up to %s bytes",
        *(name, path, token_variable, origins, f"{access.max_body_bytes:,}"),
    )
    return guarded(agui_app(served, path=path), access)


def _agent(agent: str | LocalAgent) -> Agent:
    if not isinstance(agent, str):
        return agent
    from .state import copilot  # the app's agents: the Reflex layer, loaded only when the endpoint is on

    return copilot.agent(agent)


class _AtPath:
    """Sends the requests for one path to the endpoint, and everything else to the app."""

    def __init__(self, path: str, endpoint: ASGIApp, app: ASGIApp) -> None:
        self.path = path
        self.endpoint = endpoint
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and _route_path(scope) == self.path:
            await self.endpoint(scope, receive, send)
        else:
            await self.app(scope, receive, send)


def _route_path(scope: Scope) -> str:
    """The path within the app (the app may be served under a root path)."""
    path, root = scope["path"], scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path

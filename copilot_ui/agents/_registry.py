"""The agents an app can talk to, by id; remote ones found through a CopilotKit-style runtime's `GET /info`."""

from __future__ import annotations

from collections.abc import Mapping

import httpx

from ..errors import AgentError, AgentHTTPError, AgentUnreachable
from ..protocol._json import JSON
from ._base import Agent
from ._http import HttpAgent, HttpLimits, failure_reason, quoted_start, report, request_secrets
from ._httpx_log import hide_in_httpx_log
from ._secrets import Scrubber
from ._tls import new_client
from ._urls import agent_host, logged_url


class AgentRegistry:
    """Agents by id."""

    def __init__(self, *agents: Agent) -> None:
        self._agents: dict[str, Agent] = {}
        for agent in agents:
            self.register(agent)

    def register(self, agent: Agent) -> Agent:
        """Add an agent (replacing one with the same id)."""
        self._agents[agent.agent_id] = agent
        return agent

    def remove(self, agent_id: str) -> None:
        """Forget the agent with this id (if there is one)."""
        self._agents.pop(agent_id, None)

    def get(self, agent_id: str) -> Agent:
        """The agent with this id; KeyError naming the known ids otherwise."""
        try:
            return self._agents[agent_id]
        except KeyError:
            known = ", ".join(sorted(self._agents)) or "none"
            raise KeyError(f"no agent {agent_id!r} (known agents: {known})") from None

    def __contains__(self, agent_id: object) -> bool:
        return agent_id in self._agents

    @property
    def ids(self) -> list[str]:
        """Ids of the registered agents."""
        return sorted(self._agents)

    def secrets(self) -> list[str]:
        """The credentials of every registered agent, which no person and no log may see (see Agent.secrets)."""
        return list(dict.fromkeys(secret for agent in self._agents.values() for secret in agent.secrets()))

    async def discover(
        self,
        runtime_url: str,
        *,
        headers: Mapping[str, str] | None = None,
        limits: HttpLimits | None = None,
        client: httpx.AsyncClient | None = None,
    ) -> list[str]:
        """Register an HttpAgent for every agent a runtime lists at `GET {runtime_url}/info`; returns their ids.

        The runtime's agents run at `POST {runtime_url}/agent/{id}/run`, as CopilotKit's runtime serves them.
        """
        base = runtime_url.rstrip("/")
        info = await _fetch_info(f"{base}/info", dict(headers or {}), client, limits or HttpLimits())
        found: list[str] = []
        for agent_id, description in _listed_agents(info, agent_host(base)):
            self.register(
                HttpAgent(
                    f"{base}/agent/{agent_id}/run", agent_id=agent_id, description=description, headers=headers, limits=limits
                )
            )
            found.append(agent_id)
        return found


async def _fetch_info(url: str, headers: dict[str, str], client: httpx.AsyncClient | None, limits: HttpLimits) -> JSON:
    scrubber = Scrubber(request_secrets(url, headers))
    try:
        return await _get_info(url, headers, client, limits, scrubber)
    except AgentError as error:
        report(error, scrubber, f"agent runtime: GET {logged_url(url)}")
        raise


async def _get_info(
    url: str, headers: dict[str, str], client: httpx.AsyncClient | None, limits: HttpLimits, scrubber: Scrubber
) -> JSON:
    host = agent_host(url)
    hide_in_httpx_log(url)
    owned = client is None
    client = client or new_client(limits.timeout)
    try:
        response = await client.get(url, headers={"Accept": "application/json", **headers})
    except httpx.TransportError as error:
        raise AgentUnreachable(host, failure_reason(error)) from None
    except httpx.InvalidURL as error:
        raise AgentUnreachable(host, f"the URL is not valid ({error})") from None
    finally:
        if owned:
            await client.aclose()
    if response.status_code >= 300:
        raise AgentHTTPError(host, response.status_code, quoted_start(scrubber.scrub(response.text)))
    try:
        return response.json()
    except ValueError:
        raise AgentError(f"the runtime at {host} did not answer /info with JSON; is it a CopilotKit runtime?") from None


def _listed_agents(info: JSON, host: str) -> list[tuple[str, str]]:
    agents = info.get("agents") if isinstance(info, dict) else None
    if isinstance(agents, dict):
        return [(agent_id, _description(entry)) for agent_id, entry in agents.items()]
    if isinstance(agents, list):
        listed: list[tuple[str, str]] = []
        for entry in agents:
            if isinstance(entry, dict) and isinstance(agent_id := entry.get("id") or entry.get("name"), str):
                listed.append((agent_id, str(entry.get("description") or "")))
        return listed
    raise AgentError(f'the /info of the runtime at {host} has no "agents" object; is it a CopilotKit runtime?')


def _description(entry: JSON) -> str:
    return str(entry.get("description") or "") if isinstance(entry, dict) else ""

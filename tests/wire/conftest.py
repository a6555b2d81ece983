"""Wire ring: real HTTP on 127.0.0.1 — pydantic-ai's AG-UI server under uvicorn, a misbehaving one, a hostile one."""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator, Iterator

import pytest
from pydantic_ai.ui import StateDeps

from copilot_ui.server import agui_app

from ..hostile_agent import HostileAgent, start_hostile_agent
from ._misbehaving import MisbehavingServer
from ._peer import Counter, Peer, ScriptedModel, peer_agent
from ._providers import aimock, provider  # noqa: F401 - the provider ring's fixtures
from ._servers import RecordingApp, serve_in_thread


@pytest.fixture
def peer() -> Iterator[Peer]:
    model = ScriptedModel()
    app = RecordingApp(agui_app(peer_agent(model), deps=lambda: StateDeps(Counter())))
    with serve_in_thread(app) as url:
        yield Peer(f"{url}/", model, app.requests)


@pytest.fixture
async def misbehaving() -> AsyncIterator[MisbehavingServer]:
    server = MisbehavingServer()
    await server.start()
    try:
        yield server
    finally:
        await server.close()


@pytest.fixture
def hostile() -> Iterator[HostileAgent]:
    with start_hostile_agent() as server:
        yield server


@pytest.fixture
def ca_bundle_reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """Each time a TLS context reads certificate authorities from now on (httpx's default client reads the whole CA
    bundle, ~19 ms of the event loop, while every tab waits)."""
    reads: list[tuple[object, ...]] = []
    read = ssl.SSLContext.load_verify_locations

    def counted(context: ssl.SSLContext, *args: object, **kwargs: object) -> None:
        reads.append(args)
        read(context, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", counted)
    return reads

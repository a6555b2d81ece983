"""A tab's websocket to a Reflex 0.10.1 backend, as its frontend (reflex_base/.templates/web/utils/state.js) speaks it.

Engine.IO 4 over a websocket to `/_event/?token=<tab token>&EIO=4&transport=websocket`, with Reflex's
version as the subprotocol; Socket.IO packets in the `/_event` namespace on top:
- the CONNECT packet (`40/_event,{...}`) carries the hydrate event (`State.hydrate_and_load`), so the
  backend hydrates the tab as soon as the namespace connects;
- the tab sends events as `42/_event,["event",{"name", "payload", "router_data"}]`;
- the backend sends updates as `42/_event,["event",{"delta": {...}, "events": [...]}]`;
- the backend pings (`2`) every `pingInterval`, the tab answers (`3`).

Nothing here knows the copilot: the names of states and handlers come from the caller.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import reflex as rx
from reflex_base import constants
from reflex_base.utils.form import FORM_DATA_ENTRIES_KEY
from websockets.asyncio.client import ClientConnection, connect

NAMESPACE = str(constants.Endpoint.EVENT)  # "/_event": the path, and the Socket.IO namespace
ROUTER_DATA = {"pathname": "/", "asPath": "/"}  # the page the tab is on
OPEN_TIMEOUT = 60.0  # seconds to connect: a busy backend accepts late


class ConnectRefused(RuntimeError):
    """The backend refused the namespace's CONNECT (its error packet), or closed before it connected."""


@dataclass(frozen=True)
class Update:
    """One update from the backend, stamped when this process read it (time.perf_counter(), s)."""

    time: float
    raw: str  # the websocket message as it came
    delta: dict[str, dict[str, Any]] = field(default_factory=dict)  # state full name -> {var_key(var): new value}
    scripts: tuple[str, ...] = ()  # the `_call_script` events' JavaScript, in order


class ReflexSocket:
    """One tab's connection: `open()`, then `emit(...)` sends events and `async for update in updates()` reads them."""

    def __init__(self, base_url: str, token: str) -> None:
        websocket_base = base_url.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
        self.url = f"{websocket_base}{NAMESPACE}/?token={token}&EIO=4&transport=websocket"
        self.token = token
        self._connection: ClientConnection | None = None
        self._early: list[str] = []  # messages that came with the CONNECT's answer

    async def open(self) -> None:
        """Connect, and hydrate the tab (its first updates wait in `updates()`)."""
        self._connection = await connect(
            self.url,
            subprotocols=[constants.Reflex.VERSION],  # type: ignore[list-item]
            open_timeout=OPEN_TIMEOUT,
            ping_interval=None,  # Engine.IO pings at its own level
            max_size=None,
            proxy=None,
        )
        opening = await self._connection.recv()
        if not str(opening).startswith("0"):
            raise ConnectRefused(f"the backend opened with {str(opening)[:100]!r}")
        hydrate = event(f"{rx.State.get_full_name()}.{constants.CompileVars.HYDRATE_AND_LOAD}", {})
        await self._connection.send(f"40{NAMESPACE},{json.dumps({constants.CompileVars.CONNECT_AUTH_EVENT: hydrate})}")
        await self._until_connected()

    async def close(self) -> None:
        if self._connection is not None:
            await self._connection.close()
            self._connection = None

    async def emit(self, name: str, payload: dict[str, Any]) -> None:
        """Send an event to the backend (`name`: the handler's full name, `State.handler`)."""
        await self._send(f"42{NAMESPACE}," + json.dumps(["event", event(name, payload)]))

    async def updates(self) -> AsyncIterator[Update]:
        """The backend's updates, as they come, until the connection closes (pings are answered here)."""
        assert self._connection is not None
        for raw in self._early:
            if (update := parse_update(raw, time.perf_counter())) is not None:
                yield update
        self._early.clear()
        async for message in self._connection:
            received = time.perf_counter()
            text = message if isinstance(message, str) else message.decode()
            if text == "2":
                await self._send("3")
                continue
            if (update := parse_update(text, received)) is not None:
                yield update

    async def _send(self, text: str) -> None:
        assert self._connection is not None
        await self._connection.send(text)

    async def _until_connected(self) -> None:
        assert self._connection is not None
        async for message in self._connection:
            text = message if isinstance(message, str) else message.decode()
            if text.startswith(f"40{NAMESPACE},"):
                return
            if text.startswith(f"44{NAMESPACE},"):
                raise ConnectRefused(text)
            if text == "2":
                await self._send("3")
            else:
                self._early.append(text)
        raise ConnectRefused("the backend closed the connection before the namespace connected")


def event(name: str, payload: dict[str, Any]) -> dict[str, Any]:
    """An event as the frontend sends it (from the page at `/`)."""
    return {"name": name, "payload": payload, "router_data": dict(ROUTER_DATA)}


def form(*entries: tuple[str, str]) -> dict[str, Any]:
    """A submitted form as the frontend wraps it (its entries in order, so repeated names survive)."""
    return {FORM_DATA_ENTRIES_KEY: [list(entry) for entry in entries]}


def var_key(var: Any) -> str:
    """The key of a state var in a delta (`items` → `items_rx_state_`)."""
    return str(var._js_expr).rpartition(".")[2]


def parse_update(text: str, received: float) -> Update | None:
    """An update from a websocket message received at `received` (None: not an update: a ping, an acknowledgement)."""
    prefix = f"42{NAMESPACE},"
    if not text.startswith(prefix):
        return None
    try:
        name, *arguments = json.loads(text[len(prefix) :])
    except ValueError:
        return None
    if name != str(constants.SocketEvent.EVENT) or not arguments or not isinstance(arguments[0], dict):
        return None
    body = arguments[0]
    scripts = tuple(
        str(item.get("payload", {}).get("javascript_code", ""))
        for item in body.get("events") or ()
        if isinstance(item, dict) and item.get("name") == "_call_script"
    )
    delta = body.get("delta") or {}
    return Update(received, text, delta if isinstance(delta, dict) else {}, scripts)

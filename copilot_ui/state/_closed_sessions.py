"""Nothing sent to a closed tab, and nothing left behind by one: its Reflex state (in memory, and its files on disk) goes
once it is gone a while.

A reply goes on when its tab closes (the conversation is kept whole), but what it shows is sent nowhere: Reflex
drops each send to a tab with no connection and logs it ("Attempting to send delta to disconnected client"), up to
25 times a second while the reply streams. The copilot sends nothing to a tab this worker knows is closed.

Reflex keeps every tab's state until an hour after its last event, whether the tab is open or not;
with many people that is memory the server never gets back while they come and go. A worker
watches the tabs it holds: a tab with no connection for GRACE seconds (a reload or a short network
loss comes back within it, with the same token) has its state released, unless a turn or an agent
task still works for it. A person who comes back later gets a fresh state, and their conversation from the store. An
agent task of the tab's that waits for the person's decision gets a denial instead, and ends.
With Redis, states live there with Reflex's own expiry, and nothing here runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import time
from collections.abc import Callable, Mapping
from typing import Any

from reflex.utils.token_manager import RedisTokenManager
from reflex_base.event.context import EventContext
from reflex_base.registry import RegistrationContext

from .turns import thread_runs

logger = logging.getLogger("copilot_ui.state")

GRACE_VARIABLE = "COPILOT_CLOSED_TAB_SECONDS"  # another grace, e.g. for a benchmark that waits for the release
GRACE = 120.0  # seconds a tab may be without a connection before its state is released
CHECK_EVERY = 30.0

_watching: asyncio.Task[None] | None = None
_busy: list[Callable[[], set[str]]] = []  # besides the turns: what else works for tabs (their tokens)
_released: list[Callable[[str], object]] = []  # told each tab released (its token)


def connected(token: str) -> bool:
    """Whether the tab has a connection; False only when this worker knows it has none (with Redis, Reflex relays what
    is sent to a tab to the worker that holds its connection, wherever that is)."""
    try:
        app = RegistrationContext.get().app
    except LookupError:  # no app (a test of the state's parts): nothing to tell
        return True
    if app._event_processor is None or app.event_namespace is None:  # not served (the testing kit records the sends)
        return True
    tokens = app.event_namespace._token_manager
    return isinstance(tokens, RedisTokenManager) or token in tokens.token_to_socket


def sent_while_connected(context: EventContext) -> EventContext:
    """The event's context, whose changes of state and browser events go to its tab only while it is connected."""
    send_delta, send_events = context.emit_delta_impl, context.emit_event_impl

    async def emit_delta(token: str, delta: Mapping[str, Mapping[str, Any]]) -> None:
        if send_delta is not None and connected(token):
            await send_delta(token, delta)

    async def emit_event(token: str, *events: Any) -> None:
        if send_events is not None and connected(token):
            await send_events(token, *events)

    return dataclasses.replace(context, emit_delta_impl=emit_delta, emit_event_impl=emit_event)


def keep_while_busy(busy: Callable[[], set[str]]) -> None:
    """A tab that `busy()` names keeps its state, however long it has no connection (work under way for it)."""
    _busy.append(busy)


def when_released(told: Callable[[str], object]) -> None:
    """`told(token)` is called for each tab whose state is released (what waits for its person can end)."""
    _released.append(told)


def watch_closed_sessions() -> None:
    """Start this worker's watch once (from a copilot's first event, or an agent task's: the app is running then)."""
    global _watching
    if _watching is None or _watching.done():
        _watching = asyncio.ensure_future(_watch())


async def _watch() -> None:
    from reflex_base.registry import RegistrationContext

    app = RegistrationContext.get().app
    gone_since: dict[str, float] = {}
    grace = _grace()
    while True:
        await asyncio.sleep(min(CHECK_EVERY, grace / 4))
        try:
            release_closed(app.state_manager, app.event_namespace, gone_since, time.monotonic(), grace)
        except Exception:  # Reflex's internals moved: the states expire an hour after their last event, as before
            logger.exception("releasing the states of closed tabs failed; they expire with Reflex's own timeout")
            return


def release_closed(manager: Any, namespace: Any, gone_since: dict[str, float], now: float, grace: float = GRACE) -> int:
    """Release the states of the tabs without a connection for `grace` seconds; how many were released.

    `gone_since` remembers since when each tab held here has had no connection (updated in place).
    """
    tokens = _held_tokens(manager)
    if tokens is None or namespace is None:
        return 0
    connected = namespace._token_manager.token_to_socket
    running = {thread_run.tab.token for thread_run in thread_runs.all_running()}.union(*(busy() for busy in _busy))
    released = 0
    for token in tokens:
        if token.ident in connected or token.ident in running or _locked(manager, token):
            gone_since.pop(token.ident, None)
            continue
        if now - gone_since.setdefault(token.ident, now) < grace:
            continue
        files = _files_of(manager, token)
        manager._purge_token(token)
        for path in files:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        gone_since.pop(token.ident, None)
        released += 1
        for told in _released:
            told(token.ident)
    held = {token.ident for token in tokens}
    for ident in [ident for ident in gone_since if ident not in held]:
        del gone_since[ident]
    return released


def _grace() -> float:
    raw = os.environ.get(GRACE_VARIABLE, "").strip()
    try:
        return max(1.0, float(raw)) if raw else GRACE
    except ValueError:
        logger.warning("%s must be a number of seconds; it is %r, so tabs are released after %.0f s", GRACE_VARIABLE, raw, GRACE)
        return GRACE


def _held_tokens(manager: Any) -> list[Any] | None:
    """The tokens of the states this worker holds in memory (None: a manager that keeps none, such as Redis's)."""
    for book in ("_token_last_touched", "_token_expires_at"):  # the disk manager's, the memory manager's
        entries = getattr(manager, book, None)
        if isinstance(entries, dict):
            return [token for _, token in list(entries.values())]
    return None


def _files_of(manager: Any, token: Any) -> list[Any]:
    """The files the disk manager keeps of a tab's state: one per state of its tree (none for other managers)."""
    if not hasattr(manager, "token_path"):
        return []
    paths, trees = [], [manager.states.get(token.cache_key)]
    while trees:
        state = trees.pop()
        if state is not None:
            paths.append(manager.token_path(token.with_cls(type(state))))
            trees.extend(state.substates.values())
    return paths


def _locked(manager: Any, token: Any) -> bool:
    lock = getattr(manager, "_states_locks", {}).get(token.lock_key)
    return lock is not None and lock.locked()

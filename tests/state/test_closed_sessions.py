"""A closed tab leaves nothing behind: its Reflex state, in memory and on disk, goes once it has had no connection for
a while; an open tab's, or one a drive still works for, stays."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from reflex.istate.manager.disk import StateManagerDisk
from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.manager.token import BaseStateToken
from reflex.state import State

from copilot_ui.state import CopilotState
from copilot_ui.state._closed_sessions import release_closed


def namespace(*connected: str) -> SimpleNamespace:
    """Reflex's event namespace as the watch reads it: the tabs connected to this worker."""
    return SimpleNamespace(_token_manager=SimpleNamespace(token_to_socket=dict.fromkeys(connected)))


async def touch(manager, ident: str) -> BaseStateToken:
    token = BaseStateToken(ident=ident, cls=State)
    async with manager.modify_state(token) as state:
        (await state.get_state(CopilotState)).thread_id = f"thread-of-{ident}"
    return token


def state_files(folder) -> set:
    return {path for path in folder.iterdir() if path.suffix == ".pkl"}


async def test_a_tab_gone_past_the_grace_is_released_from_memory_and_disk(tmp_path, monkeypatch):
    monkeypatch.setenv("REFLEX_STATES_WORKDIR", str(tmp_path))
    manager = StateManagerDisk(_write_debounce_seconds=0)
    closed = await touch(manager, "closed-tab")
    closed_files = state_files(tmp_path)
    open_tab = await touch(manager, "open-tab")
    open_files = state_files(tmp_path) - closed_files
    assert closed_files and open_files  # a file per state of each tab's tree

    gone: dict[str, float] = {}
    assert release_closed(manager, namespace("open-tab"), gone, now=0.0, grace=60) == 0  # gone only now
    assert release_closed(manager, namespace("open-tab"), gone, now=59.0, grace=60) == 0
    assert release_closed(manager, namespace("open-tab"), gone, now=61.0, grace=60) == 1

    assert closed.cache_key not in manager.states
    assert open_tab.cache_key in manager.states
    assert state_files(tmp_path) == open_files
    await manager.close()


async def test_a_tab_that_comes_back_within_the_grace_keeps_its_state():
    manager = StateManagerMemory()
    token = await touch(manager, "reloading-tab")
    gone: dict[str, float] = {}
    release_closed(manager, namespace(), gone, now=0.0, grace=60)  # the page reloads: no connection for a moment
    release_closed(manager, namespace("reloading-tab"), gone, now=30.0, grace=60)  # back
    assert release_closed(manager, namespace(), gone, now=80.0, grace=60) == 0  # counted from its new absence
    assert token.cache_key in manager.states
    assert release_closed(manager, namespace(), gone, now=141.0, grace=60) == 1
    await manager.close()
    await asyncio.sleep(0)

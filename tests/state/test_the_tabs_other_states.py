"""With Redis, a block of the tab (a turn's claim, each change it shows) reads the tab's other states as another event
left them: the status, the approval dialog's state, the page's states. They come in one request, not one each. A real
redis-server and Reflex's Redis state manager."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
import reflex as rx
from redis.asyncio import Redis
from reflex.istate.data import SessionData
from reflex.istate.manager.redis import StateManagerRedis
from reflex.istate.manager.token import BaseStateToken

from copilot_ui.state import _tab
from copilot_ui.state._approval import ApprovalState
from copilot_ui.state._copilot import CopilotState
from copilot_ui.state._live import LiveState


class Requests:
    """The requests a Redis client makes, by command."""

    def __init__(self, redis: Redis) -> None:
        self.made: list[str] = []
        execute = redis.execute_command

        async def counted(*args: object, **options: object) -> object:
            self.made.append(str(args[0]).upper())
            return await execute(*args, **options)

        redis.execute_command = counted  # type: ignore[method-assign]


@pytest.fixture
async def manager(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[StateManagerRedis]:
    redis = Redis.from_url(redis_url)
    state_manager = StateManagerRedis(redis=redis)
    monkeypatch.setattr(_tab, "get_state_manager", lambda: state_manager)
    yield state_manager
    await redis.aclose()


def substate(root: rx.State, state_type: type[rx.State]) -> rx.State:
    return root.get_substate(state_type._get_substate_path())


async def test_a_block_reads_the_tabs_other_states_as_stored_in_one_request(manager: StateManagerRedis):
    ident = uuid.uuid4().hex
    earlier = await manager.get_state(BaseStateToken(ident=ident, cls=LiveState))  # another event of the tab
    await manager.get_state(BaseStateToken(ident=ident, cls=ApprovalState), for_state_instance=earlier)
    substate(earlier, LiveState).status = "Running set_theme…"
    substate(earlier, ApprovalState)._dismissed = ["item-7"]  # the person closed that card's dialog
    await manager.set_state(BaseStateToken(ident=ident, cls=LiveState), earlier)

    root = await manager.get_state(BaseStateToken(ident=ident, cls=CopilotState))  # as a block of the tab locks it
    tab = substate(root, CopilotState)
    root.rx_router_session = SessionData(client_token=ident)
    assert LiveState.get_name() not in root.substates, "the tab's other states were there before the block read them"
    requests = Requests(manager.redis)

    await _tab.other_states_loaded(tab, (LiveState, ApprovalState))  # type: ignore[arg-type]

    assert requests.made == ["MGET"], f"the tab's other states took {requests.made}"
    assert substate(root, LiveState).status == "Running set_theme…"
    assert substate(root, ApprovalState)._dismissed == ["item-7"], "a dismissed dialog would open again"
    await _tab.other_states_loaded(tab, (LiveState, ApprovalState))  # type: ignore[arg-type]
    assert requests.made == ["MGET"], "states the tab holds were fetched again"

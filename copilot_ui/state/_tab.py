"""StateTab: a tab's CopilotState as the turns of its conversation reach it (the `turns.Tab` a turn uses).

Reflex sends a change of the state to the tab named by the running task's event context, not by the state. A turn
is also reached from tasks of other events (a control from another worker, a message from another tab of the
conversation), whose changes would go to that other tab: so every block here runs in the context of the event that
made this tab.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import TYPE_CHECKING, Any

from reflex_base.event.context import EventContext

from ..core import Thread
from ._agent_choice import agent_for_turn
from ._closed_sessions import connected, sent_while_connected
from ._owner import owner_of_tab
from ._reopening import current_or_stored
from ._tab_conversation import say_running, show_run
from .sink import ViewUpdate
from .turns import Refused
from .view import Conversation

if TYPE_CHECKING:
    from ._copilot import CopilotState


class StateTab:
    """The tab of a CopilotState, for the turns of its conversation."""

    def __init__(self, state: CopilotState) -> None:
        self._state = state
        self.token = state.router.session.client_token
        self.page = state.router.url.path or "/"
        self.browser_answer = state.__class__.browser_result  # (`__class__`: a background event's state is a proxy)
        self._event = sent_while_connected(EventContext.get())  # (a reply goes on when the tab closes: sent nowhere)

    @contextlib.asynccontextmanager
    async def locked(self) -> AsyncIterator[CopilotState]:
        with self._own_context():
            async with self._state:  # `async with` a background event's state locks it
                yield self._state

    @contextlib.contextmanager
    def _own_context(self) -> Iterator[None]:
        reset = EventContext.set(self._event)
        try:
            yield
        finally:
            EventContext.reset(reset)

    def connected(self) -> bool:
        return connected(self.token)

    async def owner(self) -> str:
        return await owner_of_tab(self._state)

    async def conversation(self, owner: str) -> tuple[Thread, Conversation]:
        return await current_or_stored(self._state, owner)

    def agent(self, asked: str, thread: Thread, conversation: Conversation) -> str | Refused:
        return agent_for_turn(self._state, asked, thread, conversation)

    async def page_state(self, state_type: type) -> Any:
        return await self._state.get_state(state_type)

    async def show(self, shown: ViewUpdate) -> None:
        with self._own_context():
            await show_run(self._state, shown)

    async def running(self, running: bool, status: str = "", dev: str = "") -> None:
        async with self.locked():
            await say_running(self._state, running, status, dev)

    async def say_running(self, running: bool, status: str = "", dev: str = "") -> None:
        await say_running(self._state, running, status, dev)

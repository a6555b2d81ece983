"""The person's session states, as tools reach them: never holding the session's lock while a tool waits.

Reflex locks a tab's whole state tree for each change. A tool declared with `state=` that held the
lock for its whole run would freeze the tab and make Stop, Approve and Deny wait for it. So its
handler runs on a detached copy of the state, outside the lock; when it returns, the fields it
changed are written to the live state in one short block (a tool that fails changes nothing). A
field the person changed meanwhile is overwritten by the tool's value, and the server log says so.

A long tool that wants the page to change while it works takes short blocks of its own through
`ToolContext.state(SomeState)`.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

from ..declarations import detached, field_value, field_values
from ._tab import Tab

logger = logging.getLogger("copilot_ui.state")


class SessionStates:
    """The StateAccess of the run loop for one tab."""

    def __init__(self, tab: Tab) -> None:
        self._tab = tab

    @asynccontextmanager
    async def open(self, state_type: type) -> AsyncIterator[Any]:
        """A short block with the live state of this type; keep it short, it locks the tab."""
        async with self._tab.locked():
            yield await self._tab.page_state(state_type)

    async def run_with(self, state_type: type, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        """Run a tool's handler on a copy of the state; what it changed reaches the live state after it returns."""
        async with self._tab.locked():
            before = field_values(await self._tab.page_state(state_type))
        working = detached(state_type, before)
        result = await handler(working)
        changed = {name: value for name, value in field_values(working).items() if value != before.get(name)}
        if changed:
            async with self._tab.locked():
                live = await self._tab.page_state(state_type)
                for name, value in changed.items():
                    if field_value(live, name) != before[name]:
                        logger.warning("%s.%s changed while a tool ran; the tool's value wins", state_type.__name__, name)
                    setattr(live, name, value)
        return result

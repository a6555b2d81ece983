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

import copy
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

logger = logging.getLogger("copilot_ui.state")


class SessionStates:
    """The StateAccess of the run loop for one tab: `owner` is a state of that tab (a background task's)."""

    def __init__(self, owner: Any) -> None:
        self._owner = owner

    @asynccontextmanager
    async def open(self, state_type: type) -> AsyncIterator[Any]:
        """A short block with the live state of this type; keep it short, it locks the tab."""
        async with self._owner:
            yield await self._owner.get_state(state_type)

    async def run_with(self, state_type: type, handler: Callable[[Any], Awaitable[Any]]) -> Any:
        """Run a tool's handler on a copy of the state; what it changed reaches the live state after it returns."""
        async with self._owner:
            before = field_values(await self._owner.get_state(state_type))
        working = detached(state_type, before)
        result = await handler(working)
        changed = {name: value for name, value in field_values(working).items() if value != before.get(name)}
        if changed:
            async with self._owner:
                live = await self._owner.get_state(state_type)
                for name, value in changed.items():
                    if field_value(live, name) != before[name]:
                        logger.warning("%s.%s changed while a tool ran; the tool's value wins", state_type.__name__, name)
                    setattr(live, name, value)
        return result


def field_values(state: Any) -> dict[str, Any]:
    """Deep copies of the values of the fields a state class declares itself (not computed vars)."""
    cls = type(state) if not hasattr(state, "__wrapped__") else type(state.__wrapped__)
    return {name: copy.deepcopy(field_value(state, name)) for name in own_fields(cls)}


def detached(state_type: type, values: dict[str, Any]) -> Any:
    """An instance of the state class outside the tab's state tree, holding copies of these values."""
    copies = {name: copy.deepcopy(value) for name, value in values.items()}
    return state_type(parent_state=None, init_substates=False, _reflex_internal_init=True, **copies)


def own_fields(cls: type) -> list[str]:
    """The fields a state class declares itself (not its parents', not the router)."""
    fields = getattr(cls, "__fields__", {})
    return [name for name, field in fields.items() if getattr(field, "_owner", cls) is cls and not name.startswith("router")]


def field_value(state: Any, name: str) -> Any:
    """A field's value, from a live state (its get_value) or a detached one."""
    getter = getattr(state, "get_value", None)
    return getter(name) if getter is not None else getattr(state, name)

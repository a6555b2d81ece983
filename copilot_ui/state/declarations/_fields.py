"""A Reflex state's own fields: read from the live state of a tab or from a detached copy, copied, made into a copy.

What the agent's state mirrors (`_agent_states`) and what a tool with `state=` works on
(`turns/_session_states`) are the fields a state class declares itself: not its parents', not
computed vars, not the router.
"""

from __future__ import annotations

import copy
from typing import Any


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

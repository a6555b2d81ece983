"""JSON values as they cross the wire: tool arguments, results, shared state, context, what a runtime answers."""

from __future__ import annotations

from typing import TypeAlias, TypeGuard

JSON: TypeAlias = "dict[str, JSON] | list[JSON] | str | int | float | bool | None"
JSONObject: TypeAlias = "dict[str, JSON]"


def is_object(value: object) -> TypeGuard[JSONObject]:
    """Whether a parsed JSON value is an object (a dict from json.loads has str keys and JSON values)."""
    return isinstance(value, dict)

"""A handler's return value as the text of a tool result: None → "", str as is, models and data → JSON."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from pydantic import BaseModel


def result_text(value: Any) -> str:
    """The text the agent reads for a handler's return value."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, BaseModel):
        return value.model_dump_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return json.dumps(dataclasses.asdict(value), default=str, ensure_ascii=False)
    try:
        return json.dumps(value, default=_jsonable, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


def error_text(message: str) -> str:
    """The text of an error result (CopilotKit's form, which agents already understand)."""
    return f"Error: {message}"

"""Frames to typed events: one JSON object per frame, validated by ag_ui.core's models.

An event type this client does not know (a newer protocol, a vendor extension) is skipped with a
logged warning, as the reference client does; unknown fields of a known event are kept; a known
field with a value of the wrong type is a protocol error. The THINKING_* events of servers older
than AG-UI 1.0 are read as the REASONING_* events that replaced them (_thinking_0_1).
"""

from __future__ import annotations

import logging

from ag_ui.core import BaseEvent, Event
from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from ..errors import ProtocolError
from ._json import JSON, JSONObject
from ._rules import Rule
from ._thinking_0_1 import THINKING_TYPES, ThinkingTranslator

logger = logging.getLogger("copilot_ui.protocol")

_EVENT = TypeAdapter(Event)
# The validators themselves, for the hot path: they raise ValidationError, see reject_frame.
validate_event_json = _EVENT.validator.validate_json
validate_event_object = _EVENT.validator.validate_python


class EventParser:
    """Parses the frames of one stream: the THINKING_* events of an older server keep their ids across frames."""

    def __init__(self) -> None:
        self.thinking = ThinkingTranslator()

    def parse(self, frame: str | bytes | JSONObject) -> BaseEvent | None:
        """Parse one frame; None for an event type this client does not know."""
        try:
            return validate_event_object(frame) if isinstance(frame, dict) else validate_event_json(frame)
        except ValidationError as error:
            return reject_frame(frame, error, self.thinking)


def parse_event(frame: str | bytes | JSONObject) -> BaseEvent | None:
    """Parse one frame on its own (a stream's frames go through one EventParser); None for an unknown type."""
    try:
        return validate_event_object(frame) if isinstance(frame, dict) else validate_event_json(frame)
    except ValidationError as error:
        return reject_frame(frame, error, ThinkingTranslator())


def reject_frame(frame: str | bytes | JSONObject, error: ValidationError, thinking: ThinkingTranslator) -> BaseEvent | None:
    """Why a frame did not parse: its REASONING_* event for a THINKING_* one, None (with a warning) for an
    unknown event type, else ProtocolError."""
    first = error.errors(include_url=False)[0]
    if first["type"] == "json_invalid":
        raise ProtocolError(Rule.NOT_JSON, f"the frame is not valid JSON ({first['msg']}): {_start(frame)}") from None
    if first["loc"] == () and first["type"] in ("dict_type", "model_attributes_type"):  # JSON / Python
        raise ProtocolError(Rule.NOT_JSON, f"the frame is not a JSON object: {_start(frame)}") from None
    if first["loc"] == () and first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        received: JSON = first["input"]
        event_type = received.get("type") if isinstance(received, dict) else None
        if isinstance(received, dict) and isinstance(event_type, str) and event_type in THINKING_TYPES:
            return _translated(received, event_type, thinking)
        if isinstance(event_type, str):
            logger.warning("skipping an AG-UI event of unknown type %r", event_type)
            return None
        raise ProtocolError(Rule.SCHEMA, f"the event has no string 'type': {_start(frame)}") from None
    event_type = str(first["loc"][0]) if first["loc"] else None
    problems = "; ".join(_describe(item) for item in error.errors(include_url=False)[:5])
    in_patch = event_type in ("STATE_DELTA", "ACTIVITY_DELTA") and first["loc"][1:2] in (("delta",), ("patch",))
    raise ProtocolError(Rule.INVALID_PATCH if in_patch else Rule.SCHEMA, problems, event_type=event_type) from None


def _translated(frame: JSONObject, kind: str, thinking: ThinkingTranslator) -> BaseEvent:
    try:
        return validate_event_object(thinking.translate(frame, kind))
    except ValidationError as error:  # named as the server sent it, not as it was translated
        problems = "; ".join(_describe(item) for item in error.errors(include_url=False)[:5])
        raise ProtocolError(Rule.SCHEMA, problems, event_type=kind) from None


def _describe(item: ErrorDetails) -> str:
    path = ".".join(str(part) for part in item["loc"][1:]) or "(event)"
    return f"{path}: {item['msg']}"


def _start(frame: str | bytes | JSONObject, limit: int = 120) -> str:
    text = (frame.decode("utf-8", "replace") if isinstance(frame, bytes) else str(frame)).strip()
    return text if len(text) <= limit else text[:limit] + "…"

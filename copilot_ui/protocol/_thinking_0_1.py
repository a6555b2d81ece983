"""THINKING_* events of pre-1.0 servers, read as the REASONING_* events that replaced them in AG-UI 1.0.

An AG-UI 0.1 server streams its reasoning as THINKING_START / THINKING_TEXT_MESSAGE_START /
_CONTENT / _END / THINKING_END; 1.0 removed those types, so ag_ui.core no longer parses them. The
reference client translates them at its compatibility boundary, and so does this module, with the
same state machine: an opener gets a fresh id, and the events that continue it carry that id (THINKING
events name no id of their own). A continuation without an opener gets a minted id, which the
sequence rules then reject as naming nothing that was opened, as the reference client does.
THINKING_START's `title` has no place in REASONING_START and is dropped.
"""

from __future__ import annotations

import logging
import uuid

from ._json import JSONObject

logger = logging.getLogger("copilot_ui.protocol")

THINKING_TYPES = frozenset(
    {
        "THINKING_START",
        "THINKING_END",
        "THINKING_TEXT_MESSAGE_START",
        "THINKING_TEXT_MESSAGE_CONTENT",
        "THINKING_TEXT_MESSAGE_END",
    }
)


class ThinkingTranslator:
    """Turns the THINKING_* frames of one stream into REASONING_* frames (camelCase dicts, not yet validated)."""

    def __init__(self) -> None:
        self._span_id: str | None = None  # the open THINKING_START
        self._message_id: str | None = None  # the open THINKING_TEXT_MESSAGE_START
        self._warned = False

    def translate(self, frame: JSONObject, kind: str) -> JSONObject:
        """The REASONING_* frame standing for this THINKING_* frame (`kind`, its type)."""
        self._warn_once(kind)
        rest = {key: value for key, value in frame.items() if key != "type"}
        if kind == "THINKING_START":
            rest.pop("title", None)
            self._span_id = _new_id()
            return {**rest, "type": "REASONING_START", "messageId": self._span_id}
        if kind == "THINKING_TEXT_MESSAGE_START":
            self._message_id = _new_id()
            return {**rest, "type": "REASONING_MESSAGE_START", "messageId": self._message_id, "role": "reasoning"}
        if kind == "THINKING_TEXT_MESSAGE_CONTENT":
            return {**rest, "type": "REASONING_MESSAGE_CONTENT", "messageId": self._continued(self._message_id, kind)}
        if kind == "THINKING_TEXT_MESSAGE_END":
            message_id, self._message_id = self._continued(self._message_id, kind), None
            return {**rest, "type": "REASONING_MESSAGE_END", "messageId": message_id}
        span_id, self._span_id = self._continued(self._span_id, kind), None
        return {**rest, "type": "REASONING_END", "messageId": span_id}

    def _continued(self, opened: str | None, kind: str) -> str:
        if opened is not None:
            return opened
        minted = _new_id()
        logger.warning("%s continues no open THINKING opener; it gets the made-up id %r, which names nothing", kind, minted)
        return minted

    def _warn_once(self, kind: str) -> None:
        if not self._warned:
            self._warned = True
            logger.warning("the agent sends %s, an event of AG-UI before 1.0; it is read as its REASONING_* equivalent", kind)


def _new_id() -> str:
    return f"thinking-{uuid.uuid4().hex}"

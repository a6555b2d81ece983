"""One stream of AG-UI events, verified and applied to a thread: chunks expanded, order checked, applied.

This is the reference client's pipeline (transformChunks → verifyEvents → defaultApplyEvents) in
one object. A protocol error names the rule, the index of the event in the stream and its type.
"""

from __future__ import annotations

from ag_ui.core import BaseEvent
from pydantic import ValidationError

from ..errors import ProtocolError
from ._apply import EventApplier
from ._chunks import CHUNK_TYPES, ChunkExpander
from ._json import JSONObject
from ._parse import reject_frame, validate_event_json, validate_event_object
from ._thinking_0_1 import ThinkingTranslator
from ._thread import AGUIThread
from ._verify import SequenceVerifier


class EventPipeline:
    """Feeds events of one stream into a thread."""

    def __init__(self, thread: AGUIThread) -> None:
        self.thread = thread
        self.index = -1  # index of the last event fed
        self._expander = ChunkExpander()
        self._verifier = SequenceVerifier()
        self._applier = EventApplier(thread)
        self._thinking = ThinkingTranslator()  # THINKING_* events of an older server, as REASONING_*

    @property
    def run_open(self) -> bool:
        """A run has started and not yet ended."""
        return self._verifier.run_open

    def feed(self, event: BaseEvent) -> tuple[BaseEvent, ...]:
        """Verify and apply one event; returns the events it stands for (chunks expanded)."""
        self.index += 1
        try:
            if self._expander.idle and event.type not in CHUNK_TYPES:
                self._verifier.verify(event)
                self._applier.apply(event)
                return (event,)
            events = self._expander.expand(event)
            for expanded in events:
                self._verifier.verify(expanded)
                self._applier.apply(expanded)
        except ProtocolError as error:
            raise error.at(self.index, event.type.value, event.model_dump_json(by_alias=True)) from None
        return events

    def feed_frame(self, frame: str | bytes | JSONObject) -> tuple[BaseEvent, ...]:
        """Parse, verify and apply one frame; an event of unknown type is skipped (it still counts)."""
        try:
            event = validate_event_object(frame) if isinstance(frame, dict) else validate_event_json(frame)
        except ValidationError as invalid:
            event = self._rejected(frame, invalid)
        if event is None:
            self.index += 1
            return ()
        return self.feed(event)

    def _rejected(self, frame: str | bytes | JSONObject, invalid: ValidationError) -> BaseEvent | None:
        try:
            return reject_frame(frame, invalid, self._thinking)
        except ProtocolError as error:
            self.index += 1
            text = frame.decode("utf-8", "replace") if isinstance(frame, bytes) else str(frame)
            raise error.at(self.index, None, text.strip()) from None

    def finish(self) -> None:
        """The stream ended: check that no run was left open."""
        try:
            self._verifier.finish()
        except ProtocolError as error:
            raise error.at(self.index + 1, "end of stream") from None

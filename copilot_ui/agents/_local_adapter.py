"""pydantic-ai's AG-UI adapter as LocalAgent runs it: the same events, with a run's error explained and scrubbed of
the environment's secrets, and the event of a piece of text made in one step.

A piece of text is the event a run sends most. pydantic-ai's event stream hands it down four nested async
generators before it makes its TEXT_MESSAGE_CONTENT; `LocalEventStream` makes that event at once (the piece, the
message id the stream keeps, a timestamp) and leaves every other event to pydantic-ai's own handlers.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ag_ui.core import BaseEvent, RunErrorEvent, TextMessageContentEvent
from pydantic_ai.messages import PartDeltaEvent, PartStartEvent, TextPartDelta
from pydantic_ai.ui import NativeEvent
from pydantic_ai.ui.ag_ui import AGUIAdapter, AGUIEventStream

from ..errors import RunFailed
from ._secrets import environment_secrets, scrubber_for

if TYPE_CHECKING:
    from ._local import ExplainError


@dataclass
class LocalEventStream(AGUIEventStream[Any, Any]):
    """pydantic-ai's AG-UI event stream, with a text piece's event made at once and errors explained."""

    explain_error: ExplainError | None = None
    replied: bool = field(default=False, init=False)  # part of a reply arrived (a part started)

    async def handle_event(self, event: NativeEvent) -> AsyncIterator[BaseEvent]:
        if isinstance(event, PartDeltaEvent) and isinstance(event.delta, TextPartDelta):
            if event.delta.content_delta:  # (as pydantic-ai's handle_text_delta, with its timestamp)
                yield TextMessageContentEvent(
                    message_id=self.message_id, delta=event.delta.content_delta, timestamp=self._get_timestamp()
                )
            return
        if isinstance(event, PartStartEvent):
            self.replied = True
        async for agui_event in super().handle_event(event):
            yield agui_event

    def _record_part_delta(self, event: PartDeltaEvent) -> None:
        # pydantic-ai keeps each delta of the open part to rebuild it for an end event on error; a text part's end
        # (TEXT_MESSAGE_END) names only the message, so a reply's pieces need not stay alive for the whole run.
        if not isinstance(event.delta, TextPartDelta):
            super()._record_part_delta(event)

    async def on_error(self, error: Exception) -> AsyncIterator[BaseEvent]:
        message = self.explain_error(error, self.replied) if self.explain_error is not None else None
        scrubber = scrubber_for(environment_secrets())  # a backend tool's exception may quote a key it holds
        async for agui_event in super().on_error(RunFailed(message) if message is not None else error):
            if isinstance(agui_event, RunErrorEvent):
                agui_event = agui_event.model_copy(update={"message": scrubber.scrub(agui_event.message)})
            yield agui_event


@dataclass
class LocalAdapter(AGUIAdapter[Any, Any]):
    """pydantic-ai's AGUIAdapter, its events made by a LocalEventStream."""

    explain_error: ExplainError | None = None

    def build_event_stream(self) -> LocalEventStream:
        return LocalEventStream(  # (as AGUIAdapter.build_event_stream makes its own)
            self.run_input,
            accept=self.accept,
            ag_ui_version=self.ag_ui_version,
            include_usage=self.include_usage,
            manage_system_prompt=self.manage_system_prompt,
            preserve_file_data=self.preserve_file_data,
            explain_error=self.explain_error,
        )

"""Loop events into the sidebar's states, coalesced: a few dozen writes a second, however fast tokens come.

Events only change buffers here; a flush writes them into Reflex state inside one short
`async with` block (each entry locks, loads and saves the state, and sends one delta). A flush runs
at most every `interval` seconds while events arrive, and at once when the loop commits (before a
follow-up run) and when the turn ends. Finished messages join the list of items at message
boundaries; what is still being written lives in LiveState, whose size does not grow with the
conversation.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from ..core import (
    AgentRunStarted,
    AwaitingPerson,
    ErrorOccurred,
    LoopEvent,
    MessageEnded,
    MessageStarted,
    TextDelta,
    Thread,
    ToolCallArguments,
    ToolCallEnded,
    ToolCallStarted,
    ToolExecutionEnded,
    ToolExecutionStarted,
    ToolProgress,
    TurnEnded,
    TurnStarted,
    parse_arguments,
)
from ..protocol import new_id
from ._items import ChatItem
from ._live import LiveState

FLUSH_INTERVAL = 0.04  # seconds: about 25 writes a second at most


class ViewSink:
    """Buffers what a run shows and writes it into the sidebar's states."""

    def __init__(self, state: Any, thread: Thread, cards: list[ChatItem] = (), interval: float = FLUSH_INTERVAL) -> None:
        self._state = state  # the CopilotState of the background task
        self._thread = thread
        self._interval = interval
        self._finished: list[ChatItem] = []  # items to append to the list at the next flush
        self._text: list[str] = []
        self._tools: dict[str, ChatItem] = {card.id: _copy(card) for card in cards}  # cards still live (waiting)
        self._streaming_arguments: set[str] = set()
        self._status = ""
        self._queued: list[ChatItem] = []  # messages the person sent during the run, shown when they go
        self._dirty = False
        self._shown: tuple[str, list[ChatItem], str] | None = None
        self._last_flush = 0.0
        self._scheduled: asyncio.Task[None] | None = None
        self._lock = asyncio.Lock()

    # Events

    def emit(self, event: LoopEvent) -> None:
        """Take one loop event (never blocks); a flush follows within the interval."""
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)
            self._dirty = True
            self._schedule()

    def queue_user_message(self, text: str) -> None:
        """The person wrote during the run: shown when it goes to the agent, after the reply being written."""
        self._queued.append(ChatItem(id=new_id("user-"), kind="user", text=text))

    def _turn_started(self, _event: TurnStarted) -> None:
        self._status = "Thinking…"

    def _run_started(self, _event: AgentRunStarted) -> None:
        self._release_queued()
        self._status = "Thinking…"

    def _message_started(self, _event: MessageStarted) -> None:
        self._end_text()

    def _text_delta(self, event: TextDelta) -> None:
        self._text.append(event.delta)
        self._status = ""

    def _message_ended(self, _event: MessageEnded) -> None:
        self._end_text()

    def _tool_started(self, event: ToolCallStarted) -> None:
        self._end_text()
        self._tools[event.call_id] = ChatItem(id=event.call_id, kind="tool", tool_name=event.tool_name, status="streaming")

    def _tool_arguments(self, event: ToolCallArguments) -> None:
        self._streaming_arguments.add(event.call_id)

    def _tool_ended(self, event: ToolCallEnded) -> None:
        self._streaming_arguments.discard(event.call_id)
        card = self._tools.get(event.call_id)
        call = self._thread.tool_call(event.call_id)
        if card is not None and call is not None:
            try:
                card.arguments = _pretty(parse_arguments(call))
            except ValueError:
                card.arguments = call.function.arguments
            card.status = "pending"

    def _execution_started(self, event: ToolExecutionStarted) -> None:
        card = self._card(event.call_id, event.tool_name)
        card.arguments = _pretty(event.arguments)
        card.status = "running"
        self._status = f"Running {event.tool_name}…"

    def _progress(self, event: ToolProgress) -> None:
        card = self._tools.get(event.call_id)
        if card is not None:
            share = f"{round(event.fraction * 100)}%" if event.fraction is not None else ""
            card.progress = " ".join(part for part in (share, event.message) if part)

    def _awaiting(self, event: AwaitingPerson) -> None:
        card = self._card(event.call_id, event.tool_name)
        card.arguments = card.arguments or _pretty(event.arguments)
        card.status = "awaiting_approval" if event.kind == "approval" else "awaiting_input"
        card.progress = event.message
        self._status = ""

    def _execution_ended(self, event: ToolExecutionEnded) -> None:
        card = self._tools.pop(event.call_id, None) or ChatItem(id=event.call_id, kind="tool", tool_name=event.tool_name)
        self._streaming_arguments.discard(event.call_id)
        card.result = event.result
        card.status = event.status if event.status != "complete" or not event.is_error else "error"
        card.progress = ""
        self._finished.append(card)
        self._status = "Thinking…" if not self._tools else self._status

    def _error(self, event: ErrorOccurred) -> None:
        self._end_text()
        self._finished.append(ChatItem(id=new_id("error-"), kind="error", text=event.message))

    def _turn_ended(self, event: TurnEnded) -> None:
        self._release_queued()
        self._status = ""
        if event.status in ("aborted", "stopped"):  # a turn limit already shows as an error item
            note = "Stopped." if event.status == "aborted" else f"Stopped: {event.message}"
            self._finished.append(ChatItem(id=new_id("note-"), kind="notice", text=note))

    def _release_queued(self) -> None:
        """The reply being written ends, then the messages the person queued show, as they now go."""
        self._end_text()
        self._finished.extend(self._queued)
        self._queued = []

    def _card(self, call_id: str, tool_name: str) -> ChatItem:
        card = self._tools.get(call_id)
        if card is None:
            card = self._tools[call_id] = ChatItem(id=call_id, kind="tool", tool_name=tool_name)
        return card

    def _end_text(self) -> None:
        text = "".join(self._text)
        self._text = []
        if text.strip():
            self._finished.append(ChatItem(id=new_id("reply-"), kind="assistant", text=text))

    # Writing into Reflex state

    async def commit(self) -> None:
        """Write everything now (the loop's commit: the page must show it before the agent runs again)."""
        if self._scheduled is not None:
            self._scheduled.cancel()
            self._scheduled = None
        await self.flush()

    async def close(self) -> None:
        """Write what is left; the run is over."""
        await self.commit()

    async def flush(self) -> None:
        """Write the buffers into CopilotState and LiveState in one short block."""
        async with self._lock:
            if not self._dirty:
                return
            self._dirty = False
            for call_id in self._streaming_arguments:
                card = self._tools.get(call_id)
                if card is not None:
                    card.arguments = _pretty(self._thread.partial_arguments(call_id))
            finished, self._finished = self._finished, []
            shown = ("".join(self._text), [_copy(card) for card in self._tools.values()], self._status)
            async with self._state:
                shown_thread = self._state._thread
                if shown_thread is not None and shown_thread.id != self._thread.id:
                    return  # the person moved to another conversation: this run's view is written nowhere
                live = await self._state.get_state(LiveState)
                if finished:
                    self._state.items.extend(finished)
                if self._shown is None or shown[0] != self._shown[0]:
                    live.text = shown[0]
                if self._shown is None or shown[1] != self._shown[1]:
                    live.tools = shown[1]
                if self._shown is None or shown[2] != self._shown[2]:
                    live.status = shown[2]
            self._shown = shown
            self._last_flush = time.monotonic()

    def _schedule(self) -> None:
        if self._scheduled is None or self._scheduled.done():
            self._scheduled = asyncio.ensure_future(self._flush_soon())

    async def _flush_soon(self) -> None:
        wait = self._interval - (time.monotonic() - self._last_flush)
        if wait > 0:
            await asyncio.sleep(wait)
        self._scheduled = None
        await self.flush()


def _pretty(arguments: Any) -> str:
    if arguments is None:
        return ""
    return json.dumps(arguments, indent=2, ensure_ascii=False, default=str)


def _copy(card: ChatItem) -> ChatItem:
    return ChatItem(**card.__dict__)


_HANDLERS = {
    TurnStarted: ViewSink._turn_started,
    AgentRunStarted: ViewSink._run_started,
    MessageStarted: ViewSink._message_started,
    TextDelta: ViewSink._text_delta,
    MessageEnded: ViewSink._message_ended,
    ToolCallStarted: ViewSink._tool_started,
    ToolCallArguments: ViewSink._tool_arguments,
    ToolCallEnded: ViewSink._tool_ended,
    ToolExecutionStarted: ViewSink._execution_started,
    ToolProgress: ViewSink._progress,
    AwaitingPerson: ViewSink._awaiting,
    ToolExecutionEnded: ViewSink._execution_ended,
    ErrorOccurred: ViewSink._error,
    TurnEnded: ViewSink._turn_ended,
}

"""Loop events into what the person sees, at a bounded pace: texts as appended pieces, items at boundaries.

Events only change buffers here (never blocking the loop). A flush then sends, in this order:
- the new pieces of every text being written, as one `rx.call_script` that appends them in the
  browser (`cui_text.jsx`): a text is never resent, so a long reply costs its own size;
- whole texts that became known (a result, an error, the person's message);
- the list of items and the status line, in one short `async with` block, only when they changed.

At most one flush starts per `interval` (measured from the start of the previous one), whatever
the token rate; text alone waits a little longer (`TEXT_WAIT`) to travel in fewer, fuller frames,
and the first piece of a text goes at once. Everything shown passes the scrubber first.

The agent's state reaches the app's bound Reflex states here too: its snapshots and deltas, and the
keys a predictive state update (PredictState) moves while a tool's argument streams. Such a change
stays provisional until the person decides: rejecting it (answering the app's confirm tool with
`{"accepted": false}`, or denying the call that wrote it) puts those keys back as they were.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import reflex as rx
from ag_ui.core import ActivityMessage, EventType

from ..agents import Scrubber, StreamScrubber
from ..core import (
    AgentEventReceived,
    AgentRunFinished,
    AgentRunStarted,
    AwaitingPerson,
    ErrorOccurred,
    Hooks,
    LoopEvent,
    MessageEnded,
    MessageStarted,
    ReasoningDelta,
    ReasoningEnded,
    ReasoningStarted,
    StateChanged,
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
    UserMessageAdded,
)
from ._dev_console import DevConsole
from ._shared_state import SharedStates
from ._text_channel import append_script, whole_texts_script
from ._view import (
    TYPE_LIMIT,
    Conversation,
    LiveMarks,
    activity_text,
    arguments_text,
    drawn_activity,
    drawn_by_app,
    pretty_json,
    question_of,
)

SUGGESTION_EVENTS = ("suggestions", "copilot_ui.suggestions")  # CUSTOM events whose value lists what to ask next
SUGGESTIONS, SUGGESTION_CHARS = 4, 120
MIN_INTERVAL = 0.04  # seconds between the starts of two flushes: 25 a second at most
TEXT_WAIT = 0.1  # text alone waits up to this long after the last flush, to fill a frame
TEXT_BATCH = 240  # characters of text that are worth a frame of their own
WAITING_AFTER = 2.0  # seconds without a word from the agent before the status says how long it has been
_ACTIVITY_EVENTS = (EventType.ACTIVITY_SNAPSHOT, EventType.ACTIVITY_DELTA)
_DONE = object()


@dataclass
class _Stream:
    """A text being written: what is scrubbed and waiting to go, and how many pieces went."""

    scrubber: StreamScrubber
    seq: int = -1
    pending: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    ended: bool = False


class ViewSink:
    """Buffers what a drive shows and sends it to the person's tab."""

    def __init__(
        self,
        state: Any,
        thread: Thread,
        conversation: Conversation,
        *,
        scrubber: Scrubber,
        shared: SharedStates | None = None,
        interval: float = MIN_INTERVAL,
    ) -> None:
        self._state = state  # the CopilotState of the background task that runs the drive
        self.thread = thread
        self.conversation = conversation
        self.marks = LiveMarks()
        self._scrubber = scrubber
        self._drawn: set[str] = set()  # call ids whose arguments stream into an app's renderer
        self._shared = shared
        self._shared_good: Any = copy.deepcopy(thread.state)  # the agent's state as it last fitted the app's fields
        self._shared_values: dict[type, dict[str, Any]] = {}  # fields of the app's states to write at the next flush
        self._suggestions: list[str] = []  # what the agent proposed to ask next, shown once the turn is over
        self._interval = interval
        self._streams: dict[str, _Stream] = {}
        self._seqs = conversation.seqs  # tid -> the last piece (or whole text) sent, counted across drives
        self._wholes: dict[str, str] = {}  # tid -> whole text to hand over at the next flush
        self._items_dirty = False
        self._items_can_wait = False  # the pending item changes may wait for text (a reply started, no words yet)
        self._status = "Thinking…"
        self._status_dirty = True
        self._running = True
        self._urgent = True
        self._last_start = 0.0
        self._flushing = asyncio.Lock()
        self._nudge = asyncio.Event()
        self._pending_chars = 0  # characters of text waiting for the next flush
        self._timer: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._agent_since: float | None = None  # when the agent last said anything, while its run is open
        self._thinking_since: float | None = None
        self._outbox: asyncio.Queue[Any] = asyncio.Queue()
        self.returned: list[str] = []  # messages queued during the run that Stop gave back to the message box
        self.dev = DevConsole(conversation.key + "dev", self._append, scrubber)

    # Events

    def emit(self, event: LoopEvent) -> None:
        """Take one loop event (never blocks); a flush follows within the interval."""
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)
            self._schedule()

    def queue_user_message(self, message_id: str, text: str) -> None:
        """The person wrote during the run: shown at once, marked queued, until it goes to the agent."""
        self.marks.queued.append((message_id, text))
        self._whole(self.conversation.message_item(message_id, "user"), text)
        self._items_changed()
        self._schedule()

    def replacing_from(self, message_id: str) -> None:
        """This message and what follows are about to be replaced (Regenerate, an edit): their notes go now."""
        self.conversation.forget_notes_from(self.thread, message_id)
        self._items_changed()

    def retrying(self) -> None:
        """The person pressed Retry: the error that offered it goes."""
        self.conversation.forget_retried()
        self._items_changed()

    def _turn_started(self, _event: TurnStarted) -> None:
        self._set_status("Thinking…")

    def _user_message(self, event: UserMessageAdded) -> None:
        self.marks.queued = [queued for queued in self.marks.queued if queued[0] != event.message_id]
        self._settle_prediction()  # the person moved on: what the agent wrote stands
        self._whole(self.conversation.message_item(event.message_id, "user"), event.text)
        self._items_changed()

    def _run_started(self, event: AgentRunStarted) -> None:
        self.dev.began("run:" + event.run_id, f"run {event.follow_up + 1} started")
        self.conversation.clear_retry()
        self._agent_since = time.monotonic()
        self._set_status("Thinking…")
        self._start_ticker()

    def _run_finished(self, event: AgentRunFinished) -> None:
        self._agent_since = None
        self.dev.ended("run:" + event.run_id, f"run finished ({event.outcome})", "after")

    def _agent_spoke(self, _event: LoopEvent) -> None:
        if self._agent_since is not None:
            self._agent_since = time.monotonic()

    def _agent_event(self, event: AgentEventReceived) -> None:
        self._agent_spoke(event)
        raw = event.event
        if raw.type in _ACTIVITY_EVENTS:
            self._activity_changed(raw.message_id)
        elif raw.type == EventType.MESSAGES_SNAPSHOT:
            self._items_changed()  # the agent replaced the conversation: show it now, not at the next change
        elif getattr(raw, "name", None) in SUGGESTION_EVENTS and isinstance(getattr(raw, "value", None), list):
            offered = [str(text).strip() for text in raw.value if isinstance(text, str) and text.strip()]
            self._suggestions = [self._scrubber.scrub(text)[:SUGGESTION_CHARS] for text in offered[:SUGGESTIONS]]

    def _message_started(self, event: MessageStarted) -> None:
        self._agent_spoke(event)
        self.marks.streaming.add(event.message_id)
        self._items_changed(can_wait=True)  # the new reply goes with its first words: one frame of items, not two

    def _text_delta(self, event: TextDelta) -> None:
        self._agent_spoke(event)
        self._append(self.conversation.message_item(event.message_id, "assistant"), event.delta)
        self._set_status("")

    def _message_ended(self, event: MessageEnded) -> None:
        self._agent_spoke(event)
        self.marks.streaming.discard(event.message_id)
        self._end_stream(self.conversation.message_item(event.message_id, "assistant"))
        self._items_changed()

    def _reasoning_started(self, event: ReasoningStarted) -> None:
        self._agent_spoke(event)
        self.marks.streaming.add(event.message_id)
        self._thinking_since = time.monotonic()
        self._items_changed()

    def _reasoning_delta(self, event: ReasoningDelta) -> None:
        self._agent_spoke(event)
        self._append(self.conversation.message_item(event.message_id, "reasoning"), event.delta)
        self._set_status("Thinking…")

    def _reasoning_ended(self, event: ReasoningEnded) -> None:
        self._agent_spoke(event)
        self.marks.streaming.discard(event.message_id)
        if self._thinking_since is not None:
            self.conversation.thought[event.message_id] = time.monotonic() - self._thinking_since
        self._end_stream(self.conversation.message_item(event.message_id, "reasoning"))
        self._items_changed()

    def _tool_started(self, event: ToolCallStarted) -> None:
        self._agent_spoke(event)
        self.marks.arguments.add(event.call_id)
        if drawn_by_app(event.tool_name, self.conversation.rendered):
            self._drawn.add(event.call_id)
        if event.call_id in self.thread.predicting:
            self._prediction_began(event.call_id)
        self._items_changed()

    def _tool_arguments(self, event: ToolCallArguments) -> None:
        self._agent_spoke(event)
        self._append(self.conversation.call_item(event.call_id) + ".a", event.delta)
        if event.call_id in self._drawn:
            self._items_changed()  # the app's renderer draws the arguments so far; the default card needs no item change
        if event.call_id in self.thread.predicting:
            self._predicted(event.call_id)

    def _tool_ended(self, event: ToolCallEnded) -> None:
        self._agent_spoke(event)
        self.marks.arguments.discard(event.call_id)
        self._drawn.discard(event.call_id)
        call = self.thread.tool_call(event.call_id)
        if call is not None:
            self._whole(self.conversation.call_item(event.call_id) + ".a", arguments_text(call))
        if event.call_id in self.thread.predicting:
            self._predicted(event.call_id)
        self._items_changed()

    def _execution_started(self, event: ToolExecutionStarted) -> None:
        self.dev.began("tool:" + event.call_id)
        self.marks.running.add(event.call_id)
        call = self.thread.tool_call(event.call_id)
        if call is not None and pretty_json(event.arguments) != arguments_text(call):  # prepared, rewritten or edited
            self.conversation.ran_with[event.call_id] = dict(event.arguments)  # kept: the card shows them after a reload
        self._whole(self.conversation.call_item(event.call_id) + ".a", pretty_json(event.arguments))
        self._set_status(f"Running {event.tool_name}…")
        self._items_changed()

    def _progress(self, event: ToolProgress) -> None:
        share = f"{round(event.fraction * 100)}%" if event.fraction is not None else ""
        self.marks.progress[event.call_id] = " ".join(part for part in (share, event.message) if part)
        self._items_changed()

    def _awaiting(self, event: AwaitingPerson) -> None:
        call = self.thread.tool_call(event.call_id)
        if call is not None and pretty_json(event.arguments) != arguments_text(call):  # prepared or rewritten: shown as they run
            self._whole(self.conversation.call_item(event.call_id) + ".a", pretty_json(event.arguments))
        question = question_of(self.thread, call) if call is not None else event.message
        self._whole(self.conversation.call_item(event.call_id) + ".q", question)
        self._set_status("")
        self._items_changed()

    def _execution_ended(self, event: ToolExecutionEnded) -> None:
        self.dev.ended("tool:" + event.call_id, f"tool {event.tool_name} {event.status}", "in")
        self.marks.running.discard(event.call_id)
        self.marks.arguments.discard(event.call_id)
        self.marks.progress.pop(event.call_id, None)
        status = "error" if event.status == "complete" and event.is_error else event.status
        self.conversation.outcomes[event.call_id] = status
        self._whole(self.conversation.call_item(event.call_id) + ".r", event.result)
        verdict = _verdict_on_prediction(event, self.conversation) if self.conversation.predicted_from else None
        if verdict is False:
            self._reject_prediction()
        elif verdict:
            self._settle_prediction()
        if not self.marks.running:
            self._set_status("Thinking…" if self._agent_since is not None or status == "complete" else "")
        self._items_changed()

    def _error(self, event: ErrorOccurred) -> None:
        note = self.conversation.add_note("error", event.message, self.thread.last_message_id(), retry=True)
        self._whole(note.id, event.message)
        self._agent_since = None
        self._items_changed()

    def _turn_ended(self, event: TurnEnded) -> None:
        self._agent_since = None
        self._running = False
        self._set_status("")
        self.marks.queued = []
        self.returned = [queued.text for queued in getattr(event, "returned", ())]
        if event.status in ("aborted", "stopped"):  # a turn limit already shows as an error
            text = "Stopped." if event.status == "aborted" else f"Stopped: {event.message}"
            note = self.conversation.add_note("notice", text, self.thread.last_message_id())
            self._whole(note.id, text)
        self._items_changed()

    def _state_changed(self, _event: StateChanged) -> None:
        self._agent_spoke(_event)
        if not self._shared:
            return
        accepted = self._shared.accept(self.thread.state)
        if accepted is None:  # refused: the thread keeps the last state that fitted
            self.thread.state = copy.deepcopy(self._shared_good)
            return
        self._shared_good = copy.deepcopy(self.thread.state)
        self._write_shared(accepted)

    def _activity_changed(self, message_id: str) -> None:
        activity = self.thread.message(message_id)
        if not isinstance(activity, ActivityMessage):
            return
        new = "m:" + message_id not in self.conversation.ids
        item_id = self.conversation.message_item(message_id, "activity")
        drawn = drawn_activity(activity.activity_type[:TYPE_LIMIT], self.conversation.rendered)
        if not drawn:
            self._whole(item_id, activity_text(activity))  # the default card shows the content as text
        if drawn or new:
            self._items_changed()  # an app's card draws the content from its item

    # Predictive state (PredictState): keys of the state follow a tool's arguments, until the person decides

    def _prediction_began(self, call_id: str) -> None:
        """A call's arguments start moving keys of the state: their values as they are now, to go back to."""
        state, conversation = self.thread.state, self.conversation
        if isinstance(state, dict):
            for prediction in self.thread.predicting[call_id]:
                key = prediction.state_key
                conversation.predicted_from.setdefault(key, [copy.deepcopy(state[key])] if key in state else [])
        if call_id not in conversation.predicted_calls:
            conversation.predicted_calls.append(call_id)

    def _predicted(self, call_id: str) -> None:
        """The keys a call's arguments moved go to the app's states (a partial value that does not fit yet waits)."""
        state = self.thread.state
        if not self._shared or not isinstance(state, dict):
            return
        keys = [prediction.state_key for prediction in self.thread.predicting[call_id]]
        values = {key: state[key] for key in keys if key in state}
        accepted = self._shared.accept(values, quiet=True)
        if accepted is not None:
            if isinstance(self._shared_good, dict):
                self._shared_good.update(copy.deepcopy(values))
            self._write_shared(accepted)

    def _reject_prediction(self) -> None:
        """The person rejected what the prediction wrote: its keys go back to the values they had before."""
        state = dict(self.thread.state) if isinstance(self.thread.state, dict) else {}
        restored = {}
        for key, before in self.conversation.predicted_from.items():
            if before:
                state[key] = restored[key] = copy.deepcopy(before[0])
            else:
                state.pop(key, None)
        self.thread.state = state
        self._settle_prediction()
        accepted = self._shared.accept(restored) if self._shared and restored else None
        if accepted is not None:
            self._shared_good = copy.deepcopy(state)
            self._write_shared(accepted)

    def _settle_prediction(self) -> None:
        """The person decided (or moved on): nothing the prediction wrote is provisional any more."""
        self.conversation.predicted_from.clear()
        self.conversation.predicted_calls.clear()

    def _write_shared(self, accepted: dict[type, dict[str, Any]]) -> None:
        for state_type, values in accepted.items():
            if values:
                self._shared_values.setdefault(state_type, {}).update(values)
        self._urgent = True

    def shared_state_read(self) -> None:
        """The page's state was just read into the thread's (before a run): that is the state that fits now."""
        self._shared_good = copy.deepcopy(self.thread.state)

    # The dev console (when the app turns it on)

    def hooks(self, base: Hooks) -> Hooks:
        """The hooks of this drive's loop: the app's, and the dev console's when it is on."""
        return self.dev.hooks(base)

    @property
    def dev_tid(self) -> str:
        """The text id of this conversation's dev console."""
        return self.dev.tid

    # Buffers

    def _append(self, tid: str, delta: str) -> None:
        stream = self._streams.get(tid)
        if stream is None:
            stream = self._streams[tid] = _Stream(self._scrubber.stream(), seq=self._seqs.get(tid, -1))
            self._urgent = True  # the first words of a text go at once
        piece = stream.scrubber.feed(delta)
        if piece:
            stream.pending.append(piece)
            self._pending_chars += len(piece)

    def _end_stream(self, tid: str) -> None:
        stream = self._streams.get(tid)
        if stream is not None:
            rest = stream.scrubber.end()
            if rest:
                stream.pending.append(rest)
                self._pending_chars += len(rest)
            stream.ended = True

    def _whole(self, tid: str, text: str) -> None:
        self._wholes[tid] = self._scrubber.scrub(text)
        self._urgent = True

    def _items_changed(self, can_wait: bool = False) -> None:
        """The items must be sent again; `can_wait`: this change may wait like text (if all pending ones may)."""
        self._items_can_wait = can_wait and (self._items_can_wait or not self._items_dirty)
        self._items_dirty = True

    def _set_status(self, status: str) -> None:
        if status != self._status:
            self._status = status
            self._status_dirty = True

    # What a tab that missed pieces asks for

    def text_so_far(self, tid: str) -> tuple[int, str] | None:
        """A text this drive is writing, as far as it was sent (None if it writes no such text)."""
        stream = self._streams.get(tid)
        if stream is None:
            return None
        return stream.seq, "".join(stream.sent)

    # Sending

    async def outbox(self) -> AsyncIterator[Any]:
        """The browser events this drive sends (a background event handler yields them)."""
        while True:
            event = await self._outbox.get()
            try:
                if event is _DONE:
                    return
                yield event
            finally:
                self._outbox.task_done()

    def send_event(self, event: Any) -> None:
        """Send a browser event through this drive's handler (after what is already queued)."""
        self._outbox.put_nowait(event)

    def finish(self) -> None:
        """The drive is over, however it ended: nothing streams or runs any more."""
        self._agent_since = None
        self._running = False
        self._set_status("")
        for message_id in list(self.marks.streaming):
            self._end_stream(self.conversation.message_item(message_id, "assistant"))
        self.marks.streaming.clear()
        self.marks.arguments.clear()
        self.marks.running.clear()
        self.marks.progress.clear()
        self._items_changed()

    async def commit(self) -> None:
        """Show everything now (before a follow-up run: the page must show what the tools changed)."""
        self._urgent = True
        self._items_changed()
        await self._flush_when_allowed()

    async def close(self) -> None:
        """The drive is over: send what is left, then end the outbox."""
        self._stop_ticker()
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._timer
        self._urgent = True
        await self._flush_when_allowed()
        if self.returned:
            self.send_event(rx.set_value(COMPOSER_INPUT_ID, "\n\n".join(self.returned)))
        self._outbox.put_nowait(_DONE)

    def _schedule(self) -> None:
        if self._timer is None:
            self._timer = asyncio.ensure_future(self._flush_loop())
        elif self._cannot_wait():
            self._nudge.set()

    async def _flush_loop(self) -> None:
        try:
            while self._has_news():
                await self._flush_when_allowed()
        finally:
            self._timer = None

    async def _flush_when_allowed(self) -> None:
        while True:
            now = time.monotonic()
            wait = self._last_start + self._interval - now
            if not self._cannot_wait():
                wait = max(wait, self._last_start + TEXT_WAIT - now)  # text alone: fill the frame a little more
            if wait <= 0:
                break
            self._nudge.clear()  # news that cannot wait (or a full frame of text) ends the wait early
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await self._nudge.wait()
        await self.flush()

    def _cannot_wait(self) -> bool:
        """Whether what is pending must go at the next allowed flush (else it waits up to TEXT_WAIT for more)."""
        items_now = self._items_dirty and not self._items_can_wait
        return self._urgent or items_now or self._status_dirty or self._pending_chars >= TEXT_BATCH

    def _has_news(self) -> bool:
        return (
            self._items_dirty
            or self._status_dirty
            or bool(self._wholes)
            or bool(self._shared_values)
            or any(stream.pending for stream in self._streams.values())
        )

    async def flush(self) -> None:
        """Send the new pieces, whole texts, items and status (the caller respects the interval)."""
        async with self._flushing:
            self._last_start = time.monotonic()
            self._urgent = False
            script = self._take_script()
            if script:
                self.send_event(rx.call_script(script))
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(1.0):
                        await self._outbox.join()  # texts before the items that show them
            if self._items_dirty or self._status_dirty or self._shared_values:
                items = self.conversation.items(self.thread, self.marks) if self._items_dirty else None
                shared, self._shared_values = self._shared_values, {}
                self._items_dirty = self._status_dirty = self._items_can_wait = False
                suggestions = self._suggestions if not self._running else None
                await self._state._show_drive(
                    self.thread, self.conversation, items, self._status, self._running, shared, suggestions
                )

    def _take_script(self) -> str:
        calls = []
        self._pending_chars = 0
        for tid, stream in list(self._streams.items()):
            if stream.pending:
                piece = "".join(stream.pending)
                stream.pending.clear()
                stream.seq += 1
                stream.sent.append(piece)
                self._seqs[tid] = stream.seq
                calls.append(append_script(tid, stream.seq, piece))
            if stream.ended:
                del self._streams[tid]
        if self._wholes:
            wholes = {tid: [self._seqs.get(tid, -1) + 1, text] for tid, text in self._wholes.items()}
            for tid, (seq, _) in wholes.items():
                self._seqs[tid] = seq
            self._wholes = {}
            calls.append(whole_texts_script(wholes))
        return ";".join(calls)

    # Waiting for the agent

    def _start_ticker(self) -> None:
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.ensure_future(self._tick())

    def _stop_ticker(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(1.0)
            since = self._agent_since
            if since is None or self.marks.running:
                continue
            waited = time.monotonic() - since
            if waited >= WAITING_AFTER:
                self._set_status(f"Waiting for the agent… {int(waited)} s")
                self._schedule()


COMPOSER_INPUT_ID = "cui-message"


def _verdict_on_prediction(event: ToolExecutionEnded, conversation: Conversation) -> bool | None:
    """What a call's end says of a provisional prediction: kept (True), rejected (False), or nothing (None).

    The person rejects it by denying a call that wrote it, or by answering a confirm tool (the dojo's
    confirm_changes) with `{"accepted": false}`; `{"accepted": true}` keeps it.
    """
    if event.status == "denied":
        return False if event.call_id in conversation.predicted_calls else None
    if event.status != "complete" or event.is_error:
        return None
    try:
        answer = json.loads(event.result)
    except ValueError:
        return None
    accepted = answer.get("accepted") if isinstance(answer, dict) else None
    return accepted if isinstance(accepted, bool) else None


_HANDLERS = {
    TurnStarted: ViewSink._turn_started,
    UserMessageAdded: ViewSink._user_message,
    AgentRunStarted: ViewSink._run_started,
    AgentRunFinished: ViewSink._run_finished,
    AgentEventReceived: ViewSink._agent_event,
    MessageStarted: ViewSink._message_started,
    TextDelta: ViewSink._text_delta,
    MessageEnded: ViewSink._message_ended,
    ReasoningStarted: ViewSink._reasoning_started,
    ReasoningDelta: ViewSink._reasoning_delta,
    ReasoningEnded: ViewSink._reasoning_ended,
    ToolCallStarted: ViewSink._tool_started,
    ToolCallArguments: ViewSink._tool_arguments,
    ToolCallEnded: ViewSink._tool_ended,
    ToolExecutionStarted: ViewSink._execution_started,
    ToolProgress: ViewSink._progress,
    AwaitingPerson: ViewSink._awaiting,
    ToolExecutionEnded: ViewSink._execution_ended,
    ErrorOccurred: ViewSink._error,
    TurnEnded: ViewSink._turn_ended,
    StateChanged: ViewSink._state_changed,
}

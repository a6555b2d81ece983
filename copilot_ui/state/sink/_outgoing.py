"""What a turn sends to its tab, at a bounded pace: texts as appended pieces, the items and the status when they change.

Buffers change at once (never blocking the loop); a flush then sends, in this order:
- the browser events asked for since the last flush (`send_event`: a browser tool's script, texts a tab asked for);
- the new pieces of every text being written, as one `rx.call_script` that appends them in the
  browser (`cui_text.jsx`): a text is never resent, so a long reply costs its own size;
- whole texts that became known (a result, an error, the person's message);
- what the tab shows besides (`ViewUpdate`: the items, the status line, the agent's state), through
  the `show` it was given, only when something of it changed.

At most one flush starts per `interval` (measured from the start of the previous one), whatever
the token rate; text alone waits a little longer (`TEXT_WAIT`) to travel in fewer, fuller frames,
and the first piece of a text goes at once. Everything shown passes the scrubber first. The flush hands its browser
events to the tab's `send` itself, in order: no task between the turn and the tab's connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import reflex as rx
from reflex.event import Event, EventCallback, EventSpec
from reflex.utils import format

from ...agents import Scrubber, StreamScrubber
from ...core import Thread
from ..declarations import copilot
from ..view import COMPOSER_INPUT_ID, Conversation, Item, whole_texts_script

MIN_INTERVAL = 0.04  # seconds between the starts of two flushes: 25 a second at most
TEXT_WAIT = 0.1  # text alone waits up to this long after the last flush, to fill a frame
TEXT_BATCH = 240  # characters of text that are worth a frame of their own
FIRST_WORDS_WAIT = 0.1  # seconds a turn's first show waits for the agent's first words, to go with them
# What an event handler yields: a script to run, an event to queue (a handler called with its arguments, as Reflex types it).
BrowserEvent = Event | EventSpec | EventCallback[()]


def script_event(script: str, callback: Any = None) -> Event:
    """The browser event that runs this script: `rx.call_script(script, callback)` made directly, the script as it is
    (`callback`: the event handler that gets the script's value).

    `rx.call_script` reads its text as a possible Reflex Var (twice, for each piece of every text streamed);
    the copilot's scripts are plain code, whose quoted texts come from the agent and must stay text.
    """
    answer = None
    if callback is not None:  # (as rx.call_script writes it: the call that queues the handler with the value)
        answer = str(format.format_queue_events(callback, args_spec=lambda result: [result]))
    return Event(name="_call_script", payload={"javascript_code": script, "callback": answer})


@dataclass(frozen=True)
class ViewUpdate:
    """What a flush shows in the tab besides the texts (the tab's `show` writes it into its state)."""

    thread: Thread
    conversation: Conversation
    items: list[Item] | None  # None: unchanged
    status: str
    running: bool
    shared: dict[type, dict[str, Any]]  # fields of the app's states bound to the agent's state, to write
    suggestions: list[str] | None  # what the agent proposed to ask next (None: nothing new)


Show = Callable[[ViewUpdate], Awaitable[None]]
Send = Callable[[Event], Awaitable[None]]  # a browser event to the tab's connection (nothing once it is closed)

logger = logging.getLogger("copilot_ui.state")


async def _sent_nowhere(_event: Event) -> None:
    """The tab of a turn that reaches no browser (an agent task's, a test's)."""


@dataclass
class _Stream:
    """A text being written: what is scrubbed and waiting to go, and how many pieces went."""

    scrubber: StreamScrubber
    seq: int = -1
    pending: list[str] = field(default_factory=list)
    sent: list[str] = field(default_factory=list)
    ended: bool = False


class Outgoing:
    """Buffers what a turn shows and sends it to the tab; a subclass says what is shown (`_shown`)."""

    def __init__(
        self,
        show: Show,
        thread: Thread,
        conversation: Conversation,
        *,
        scrubber: Scrubber,
        send: Send | None = None,
        interval: float = MIN_INTERVAL,
    ) -> None:
        self._show = show
        self._send = send if send is not None else _sent_nowhere
        self.thread = thread
        self.conversation = conversation
        self._scrubber = scrubber
        self._interval = interval
        self._streams: dict[str, _Stream] = {}
        self._seqs = conversation.seqs  # tid -> the last piece (or whole text) sent, counted across turns
        self._wholes: dict[str, str] = {}  # tid -> whole text to hand over at the next flush
        self._items_dirty = False
        self._items_can_wait = False  # the pending item changes may wait for text (a reply started, no words yet)
        self._status = copilot.labels.thinking
        self._status_dirty = True
        self._urgent = True
        self._last_start = 0.0
        self._held_until = 0.0  # the turn's first show waits until then for the first words
        self._flushing = asyncio.Lock()
        self._woken: asyncio.Future[None] | None = None  # the flush that waits for its time, woken early by news
        self._pending_chars = 0  # characters of text waiting for the next flush
        self._timer: asyncio.Task[None] | None = None
        self._events: list[Event] = []  # browser events to send at the next flush, before its texts
        self.returned: list[str] = []  # messages queued during the run that Stop gave back to the message box
        self.pieces_sent = 0  # pieces of text sent so far: the turn keeps its thread when they grew
        self._awaiting_words: list[asyncio.Future[None]] = []  # who waits for the next piece to be sent
        self.closed = False  # the turn's last flush went: what is sent now reaches no tab
        self._closing = False  # close() began: the flush loop starts no other flush

    # What the subclass tells

    def _shown(self, items_changed: bool) -> ViewUpdate:
        """What the tab shows now besides the texts (its items only when they changed)."""
        raise NotImplementedError

    def _more_news(self) -> bool:
        """Whether something of the subclass's own waits to be shown."""
        return False

    def _cleared(self) -> None:
        """What `_shown` handed over was sent."""

    # Buffers

    def _begin_stream(self, tid: str) -> _Stream:
        """A text that pieces will write (a reply, a call's arguments), from the moment its item shows: a tab that asks
        for it before the first piece gets what was sent of it (nothing yet), not the thread's text of another shape."""
        stream = self._streams.get(tid)
        if stream is None:
            stream = self._streams[tid] = _Stream(self._scrubber.stream(), seq=self._seqs.get(tid, -1))
        return stream

    def _append(self, tid: str, delta: str) -> None:
        stream = self._begin_stream(tid)
        piece = stream.scrubber.feed(delta)
        if piece:
            if not stream.sent and not stream.pending:
                self._urgent = True  # the first words of a text go at once
                self._held_until = 0.0
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
        stream = self._streams.get(tid)
        if stream is not None:  # the whole text follows its pieces (a call's arguments, pretty once complete)
            stream.ended = True

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
        """A text this turn is writing, as far as it was sent (None if it writes no such text)."""
        stream = self._streams.get(tid)
        if stream is None:
            return None
        return stream.seq, "".join(stream.sent)

    # Sending

    async def words_sent(self) -> None:
        """Once the next piece of text is on its way to the tab (or the turn's last flush went)."""
        if self.closed:
            return
        waiting = asyncio.get_running_loop().create_future()
        self._awaiting_words.append(waiting)
        await waiting

    def send_event(self, event: Event) -> None:
        """Send a browser event to the tab with the next flush, which goes at once (after what is already on its way)."""
        self._events.append(event)
        self._urgent = True
        self._schedule()

    async def commit(self) -> None:
        """Show everything now (before a follow-up run: the page must show what the tools changed)."""
        self._urgent = True
        self._held_until = 0.0
        self._items_changed()
        await self._flush_when_allowed()

    def commit_soon(self) -> None:
        """Show everything with the agent's first words, FIRST_WORDS_WAIT at most from now, without waiting for it."""
        self._held_until = time.monotonic() + FIRST_WORDS_WAIT
        self._items_changed()
        self._schedule()

    async def close(self) -> None:
        """The turn is over: send what is left."""
        self._closing = True  # (the flush loop starts no other flush)
        timer = self._timer
        if timer is not None and timer is not asyncio.current_task():
            if not self._flushing.locked():
                timer.cancel()  # (it waits for its time)
            # else its show ends first: cancelled while it takes the tab's lock in Redis, it would leave the lock taken
            # until it expires, and the turn's end would wait for it
            await asyncio.wait([timer])  # (this task cancelled meanwhile, the timer is not cancelled with it)
            if not timer.cancelled():
                timer.result()  # a flush that failed fails the close
        self._urgent = True
        self._held_until = 0.0
        await self._flush_when_allowed()
        if self.returned:  # (after the last show: the box is the person's again)
            self._events += Event.from_event_type(rx.set_value(COMPOSER_INPUT_ID, "\n\n".join(self.returned)))
        while self._events:  # (and what was asked for meanwhile)
            await self.flush()
        self.closed = True
        self._words_went()

    def _words_went(self) -> None:
        awaiting, self._awaiting_words = self._awaiting_words, []
        for waiting in awaiting:
            _wake(waiting)

    def _schedule(self) -> None:
        if self._timer is None:
            self._timer = asyncio.ensure_future(self._flush_loop())
        elif self._cannot_wait() and self._woken is not None and not self._woken.done():
            self._woken.set_result(None)

    async def _flush_loop(self) -> None:
        try:
            while self._has_news() and not self._closing:
                await self._flush_when_allowed()
        finally:
            self._timer = None

    async def _flush_when_allowed(self) -> None:
        while True:
            now = time.monotonic()
            wait = self._last_start + self._interval - now
            if now < self._held_until:
                wait = max(wait, self._held_until - now)
            elif not self._cannot_wait():
                wait = max(wait, self._last_start + TEXT_WAIT - now)  # text alone: fill the frame a little more
            if wait <= 0:
                break
            loop = asyncio.get_running_loop()
            self._woken = loop.create_future()  # news that cannot wait (or a full frame of text) ends the wait early
            timer = loop.call_later(wait, _wake, self._woken)
            try:
                await self._woken
            finally:
                timer.cancel()
                self._woken = None
        await self.flush()

    def _cannot_wait(self) -> bool:
        """Whether what is pending must go at the next allowed flush (else it waits up to TEXT_WAIT for more)."""
        items_now = self._items_dirty and not self._items_can_wait
        return self._urgent or items_now or self._status_dirty or self._pending_chars >= TEXT_BATCH

    def _has_news(self) -> bool:
        return (
            self._items_dirty
            or self._status_dirty
            or bool(self._events)
            or bool(self._wholes)
            or self._more_news()
            or any(stream.pending for stream in self._streams.values())
        )

    async def flush(self) -> None:
        """Send the new pieces, whole texts, items and status (the caller respects the interval)."""
        async with self._flushing:
            self._last_start = time.monotonic()
            self._urgent = False
            events, self._events = self._events, []
            for event in events:
                await self._deliver(event)
            pieces = self.pieces_sent
            script = self._take_script()
            if script:
                await self._deliver(script_event(script))
                if self.pieces_sent != pieces:
                    self._words_went()
            if self._items_dirty or self._status_dirty or self._more_news():  # (after the texts the items show)
                shown = self._shown(self._items_dirty)
                self._items_dirty = self._status_dirty = self._items_can_wait = False
                self._cleared()
                await self._show(shown)

    async def _deliver(self, event: Event) -> None:
        try:
            await self._send(event)
        except Exception:  # (the turn goes on: its thread keeps what the tab missed, which a reload shows)
            logger.exception("a browser event did not reach the tab")

    def _take_script(self) -> str:
        calls = []
        self._pending_chars = 0
        for tid, stream in list(self._streams.items()):
            if stream.pending:
                piece = "".join(stream.pending)
                stream.pending.clear()
                stream.seq += 1
                stream.sent.append(piece)
                self.pieces_sent += 1
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


def _wake(waiting: asyncio.Future[None]) -> None:
    if not waiting.done():
        waiting.set_result(None)


def append_script(tid: str, seq: int, piece: str) -> str:
    """The browser call that appends piece number `seq` (from 0) to the text `tid` in the tab's text store."""
    return f"window.__cuiA?.({json.dumps(tid)},{seq},{json.dumps(piece, ensure_ascii=False)})"

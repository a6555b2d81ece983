"""Conversations kept in the app's store: saved at message boundaries, loaded for their owner, marked while they run.

A save happens as each agent run starts (the loop's commit): once the run's first words are on their
way to the page, or KEPT_EVERY after it started if it says nothing sooner, so that the write does not
compete with them; when a turn ends; never per token; while a reply streams, every KEPT_EVERY
seconds at most, so that a crash loses at most the words of the last KEPT_EVERY (`_work`); and when
the server stops, at once (a save covers the run start's, if that has not happened yet). The thread is
read at once, on the event loop (the SQL store serializes it: a fraction of a millisecond for a short
conversation); the write goes to the store's writer, a thread of its own that writes in
the order the saves were made, and nothing waits for it but a load of the same conversation. Waiting
cost a run its start under load: each write hands the interpreter's lock back and forth with a busy
event loop many times over, and the runs of fifty people queued behind one another's writes. While a
run goes, the view notes the message it follows; a thread loaded with that mark was cut off by a
crash: it shows what the run had said, then the notice, with Retry. Nothing here is Reflex-specific
beyond the owner given by the caller.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from ...core import Thread
from ...store import StoredThread, ThreadExists, ThreadNotFound, ThreadStore, ThreadSummary
from ..declarations import copilot
from ..view import Conversation
from ._pruning import prune_now_and_then

logger = logging.getLogger("copilot_ui.state")

KEPT_EVERY = 2.0  # seconds: while a turn shows new text, its thread is kept at most this often (each keep is a write)

_writers: WeakKeyDictionary[ThreadStore, ThreadPoolExecutor] = WeakKeyDictionary()
_unwritten: dict[str, asyncio.Future[None]] = {}  # thread id → its last save not written yet


@dataclass
class Keeper:
    """Saves one thread of one owner (the turn keeps one while it runs)."""

    store: ThreadStore
    owner: str
    agent: str
    _run_start: asyncio.Task[None] | None = field(default=None, init=False, repr=False)  # its save, not made yet

    def run_starts(self, thread: Thread, conversation: Conversation, first_words: Callable[[], Awaitable[None]]) -> None:
        """An agent run starts after the thread's last message: kept so once `first_words()` is done, KEPT_EVERY
        at most from now (a crash from then on shows it cut off there)."""
        conversation.run_after = thread.last_message_id() or ""
        self._cancel_run_start()
        self._run_start = asyncio.ensure_future(self._kept_after(first_words, thread, conversation))

    async def _kept_after(self, first_words: Callable[[], Awaitable[None]], thread: Thread, conversation: Conversation) -> None:
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(KEPT_EVERY):
                await first_words()
        self._run_start = None
        self.save(thread, conversation, running=True)

    def _cancel_run_start(self) -> None:
        if self._run_start is not None:
            self._run_start.cancel()
            self._run_start = None

    async def keep_while_it_shows(self, thread: Thread, conversation: Conversation, pieces_sent: Callable[[], int]) -> None:
        """While a turn runs: its thread is kept every KEPT_EVERY seconds in which it showed new text (a reply, a
        call's arguments), so that a crash or a killed worker loses at most the words of the last KEPT_EVERY."""
        kept = pieces_sent()
        while True:
            await asyncio.sleep(KEPT_EVERY)
            if pieces_sent() != kept:
                kept = pieces_sent()
                self.save(thread, conversation, running=True)

    def save(self, thread: Thread, conversation: Conversation, *, running: bool) -> asyncio.Future[None]:
        """Read the thread and its view now and have them written after the earlier saves; the future is done once
        they are (a failure is logged, never raised). `running`: the turn goes on (or was cut off), so a crash
        shows the run that started last as cut off; else it is over."""
        self._cancel_run_start()
        self._mark(thread, conversation, running)
        writing = None
        try:
            write = self.store.prepare_save(self.owner, thread, notes=conversation.to_notes())
            writing = asyncio.get_running_loop().run_in_executor(_writer(self.store), self._write, write, thread.id, conversation)
        except Exception:
            logger.exception("saving conversation %s failed", thread.id)
        written = asyncio.ensure_future(_logged(writing, thread.id))
        _unwritten[thread.id] = written
        written.add_done_callback(lambda done: _unwritten.pop(thread.id) if _unwritten.get(thread.id) is done else None)
        prune_now_and_then(self.store)
        return written

    def save_now(self, thread: Thread, conversation: Conversation) -> None:
        """Write the thread and its view now, in this thread, its turn cut off (the server stops: no loop is left;
        `writes_land` first)."""
        self._mark(thread, conversation, running=True)
        try:
            self._write(self.store.prepare_save(self.owner, thread, notes=conversation.to_notes()), thread.id, conversation)
        except Exception:
            logger.exception("saving conversation %s failed", thread.id)

    @staticmethod
    def _mark(thread: Thread, conversation: Conversation, running: bool) -> None:
        if not running:
            conversation.run_after = None
        elif conversation.run_after is None:  # (cut off before its turn ran the agent: from where it stands)
            conversation.run_after = thread.last_message_id() or ""

    def _write(self, write: Callable[[], ThreadSummary], thread_id: str, conversation: Conversation) -> None:
        if not conversation.created:  # (a new conversation: made first, not after a write that finds none)
            try:
                self.store.create(self.owner, agent=self.agent, thread_id=thread_id)
            except ThreadExists:  # another worker created it meanwhile
                pass
            conversation.created = True
        try:
            write()
        except ThreadNotFound:
            logger.info("conversation %s was deleted; it is not saved again", thread_id)


async def _logged(writing: asyncio.Future[None] | None, thread_id: str) -> None:
    """Once the write landed; a failure is logged, never raised."""
    if writing is None:
        return
    try:
        await writing
    except Exception:
        logger.exception("saving conversation %s failed", thread_id)


def saving(thread_id: str) -> bool:
    """Whether a save of this conversation is on its way to the store."""
    return thread_id in _unwritten


async def written(thread_id: str) -> None:
    """Once the saves of this conversation made so far are in the store."""
    unwritten = _unwritten.get(thread_id)
    if unwritten is not None:
        await asyncio.shield(unwritten)


def writes_land() -> None:
    """Wait, blocking, for every save on its way to land (the server's process exits)."""
    while _writers:
        _, writer = _writers.popitem()
        writer.shutdown(wait=True)


def _writer(store: ThreadStore) -> ThreadPoolExecutor:
    """The store's writer: one thread, so that the saves of a conversation land in the order they were made."""
    writer = _writers.get(store)
    if writer is None:
        writer = _writers[store] = ThreadPoolExecutor(max_workers=1, thread_name_prefix="copilot-store-writer")
    return writer


async def load(store: ThreadStore, owner: str, thread_id: str) -> StoredThread | None:
    """The owner's stored conversation with this id (None: none of theirs), through a worker thread."""
    await written(thread_id)  # (its last saves may still be on their way)
    try:
        return await asyncio.to_thread(store.load_with_notes, owner, thread_id)
    except Exception:
        logger.exception("loading conversation %s failed", thread_id)
        return None


def resumed(stored: StoredThread, rendered: frozenset[str], *, going: bool = False) -> tuple[Thread, Conversation]:
    """A stored thread and its view, ready to show (`rendered`: the tools an app draws itself); one cut off by a
    crash, a restart or dev mode's reload says so and offers Retry, unless its run is `going` on another worker."""
    thread = stored.thread
    conversation = Conversation.from_notes(thread.id, stored.notes, rendered)
    conversation.created = True
    conversation.ratings = {message_id: rated.rating for message_id, rated in stored.ratings.items()}
    if conversation.run_after is not None and not going:
        cut_off(thread, conversation, conversation.run_after or None)
    return thread, conversation


def cut_off(thread: Thread, conversation: Conversation, after: str | None) -> None:
    """The run after this message (None: from the start) was cut off by the server stopping: what it said stays, the
    notice follows it, and Retry has the agent go on from there (or run again, if it had said nothing)."""
    thread.interrupted_after(after)
    conversation.add_note("error", copilot.labels.interrupted, thread.last_message_id(), retry=True)
    conversation.run_after = None

"""The turns running in this process, by thread (a ThreadRun each): one per thread, and a way to reach it.

A turn is claimed synchronously (no await between looking and claiming), so two clicks can never
start two turns of one thread. When a turn ends it first leaves the table of running turns (a
new click then starts a new turn), but the thread is only handed over once the ending turn has
written it back: `closing(thread_id)` is what a new turn waits for before it reads the thread.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from ...core import Attachment, Claim, RunLoop, Thread, claims
from ..sink import ViewSink
from ._keeping import Keeper
from ._tab import Tab


@dataclass(eq=False)
class ThreadRun:
    """A turn running for a tab: the run loop working on the thread, with the sink that shows it."""

    thread: Thread
    loop: RunLoop
    sink: ViewSink
    claim: Claim
    tab: Tab  # the person's tab it shows in
    keeper: Keeper | None = None  # saves the thread in the app's store, if it has one
    interrupted: bool = False  # the server went down while it ran: kept marked as cut off
    closed: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())

    def take_message(self, message_id: str, text: str, attachments: tuple[Attachment, ...] = ()) -> bool:
        """A message the person wrote during the turn: queued for its next run and shown; False when it winds down."""
        if not self.loop.queue(self.thread, text, message_id=message_id, attachments=attachments):
            return False
        self.sink.queue_user_message(message_id, text)
        return True


_RUNNING: dict[str, ThreadRun] = {}
_CLOSING: dict[str, asyncio.Future[None]] = {}


def running(thread_id: str) -> ThreadRun | None:
    """The turn working on this thread now, if any."""
    return _RUNNING.get(thread_id)


def all_running() -> list[ThreadRun]:
    """The turns working now in this process."""
    return list(_RUNNING.values())


def closing(thread_id: str) -> asyncio.Future[None] | None:
    """Done once the turn that last worked on this thread has written it back (None: nothing to wait for)."""
    return _CLOSING.get(thread_id)


def begin(thread: Thread, loop: RunLoop, sink: ViewSink, tab: Tab, keeper: Keeper | None = None) -> ThreadRun | None:
    """Claim the thread for a new turn (synchronous); None when another turn has it."""
    if thread.id in _RUNNING or thread.id in _CLOSING:
        return None
    claim = claims.claim(thread.id)
    if claim is None:
        return None
    thread_run = _RUNNING[thread.id] = ThreadRun(thread, loop, sink, claim, tab, keeper)
    return thread_run


def leave(thread_run: ThreadRun) -> None:
    """The turn's work is over: new clicks start new turns, which wait for `closing` first."""
    if _RUNNING.get(thread_run.thread.id) is thread_run:
        del _RUNNING[thread_run.thread.id]
    _CLOSING[thread_run.thread.id] = thread_run.closed


def release(thread_run: ThreadRun) -> None:
    """The turn wrote the thread back: the thread is free."""
    thread_run.claim.release()
    if _CLOSING.get(thread_run.thread.id) is thread_run.closed:
        del _CLOSING[thread_run.thread.id]
    if not thread_run.closed.done():
        thread_run.closed.set_result(None)

"""The drives running in this process, by thread: one driver per thread, and a way to reach it.

A drive is claimed synchronously (no await between looking and claiming), so two clicks can never
start two drives of one thread. When a drive ends it first leaves the table of running drives (a
new click then starts a new drive), but the thread is only handed over once the ending drive has
written it back: `closing(thread_id)` is what a new drive waits for before it reads the thread.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from ...core import Attachment, Claim, RunLoop, Thread, claims
from ..sink import ViewSink
from ._keeping import Keeper
from ._tab import Tab


@dataclass(eq=False)
class Drive:
    """A run loop working on a thread for a tab, with the sink that shows it."""

    thread: Thread
    loop: RunLoop
    sink: ViewSink
    claim: Claim
    tab: Tab  # the person's tab it shows in
    keeper: Keeper | None = None  # saves the thread in the app's store, if it has one
    interrupted: bool = False  # the server went down while it ran: kept marked as cut off
    closed: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())

    def take_message(self, message_id: str, text: str, attachments: tuple[Attachment, ...] = ()) -> bool:
        """A message the person wrote during the drive: queued for its next run and shown; False when it winds down."""
        if not self.loop.queue(self.thread, text, message_id=message_id, attachments=attachments):
            return False
        self.sink.queue_user_message(message_id, text)
        return True


_RUNNING: dict[str, Drive] = {}
_CLOSING: dict[str, asyncio.Future[None]] = {}


def running(thread_id: str) -> Drive | None:
    """The drive working on this thread now, if any."""
    return _RUNNING.get(thread_id)


def running_drives() -> list[Drive]:
    """The drives working now in this process."""
    return list(_RUNNING.values())


def closing(thread_id: str) -> asyncio.Future[None] | None:
    """Done once the drive that last worked on this thread has written it back (None: nothing to wait for)."""
    return _CLOSING.get(thread_id)


def begin(thread: Thread, loop: RunLoop, sink: ViewSink, tab: Tab, keeper: Keeper | None = None) -> Drive | None:
    """Claim the thread for a new drive (synchronous); None when another drive has it."""
    if thread.id in _RUNNING or thread.id in _CLOSING:
        return None
    claim = claims.claim(thread.id)
    if claim is None:
        return None
    drive = _RUNNING[thread.id] = Drive(thread, loop, sink, claim, tab, keeper)
    return drive


def leave(drive: Drive) -> None:
    """The drive's work is over: new clicks start new drives, which wait for `closing` first."""
    if _RUNNING.get(drive.thread.id) is drive:
        del _RUNNING[drive.thread.id]
    _CLOSING[drive.thread.id] = drive.closed


def release(drive: Drive) -> None:
    """The drive wrote the thread back: the thread is free."""
    drive.claim.release()
    if _CLOSING.get(drive.thread.id) is drive.closed:
        del _CLOSING[drive.thread.id]
    if not drive.closed.done():
        drive.closed.set_result(None)

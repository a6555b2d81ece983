"""Who runs a thread: its turn on this worker (a ThreadRun, held by the thread's claim in `core.claims`) or on another
worker (a lease in Redis, `_cluster`). Every question of "is this thread running, where, until when" is answered here.

A turn is claimed synchronously on this worker (no await between looking and claiming), so two clicks can never
start two turns of one thread. When a turn ends it first leaves (a new click then waits for it instead of joining
it), but the thread is only released once the ending turn has written it back: a new turn waits for that (`take`
answers `Closing`) before it reads the thread, and another worker for the lease, which goes once the write has landed.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

from ...core import Attachment, Claim, Decision, RunLoop, Thread, claims
from ...store import StoredThread, ThreadStore
from ..declarations import copilot
from ..sink import ViewSink
from ..view import handover
from ._cluster import cluster, worker
from ._keeping import Keeper, load
from ._tab import Tab

LOOK_EVERY = 1.0  # seconds between two looks at another worker's turn, by a tab waiting for it to be over


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
    left: bool = False  # its work is over: it writes the thread back, and then releases it

    def take_message(self, message_id: str, text: str, attachments: tuple[Attachment, ...] = ()) -> bool:
        """A message the person wrote during the turn: queued for its next run and shown; False when it winds down."""
        if not self.loop.queue(self.thread, text, message_id=message_id, attachments=attachments):
            return False
        self.sink.queue_user_message(message_id, text)
        return True

    def take_decision(self, call_id: str, decision: Decision, digest: str) -> bool:
        """A person's decision on a call of the thread, acted on at once; False when the turn winds down (then it is
        not recorded here: the next turn records it and acts on it)."""
        if not self.loop.accepting(self.thread):
            return False
        self.loop.decide(self.thread, call_id, decision, digest)  # (one that does not count is logged, and done with)
        return True

    def texts(self, tids: Any) -> str:
        """The script that hands these texts to a tab as this turn sent them (up to the piece it counts of each)."""
        return handover(tids, self.thread, self.sink.conversation, self.sink.text_so_far, copilot.scrubber())

    def ended(self) -> Awaitable[None]:
        """Done once the turn has written the thread back and released it."""
        return asyncio.shield(self.claim.ended())


@dataclass(frozen=True)
class Elsewhere:
    """Another worker's turn runs the thread."""

    thread_id: str

    def ended(self, within: float = math.inf) -> Awaitable[bool]:
        """Done once no other worker runs the thread (False: it still did after `within` seconds)."""
        return over_elsewhere(self.thread_id, within)


@dataclass(frozen=True)
class Closing:
    """This worker's turn of the thread is over and writes it back."""

    claim: Claim

    def ended(self) -> Awaitable[None]:
        """Done once the thread is written back and released."""
        return asyncio.shield(self.claim.ended())


async def take(thread_id: str) -> Claim | ThreadRun | Elsewhere | Closing:
    """A claim on the thread for a new turn, or what holds it: this worker's turn, one writing it back, or another
    worker's turn. Claimed on this worker first, with no await (two clicks never both claim it), then across workers
    with one request to Redis."""
    claim = claims.claim(thread_id)
    if claim is None:
        held = claims.holder(thread_id)
        assert held is not None  # (no await since the claim failed)
        thread_run = _running_under(held)
        return thread_run if thread_run is not None else Closing(held)
    group = cluster()
    if group is None:
        return claim
    try:
        taken = await group.claim(thread_id)
    except BaseException:
        claim.release()
        raise
    if not taken:
        claim.release()
        return Elsewhere(thread_id)
    return claim


def running(thread_id: str) -> ThreadRun | None:
    """The turn working on this thread on this worker now, if any."""
    claim = claims.holder(thread_id)
    return _running_under(claim) if claim is not None else None


def writing(thread_id: str) -> ThreadRun | None:
    """The turn whose sink writes the thread's texts on this worker: one that runs, or one whose work is over but that
    still sends its last pieces and writes the thread back (a tab asking for a text then gets it as far as sent)."""
    claim = claims.holder(thread_id)
    return _run_by(claim) if claim is not None else None


def _running_under(claim: Claim) -> ThreadRun | None:
    thread_run = _run_by(claim)
    return thread_run if thread_run is not None and not thread_run.left else None


def _run_by(claim: Claim) -> ThreadRun | None:
    return claim.run_by if isinstance(claim.run_by, ThreadRun) else None


def all_running() -> list[ThreadRun]:
    """The turns working on this worker now."""
    return [thread_run for claim in claims.held() if (thread_run := running(claim.thread_id)) is not None]


async def runs_elsewhere(thread_id: str) -> bool:
    """Another worker runs this thread now."""
    group = cluster()
    if group is None:
        return False
    group.listen()  # (asked at every request: from then on this worker takes what other workers send it)
    return (await group.worker_running(thread_id)) not in (None, worker())


async def over_elsewhere(thread_id: str, within: float = math.inf) -> bool:
    """Wait until no other worker runs the thread: its turn ended, or its worker died and the lease lapsed (at most
    LEASE_MS after the worker's last renewal: nothing else tells a dead worker from a busy one). False after `within`
    seconds of waiting."""
    deadline = asyncio.get_running_loop().time() + within
    while await runs_elsewhere(thread_id):
        if asyncio.get_running_loop().time() >= deadline:
            return False
        await asyncio.sleep(LOOK_EVERY)
    return True


async def load_latest(store: ThreadStore, owner: str, thread_id: str) -> StoredThread | None:
    """The owner's stored thread with the last words of a turn that ended while it was read: that turn's last save
    was not in the copy read, so it is read again once the turn has written the thread back. Not inside a locked
    block of a tab: it may wait for a turn's end, which shows in its own tab."""
    while True:
        here, elsewhere = claims.holder(thread_id), await runs_elsewhere(thread_id)
        stored = await load(store, owner, thread_id)
        if stored is None:
            return None
        if here is not None and not here.released and _left(here):
            await asyncio.shield(here.ended())  # (written back then, or on its way: `load` waits for that write)
            continue
        ended_here = here is not None and here.released
        ended_elsewhere = elsewhere and not await runs_elsewhere(thread_id)
        if not ended_here and not ended_elsewhere:
            return stored  # (a turn still working on it shows the thread as it has it)


def _left(claim: Claim) -> bool:
    """The claim's turn has left: it writes the thread back (a claim held for something else is not waited for)."""
    return isinstance(claim.run_by, ThreadRun) and claim.run_by.left


def begin(claim: Claim, thread: Thread, loop: RunLoop, sink: ViewSink, tab: Tab, keeper: Keeper | None) -> ThreadRun:
    """The turn that runs the thread under `claim` (synchronous: it is running from here on)."""
    thread_run = ThreadRun(thread, loop, sink, claim, tab, keeper)
    claim.run_by = thread_run
    return thread_run


async def release(claim: Claim) -> None:
    """Free a thread claimed for a turn that did not begin."""
    claim.release()
    await _release_lease(claim.thread_id)


def leave(thread_run: ThreadRun) -> None:
    """The turn's work is over: new clicks wait for it to release the thread, then start a new turn."""
    thread_run.left = True


async def hand_over(thread_run: ThreadRun, written: Awaitable[None] | None) -> None:
    """The turn wrote the thread back (`written`: done once the write has landed in the store): the thread is free on
    this worker now (a load of it here waits for the write itself), and for other workers once the write has landed."""
    try:
        thread_run.claim.release()
        if written is not None:
            await written
    finally:
        await _release_lease(thread_run.thread.id)


async def _release_lease(thread_id: str) -> None:
    """Other workers may claim the thread (nothing to do with one worker)."""
    group = cluster()
    if group is not None:
        await group.release(thread_id)

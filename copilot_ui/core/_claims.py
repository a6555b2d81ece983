"""Who runs a thread in this process: a process-wide registry of claims, keyed by thread id.

A claim is taken synchronously, so that a caller (a click's event handler) holds the thread before
its first await: two clicks never both run one conversation, even through two RunLoop objects or
two Thread objects of the same id. The turn that holds a claim is reachable through it, which is
how a message or a decision made anywhere in the process reaches the running turn; so is what runs
the turn in the layer that took the claim (`run_by`: the chat's ThreadRun).

    claim = claims.claim(thread.id)      # None: someone runs it now
    if claim is not None:
        try:
            await loop.send(thread, text, claim=claim)
        finally:
            claim.release()
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from ..errors import ThreadBusy

if TYPE_CHECKING:
    from ._turn import Turn


class Claim:
    """The right to run one thread, from claims.claim() until release()."""

    def __init__(self, registry: Claims, thread_id: str) -> None:
        self.thread_id = thread_id
        self.turn: Turn | None = None  # the turn using this claim, while it runs
        self.run_by: object = None  # what runs the thread under this claim, as the layer that took it knows it
        self._registry = registry
        self._released = False
        self._ended: asyncio.Future[None] | None = None  # made only when someone waits for the release
        self._owner = _current_task()  # a task waiting for its own claim would wait forever

    @property
    def released(self) -> bool:
        """The thread is free again (or held by a newer claim)."""
        return self._released

    def release(self) -> None:
        """Free the thread; releasing twice does nothing."""
        if self._released:
            return
        self._released = True
        self.turn = None
        self._registry.forget(self)
        if self._ended is not None and not self._ended.done():
            self._ended.set_result(None)

    def ended(self) -> asyncio.Future[None]:
        """Done once the thread is released (await it shielded: a waiter's cancellation must not end it for others)."""
        if self._ended is None:
            self._ended = asyncio.get_running_loop().create_future()
            if self._released:
                self._ended.set_result(None)
        return self._ended

    async def wait_released(self) -> None:
        """Until the holder releases the thread."""
        if self._released:
            return
        if self._owner is not None and self._owner is _current_task():
            raise ThreadBusy(self.thread_id, f"this task holds the claim on thread {self.thread_id!r}: pass it as claim=")
        await asyncio.shield(self.ended())

    def __repr__(self) -> str:
        return f"Claim({self.thread_id!r}{', released' if self._released else ''})"


class Claims:
    """Claims by thread id (one registry per process: `claims`)."""

    def __init__(self) -> None:
        self._held: dict[str, Claim] = {}

    def claim(self, thread_id: str) -> Claim | None:
        """Hold the thread now (no await); None when another claim holds it."""
        if thread_id in self._held:
            return None
        claim = self._held[thread_id] = Claim(self, thread_id)
        return claim

    def holder(self, thread_id: str) -> Claim | None:
        """The claim holding the thread, if any."""
        return self._held.get(thread_id)

    def held(self) -> list[Claim]:
        """Every claim held now."""
        return list(self._held.values())

    def forget(self, claim: Claim) -> None:
        if self._held.get(claim.thread_id) is claim:
            del self._held[claim.thread_id]


claims = Claims()


def _current_task() -> asyncio.Task[object] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no event loop running: claimed from plain code
        return None

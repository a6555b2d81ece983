"""Conversations kept in the app's store: saved at message boundaries, loaded for their owner, marked while they run.

A save happens when the loop waits for it (before each agent run: the loop's commit) and when a drive
ends, never per token, through a worker thread (the store blocks). While a run goes, the view notes
the message it follows; a thread loaded with that mark was cut off by a crash, and shows so, with
Retry. Nothing here is Reflex-specific beyond the owner given by the caller.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from ...core import Thread
from ...store import StoredThread, ThreadExists, ThreadNotFound, ThreadStore
from ..declarations import copilot
from ..view import Conversation
from ._pruning import prune_now_and_then

logger = logging.getLogger("copilot_ui.state")


@dataclass
class Keeper:
    """Saves one thread of one owner (the drive keeps one while it runs)."""

    store: ThreadStore
    owner: str
    agent: str

    async def save(self, thread: Thread, conversation: Conversation, *, running: bool) -> None:
        """Write the thread and its view (the loop is not changing it now); a failure is logged, never raised."""
        conversation.run_after = (thread.last_message_id() or "") if running else None
        notes = conversation.to_notes()  # (here: the view may change while the worker thread writes)
        try:
            await asyncio.to_thread(self._save, thread, conversation, notes)
        except Exception:
            logger.exception("saving conversation %s failed", thread.id)
        prune_now_and_then(self.store)

    def _save(self, thread: Thread, conversation: Conversation, notes: list[dict[str, Any]]) -> None:
        try:
            self.store.save(self.owner, thread, notes=notes)
        except ThreadNotFound:
            if conversation.created:
                logger.info("conversation %s was deleted; it is not saved again", thread.id)
                return
            try:
                self.store.create(self.owner, agent=self.agent, thread_id=thread.id)
            except ThreadExists:  # another worker created it meanwhile
                pass
            self.store.save(self.owner, thread, notes=notes)
        conversation.created = True


async def load(store: ThreadStore, owner: str, thread_id: str) -> StoredThread | None:
    """The owner's stored conversation with this id (None: none of theirs), through a worker thread."""
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
    """The run after this message (None: from the start) was cut off by the server stopping: Retry runs it again."""
    thread.turn.failed = "interrupted"
    thread.turn.failed_after = after
    conversation.add_note("error", copilot.labels.interrupted, after, retry=True)
    conversation.run_after = None

"""What a store of conversations promises, whatever keeps them: the `ThreadStore` interface.

Every operation names the owner (a person, an account: whatever the app authenticates). An owner
sees only their own threads: another owner's thread, even asked for by its exact id, looks exactly
like a thread that does not exist. The methods are blocking; from asyncio code call them through
`asyncio.to_thread` (an implementation is safe to use from several threads at once).
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Self

from ..core import Thread, attachments_of
from ..protocol._json import JSONObject

NEW_TITLE = "New conversation"
TITLE_LENGTH = 80
ANONYMOUS_OWNER = "anon-"  # how the ids of owners start that the copilot made for a browser (no account)


@dataclass(frozen=True, slots=True)
class ThreadSummary:
    """A stored thread as a list of conversations shows it."""

    id: str
    title: str
    agent: str
    created_at: datetime
    updated_at: datetime
    """When the conversation last changed (renaming or archiving leaves it)."""
    archived: bool
    message_count: int
    """How many messages it holds."""


@dataclass(frozen=True, slots=True)
class Rating:
    """What a person said of a reply: good or bad, and why (an optional comment)."""

    rating: Literal["good", "bad"]
    comment: str = ""


@dataclass(slots=True)
class StoredThread:
    """A stored conversation, ready to show and to resume: the thread, the view's notes, its summary, its ratings."""

    thread: Thread
    summary: ThreadSummary
    notes: list[JSONObject] = field(default_factory=list[JSONObject])  # as saved, untouched by the store
    ratings: dict[str, Rating] = field(default_factory=dict[str, Rating])  # message id -> the person's rating of that reply


class ThreadStore(ABC):
    """Conversations kept for their owners: created, saved turn by turn, listed, resumed, renamed, archived, deleted."""

    @abstractmethod
    def create(self, owner: str, *, agent: str, title: str | None = None, thread_id: str | None = None) -> ThreadSummary:
        """A new, empty conversation of `owner` with `agent`; a fresh id unless `thread_id` is given.

        Without a title it is named after its first user message. Raises ThreadExists when the owner
        already has a thread with that id.
        """

    @abstractmethod
    def save(self, owner: str, thread: Thread, *, notes: list[JSONObject] | None = None) -> ThreadSummary:
        """Make the stored thread what `thread` is now: its messages, state and bookkeeping, in one transaction.

        `notes` (small JSON objects the view keeps beside the conversation) replace the stored ones;
        None leaves them as they are. Call it at message boundaries, not per token, and let nothing
        change the thread while it is read: from asyncio, `await asyncio.to_thread(store.save, owner,
        thread)` where the run loop waits for it or between runs. Raises ThreadNotFound when the
        owner has no thread with this id (a thread deleted meanwhile is not brought back).
        """

    def prepare_save(self, owner: str, thread: Thread, *, notes: list[JSONObject] | None = None) -> Callable[[], ThreadSummary]:
        """`save` in two parts: read the thread now, write it when the returned function is called.

        The reading is quick, for where nothing changes the thread (the event loop, between runs);
        the writing may run later in a worker thread while the thread goes on changing. Writes of one
        thread must be called in the order they were prepared. The copilot keeps its conversations
        this way, so that no run waits for the database. This default reads a copy of the thread; a
        store that can read less (the SQL store serializes it) overrides it.
        """
        kept = Thread(thread.id, [message.model_copy(deep=True) for message in thread.messages], copy.deepcopy(thread.state))
        kept.restore_bookkeeping(thread.bookkeeping_json())
        kept_notes = copy.deepcopy(notes)
        return lambda: self.save(owner, kept, notes=kept_notes)

    @abstractmethod
    def load_with_notes(self, owner: str, thread_id: str) -> StoredThread | None:
        """The thread as it was last saved, with the view's notes and its summary; None if the owner has none."""

    @abstractmethod
    def list(
        self, owner: str, *, search: str = "", include_archived: bool = False, limit: int = 50, offset: int = 0
    ) -> list[ThreadSummary]:
        """The owner's threads, the most recently changed first.

        `search` finds the threads whose title, or the words of one of whose messages (what the person
        wrote, what the agent replied), contain it; case, accents and runs of white space aside.
        """

    @abstractmethod
    def rename(self, owner: str, thread_id: str, title: str) -> ThreadSummary:
        """Give a thread a title of the person's choice (an empty one returns to the automatic title)."""

    @abstractmethod
    def archive(self, owner: str, thread_id: str, archived: bool = True) -> ThreadSummary:
        """Hide a thread from the list (or show it again with archived=False); it is still loaded by id."""

    @abstractmethod
    def delete(self, owner: str, thread_id: str) -> bool:
        """Forget a thread, its messages and its state; False if the owner had no such thread."""

    @abstractmethod
    def prune(self, *, owner_prefix: str, unchanged_since: datetime) -> int:
        """Forget the threads of the owners whose id starts with `owner_prefix` that did not change since then
        (anonymous owners' conversations past their retention); how many."""

    @abstractmethod
    def move(self, from_owner: str, to_owner: str) -> int:
        """Give every thread of `from_owner` to `to_owner` (a browser's conversations to the person who logged in on
        it); how many."""

    def rate(self, owner: str, thread_id: str, message_id: str, rating: Rating | None) -> bool:
        """Keep a person's rating with a message of the thread (None forgets it); False when the store has no such
        message (yet) for this owner. It goes with the message: a reply replaced (Regenerate, an edit) takes it along."""
        raise NotImplementedError(f"{type(self).__name__} keeps no ratings")

    def load(self, owner: str, thread_id: str) -> Thread | None:
        """The thread as it was last saved (messages, state, bookkeeping); None if the owner has none."""
        stored = self.load_with_notes(owner, thread_id)
        return None if stored is None else stored.thread

    def close(self) -> None:  # noqa: B027 - a store without resources has nothing to release
        """Release connections; the store is not used after."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def one_line(text: str) -> str:
    """The text with every run of white space (line breaks too) made one space, trimmed."""
    return " ".join(text.split())


def automatic_title(thread: Thread) -> str:
    """The first user message, on one line and at most TITLE_LENGTH characters (the names of its files when it has
    no words); NEW_TITLE before there is one."""
    for message in thread.messages:
        if message.role == "user":
            text = one_line(text_of(message.content)) or one_line(", ".join(file.name for file in attachments_of(message)))
            if text:
                return text if len(text) <= TITLE_LENGTH else text[: TITLE_LENGTH - 1] + "…"
    return NEW_TITLE


def text_of(content: str | Sequence[object] | None) -> str:
    """A message's words: its text, or the text parts of multimodal content; nothing for no content."""
    if isinstance(content, str):
        return content
    # Multimodal content: the text parts, in order.
    return " ".join(getattr(part, "text", "") or "" for part in content or ())

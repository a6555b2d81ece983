"""The files people attach, kept for their owner: uploaded (unsent), then attached to a conversation, gone with it.

A file is uploaded before its message is sent: it is the owner's, unsent. Sending the message attaches it to the
conversation (only the owner's unsent files, or files of that same conversation: a message cannot take another
owner's file, nor another conversation's). Reading names the owner too: another owner's file, even asked for by its
exact id, looks exactly like one that does not exist. Deleting a conversation (or its retention running out) deletes
its files; unsent files are forgotten after a day.

`SQLAttachments` keeps them in the store's database (`copilot_attachments`, next to the threads);
`MemoryAttachments` in the process, for an app without a SQL store (they go when it stops).
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Select, delete, func, insert, or_, select, update

from ..core import Attachment
from ..errors import OverLimit
from ..protocol import new_id
from ._schema import attachments

UNSENT_FOR = timedelta(days=1)  # how long a file uploaded but never sent is kept


class AttachmentStore(ABC):
    """Files attached to messages, by owner. Blocking methods: from asyncio, call them through asyncio.to_thread."""

    @abstractmethod
    def add_attachment(
        self,
        owner: str,
        name: str,
        mime_type: str,
        data: bytes,
        *,
        thread_id: str = "",
        max_bytes: int | None = None,
        max_unsent: int | None = None,
    ) -> Attachment:
        """Keep an uploaded file for `owner`, unsent (files unsent for a day are forgotten meanwhile). Raises OverLimit,
        keeping nothing, when the owner has `max_unsent` files waiting already, or when the owner's unsent files and
        those of `thread_id` would hold more than `max_bytes` (checked and written at once)."""

    @abstractmethod
    def attachment(self, owner: str, attachment_id: str) -> tuple[Attachment, bytes] | None:
        """The owner's file and its bytes; None for another owner's, or none."""

    @abstractmethod
    def attachment_bytes(self, owner: str, ids: Sequence[str], thread_id: str | None = None) -> dict[str, bytes]:
        """The bytes of those of these files that are the owner's (and attached to `thread_id`, if given), by id."""

    @abstractmethod
    def attach(
        self, owner: str, ids: Sequence[str], thread_id: str, *, max_bytes: int | None = None, every: bool = False
    ) -> list[Attachment]:
        """Attach the owner's unsent files (or files of this thread already) to the thread, in the order named; the
        others (another owner's, another thread's, unknown) are left out; with `every`, none is attached unless all
        can be (then the list is shorter than the ids named, and nothing was written). With `max_bytes`, raises
        OverLimit and attaches none when the thread would hold more bytes of files than that (checked as written)."""

    @abstractmethod
    def held_bytes(self, owner: str, thread_id: str) -> int:
        """The bytes the conversation holds, counting the owner's files not sent yet (they may go to it)."""

    @abstractmethod
    def remove_unsent(self, owner: str, attachment_id: str) -> bool:
        """Forget an unsent file of the owner's (the person removed it before sending); False if none."""

    @abstractmethod
    def thread_attachments(self, owner: str, thread_id: str) -> list[Attachment]:
        """The files attached to the owner's conversation, oldest first."""


class SQLAttachments(AttachmentStore):
    """Attachments in the store's SQL database (mixed into SQLThreadStore: same engine, same transactions)."""

    def add_attachment(
        self,
        owner: str,
        name: str,
        mime_type: str,
        data: bytes,
        *,
        thread_id: str = "",
        max_bytes: int | None = None,
        max_unsent: int | None = None,
    ) -> Attachment:
        attachment = Attachment(new_id("att-"), name, mime_type, len(data))
        now = datetime.now(UTC)
        a = attachments.c
        with self._transaction(write=True) as db:
            _one_writer_per_owner(db, owner)
            db.execute(delete(attachments).where(a.thread_id.is_(None), a.created_at < now - UNSENT_FOR))
            if max_unsent is not None:
                waiting = int(db.scalar(select(func.count()).where(a.owner == owner, a.thread_id.is_(None))) or 0)
                if waiting >= max_unsent:
                    raise OverLimit("unsent", waiting)
            if max_bytes is not None:
                held = int(db.scalar(self._held_query(owner, thread_id)) or 0)
                if held + attachment.size > max_bytes:
                    raise OverLimit("conversation", held)
            db.execute(insert(attachments).values(_row(owner, attachment, data, now)))
        return attachment

    def attachment(self, owner: str, attachment_id: str) -> tuple[Attachment, bytes] | None:
        a = attachments.c
        query = select(a.id, a.name, a.mime_type, a.size, a.data).where(a.owner == owner, a.id == attachment_id)
        with self._transaction(write=False) as db:
            row = db.execute(query).one_or_none()
        return None if row is None else (_attachment(row), bytes(row.data))

    def attachment_bytes(self, owner: str, ids: Sequence[str], thread_id: str | None = None) -> dict[str, bytes]:
        a = attachments.c
        where = [a.owner == owner, a.id.in_(list(ids))] + ([a.thread_id == thread_id] if thread_id is not None else [])
        with self._transaction(write=False) as db:
            rows = db.execute(select(a.id, a.data).where(*where)).all()
        return {row.id: bytes(row.data) for row in rows}

    def attach(
        self, owner: str, ids: Sequence[str], thread_id: str, *, max_bytes: int | None = None, every: bool = False
    ) -> list[Attachment]:
        a = attachments.c
        mine = (a.owner == owner, a.id.in_(list(ids)), or_(a.thread_id.is_(None), a.thread_id == thread_id))
        with self._transaction(write=True) as db:
            _one_writer_per_owner(db, owner)
            rows = db.execute(select(a.id, a.name, a.mime_type, a.size, a.thread_id).where(*mine)).all()
            adding = [row for row in rows if row.thread_id is None] if not every or len(rows) == len(set(ids)) else []
            if max_bytes is not None and adding:
                in_thread = select(func.coalesce(func.sum(a.size), 0)).where(a.owner == owner, a.thread_id == thread_id)
                held = int(db.scalar(in_thread) or 0)
                if held + sum(row.size for row in adding) > max_bytes:
                    raise OverLimit("conversation", held)
            if adding:
                db.execute(update(attachments).where(a.id.in_([row.id for row in adding])).values(thread_id=thread_id))
        found = {row.id: _attachment(row) for row in rows}
        return [found[key] for key in dict.fromkeys(ids) if key in found]

    def held_bytes(self, owner: str, thread_id: str) -> int:
        with self._transaction(write=False) as db:
            return int(db.scalar(self._held_query(owner, thread_id)) or 0)

    @staticmethod
    def _held_query(owner: str, thread_id: str) -> Select[int]:
        a = attachments.c
        held = or_(a.thread_id.is_(None), a.thread_id == thread_id)
        return select(func.coalesce(func.sum(a.size), 0)).where(a.owner == owner, held)

    def remove_unsent(self, owner: str, attachment_id: str) -> bool:
        a = attachments.c
        with self._transaction(write=True) as db:
            removed = db.execute(delete(attachments).where(a.owner == owner, a.id == attachment_id, a.thread_id.is_(None)))
        return removed.rowcount > 0

    def thread_attachments(self, owner: str, thread_id: str) -> list[Attachment]:
        a = attachments.c
        query = select(a.id, a.name, a.mime_type, a.size).where(a.owner == owner, a.thread_id == thread_id).order_by(a.pk)
        with self._transaction(write=False) as db:
            return [_attachment(row) for row in db.execute(query)]

    def _transaction(self, *, write: bool) -> AbstractContextManager[Connection]:  # SQLThreadStore's
        raise NotImplementedError


def delete_thread_attachments(db: Connection, owners_and_ids: Sequence[tuple[str, str]]) -> None:
    """Forget the files of these conversations (owner, thread id): they are being deleted."""
    a = attachments.c
    for owner, thread_id in owners_and_ids:
        db.execute(delete(attachments).where(a.owner == owner, a.thread_id == thread_id))


def move_attachments(db: Connection, from_owner: str, to_owner: str, thread_ids: Sequence[str]) -> None:
    """The files of these conversations, and the unsent ones, follow their conversations to another owner."""
    a = attachments.c
    moved = or_(a.thread_id.is_(None), a.thread_id.in_(list(thread_ids)))
    db.execute(update(attachments).where(a.owner == from_owner, moved).values(owner=to_owner))


@dataclass
class _Held:
    owner: str
    attachment: Attachment
    data: bytes
    thread_id: str | None
    created_at: datetime


class MemoryAttachments(AttachmentStore):
    """Attachments in this process only (an app without a SQL store): gone when it stops, not seen by other workers."""

    def __init__(self) -> None:
        self._held: dict[str, _Held] = {}
        self._lock = threading.Lock()

    def add_attachment(
        self,
        owner: str,
        name: str,
        mime_type: str,
        data: bytes,
        *,
        thread_id: str = "",
        max_bytes: int | None = None,
        max_unsent: int | None = None,
    ) -> Attachment:
        attachment = Attachment(new_id("att-"), name, mime_type, len(data))
        now = datetime.now(UTC)
        with self._lock:
            for key in [key for key, held in self._held.items() if held.thread_id is None and held.created_at < now - UNSENT_FOR]:
                del self._held[key]
            waiting = sum(1 for held in self._held.values() if held.owner == owner and held.thread_id is None)
            if max_unsent is not None and waiting >= max_unsent:
                raise OverLimit("unsent", waiting)
            held_bytes = self.held_bytes(owner, thread_id)
            if max_bytes is not None and held_bytes + attachment.size > max_bytes:
                raise OverLimit("conversation", held_bytes)
            self._held[attachment.id] = _Held(owner, attachment, data, None, now)
        return attachment

    def attachment(self, owner: str, attachment_id: str) -> tuple[Attachment, bytes] | None:
        held = self._held.get(attachment_id)
        return (held.attachment, held.data) if held is not None and held.owner == owner else None

    def attachment_bytes(self, owner: str, ids: Sequence[str], thread_id: str | None = None) -> dict[str, bytes]:
        owned = self._owned(owner, ids)
        return {held.attachment.id: held.data for held in owned if thread_id is None or held.thread_id == thread_id}

    def attach(
        self, owner: str, ids: Sequence[str], thread_id: str, *, max_bytes: int | None = None, every: bool = False
    ) -> list[Attachment]:
        with self._lock:
            found = [held for held in self._owned(owner, dict.fromkeys(ids)) if held.thread_id in (None, thread_id)]
            if every and len(found) < len(set(ids)):
                return [held.attachment for held in found]  # none attached
            adding = sum(held.attachment.size for held in found if held.thread_id is None)
            if max_bytes is not None and adding:
                in_thread = sum(h.attachment.size for h in self._held.values() if h.owner == owner and h.thread_id == thread_id)
                if in_thread + adding > max_bytes:
                    raise OverLimit("conversation", in_thread)
            for held in found:
                held.thread_id = thread_id
        return [held.attachment for held in found]

    def held_bytes(self, owner: str, thread_id: str) -> int:
        return sum(h.attachment.size for h in list(self._held.values()) if h.owner == owner and h.thread_id in (None, thread_id))

    def remove_unsent(self, owner: str, attachment_id: str) -> bool:
        with self._lock:
            held = self._held.get(attachment_id)
            if held is None or held.owner != owner or held.thread_id is not None:
                return False
            del self._held[attachment_id]
        return True

    def thread_attachments(self, owner: str, thread_id: str) -> list[Attachment]:
        return [h.attachment for h in list(self._held.values()) if h.owner == owner and h.thread_id == thread_id]

    def _owned(self, owner: str, ids: Sequence[str] | dict[str, None]) -> Iterator[_Held]:
        for key in ids:
            held = self._held.get(key)
            if held is not None and held.owner == owner:
                yield held


def _one_writer_per_owner(db: Connection, owner: str) -> None:
    """Writes of one owner's files take turns until the transaction ends, so that a limit checked holds when written.
    SQLite's write transaction holds the database's write lock already; PostgreSQL takes a lock named after the owner."""
    if db.dialect.name == "postgresql":
        db.execute(select(func.pg_advisory_xact_lock(func.hashtext("copilot_attachments:" + owner))))


def _row(owner: str, attachment: Attachment, data: bytes, now: datetime) -> dict[str, object]:
    return {
        "id": attachment.id,
        "owner": owner,
        "thread_id": None,
        "name": attachment.name,
        "mime_type": attachment.mime_type,
        "size": attachment.size,
        "data": data,
        "created_at": now,
    }


def _attachment(row: Any) -> Attachment:
    return Attachment(row.id, row.name, row.mime_type, row.size)

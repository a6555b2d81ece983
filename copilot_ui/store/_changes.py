"""What a save writes: the thread as rows, compared with what the store last wrote of it.

Every message becomes a row keyed by its id, with its position and a digest of its JSON. Against
the keys and digests last written, a save finds the rows to delete (messages gone after an edit or
a regenerate), to insert (new messages), to rewrite (a message whose content changed: a streamed
reply that completed, a tool call that got its arguments) and to move (a tool result inserted
after its call shifts the messages behind it). What the turn did not touch is not written.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeAlias

from ag_ui.core import Message

from ..core import Thread
from ..protocol._json import JSONObject
from ._base import automatic_title
from ._schema import ID_LENGTH
from ._search import searchable_text

DIGEST_SIZE = 16
MessageRow: TypeAlias = "dict[str, str | int | bytes]"  # the columns of a message row that a save writes


@dataclass(slots=True)
class Written:
    """What the store last wrote of one thread (kept while the Thread object lives)."""

    owner: str
    thread_id: str
    pk: int
    revision: int
    keys: list[str]  # message keys in position order (the messages' own id strings, not copies)
    digests: bytes  # theirs, DIGEST_SIZE bytes each in the same order: about 24 bytes a message in all
    state: bytes  # digests of the JSON columns
    bookkeeping: bytes
    notes: bytes

    def matches(self, owner: str, thread_id: str, pk: int, revision: int) -> bool:
        """Still what the database holds: nobody else wrote the thread since, and it is the same thread."""
        return (self.owner, self.thread_id, self.pk, self.revision) == (owner, thread_id, pk, revision)


@dataclass(slots=True)
class Snapshot:
    """A thread as the rows and columns it would be stored as."""

    messages: list[Message]  # for the words of the rows a save writes, folded only for those
    keys: list[str]
    digests: list[bytes]
    bodies: list[str]
    state: str
    bookkeeping: str
    notes: str | None  # None: leave the stored notes as they are
    auto_title: str
    state_digest: bytes  # digests of the JSON columns, compared with Written's (taken here, outside the write lock)
    bookkeeping_digest: bytes
    notes_digest: bytes | None


@dataclass(slots=True)
class MessageChanges:
    """The message rows one save writes."""

    deleted: list[str] = field(default_factory=list[str])
    inserted: list[MessageRow] = field(default_factory=list[MessageRow])
    rewritten: list[MessageRow] = field(default_factory=list[MessageRow])  # new body and words (and position)
    moved: list[MessageRow] = field(default_factory=list[MessageRow])  # new position only

    def __bool__(self) -> bool:
        return bool(self.deleted or self.inserted or self.rewritten or self.moved)


def snapshot(thread: Thread, notes: list[JSONObject] | None) -> Snapshot:
    """Serialize the thread once: message rows, state, bookkeeping, notes."""
    messages = thread.messages
    bodies = [message_json(message) for message in messages]
    state, bookkeeping = to_json(thread.state), to_json(thread.bookkeeping_json())
    notes_json = None if notes is None else to_json(notes)
    return Snapshot(
        messages=list(messages),
        keys=row_keys(messages),
        digests=[digest(body) for body in bodies],
        bodies=bodies,
        state=state,
        bookkeeping=bookkeeping,
        notes=notes_json,
        auto_title=automatic_title(thread),
        state_digest=digest(state),
        bookkeeping_digest=digest(bookkeeping),
        notes_digest=None if notes_json is None else digest(notes_json),
    )


def message_changes(written: Written, now: Snapshot) -> MessageChanges:
    """The rows that make the stored messages into the snapshot's."""
    changes = MessageChanges()
    current = set(now.keys)
    changes.deleted = [key for key in written.keys if key not in current]
    old_positions = {key: position for position, key in enumerate(written.keys)}
    for position, (key, new_digest, body) in enumerate(zip(now.keys, now.digests, now.bodies, strict=True)):
        old = old_positions.get(key)
        if old is None:
            row = {"message_key": key, "position": position, "digest": new_digest, "body": body}
            changes.inserted.append(row | {"search_text": searchable_text(now.messages[position])})
        elif written.digests[old * DIGEST_SIZE : (old + 1) * DIGEST_SIZE] != new_digest:
            row = {"b_key": key, "position": position, "digest": new_digest, "body": body}
            changes.rewritten.append(row | {"search_text": searchable_text(now.messages[position])})
        elif old != position:
            changes.moved.append({"b_key": key, "position": position})
    return changes


def row_keys(messages: Sequence[_Identified]) -> list[str]:
    """A key per message: its id; a digest of it where the id is too long for the column or repeats."""
    keys: list[str] = []
    seen: dict[str, int] = {}
    for message in messages:
        occurrence = seen.get(message.id, 0)
        seen[message.id] = occurrence + 1
        if occurrence == 0 and len(message.id) <= ID_LENGTH and not message.id.startswith("~"):
            keys.append(message.id)
        else:  # "~" marks a derived key, so that no real id can collide with one
            keys.append("~" + hashlib.blake2b(f"{message.id}\x00{occurrence}".encode(), digest_size=16).hexdigest())
    return keys


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


def message_json(message: Message) -> str:
    """A message as AG-UI JSON, as the wire carries it (camelCase, no nulls)."""
    return message.model_dump_json(by_alias=True, exclude_none=True)


def to_json(value: object) -> str:
    """Compact JSON; what is not JSON becomes its str() rather than failing the save."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def digest(text: str) -> bytes:
    """A short fingerprint of stored JSON: equal text, equal digest."""
    return hashlib.blake2b(text.encode(), digest_size=DIGEST_SIZE).digest()

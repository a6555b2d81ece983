"""The store in SQL: a SQLite file by default, PostgreSQL (or any database SQLAlchemy reaches) by URL.

A save writes what changed since the thread was last saved or loaded, in one transaction: the
message rows added, changed, moved or removed (`_changes`), the state and bookkeeping if they
changed, and the thread's row. To know what changed without reading the conversation back, the
store keeps, for each Thread object it saved or loaded and only while that object lives, the key
and digest of every message it wrote. The thread's row carries a revision, raised by every save:
when another store (another worker) wrote the thread since, the digests are read again from the
database, so a save always makes the stored thread exactly the one given.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Callable, Generator
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeAlias
from weakref import WeakKeyDictionary

from ag_ui.core import Message
from pydantic import TypeAdapter
from sqlalchemy import URL, ColumnElement, Connection, Row, bindparam, delete, false, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..core import Thread
from ..errors import ThreadExists, ThreadNotFound
from ..protocol import new_id
from ..protocol._json import JSONObject
from ._attachments import SQLAttachments, delete_thread_attachments, move_attachments
from ._base import NEW_TITLE, Rating, StoredThread, ThreadStore, ThreadSummary, one_line
from ._changes import MessageChanges, Snapshot, Written, digest, message_changes, row_keys, snapshot
from ._engine import WRITE, database_url, in_memory, store_engine
from ._migrate import upgrade
from ._schema import ID_LENGTH, messages, threads
from ._search import folded, found_by

_MESSAGES = TypeAdapter(list[Message])
_SUMMARY = (
    threads.c.pk,
    threads.c.id,
    threads.c.title,
    threads.c.auto_title,
    threads.c.agent,
    threads.c.created_at,
    threads.c.updated_at,
    threads.c.archived,
    threads.c.message_count,
    threads.c.revision,
)
_DELETE_CHUNK = 500  # keys per DELETE ... IN (...): below every database's limit on parameters
# A save's statements, made once: building one costs more than SQLite takes to run it.
_OWNED_ROW = select(*_SUMMARY).where(threads.c.owner == bindparam("b_owner"), threads.c.id == bindparam("b_id"))
_OWNED_ROW_LOCKED = _OWNED_ROW.with_for_update()
_UPDATE_THREAD = update(threads).where(threads.c.pk == bindparam("b_pk"))  # SET takes the columns the values name
_UPDATE_MESSAGE = update(messages).where(messages.c.thread_pk == bindparam("b_pk"), messages.c.message_key == bindparam("b_key"))
_INSERT_MESSAGE = insert(messages)

_Row: TypeAlias = "Row[*tuple[Any, ...]]"  # the columns asked for, by name


class SQLThreadStore(SQLAttachments, ThreadStore):
    """Threads in a SQL database, created or migrated to the newest schema when the store opens.

    `SQLThreadStore("threads.db")` keeps them in a SQLite file (created with its folder);
    `SQLThreadStore("postgresql+psycopg://user:password@host/db")` in PostgreSQL; any SQLAlchemy
    URL works. With no argument: the URL in COPILOT_STORE_URL, else .copilot/threads.db in the app's folder.
    `engine_options` go to sqlalchemy.create_engine (pool_size=..., echo=True...).

    It keeps the files people attach to their messages too (see _attachments), deleted with their conversation.
    Safe to share between threads: connections are pooled and each operation is one transaction.
    From asyncio code: `await asyncio.to_thread(store.save, owner, thread)`.
    """

    def __init__(self, url_or_path: str | Path | URL | None = None, **engine_options: Any) -> None:
        self.url = database_url(url_or_path)
        self.engine = store_engine(self.url, **engine_options)
        # One shared connection for :memory:, so its transactions must take turns.
        self._exclusive = threading.RLock() if in_memory(self.url) else contextlib.nullcontext()
        self._written: WeakKeyDictionary[Thread, Written] = WeakKeyDictionary()
        self._written_lock = threading.Lock()
        with self._exclusive:
            upgrade(self.engine)

    def __repr__(self) -> str:
        return f"SQLThreadStore({self.url.render_as_string(hide_password=True)!r})"

    # Operations

    def create(self, owner: str, *, agent: str, title: str | None = None, thread_id: str | None = None) -> ThreadSummary:
        thread_id = thread_id or new_id("thread-")
        for name, value in (("owner", owner), ("agent", agent), ("thread_id", thread_id)):
            if len(value) > ID_LENGTH:
                raise ValueError(f"{name} is longer than {ID_LENGTH} characters")
        title = one_line(title or "") or None
        now = datetime.now(UTC)
        row = {
            "owner": owner,
            "id": thread_id,
            "agent": agent,
            "title": title,
            "auto_title": NEW_TITLE,
            "search_title": folded(title or NEW_TITLE),
            "created_at": now,
            "updated_at": now,
            "archived": False,
            "message_count": 0,
            "revision": 0,
            "state": "{}",
            "bookkeeping": "{}",
            "notes": "[]",
        }
        try:
            with self._transaction(write=True) as db:
                db.execute(insert(threads).values(row))
        except IntegrityError:  # the only constraint an insert can break: (owner, id) is taken
            raise ThreadExists(thread_id) from None
        return ThreadSummary(thread_id, title or NEW_TITLE, agent, now, now, False, 0)

    def save(self, owner: str, thread: Thread, *, notes: list[JSONObject] | None = None) -> ThreadSummary:
        return self.prepare_save(owner, thread, notes=notes)()

    def prepare_save(self, owner: str, thread: Thread, *, notes: list[JSONObject] | None = None) -> Callable[[], ThreadSummary]:
        now = snapshot(thread, notes)  # serialized here, once: the write reads only this
        return partial(self._write, owner, thread, now)

    def _write(self, owner: str, thread: Thread, now: Snapshot) -> ThreadSummary:
        with self._transaction(write=True) as db:
            row = self._thread_row(db, owner, thread.id, lock=True)
            if row is None:
                raise ThreadNotFound(thread.id)
            written = self._remembered(thread, owner, row) or _read_written(db, owner, row)
            changes = message_changes(written, now)
            values = _changed_columns(row, written, now)
            if changes or values:
                _write_messages(db, row.pk, changes)
                values |= {"updated_at": datetime.now(UTC), "message_count": len(now.keys), "revision": row.revision + 1}
                db.execute(_UPDATE_THREAD, values | {"b_pk": row.pk})
        self._remember(thread, _written_after(written, now, values.get("revision", row.revision)))
        summary = _summary(row)
        if not values:  # nothing changed, nothing written
            return summary
        return replace(
            summary,
            title=row.title or values.get("auto_title", row.auto_title),
            updated_at=values["updated_at"],
            message_count=len(now.keys),
        )

    def load_with_notes(self, owner: str, thread_id: str) -> StoredThread | None:
        with self._transaction(write=False) as db:
            row = self._thread_row(db, owner, thread_id, extra=(threads.c.state, threads.c.bookkeeping, threads.c.notes))
            if row is None:
                return None
            m = messages.c
            stored = db.execute(select(m.message_key, m.digest, m.body).where(m.thread_pk == row.pk).order_by(m.position)).all()
            rated = db.execute(select(m.message_key, m.feedback).where(m.thread_pk == row.pk, m.feedback.is_not(None))).all()
        bodies = "[" + ",".join(body for _, _, body in stored) + "]"  # one parse for the whole conversation
        thread = Thread(thread_id, _MESSAGES.validate_json(bodies), json.loads(row.state))
        thread.restore_bookkeeping(json.loads(row.bookkeeping))
        stored_keys = [key for key, _, _ in stored]
        keys = row_keys(thread.messages)  # the same keys, as the messages' own strings
        digests = [value for _, value, _ in stored]
        self._remember(thread, _written(owner, row, keys if keys == stored_keys else stored_keys, digests, row))
        ratings = _ratings(dict(rated), dict(zip(stored_keys, (message.id for message in thread.messages), strict=False)))
        return StoredThread(thread=thread, summary=_summary(row), notes=json.loads(row.notes), ratings=ratings)

    def rate(self, owner: str, thread_id: str, message_id: str, rating: Rating | None) -> bool:
        value = None if rating is None else json.dumps({"rating": rating.rating, "comment": rating.comment}, ensure_ascii=False)
        with self._transaction(write=True) as db:
            row = self._thread_row(db, owner, thread_id, lock=True)
            if row is None:
                return False
            m = messages.c
            key = row_keys([_Keyed(message_id)])[0]
            rated = db.execute(update(messages).where(m.thread_pk == row.pk, m.message_key == key).values(feedback=value))
        return rated.rowcount > 0

    def list(
        self, owner: str, *, search: str = "", include_archived: bool = False, limit: int = 50, offset: int = 0
    ) -> list[ThreadSummary]:
        t = threads.c
        query = select(*_SUMMARY).where(t.owner == owner)
        if not include_archived:
            query = query.where(t.archived == false())
        if words := folded(search):
            query = query.where(found_by(owner, words))
        query = query.order_by(t.updated_at.desc(), t.pk.desc()).limit(limit).offset(offset)
        with self._transaction(write=False) as db:
            return [_summary(row) for row in db.execute(query)]

    def rename(self, owner: str, thread_id: str, title: str) -> ThreadSummary:
        title = one_line(title)
        with self._transaction(write=True) as db:
            row = self._thread_row(db, owner, thread_id, lock=True)
            if row is None:
                raise ThreadNotFound(thread_id)
            shown = title or row.auto_title
            db.execute(update(threads).where(threads.c.pk == row.pk).values(title=title or None, search_title=folded(shown)))
        return replace(_summary(row), title=shown)

    def archive(self, owner: str, thread_id: str, archived: bool = True) -> ThreadSummary:
        with self._transaction(write=True) as db:
            row = self._thread_row(db, owner, thread_id, lock=True)
            if row is None:
                raise ThreadNotFound(thread_id)
            db.execute(update(threads).where(threads.c.pk == row.pk).values(archived=archived))
        return replace(_summary(row), archived=archived)

    def delete(self, owner: str, thread_id: str) -> bool:
        with self._transaction(write=True) as db:
            row = self._thread_row(db, owner, thread_id, lock=True)
            if row is None:
                return False
            _delete_threads(db, [row.pk])
        return True

    def prune(self, *, owner_prefix: str, unchanged_since: datetime) -> int:
        if not owner_prefix:
            raise ValueError("prune() needs an owner prefix: it never forgets every owner's threads at once")
        stale = select(threads.c.pk).where(
            threads.c.owner.startswith(owner_prefix, autoescape=True), threads.c.updated_at < _utc(unchanged_since)
        )
        pruned = 0
        while True:  # in chunks: a long backlog never holds the write lock for long
            with self._transaction(write=True) as db:
                pks = list(db.scalars(stale.limit(_DELETE_CHUNK)))
                _delete_threads(db, pks)
            pruned += len(pks)
            if len(pks) < _DELETE_CHUNK:
                return pruned

    def move(self, from_owner: str, to_owner: str) -> int:
        if from_owner == to_owner:
            return 0
        taken = select(threads.c.id).where(threads.c.owner == to_owner).scalar_subquery()
        movable = (threads.c.owner == from_owner, threads.c.id.not_in(taken))
        with self._transaction(write=True) as db:
            move_attachments(db, from_owner, to_owner, list(db.scalars(select(threads.c.id).where(*movable))))
            moved = db.execute(update(threads).where(*movable).values(owner=to_owner))
        return moved.rowcount

    def close(self) -> None:
        self.engine.dispose()

    # Reading and writing

    @contextlib.contextmanager
    def _transaction(self, *, write: bool) -> Generator[Connection]:
        with self._exclusive, self.engine.connect() as connection:
            if write:
                connection.execution_options(**WRITE)
            elif connection.dialect.name == "postgresql":  # the thread's row and its messages from one snapshot
                connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                yield connection

    @staticmethod
    def _thread_row(
        db: Connection, owner: str, thread_id: str, *, lock: bool = False, extra: tuple[ColumnElement[Any], ...] = ()
    ) -> _Row | None:
        """The owner's thread (locked until the transaction ends, with `lock`: writes to a thread take turns)."""
        if extra:
            query = select(*_SUMMARY, *extra).where(threads.c.owner == owner, threads.c.id == thread_id)
            return db.execute(query.with_for_update() if lock else query).one_or_none()
        return db.execute(_OWNED_ROW_LOCKED if lock else _OWNED_ROW, {"b_owner": owner, "b_id": thread_id}).one_or_none()

    def _remembered(self, thread: Thread, owner: str, row: _Row) -> Written | None:
        """What this store last wrote of the thread, if it is still what the database holds."""
        with self._written_lock:
            written = self._written.get(thread)
        return written if written is not None and written.matches(owner, thread.id, row.pk, row.revision) else None

    def _remember(self, thread: Thread, written: Written) -> None:
        with self._written_lock:
            self._written[thread] = written


def _read_written(db: Connection, owner: str, row: _Row) -> Written:
    """What the database holds of a thread, as digests (the messages' bodies are not read)."""
    m, t = messages.c, threads.c
    stored = db.execute(select(m.message_key, m.digest).where(m.thread_pk == row.pk).order_by(m.position)).all()
    columns = db.execute(select(t.state, t.bookkeeping, t.notes).where(t.pk == row.pk)).one()
    return _written(owner, row, [key for key, _ in stored], [value for _, value in stored], columns)


def _written(owner: str, row: _Row, keys: list[str], digests: list[bytes], columns: _Row) -> Written:
    """What the database holds of a thread: its row, its message keys and digests, its JSON columns' text."""
    return Written(
        owner=owner,
        thread_id=row.id,
        pk=row.pk,
        revision=row.revision,
        keys=keys,
        digests=b"".join(bytes(value) for value in digests),
        state=digest(columns.state),
        bookkeeping=digest(columns.bookkeeping),
        notes=digest(columns.notes),
    )


def _changed_columns(row: _Row, written: Written, now: Snapshot) -> dict[str, Any]:
    """The thread row's columns that the snapshot changes (the messages aside)."""
    values: dict[str, Any] = {}
    if now.state_digest != written.state:
        values["state"] = now.state
    if now.bookkeeping_digest != written.bookkeeping:
        values["bookkeeping"] = now.bookkeeping
    if now.notes_digest is not None and now.notes_digest != written.notes:
        values["notes"] = now.notes
    if now.auto_title != row.auto_title:
        values["auto_title"] = now.auto_title
        if row.title is None:
            values["search_title"] = folded(now.auto_title)
    return values


def _write_messages(db: Connection, thread_pk: int, changes: MessageChanges) -> None:
    """Delete, rewrite, move and insert message rows: only those the save changes."""
    m = messages.c
    for start in range(0, len(changes.deleted), _DELETE_CHUNK):
        keys = changes.deleted[start : start + _DELETE_CHUNK]
        db.execute(delete(messages).where(m.thread_pk == thread_pk, m.message_key.in_(keys)))
    for rows in (changes.rewritten, changes.moved):  # SET takes the columns each row names
        if rows:
            db.execute(_UPDATE_MESSAGE, [row | {"b_pk": thread_pk} for row in rows])
    if changes.inserted:
        db.execute(_INSERT_MESSAGE, [row | {"thread_pk": thread_pk} for row in changes.inserted])


def _written_after(before: Written, now: Snapshot, revision: int) -> Written:
    """What the store holds of a thread once a snapshot of it is saved."""
    return Written(
        owner=before.owner,
        thread_id=before.thread_id,
        pk=before.pk,
        revision=revision,
        keys=now.keys,
        digests=b"".join(now.digests),
        state=now.state_digest,
        bookkeeping=now.bookkeeping_digest,
        notes=before.notes if now.notes_digest is None else now.notes_digest,
    )


def _delete_threads(db: Connection, pks: list[int]) -> None:
    """Forget these threads with their messages (explicitly: a database without foreign keys on keeps no orphans)."""
    if pks:
        delete_thread_attachments(db, db.execute(select(threads.c.owner, threads.c.id).where(threads.c.pk.in_(pks))).all())
        db.execute(delete(messages).where(messages.c.thread_pk.in_(pks)))
        db.execute(delete(threads).where(threads.c.pk.in_(pks)))


class _Keyed:
    """A message id where row_keys wants a message."""

    def __init__(self, message_id: str) -> None:
        self.id = message_id


def _ratings(rated: dict[str, str], message_ids: dict[str, str]) -> dict[str, Rating]:
    """The ratings of a thread's messages, by message id (one that does not read is left out)."""
    ratings: dict[str, Rating] = {}
    for key, value in rated.items():
        try:
            saved = json.loads(value)
            ratings[message_ids.get(key, key)] = Rating(rating=saved["rating"], comment=str(saved.get("comment") or ""))
        except (ValueError, KeyError, TypeError):
            continue
    return ratings


def _summary(row: _Row) -> ThreadSummary:
    return ThreadSummary(
        id=row.id,
        title=row.title or row.auto_title,
        agent=row.agent,
        created_at=_utc(row.created_at),
        updated_at=_utc(row.updated_at),
        archived=bool(row.archived),
        message_count=row.message_count,
    )


def _utc(moment: datetime) -> datetime:
    # SQLite keeps no time zone: what it returns was written in UTC.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)

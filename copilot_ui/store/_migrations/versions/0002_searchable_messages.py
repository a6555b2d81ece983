"""Messages carry their words folded for search (`search_text`); titles are folded without their accents too.

The words of the messages already stored are filled in here, a thousand rows at a time: each body is
read once, and only the rows that have words are written.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from ag_ui.core import Message
from alembic import op
from pydantic import TypeAdapter, ValidationError

from copilot_ui.store._search import folded, searchable_text

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_BATCH = 1_000
_MESSAGE = TypeAdapter(Message)
# The tables as this revision leaves them (not _schema's, which later revisions may change).
_messages = sa.table("copilot_messages", *map(sa.column, ("thread_pk", "message_key", "body", "search_text")))
_threads = sa.table("copilot_threads", *map(sa.column, ("pk", "title", "auto_title", "search_title")))


def upgrade() -> None:
    # With a server default a worker still running the older code can go on inserting messages.
    op.add_column("copilot_messages", sa.Column("search_text", sa.Text(), server_default="", nullable=False))
    db = op.get_bind()
    _fill_message_words(db)
    _fold_titles_again(db)


def downgrade() -> None:
    with op.batch_alter_table("copilot_messages") as batch:
        batch.drop_column("search_text")


def _fill_message_words(db: sa.Connection) -> None:
    m = _messages.c
    write = sa.update(_messages).where(m.thread_pk == sa.bindparam("b_pk"), m.message_key == sa.bindparam("b_key"))
    for rows in _batches(db, (m.thread_pk, m.message_key), m.body):
        words = [{"b_pk": row.thread_pk, "b_key": row.message_key, "search_text": _words(row.body)} for row in rows]
        if with_words := [row for row in words if row["search_text"]]:
            db.execute(write, with_words)


def _words(body: str) -> str:
    try:
        return searchable_text(_MESSAGE.validate_json(body))
    except ValidationError:  # a message this version cannot read is not searchable; the upgrade goes on
        return ""


def _fold_titles_again(db: sa.Connection) -> None:
    t = _threads.c
    write = sa.update(_threads).where(t.pk == sa.bindparam("b_pk"))
    for rows in _batches(db, (t.pk,), t.title, t.auto_title, t.search_title):
        again = [{"b_pk": row.pk, "search_title": folded(row.title or row.auto_title)} for row in rows]
        if changed := [new for new, row in zip(again, rows, strict=True) if new["search_title"] != row.search_title]:
            db.execute(write, changed)


def _batches(
    db: sa.Connection, key: Sequence[sa.ColumnClause[Any]], *columns: sa.ColumnClause[Any]
) -> Iterator[Sequence[sa.Row[*tuple[Any, ...]]]]:
    """A table's rows in key order, _BATCH at a time: each batch starts after the last one's final key."""
    query = sa.select(*key, *columns).order_by(*key).limit(_BATCH)
    rows = db.execute(query).all()
    while rows:
        yield rows
        last = tuple(getattr(rows[-1], column.name) for column in key)
        rows = db.execute(query.where(sa.tuple_(*key) > sa.tuple_(*last))).all()

"""The tables: one row per thread, one row per message. Changed only through a migration (`_migrations/`).

JSON is kept as text written by the store itself (not a JSON column type), so what is stored is
byte for byte what was hashed to notice a change, and reads back without re-encoding. The tables
and Alembic's version table are prefixed `copilot_`, so they can live in an app's own database
beside its models and its own migrations.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

VERSION_TABLE = "copilot_alembic_version"
ID_LENGTH = 255  # owners, thread ids and message keys

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

threads = Table(
    "copilot_threads",
    metadata,
    # A key of the store's own: thread ids are unique per owner, not across owners.
    Column("pk", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("owner", String(ID_LENGTH), nullable=False),
    Column("id", String(ID_LENGTH), nullable=False),
    Column("agent", String(ID_LENGTH), nullable=False),
    Column("title", Text, nullable=True),  # chosen by the person; NULL: auto_title is shown
    Column("auto_title", Text, nullable=False),  # from the first user message
    Column("search_title", Text, nullable=False),  # the shown title, folded for search (see _search)
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("archived", Boolean, nullable=False),
    Column("message_count", Integer, nullable=False),
    Column("revision", Integer, nullable=False),  # +1 per save: a store notices another's writes
    Column("state", Text, nullable=False),  # the agent's shared state, JSON
    Column("bookkeeping", Text, nullable=False),  # the run loop's bookkeeping, JSON
    Column("notes", Text, nullable=False),  # the view's notes, a JSON list kept as given
    UniqueConstraint("owner", "id"),
    Index(None, "owner", "updated_at"),
)

messages = Table(
    "copilot_messages",
    metadata,
    Column[int]("thread_pk", ForeignKey(threads.c.pk, ondelete="CASCADE"), primary_key=True),  # its type: the thread's pk
    Column("message_key", String(ID_LENGTH), primary_key=True),  # the message id (see _changes.row_keys)
    Column("position", Integer, nullable=False),  # 0, 1, 2... in conversation order
    Column("digest", LargeBinary(16), nullable=False),  # of body: tells a changed message
    Column("body", Text, nullable=False),  # the AG-UI message, JSON
    # Its words folded for search (see _search); '' for what search does not read, or a writer older than 0002.
    Column("search_text", Text, nullable=False, server_default=""),
    # The person's rating of a reply, JSON {"rating": "good"|"bad", "comment": ...}; NULL: none (0003_feedback).
    Column("feedback", Text, nullable=True),
    Index(None, "thread_pk", "position"),
)

# Files people attached to their messages (0003): the bytes, kept apart from the messages that refer to them.
attachments = Table(
    "copilot_attachments",
    metadata,
    Column("pk", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("id", String(ID_LENGTH), nullable=False),  # random: what a message's part refers to
    Column("owner", String(ID_LENGTH), nullable=False),
    Column("thread_id", String(ID_LENGTH), nullable=True),  # NULL: uploaded, not sent yet
    Column("name", Text, nullable=False),
    Column("mime_type", String(ID_LENGTH), nullable=False),
    Column("size", Integer, nullable=False),
    Column("data", LargeBinary, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("id"),
    Index(None, "owner", "thread_id"),
    Index(None, "created_at"),
)

# Alembic's own table, kept by Alembic and not part of `metadata`: read to skip a run with nothing to do.
version_table = Table(VERSION_TABLE, MetaData(), Column("version_num", String(32), primary_key=True))

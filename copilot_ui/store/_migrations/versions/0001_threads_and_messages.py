"""Threads (one row each, per owner) and their messages (one row each, in order).

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "copilot_threads",
        sa.Column("pk", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("owner", sa.String(length=255), nullable=False),
        sa.Column("id", sa.String(length=255), nullable=False),
        sa.Column("agent", sa.String(length=255), nullable=False),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("auto_title", sa.Text(), nullable=False),
        sa.Column("search_title", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("archived", sa.Boolean(), nullable=False),
        sa.Column("message_count", sa.Integer(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("bookkeeping", sa.Text(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("pk", name="pk_copilot_threads"),
        sa.UniqueConstraint("owner", "id", name="uq_copilot_threads_owner_id"),
    )
    op.create_index("ix_copilot_threads_owner_updated_at", "copilot_threads", ["owner", "updated_at"])
    op.create_table(
        "copilot_messages",
        sa.Column("thread_pk", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("message_key", sa.String(length=255), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("digest", sa.LargeBinary(length=16), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["thread_pk"], ["copilot_threads.pk"], name="fk_copilot_messages_thread_pk_copilot_threads", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("thread_pk", "message_key", name="pk_copilot_messages"),
    )
    op.create_index("ix_copilot_messages_thread_pk_position", "copilot_messages", ["thread_pk", "position"])


def downgrade() -> None:
    op.drop_index("ix_copilot_messages_thread_pk_position", table_name="copilot_messages")
    op.drop_table("copilot_messages")
    op.drop_index("ix_copilot_threads_owner_updated_at", table_name="copilot_threads")
    op.drop_table("copilot_threads")

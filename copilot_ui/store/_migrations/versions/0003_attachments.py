"""Files people attach to their messages, in a table of their own (the messages refer to them by id).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "copilot_attachments",
        sa.Column("pk", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("id", sa.String(length=255), nullable=False),
        sa.Column("owner", sa.String(length=255), nullable=False),
        sa.Column("thread_id", sa.String(length=255), nullable=True),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("mime_type", sa.String(length=255), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("pk", name="pk_copilot_attachments"),
        sa.UniqueConstraint("id", name="uq_copilot_attachments_id"),
    )
    op.create_index("ix_copilot_attachments_owner_thread_id", "copilot_attachments", ["owner", "thread_id"])
    op.create_index("ix_copilot_attachments_created_at", "copilot_attachments", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_copilot_attachments_created_at", table_name="copilot_attachments")
    op.drop_index("ix_copilot_attachments_owner_thread_id", table_name="copilot_attachments")
    op.drop_table("copilot_attachments")
